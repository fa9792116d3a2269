"""The exact two-player Monza solution (games/monza/solver.py) against brute force.

The brute force knows nothing of the solver: it walks every state the engine can reach
through the core API (legal actions, chance outcomes with their probabilities, the result)
on tiny circuits, and runs expectimax to its fixed point (pushes make the race cyclic), each
seat maximising its own chance to win, a shared win counting half.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.bots import bot_levels, make_bot
from dicegames.core import solution_cache as core_solution_cache
from dicegames.core.game import State
from dicegames.games.monza import solution_cache
from dicegames.games.monza.data import Phase
from dicegames.games.monza.optimal import ExactMonza, estimator
from dicegames.games.monza.solver import (
    LARGEST,
    UnsolvedConfiguration,
    compute,
    solution_for,
    solve,
)

pytest.importorskip("numpy")

SIMPLE = {"name": "two lanes", "lanes": [
    {"name": "a", "squares": [[0, 2, "red"], [2, 4, "yellow"], [4, 6, "green"]]},
    {"name": "b", "squares": [[1, 3, "blue"], [3, 5, "red"], [5, 7, "white"]]}],
    "entries": ["a1", "b1"], "targets": ["a3", "b3"]}
"""Choices between lanes, pushes back to a square and to the start zone."""

TYRED = {"name": "a tyre", "lanes": [
    {"name": "a", "squares": [[0, 2, "red"], [2, 4, "tyre"], [4, 6, "green"],
                              [6, 8, "purple"]]},
    {"name": "b", "squares": [[1, 3, "blue"], [3, 5, "red"], [5, 7, "white"],
                              [7, 9, "yellow"]]}],
    "entries": ["a1", "b1"], "targets": ["a4", "b4"]}
"""A push that skips a tyre, and a square whose only way on is a lane change."""

CIRCUITS = {"simple": SIMPLE, "tyre": TYRED}


def make(circuit: dict[str, Any], **options: Any) -> Any:
    """A two-player game on ``circuit`` (the rules take a circuit option as its JSON text)."""
    from dicegames.games.monza.rules import MonzaRules

    return MonzaRules(2, {"compulsion": "longest", "variant_last_colour": False,
                          "circuit": json.dumps(circuit), **options})


def normal(state: State[Any, Any, Any]) -> State[Any, Any, Any]:
    """The state without its turn counter and the turn's full roll (display only)."""
    data = dataclasses.replace(state.data, turn=1, roll=())
    return state.game.state_from(data)


@functools.cache
def graph(name: str, compulsion: str, variant: bool = False
          ) -> tuple[list[State[Any, Any, Any]], list[list[tuple[int, float]]]]:
    """Every state reachable from the start of circuit ``name`` (any action of either seat)
    and its successors: (state number, chance) after each outcome, (number, 1) after each
    legal action in the legal order; a finished game has none."""
    game = make(CIRCUITS[name], compulsion=compulsion, variant_last_colour=variant)
    start = normal(game.new_state())
    number = {start: 0}
    states = [start]
    edges: list[list[tuple[int, float]]] = []
    for state in states:  # grows while read: breadth first
        if state.is_terminal:
            nexts = []
        elif state.is_chance:
            nexts = [(normal(state.apply(o)), float(p)) for o, p in state.chance_outcomes()]
        else:
            nexts = [(normal(state.apply(a)), 1.0) for a in state.legal_actions()]
        row = []
        for after, p in nexts:
            if after not in number:
                number[after] = len(states)
                states.append(after)
            row.append((number[after], p))
        edges.append(row)
    return states, edges


@functools.cache
def brute_force(name: str, compulsion: str,
                variant: bool = False) -> dict[State[Any, Any, Any], float]:
    """Seat 0's chance at every reachable state of circuit ``name``, by expectimax iterated
    to its fixed point (Gauss-Seidel, the states deepest in a turn first)."""
    states, edges = graph(name, compulsion, variant)
    kinds = ["end" if state.is_terminal else "chance" if state.is_chance
             else "max" if state.current_players[0] == 0 else "min" for state in states]
    value = [s.result.returns()[0] if k == "end" else 0.5
             for s, k in zip(states, kinds, strict=True)]
    inner = [i for i in reversed(range(len(states))) if kinds[i] != "end"]
    for _ in range(10_000):
        change = 0.0
        for i in inner:
            row = edges[i]
            if kinds[i] == "chance":
                new = math.fsum(value[j] * p for j, p in row)
            elif kinds[i] == "max":
                new = max(value[j] for j, _ in row)
            else:
                new = min(value[j] for j, _ in row)
            change = max(change, abs(new - value[i]))
            value[i] = new
        if change <= 1e-15:
            return dict(zip(states, value, strict=True))
    raise AssertionError("brute force did not settle")


# The brute forces take from seconds to a minute each: `make check` keeps the smallest (its
# walk is shared with the optimal bot's test below), `make test` runs them all.
@pytest.mark.parametrize(("name", "compulsion"), [
    ("simple", "longest"), pytest.param("simple", "greedy", marks=pytest.mark.slow),
    pytest.param("tyre", "longest", marks=pytest.mark.slow)])
def test_the_solution_equals_brute_force_expectimax(name: str, compulsion: str) -> None:
    game = make(CIRCUITS[name], compulsion=compulsion)
    exact = brute_force(name, compulsion)
    judge = ExactMonza.__new__(ExactMonza)
    judge._solution = compute(game.circuit, game.longest_rule)
    checked = 0
    for state, value in exact.items():
        if state.is_terminal:
            continue
        assert judge.position(state).chances[0] == pytest.approx(value, abs=1e-12), state
        checked += 1
    assert checked > 1000


def test_the_optimal_bot_takes_a_best_step_everywhere() -> None:
    game = make(SIMPLE)
    exact = brute_force("simple", "longest")
    bot = make_bot(game, "optimal", random.Random(1))
    for state, value in exact.items():
        if state.is_terminal or state.is_chance:
            continue
        seat = state.current_players[0]
        chosen = normal(state.apply(bot.choose(state, seat)))
        mine = exact[chosen] if seat == 0 else 1.0 - exact[chosen]
        best = value if seat == 0 else 1.0 - value
        assert mine == pytest.approx(best, abs=1e-12)


def test_the_default_circuit_is_solved_and_offered() -> None:
    game = dicegames.make("monza", players=2)
    names = [level.name for level in bot_levels(game) if level.listed]
    assert names == ["easy", "medium", "hard", "optimal"]
    chances = estimator(game).position(game.new_state()).chances  # type: ignore[union-attr]
    assert 0.45 < chances[0] < 0.5 < chances[1]  # the second seat's edge
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("options", "reason"), [({"players": 3}, "two players")])
def test_unsupported_configurations_are_refused(options: dict[str, Any], reason: str) -> None:
    game = dicegames.make("monza", **options)
    assert estimator(game) is None
    assert "optimal" not in [level.name for level in bot_levels(game)]
    with pytest.raises(UnsolvedConfiguration, match=reason):
        solution_for(game)


def test_a_circuit_too_large_is_refused_with_the_limit() -> None:
    lanes = [{"name": name, "squares": [[2 * i + shift, 2 * i + shift + 2, colour]
                                        for i in range(120)]}
             for name, shift, colour in (("a", 0, "red"), ("b", 1, "blue"), ("c", 0, "green"))]
    # lanes a and c are not neighbours, so their boundaries may line up
    big = {"name": "long", "lanes": lanes, "entries": ["a1"], "targets": ["a120", "b120", "c120"]}
    game = make(big)
    with pytest.raises(UnsolvedConfiguration, match=f"at most {LARGEST}"):
        solution_for(game)


def test_solutions_are_cached_on_disk_by_circuit_and_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core_solution_cache, "folder", lambda: tmp_path)
    game = make(SIMPLE)
    solve.cache_clear()
    first = solution_for(game)
    files = list(tmp_path.glob("monza-*.npz"))
    assert len(files) == 1 and first.seconds > 0
    solve.cache_clear()
    again = solution_for(game)
    assert again.seconds == 0.0  # read back, not computed
    assert (again.a == first.a).all() and (again.f == first.f).all()
    assert solution_cache.key(game.circuit, True) != solution_cache.key(game.circuit, False)
    monkeypatch.setattr(solution_cache, "code_version", lambda: "another")
    assert solution_cache.key(game.circuit, True) != files[0].name
    solve.cache_clear()


def test_exact_policy_evaluation_agrees_with_the_solution() -> None:
    from dicegames.games.monza import evaluate

    solution = compute(make(SIMPLE).circuit, True)
    found = evaluate.policies(solution)
    start = solution.index(-1)
    both_optimal = evaluate.red_chance(solution, found["optimal"], found["optimal"])
    assert both_optimal == pytest.approx(solution.a[start, start], abs=1e-12)
    for name in ("easy", "medium"):  # a fixed policy never beats the optimal one
        assert evaluate.red_chance(solution, found[name], found["optimal"]) <= both_optimal
        assert evaluate.red_chance(solution, found["optimal"], found[name]) >= both_optimal


VARIANT_CIRCUIT = {"name": "variant", "lanes": [
    {"name": "a", "squares": [[0, 2, "red"], [2, 4, "yellow"], [4, 6, "red"],
                              [6, 8, "green"]]},
    {"name": "b", "squares": [[1, 3, "yellow"], [3, 5, "red"], [5, 7, "yellow"],
                              [7, 9, "blue"]]}],
    "entries": ["a1", "b1"], "targets": ["a4", "b4"]}
"""Red and yellow squares everywhere, next to the targets too: free steps of either car in
either turn, onto a target in the other player's turn, and ties on the dice counts."""

CIRCUITS["variant"] = VARIANT_CIRCUIT


@pytest.mark.slow
@pytest.mark.parametrize(("name", "compulsion"), [
    ("variant", "longest"), ("variant", "greedy"), ("tyre", "longest")])
def test_the_variant_solution_equals_brute_force_expectimax(name: str, compulsion: str) -> None:
    from dicegames.games.monza import solver_variant

    game = make(CIRCUITS[name], compulsion=compulsion, variant_last_colour=True)
    exact = brute_force(name, compulsion, True)
    judge = ExactMonza.__new__(ExactMonza)
    judge._solution = solver_variant.compute(game.circuit, game.longest_rule)
    checked = variant_steps = 0
    for state, value in exact.items():
        if state.is_terminal:
            continue
        assert judge.position(state).chances[0] == pytest.approx(value, abs=1e-12), state
        checked += 1
        variant_steps += state.data.phase is Phase.VARIANT
    assert checked > 1000 and variant_steps > 100


@pytest.mark.slow
def test_the_optimal_bot_takes_a_best_step_everywhere_with_the_variant() -> None:
    game = make(VARIANT_CIRCUIT, variant_last_colour=True)
    exact = brute_force("variant", "longest", True)
    bot = make_bot(game, "optimal", random.Random(1))
    for state, value in exact.items():
        if state.is_terminal or state.is_chance:
            continue
        seat = state.current_players[0]
        chosen = normal(state.apply(bot.choose(state, seat)))
        mine = exact[chosen] if seat == 0 else 1.0 - exact[chosen]
        best = value if seat == 0 else 1.0 - value
        assert mine == pytest.approx(best, abs=1e-12)


def chain_value(name: str, levels: tuple[str, str]) -> float:
    """Seat 0's chance from the start with the variant, each seat playing a fixed engine bot
    (``optimal``, or ``easy``: uniform among the legal actions), by iterating the chain over
    every reachable state through the rules class."""
    game = make(CIRCUITS[name], variant_last_colour=True)
    bots = [make_bot(game, level, random.Random(0)) for level in levels]
    start = normal(game.new_state())
    number = {start: 0}
    states = [start]
    edges: list[list[tuple[int, float]]] = []
    for state in states:
        if state.is_terminal:
            edges.append([])
            continue
        if state.is_chance:
            nexts = [(normal(state.apply(o)), float(p)) for o, p in state.chance_outcomes()]
        else:
            seat = state.current_players[0]
            legal = state.legal_actions(seat)
            if levels[seat] == "optimal":
                nexts = [(normal(state.apply(bots[seat].choose(state, seat), seat)), 1.0)]
            else:
                nexts = [(normal(state.apply(a, seat)), 1.0 / len(legal)) for a in legal]
        row = []
        for after, p in nexts:
            if after not in number:
                number[after] = len(states)
                states.append(after)
            row.append((number[after], p))
        edges.append(row)
    value = [s.result.returns()[0] if s.is_terminal else 0.5 for s in states]
    inner = [i for i in reversed(range(len(states))) if not states[i].is_terminal]
    for _ in range(10_000):
        change = 0.0
        for i in inner:
            new = math.fsum(value[j] * p for j, p in edges[i])
            change = max(change, abs(new - value[i]))
            value[i] = new
        if change <= 1e-15:
            return value[0]
    raise AssertionError("the chain did not settle")


@pytest.mark.slow
def test_optimal_against_random_steps_with_the_variant_is_evaluated_exactly() -> None:
    from dicegames.games.monza import evaluate_variant, solver_variant

    game = make(VARIANT_CIRCUIT, variant_last_colour=True)
    solution = solver_variant.compute(game.circuit, game.longest_rule)
    opt, rnd = evaluate_variant.OPTIMAL, evaluate_variant.RANDOM
    both = evaluate_variant.red_chance(solution, opt, opt)
    n = len(game.circuit.squares)
    assert both == pytest.approx(solution.a[n, n], abs=1e-12)
    for red, yellow, levels in ((opt, rnd, ("optimal", "easy")), (rnd, opt, ("easy", "optimal"))):
        exact = evaluate_variant.red_chance(solution, red, yellow)
        assert exact == pytest.approx(chain_value("variant", levels), abs=1e-12)
    luck = evaluate_variant.luck(solution)
    assert 0.5 < luck["mean"] < 1 and luck["skill"] == pytest.approx(2 * luck["mean"] - 1)
