"""The kernel's ``race`` policy (the solved race of three and four runners) against the
engine's ``optimal`` bot: the same decision at every step, and the same win shares."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dicegames
from dicegames.core.game import Game
from dicegames.core.kernel import kernel_for
from dicegames.games.extra_meters.kernel import ExtraMetersKernel
from dicegames.games.extra_meters.races import solve_race
from kernels.differential import compare_shares, walk

pytest.importorskip("numpy")


def kernel_of(players: int, **options: object) -> tuple[Game[Any, Any, Any], ExtraMetersKernel]:
    game = dicegames.make("extra-meters", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, ExtraMetersKernel)
    return game, kernel


@pytest.mark.parametrize("players", [3, 4])
def test_the_race_policy_decides_as_the_optimal_bot(players: int) -> None:
    game, kernel = kernel_of(players, track_length=16)
    assert kernel.policy_of("optimal") == "race"
    rng = random.Random(players)
    for _ in range(80):
        walk(game, kernel, rng, policies=[("race", "optimal"), ("threshold", "medium")])


def test_the_bots_that_play_the_solution_get_the_race_policy() -> None:
    assert kernel_of(3)[1].policy_of("hard") == "race"  # three runners: hard is exact
    assert kernel_of(4)[1].policy_of("hard") == "exact"  # four: hard plays the duel
    assert kernel_of(4)[1].policy_of("optimal") == "race"
    assert kernel_of(3, finish="same_round")[1].policy_of("hard") == "exact"  # not solved
    assert kernel_of(3, finish="same_round")[1].policy_of("optimal") is None
    assert kernel_of(4, track_length=60)[1].policy_of("race") is None
    assert kernel_of(5)[1].policy_of("optimal") is None


def test_race_playouts_agree_with_engine_games() -> None:
    game, kernel = kernel_of(4, track_length=14)
    solve_race(4, 14)
    compare_shares(game, kernel, ["race", "threshold", "race", "random"],
                   ["optimal", "medium", "optimal", "easy"], kernel_n=20_000, engine_n=800,
                   seed=9)
