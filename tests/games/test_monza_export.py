"""Monza's ``solution`` part (:mod:`dicegames.games.monza.export`): the tables
``dicegames solve monza`` writes, and the policy in them is the optimal bot's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import dicegames
from dicegames.bots import make_bot
from dicegames.core.registry import definition_of
from dicegames.games.monza.data import START, MonzaData, Phase, Step
from dicegames.games.monza.export import playable_positions, solution_tables
from dicegames.games.monza.rules import ROLLS
from dicegames.games.monza.solver import solution_for

pytest.importorskip("numpy")

SIMPLE = {"name": "two lanes", "lanes": [
    {"name": "a", "squares": [[0, 2, "red"], [2, 4, "yellow"], [4, 6, "green"]]},
    {"name": "b", "squares": [[1, 3, "blue"], [3, 5, "red"], [5, 7, "white"]]}],
    "entries": ["a1", "b1"], "targets": ["a3", "b3"]}
"""Choices between lanes, pushes back to a square and to the start zone (as in
test_monza_solver)."""

TYRED = {"name": "a tyre", "lanes": [
    {"name": "a", "squares": [[0, 2, "red"], [2, 4, "tyre"], [4, 6, "green"],
                              [6, 8, "purple"]]},
    {"name": "b", "squares": [[1, 3, "blue"], [3, 5, "red"], [5, 7, "white"],
                              [7, 9, "yellow"]]}],
    "entries": ["a1", "b1"], "targets": ["a4", "b4"]}
"""A push that skips a tyre, and a square whose only way on is a lane change."""


def make(circuit: dict[str, Any]) -> Any:
    """A two-player game on ``circuit`` (the rules take a circuit option as its JSON text)."""
    from dicegames.games.monza.rules import MonzaRules

    return MonzaRules(2, {"compulsion": "longest", "variant_last_colour": False,
                          "circuit": json.dumps(circuit)})


def test_monza_has_a_solution_part_for_two_players_only() -> None:
    game = dicegames.make("monza")
    part = definition_of(game).part("solution")
    assert part is not None
    assert part(dicegames.make("monza", players=3)) is None
    variant = part(dicegames.make("monza", variant_last_colour=True))
    assert variant is not None and "end" not in variant  # no move tables with the variant
    size = variant["a"].shape[0]
    assert variant["y"].shape == (size, size, 7)
    assert variant["value"] == variant["a"][size - 1, size - 1]


@pytest.mark.parametrize("circuit", [SIMPLE, TYRED])
def test_the_exported_policy_is_the_optimal_bots_move(circuit: dict[str, Any]) -> None:
    """At turn starts of random positions and rolls, the optimal bot's steps end where
    ``end`` says, with ``used`` dice; the values are the solver's."""
    game = make(circuit)
    tables = solution_tables(game)
    assert tables is not None
    solution = solution_for(game)
    n = len(game.circuit.squares)
    assert tables["value"] == solution.a[n, n]
    assert (tables["a"] == solution.a).all() and (tables["b"] == solution.b).all()
    assert tables["roll_p"].sum() == pytest.approx(1.0, abs=1e-12)
    bot = make_bot(game, "optimal", random.Random(0))
    places = playable_positions(solution)
    rng = random.Random(7)
    for _ in range(400):
        x, y = rng.choice(places), rng.choice(places)
        seat = rng.randrange(2)
        r = rng.randrange(len(ROLLS))
        roll = ROLLS[r][0].counts
        cars = tuple(START if c == n else c for c in (x, y))
        data = MonzaData(cars=cars, player=seat, phase=Phase.STEP, dice=roll, roll=roll,
                         round_used=(0, 0) if seat == 1 else ())
        steps = 0
        if (cars[seat], 0) in game.circuit.ends(cars[seat], roll, True):  # no die fits
            found = (tables["end"][seat, x, y, r], tables["used"][seat, x, y, r])
            assert found == ((x, y)[seat], 0)
            continue
        state = game.state_from(data)
        while state.data.phase is Phase.STEP and state.data.player == seat:
            action = bot.choose(state, seat)
            if not isinstance(action, Step):
                break
            state = state.apply(action, seat)
            steps += 1
        where = state.data.cars[seat]
        assert tables["end"][seat, x, y, r] == (n if where == START else where)
        assert tables["used"][seat, x, y, r] == steps


def test_hard_as_a_fixed_policy_moves_as_the_hard_bot() -> None:
    """The exact evaluation of ``hard`` (:func:`.evaluate.hard_policy`) ends each move where
    the engine's hard bot does; it never beats optimal play."""
    from dicegames.games.monza import evaluate

    game = make(TYRED)
    solution = solution_for(game)
    n = len(game.circuit.squares)
    hard = evaluate.hard_policy(game)
    bot = make_bot(game, "hard", random.Random(0))
    places = playable_positions(solution)
    rng = random.Random(11)
    for _ in range(300):
        seat = rng.randrange(2)
        cars = tuple(START if c == n else c for c in (rng.choice(places), rng.choice(places)))
        roll = ROLLS[rng.randrange(len(ROLLS))][0].counts
        if (cars[seat], 0) in game.circuit.ends(cars[seat], roll, True):
            continue  # no die fits: nothing to choose
        state = game.state_from(MonzaData(cars=cars, player=seat, phase=Phase.STEP,
                                          dice=roll, roll=roll,
                                          round_used=(0, 0) if seat == 1 else ()))
        steps = 0
        while state.data.phase is Phase.STEP and state.data.player == seat:
            action = bot.choose(state, seat)
            if not isinstance(action, Step):
                break
            state = state.apply(action, seat)
            steps += 1
        assert hard((cars[0], cars[1]), seat, roll, False, 0) == {
            (state.data.cars[seat], steps): 1.0}
    found = evaluate.policies(solution, game)
    best = evaluate.red_chance(solution, found["optimal"], found["optimal"])
    assert evaluate.red_chance(solution, found["hard"], found["optimal"]) <= best + 1e-12
    assert evaluate.red_chance(solution, found["optimal"], found["hard"]) >= best - 1e-12


def test_exact_losses_of_every_level_are_computed_once_and_kept(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from dicegames.core import solution_cache
    from dicegames.games.monza import evaluate
    from dicegames.games.monza.losses import exact_losses

    monkeypatch.setattr(solution_cache, "folder", lambda: tmp_path)
    game = make(SIMPLE)
    losses = exact_losses(game)
    assert losses is not None and set(losses) == {"easy", "medium", "hard"}
    solution = solution_for(game)
    found = evaluate.policies(solution, game)
    best = found["optimal"]
    first, second = losses["medium"]
    assert first == evaluate.red_chance(solution, found["medium"], best)
    assert second == 1.0 - evaluate.red_chance(solution, best, found["medium"])
    assert len(list(tmp_path.glob("monza-losses-*.npz"))) == 1
    monkeypatch.setattr(evaluate, "red_chance", None)  # read back: nothing evaluated again
    assert exact_losses(game) == losses
    assert exact_losses(dicegames.make("monza", players=3)) is None
