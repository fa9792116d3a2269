"""Shortcut's ``hard`` kernel policy against the engine's hard bot (the turn's expectimax):
the same action at every step of many games and random positions, on two boards."""

from __future__ import annotations

import random

import pytest

from kernels.differential import half_bot, walk
from kernels.test_shortcut_kernel import any_state, kernel_of, odd_board  # noqa: F401


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", ["default", "odd"])
def test_hard_chooses_as_the_engine_bot_step_by_step(players: int, board: str,
                                                     odd_board: str) -> None:  # noqa: F811
    game, kernel = kernel_of(players, board=odd_board if board == "odd" else board)
    rng = random.Random(f"shortcut-hard{players}{board}")
    choose = half_bot(game, "hard")
    for index in range(20):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("hard", "hard")])


@pytest.mark.parametrize("board", ["default", "odd"])
def test_hard_chooses_as_the_engine_bot_from_any_state(board: str,
                                                       odd_board: str) -> None:  # noqa: F811
    for players in (2, 4):
        game, kernel = kernel_of(players, board=odd_board if board == "odd" else board)
        rng = random.Random(players + 10)
        for _ in range(30):
            walk(game, kernel, rng, policies=[("hard", "hard")], start=any_state(game, rng))


def test_hard_beats_medium_in_the_kernel() -> None:
    game, kernel = kernel_of(2)
    start = game.new_state().data
    wins = 0.0
    for seats, seat in ((["hard", "medium"], 0), (["medium", "hard"], 1)):
        result = kernel.playouts(start, seats, 2_000, 8)
        wins += sum(seat in result.winners_of(g) for g in range(2_000))
    assert wins / 4_000 > 0.5
