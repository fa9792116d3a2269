"""Words for families (issue 25): squares named as the board names them, never by grid
notation (defect 13); the end screen's scores in words and why the winner won (defect 8);
the note where real dice are entered in Extra Meters (defect 11)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from dicegames.core.game import State
from dicegames.core.registry import configure, presenter_of
from dicegames.core.session import Session
from dicegames.games.monza.rules import MonzaRules
from dicegames.games.shortcut.rules import ShortcutRules
from dicegames.i18n import LANGUAGES, use

NOTATION = re.compile(r"\b[a-z]\d{1,2}\b")
"""A grid square or a circuit square in notation (``a12``, ``o22``)."""


def played(game_id: str, players: int, seed: int) -> Session:
    """A seeded random game played to its end."""
    session = Session(configure(game_id, players, {}), seed=seed)
    rng = random.Random(seed)
    state: State[Any, Any, Any] = session.state
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            session.apply(rng.choices([o for o, _ in outcomes],
                                      [float(p) for _, p in outcomes])[0])
        else:
            seat = state.current_players[0]
            session.apply(rng.choice(state.legal_actions(seat)), seat)
        state = session.state
    return session


@pytest.mark.parametrize("game_id", ["shortcut", "monza"])
def test_the_log_and_the_buttons_name_squares_as_the_board_does(game_id: str) -> None:
    session = played(game_id, 3, 5)
    presenter = session.presenter
    for lang in LANGUAGES:
        with use(lang):
            for index in range(len(session.moves)):
                for event in session.events_at(index):
                    assert NOTATION.search(event.description) is None, event.description
            for state in session.states[::7]:
                for seat in state.current_players if not state.is_chance else ():
                    for hint in presenter.action_hints(state, seat):
                        if game_id == "shortcut":  # Monza's buttons keep its printed names
                            assert NOTATION.search(hint["label"]) is None, hint["label"]


def test_shortcut_squares_are_road_squares_and_grey_squares_by_the_road() -> None:
    from dicegames.games.shortcut.render import where
    game = configure("shortcut", 2, {})
    assert isinstance(game, ShortcutRules)
    board = game.board
    assert where(board, board.cell("a12")) == "road square 1"
    assert where(board, board.cell("b6")) == "the grey square beside road square 7"
    assert where(board, board.cell("c7")) == "the grey square 2 steps from road square 6"
    with use("fr"):
        assert where(board, board.cell("a12")) == "la case 1 de la route"


def test_monza_squares_are_read_by_lane() -> None:
    from dicegames.games.monza.render import square_words
    game = configure("monza", 2, {})
    assert isinstance(game, MonzaRules)
    circuit = game.circuit
    outer = next(i for i, square in enumerate(circuit.squares) if square.name == "o22")
    assert square_words(circuit, outer) == "square 22 of the outer lane"
    with use("de"):
        assert square_words(circuit, outer) == "Feld 22 der Außenspur"


def test_shortcut_scores_are_steps_from_the_finish_in_words() -> None:
    session = played("shortcut", 2, 3)
    final, result = session.state, session.state.result
    presenter = session.presenter
    words = [presenter.describe_score(final, result, seat) for seat in range(2)]
    assert words[result.winners[0]] == "on the finish"
    loser = 1 - result.winners[0]
    assert words[loser] == f"{-int(result.scores[loser])} steps from the finish"
    assert "steps that car still had to go" in presenter.explain_result(final, result,
                                                                         ["Ann", "Ben"])


def test_monza_says_how_a_tie_was_broken() -> None:
    """Two cars reach the finish in the last round (this seed): the fewer dice win, and
    the end screen says so rather than ranking two equal scores 1st and 2nd unexplained."""
    session = played("monza", 6, 3)
    final, result = session.state, session.state.result
    data = final.data
    assert isinstance(final.game, MonzaRules)
    arrived = [s for s, car in enumerate(data.cars) if car in final.game.circuit.targets]
    assert len(arrived) == 2 and len(result.winners) == 1
    names = ["Mum", "Leo", "Ann", "Ben", "Cy", "Dan"]
    presenter = presenter_of(final.game)
    winner = result.winners[0]
    assert f"{names[winner]} wins by using the fewest dice" in presenter.explain_result(
        final, result, names)
    for seat in arrived:
        assert presenter.describe_score(final, result, seat).startswith("at the finish, ")


def test_extra_meters_notes_the_first_roll_rule_where_dice_are_entered() -> None:
    game = configure("extra-meters", 2, {})
    presenter = presenter_of(game)
    opening = game.new_state()
    assert "a 6 does not count" in presenter.dice_note(opening)
    later = opening.apply(3).apply("roll")
    assert later.is_chance and presenter.dice_note(later) == ""
    with use("it"):
        assert "il 6 non vale" in presenter.dice_note(opening)
