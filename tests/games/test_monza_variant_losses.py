"""Each Monza level's exact chance against ``optimal`` with ``variant_last_colour``.

The compiled chain of :mod:`dicegames.games.monza.evaluate_variant` with ``medium`` and
``hard`` as fixed policies (their steps from :mod:`.evaluate_choices`, their free step by the
``medium`` rule) against a chain built through the rules class over every reachable state of
tiny circuits, each seat playing the engine's own bot; against kernel games on a small
circuit; and :func:`.losses.exact_losses` reporting the variant's figures.
"""

from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from test_monza_solver import CIRCUITS, graph, make

from dicegames.bots import make_bot

pytest.importorskip("numpy")

LEVELS = ("optimal", "easy", "medium", "hard")
"""The listed two-player levels; ``easy`` steps uniformly among the legal actions."""


@functools.cache
def choices(name: str, compulsion: str, level: str) -> dict[int, int]:
    """The index of the legal action the engine's ``level`` bot takes at every decision
    (none for ``easy``: uniform)."""
    if level == "easy":
        return {}
    game = make(CIRCUITS[name], compulsion=compulsion, variant_last_colour=True)
    bot = make_bot(game, level, random.Random(0))
    states, _ = graph(name, compulsion, variant=True)
    found = {}
    for i, state in enumerate(states):
        if state.is_terminal or state.is_chance:
            continue
        seat = state.current_players[0]
        found[i] = list(state.legal_actions(seat)).index(bot.choose(state, seat))
    return found


def chain_value(name: str, compulsion: str, levels: tuple[str, str]) -> float:
    """Seat 0's chance from the start, seat ``i`` playing the engine's ``levels[i]`` bot,
    by iterating the chain over every reachable state (the deepest first) to its fixed
    point."""
    states, edges = graph(name, compulsion, variant=True)
    picked = [choices(name, compulsion, level) for level in levels]
    rows: list[list[tuple[int, float]]] = []
    for i, state in enumerate(states):
        row = edges[i]
        if row and not state.is_chance:
            seat = state.current_players[0]
            row = ([row[picked[seat][i]]] if levels[seat] != "easy"
                   else [(j, 1.0 / len(row)) for j, _ in row])
        rows.append(row)
    value = [s.result.returns()[0] if s.is_terminal else 0.5 for s in states]
    inner = [(i, rows[i]) for i in reversed(range(len(states))) if not states[i].is_terminal]
    for _ in range(10_000):
        change = 0.0
        for i, row in inner:
            new = math.fsum([value[j] * p for j, p in row]) if len(row) > 1 else value[row[0][0]]
            change = max(change, abs(new - value[i]))
            value[i] = new
        if change <= 1e-15:
            return value[0]
    raise AssertionError("the chain did not settle")


AGAINST_OPTIMAL = [(level, "optimal") for level in LEVELS[1:]] + [
    ("optimal", level) for level in LEVELS[1:]]
"""Each level against ``optimal`` in both seat orders (the strength table's column)."""


@pytest.mark.parametrize(("name", "compulsion", "pairs"), [
    ("variant", "longest", [*AGAINST_OPTIMAL, ("medium", "hard"), ("hard", "easy")]),
    ("variant", "greedy", [p for p in AGAINST_OPTIMAL if "easy" not in p])],
    ids=["longest", "greedy"])
def test_fixed_levels_with_the_variant_equal_the_chain_of_the_engine_bots(
        name: str, compulsion: str, pairs: list[tuple[str, str]]) -> None:
    from dicegames.games.monza import evaluate_variant, solver_variant

    game = make(CIRCUITS[name], compulsion=compulsion, variant_last_colour=True)
    solution = solver_variant.compute(game.circuit, game.longest_rule)
    codes = evaluate_variant.CODES
    for red, yellow in pairs:
        exact = evaluate_variant.red_chance(solution, codes[red], codes[yellow], game)
        assert exact == pytest.approx(chain_value(name, compulsion, (red, yellow)),
                                      abs=1e-12), (red, yellow)


def test_the_bots_disagree_on_the_tiny_circuit() -> None:
    """The brute-force comparison means something: the levels' chances differ."""
    from dicegames.games.monza import evaluate_variant, solver_variant

    game = make(CIRCUITS["variant"], variant_last_colour=True)
    solution = solver_variant.compute(game.circuit, game.longest_rule)
    found = evaluate_variant.against_optimal(solution, ["easy", "medium", "hard"], game)
    firsts = {round(first, 9) for first, _ in found.values()}
    assert len(firsts) == 3
    best = float(solution.a[-1, -1])
    for first, second in found.values():  # nobody beats optimal on average
        assert first <= best + 1e-12 and second <= 1.0 - best + 1e-12


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_exact_chances_agree_with_kernel_games(level: str, tmp_path: Path) -> None:
    """On a small circuit, kernel games of ``level`` against ``optimal`` (both seat
    orders) win the exact share within 4.5 standard errors."""
    import dicegames
    from dicegames.core.kernel import kernel_for
    from dicegames.games.monza import evaluate_variant, solver_variant
    from kernels.test_monza_kernel import SMALL_CIRCUIT

    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CIRCUIT), encoding="utf-8")
    game: Any = dicegames.make("monza", players=2, circuit=str(path), variant_last_colour=True)
    kernel = kernel_for(game)
    assert kernel is not None
    solution = solver_variant.solve(game.circuit, game.longest_rule)
    first, second = evaluate_variant.against_optimal(solution, [level], game)[level]
    games = 3_000
    for seats, exact, seat in (([level, "optimal"], first, 0),
                               (["optimal", level], second, 1)):
        result = kernel.playouts(game.new_state().data, seats, games, 11)
        won = sum(1.0 / len(w) for g in range(games) if seat in (w := result.winners_of(g)))
        error = (exact * (1 - exact) / games) ** 0.5
        assert abs(won / games - exact) < 4.5 * error, (seats, won / games, exact)


def test_exact_losses_cover_the_variant_and_keep_it_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dicegames.core import solution_cache
    from dicegames.games.monza import evaluate_variant, solver_variant
    from dicegames.games.monza.exact import exact
    from dicegames.games.monza.losses import exact_losses

    monkeypatch.setattr(solution_cache, "folder", lambda: tmp_path)
    game = make(CIRCUITS["variant"], variant_last_colour=True)
    losses = exact_losses(game)
    assert losses is not None and set(losses) == {"easy", "medium", "hard"}
    solution = solver_variant.solve(game.circuit, game.longest_rule)
    assert losses == evaluate_variant.against_optimal(solution, ["easy", "medium", "hard"],
                                                      game)
    plain = exact_losses(make(CIRCUITS["variant"]))  # the same circuit without the variant
    assert plain is not None and plain != losses
    assert len(list(tmp_path.glob("monza-losses-*.npz"))) == 2
    monkeypatch.setattr(evaluate_variant, "red_chance", None)  # read back: nothing evaluated
    assert exact_losses(game) == losses
    found = exact(game)  # the strength table's exact part
    assert found is not None and found["value"] == float(solution.a[-1, -1])
    assert found["levels"]["hard"] == {"first": losses["hard"][0], "second": losses["hard"][1]}
