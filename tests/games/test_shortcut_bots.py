"""Shortcut bots and the solved one-car race: known values, sure wins, the medium rule.

The one-car race has values that can be worked out by hand near the finish (one step away a
push finishes: 1 turn), and the hard bot's turn search must agree with exact probabilities
computed here independently (the chance to finish this turn from two squares out).
"""

from __future__ import annotations

import importlib.util
import random
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import dicegames
from dicegames.bots import make_bot
from dicegames.games.shortcut import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.heuristics import HardBot, TurnSearch, medium_policy
from dicegames.games.shortcut.planner import HORIZON, planner_for


def make(players: int = 2) -> Any:
    """A shortcut game (typed loosely: tests reach into its board)."""
    return dicegames.make("shortcut", players=players)


def at(game: Any, cars: list[str], *, phase: Phase = Phase.DECLARE,
       rolls: tuple[int, ...] = ()) -> Any:
    """A position with seat 0 to play and the cars on the named cells."""
    data = ShortcutData(tuple(game.board.cell(c) for c in cars), 0, 1, phase, rolls)
    return game.state_from(data)


def choose(bot: str, state: Any) -> str:
    """The notation of a bot's choice for seat 0."""
    return str(make_bot(state.game, bot, random.Random(0)).choose(state, 0))


# ----------------------------------------------------------------------- the solo race


def test_the_solo_race_near_the_finish() -> None:
    game = make()
    planner = planner_for(game)
    board = game.board
    assert planner.expected_turns[board.finish] == 0
    assert planner.expected_turns[board.cell("e12")] == pytest.approx(1.0)  # push
    assert planner.choice[board.cell("e12")] is Declaration.PUSH
    assert planner.expected_turns[board.cell("e11")] == pytest.approx(2.0)  # push, push
    assert planner.steps_to_finish[board.cell("a9")] == 8  # across: 4, then 4 road steps
    assert planner.steps_to_finish[board.start] == 12


def test_the_turn_count_laws_are_distributions() -> None:
    game = make()
    planner = planner_for(game)
    for cell, law in enumerate(planner.within):
        if cell == game.board.finish:
            assert law[0] == 1.0
            continue
        assert law[0] == 0.0
        assert all(a <= b + 1e-12 for a, b in pairwise(law))
        assert law[HORIZON] == pytest.approx(1.0, abs=1e-9)
        mean = sum(1 - p for p in law)
        assert mean == pytest.approx(planner.expected_turns[cell], rel=1e-6)


def test_the_solo_race_crosses_the_grey_field() -> None:
    game = make()
    planner = planner_for(game)
    board = game.board
    assert planner.choice[board.cell("c7")] is Declaration.PUSH
    assert planner.choice[board.cell("a9")] is Declaration.SHORTCUT
    assert planner.choice[board.cell("a2")] is Declaration.ROAD
    assert planner.expected_turns[board.start] == pytest.approx(8.4, abs=0.05)


# ----------------------------------------------------------------------- hard


def test_hard_takes_a_sure_win() -> None:
    game = make()
    assert choose("hard", at(game, ["e12", "e12"])) == "push"
    state = at(game, ["e10", "a13"], phase=Phase.CHOOSE, rolls=(3,))
    assert choose("hard", state) == "e13"


def test_hard_plays_safe_when_ahead_and_gambles_when_behind() -> None:
    game = make()
    assert choose("hard", at(game, ["e10", "a13"])) == "push"  # two sure pushes, far ahead
    assert choose("hard", at(game, ["e10", "e12"])) == "shortcut"  # the other wins next turn
    assert choose("hard", at(game, ["a11", "e12"])) == "shortcut"
    assert choose("medium", at(game, ["a11", "e12"])) == "road"


def test_hard_turn_search_is_exact_expectimax_over_the_turn() -> None:
    game = make()
    state = at(game, ["e11", "e11"])
    search = TurnSearch(game, state.data)
    board = game.board
    leaf_e12, leaf_e11 = search.leaf(board.cell("e12")), search.leaf(board.cell("e11"))
    assert search.leaf(board.finish) == 1.0
    # Shortcut from two out: a 4-6 stays (1/2); a 2 or 3 finishes (1/3); a 1 (1/6) then
    # either stops on e12 or presses: 1-3 finishes, 4-6 stays on e11.
    after_1 = max(leaf_e12, leaf_e11 / 2 + 1 / 2)
    expected = leaf_e11 / 2 + 1 / 3 + after_1 / 6
    assert search.action_value(Declaration.SHORTCUT) == pytest.approx(expected)
    # The road: a 2 finishes, a 1 goes to e12, 3-6 overshoot and stay.
    road = search.action_value(Declaration.ROAD)
    assert road == pytest.approx((1 + leaf_e12 + 4 * leaf_e11) / 6)
    assert search.action_value(Declaration.PUSH) == pytest.approx(leaf_e12)
    # The chance to win from two out, racing a car also two out that moves next: the law
    # of the other car under the best solo play is two pushes, so e12 is a sure win.
    assert leaf_e12 == pytest.approx(1.0)
    assert choose("hard", state) == "push"


def test_hard_leaf_is_the_race_formula() -> None:
    game = make(3)
    state = at(game, ["a9", "e5", "a13"])
    search = TurnSearch(game, state.data)
    laws = planner_for(game).within
    mine, first, second = (laws[c] for c in state.data.cars)
    expected = sum((mine[n] - mine[n - 1]) * (1 - first[n]) * (1 - second[n])
                   for n in range(1, HORIZON + 1))
    assert search.leaf(state.data.cars[0]) == pytest.approx(expected)
    assert 0 < expected < 1


def test_hard_never_lands_on_a_car_and_respects_blocking() -> None:
    game = make()
    state = at(game, ["a7", "c7"], phase=Phase.CHOOSE, rolls=(3,))
    choice = HardBot(random.Random(0)).choose(state, 0)
    assert choice in state.legal_actions()
    assert str(choice) != "c7"


def test_hard_turn_search_stays_small() -> None:
    """Each leaf is valued once and each shortcut total once: the search is tiny."""
    game = make(4)
    state = at(game, ["a9", "c7", "b8", "e5"])
    search = TurnSearch(game, state.data)
    search.action_value(Declaration.SHORTCUT)
    assert len(search.leaves) <= len(game.board.kinds)
    assert len(search.waits) <= search.deepest + 3


# ----------------------------------------------------------------------- medium


@pytest.mark.parametrize(("cars", "expected"), [
    (["e12", "a13"], "push"),  # one step from the finish
    (["e11", "a13"], "shortcut"),  # two from the finish
    (["a13", "a13"], "road"),  # far from the grey field
    (["a9", "a13"], "shortcut"),  # next to the field, crossing saves 16
    (["a5", "a13"], "shortcut"),  # bottom row of the field, saving 8
    (["a4", "a13"], "road"),  # past the field
    (["c7", "a13"], "push"),  # on the grey: push on
])
def test_medium_declarations(cars: list[str], expected: str) -> None:
    assert choose("medium", at(make(), cars)) == expected


def test_medium_presses_below_3_and_stops_on_the_best_cell() -> None:
    game = make()
    assert choose("medium", at(game, ["a9", "a13"], phase=Phase.CHOOSE, rolls=(2,))) == "press"
    assert choose("medium", at(game, ["a9", "a13"], phase=Phase.CHOOSE, rolls=(3,))) == "d9"
    assert choose("medium", at(game, ["a9", "a13"], phase=Phase.CHOOSE,
                               rolls=(3, 1))) == "e9"
    assert choose("medium", at(game, ["e12", "a13"], phase=Phase.CHOOSE,
                               rolls=(1,))) == "e13"
    state = at(game, ["a9", "a13"]).apply("push")
    assert medium_policy(state, 0, random.Random(0)) == Cell(game.board.cell("b9"), "b9")


def test_medium_on_the_grey_pushes_off_toward_the_finish() -> None:
    game = make()
    state = at(game, ["d9", "a13"]).apply("push")
    assert choose("medium", state) == "e9"


def test_every_bot_plays_whole_games_with_four_players() -> None:
    game = make(4)
    from dicegames.analysis import play_one

    for seed in range(3):
        rng = random.Random(seed)
        agents = [make_bot(game, level, rng) for level in ("hard", "medium", "easy", "hard")]
        outcome = play_one(game, agents, rng)
        assert len(outcome.winners) == 1


def test_press_is_never_a_destination() -> None:
    state = at(make(), ["a9", "a13"], phase=Phase.CHOOSE, rolls=(1,))
    assert state.legal_actions()[0] is Press.PRESS
    assert all(isinstance(a, Cell) for a in state.legal_actions()[1:])


# ----------------------------------------------------------------------- tuning strategies


def tuning() -> ModuleType:
    """scripts/shortcut_tuning.py, imported from its file (scripts/ is not a package)."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "shortcut_tuning.py"
    spec = importlib.util.spec_from_file_location("shortcut_tuning", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tuning_strategies_play_what_they_say() -> None:
    from dicegames.games.shortcut.heuristics import solo_policy
    road_policy, shortcut_policy = tuning().road_policy, tuning().shortcut_policy

    game = make()
    rng = random.Random(0)
    start = at(game, ["a9", "a13"])
    assert road_policy(start, 0, rng) is Declaration.ROAD
    assert shortcut_policy(start, 0, rng) is Declaration.SHORTCUT
    rolled = at(game, ["a9", "a13"], phase=Phase.CHOOSE, rolls=(3,))
    assert shortcut_policy(rolled, 0, rng) == medium_policy(rolled, 0, rng)
    assert str(solo_policy(at(game, ["e12", "a13"]), 0, rng)) == "push"
    planner = planner_for(game)
    # The solo search declares what the solved one-car race declares (checked off the grey).
    for name in ("a13", "a10", "a9", "a2", "e9", "e10", "e11"):
        state = at(game, [name, "a13"])
        assert solo_policy(state, 0, rng) is planner.choice[game.board.cell(name)], name


def test_the_tuning_table_prints(capsys: pytest.CaptureFixture[str]) -> None:
    script = tuning()
    duel, main = script.duel, script.main

    share, low, high, turns = duel("medium", "road", 10, 1)
    assert 0 <= low <= share <= high <= 1
    assert turns > 2
    main(["--games", "2"])
    out = capsys.readouterr().out
    assert out.count("\n") == 2 + 4
    assert "| `road` vs `shortcut` | 2 |" in out
