"""The kernel driver: every game's kernel on :class:`ArrayKernel`, named tables, the horizon."""

from __future__ import annotations

import threading

import pytest

import dicegames
from dicegames.core.array_kernel import NO_SEAT, ArrayKernel, horizon_start, horizon_step
from dicegames.core.kernel import GameKernel, kernel_class, kernel_for, to_list


def _kernels() -> list[GameKernel]:
    """The kernel of every registered game that has one, at its default player count."""
    found = []
    for spec in dicegames.games():
        if kernel_class(spec.id) is not None:
            kernel = kernel_for(dicegames.make(spec.id))
            assert kernel is not None, f"{spec.id}: its kernel refuses the default game"
            found.append(kernel)
    return found


KERNELS = _kernels()


def test_some_games_have_kernels() -> None:
    assert KERNELS


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.game_id)
def test_every_kernel_runs_on_the_driver_with_named_tables(kernel: GameKernel) -> None:
    """One driver for all: its tables are a NamedTuple (fields by name, not ``tabs[0][2]``)
    and each call gets scratch arrays of its own."""
    assert isinstance(kernel, ArrayKernel)
    assert hasattr(kernel.tabs, "_fields") and kernel.tabs._fields
    first, second = kernel.scratch(), kernel.scratch()
    if first is not None:
        assert first is not second
        assert all(a is not b for a, b in zip(first, second, strict=True))


def _walk(seat: int, turns: int, states: list[tuple[int, int]]) -> int:
    """How many states of ``(player, turn)`` the loop plays before the horizon stops it."""
    seen, left = horizon_start(states[0][0], states[0][1], seat, turns)
    for played, (player, turn) in enumerate(states):
        seen, left = horizon_step(player, turn, seat, seen, left)
        if left == 0:
            return played
    return len(states)


def test_the_horizon_stops_when_the_seat_begins_a_new_turn() -> None:
    # two seats alternating turns 1, 2, 3, ...: (player, turn), two states a turn
    states = [(t % 2, t) for t in range(1, 9) for _ in range(2)]
    assert _walk(NO_SEAT, 0, states) == len(states)  # no horizon: to the end
    assert _walk(0, 0, states) == 2  # seat 0's next turn (turn 2) begins at the third state
    assert _walk(0, 1, states) == 6  # ... and the one after (turn 4)
    assert _walk(1, 0, states) == 4  # seat 1 is playing turn 1: its next is turn 3
    assert _walk(1, 2, states) == 12


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.game_id)
def test_rollouts_in_several_threads_play_as_in_one(kernel: GameKernel) -> None:
    """The driver's scratch arrays are per call, and the compiled code releases the GIL:
    rollouts run at once in several threads play the very games one thread plays (they
    shared one scratch per kernel before)."""
    policy = next(name for name in kernel.policies if name != "random")
    seats = [policy] * kernel.game.players
    start = kernel.encode(kernel.game.new_state().data)
    expected = [to_list(kernel.rollout(start, seats, seed)) for seed in range(30)]
    failures: list[int] = []

    def roll_all() -> None:
        for seed in range(30):
            if to_list(kernel.rollout(start, seats, seed)) != expected[seed]:
                failures.append(seed)

    threads = [threading.Thread(target=roll_all) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
