"""Two-player Shortcut's hints and reviews read the exact solution (the definition's
``estimator`` part): every figure is the solved race's, with no interval to speak of; three
players (unsolved) keep to rollouts."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

import dicegames
from dicegames.analysis.anytime import HintJob, hint_within
from dicegames.analysis.estimate import estimator_for
from dicegames.analysis.hint import hint
from dicegames.analysis.review import review
from dicegames.bots import make_bot
from dicegames.core.game import State
from dicegames.core.match import RandomDice, play
from dicegames.core.session import PlayerInfo, Session
from dicegames.games.shortcut.optimal import ExactShortcut
from dicegames.games.shortcut.solver import solve


def a_decision(players: int, seed: int) -> State[Any, Any, Any]:
    """A decision with a real choice, a few random moves into a game."""
    game = dicegames.make("shortcut", players=players)
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(400):
        if state.is_chance:
            state = state.apply(rng.choice(state.chance_outcomes())[0])
            continue
        seat = state.current_players[0]
        if len(state.legal_actions(seat)) > 1 and rng.random() < 0.2:
            return state
        state = state.apply(rng.choice(state.legal_actions(seat)), seat)
        if state.is_terminal:
            state = game.new_state()
    raise AssertionError("no decision found")


def test_the_estimator_part_is_exact_for_two_players_only() -> None:
    two = dicegames.make("shortcut")
    found = estimator_for(two)
    assert isinstance(found, ExactShortcut) and found.kind == "exact"
    assert found.position(two.new_state()).chances[0] == pytest.approx(
        solve(two.board).value, abs=1e-15)  # type: ignore[attr-defined]
    assert estimator_for(dicegames.make("shortcut", players=3)).kind == "rollouts"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_two_player_hint_gives_the_exact_chance_of_every_choice(seed: int) -> None:
    state = a_decision(2, seed)
    seat = state.current_players[0]
    answer = hint(state, rollouts=4)
    assert answer.exact and answer.seat == seat
    exact = ExactShortcut(state.game).choices(state, seat)
    shown = {c.move: c for c in answer.choices}
    assert shown.keys() == {str(action) for action in exact}
    for action, estimate in exact.items():
        choice = shown[str(action)]
        assert choice.win_chance == estimate.chances[seat]
        assert choice.low == choice.high == choice.win_chance and choice.rollouts == 0
    assert answer.move is not None
    assert answer.win_chance == answer.low == answer.high == shown[answer.move].win_chance


def test_a_hint_before_the_roll_is_the_exact_mean_of_the_faces() -> None:
    state = dicegames.from_position("shortcut", "a11/a9 1 shortcut - 7")
    answer = hint(state, rollouts=4)
    assert answer.exact and answer.move is None
    assert [c.move for c in answer.choices] == ["1", "2", "3", "4", "5", "6"]
    assert answer.win_chance == pytest.approx(
        math.fsum((c.probability or 0.0) * c.win_chance for c in answer.choices), abs=1e-12)
    assert answer.win_chance == ExactShortcut(state.game).position(state).chances[0]


def test_a_quick_hint_is_exact_and_complete() -> None:
    state = a_decision(2, 4)
    seat = state.current_players[0]
    found = hint_within(HintJob("shortcut", 2, dict(state.game.options),
                                state.game.position(state), seat, seed=1),
                        deadline=time.monotonic() + 30.0)
    assert found.exact and found.complete and found.rollouts == 0
    assert found.low == found.high == found.estimate
    exact = ExactShortcut(state.game).choices(state, seat)
    assert found.estimate == next(e.chances[seat] for a, e in exact.items()
                                  if str(a) == found.move)


def test_a_two_player_review_is_exact() -> None:
    game = dicegames.make("shortcut")
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], seed=1)
    bots = [make_bot(game, "medium", random.Random(seat)) for seat in (0, 1)]
    play(session, bots, RandomDice(random.Random(1)))
    result = review(session)
    assert result.kind == "exact" and result.moves
    exact = ExactShortcut(game)
    for move in result.moves:
        assert move.error == 0.0
        state = session.states[move.index]
        values = exact.choices(state, move.seat)
        best = max(e.chances[move.seat] for e in values.values())
        assert move.choices[0].chance == best
        assert move.cost == best - values[game.parse(state, move.played, move.seat)].chances[
            move.seat]
    assert result.start == exact.position(session.states[0]).chances
