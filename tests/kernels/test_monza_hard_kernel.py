"""Monza's ``hard`` kernel policy against the engine's hard bot (the reply-weighted race
value): the same step at every decision of many games and random positions, every option,
the default and a small crowded circuit."""

from __future__ import annotations

import random

import pytest

from kernels.differential import half_bot, walk
from kernels.test_monza_kernel import OPTIONS, any_state, kernel_of, small  # noqa: F401


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize(("players", "circuit"), [(2, "default"), (3, "small"),
                                                  (5, "small")])
def test_hard_chooses_as_the_engine_bot_step_by_step(players: int, circuit: str,
                                                     options: dict[str, object],
                                                     small: str) -> None:  # noqa: F811
    game, kernel = kernel_of(players, circuit=small if circuit == "small" else circuit,
                             **options)
    rng = random.Random(f"monza-hard{players}{circuit}{options}")
    choose = half_bot(game, "hard")
    for index in range(4):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("hard", "hard"), ("medium", "medium")])


@pytest.mark.parametrize("circuit", ["default", "small"])
def test_hard_chooses_as_the_engine_bot_from_any_state(circuit: str,
                                                       small: str) -> None:  # noqa: F811
    for players in (2, 4):
        game, kernel = kernel_of(players, circuit=small if circuit == "small" else circuit)
        rng = random.Random(players + 20)
        for _ in range(6):
            walk(game, kernel, rng, policies=[("hard", "hard")], start=any_state(game, rng))
