"""Monza's ``optimal`` kernel policy against the engine's ``optimal`` bot (the exact
two-player solution): the same step (and free step of the last-colour variant) at every
decision, from the start and from random positions, both compulsions, with and without the
variant, on the default circuit and on a small crowded one."""

from __future__ import annotations

import random

import pytest

from dicegames.core.rollout import plan
from kernels.differential import half_bot, walk
from kernels.test_monza_kernel import any_state, kernel_of, small  # noqa: F401

pytest.importorskip("numpy")


@pytest.mark.parametrize(("circuit", "compulsion", "variant"), [
    ("default", "longest", False), ("default", "greedy", False), ("default", "longest", True),
    ("small", "longest", False), ("small", "longest", True), ("small", "greedy", True)])
def test_optimal_chooses_as_the_engine_bot_step_by_step(circuit: str, compulsion: str,
                                                        variant: bool,
                                                        small: str) -> None:  # noqa: F811
    game, kernel = kernel_of(2, circuit=small if circuit == "small" else circuit,
                             compulsion=compulsion, variant_last_colour=variant)
    rng = random.Random(f"monza-optimal{circuit}{compulsion}{variant}")
    choose = half_bot(game, "optimal")
    for index in range(12):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("optimal", "optimal"), ("hard", "hard")])
    for _ in range(12):
        walk(game, kernel, rng, policies=[("optimal", "optimal")],
             start=any_state(game, rng))


def test_the_kernel_plays_optimal_only_where_the_solution_covers_the_game() -> None:
    two, kernel = kernel_of(2)
    assert kernel.policy_of("optimal") == "optimal"
    assert plan(two, ["optimal", "medium"]).kernel is not None
    three, kernel3 = kernel_of(3)
    assert kernel3.policy_of("optimal") is None
    with pytest.raises(ValueError, match="two players"):
        kernel3.playouts(three.new_state().data, ["optimal", "medium", "medium"], 1, 0)


@pytest.mark.parametrize("variant", [False, True])
def test_kernel_playouts_of_optimal_against_itself_win_the_exact_share(variant: bool) -> None:
    from dicegames.games.monza.solver import exact_solution

    game, kernel = kernel_of(2, variant_last_colour=variant)
    solution = exact_solution(game)
    start = solution.index(-1)
    exact = float(solution.a[start, start])
    games = 20_000
    result = kernel.playouts(game.new_state().data, ["optimal", "optimal"], games, 5)
    first = sum(1.0 / len(w) for g in range(games) if 0 in (w := result.winners_of(g)))
    error = (exact * (1 - exact) / games) ** 0.5
    assert abs(first / games - exact) < 4.5 * error
