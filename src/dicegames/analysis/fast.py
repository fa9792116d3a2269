"""The simulator's kernel path: whole blocks of games played by a game's bulk kernel.

:func:`~dicegames.analysis.simulate.simulate` asks :func:`plan` whether every seat's bot
plays exactly like a policy of the game's kernel (:mod:`dicegames.core.kernel`); when so, it
plays its blocks with :func:`play_block` instead of the engine loop: the same rules, the same
bots' decisions, dice from the kernel's own generator. A block's games depend only on the
master seed and the block's first game, so the report is the same for any number of worker
processes, and the same with numba or without it (the kernel's plain-Python path gives the
same bits, only slower).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.core.kernel import BACKEND, kernel_for, to_list, why_not_compiled


@dataclass(frozen=True, slots=True)
class Plan:
    """How a simulation plays its games.

    Attributes:
        policies: the kernel policy of each player entry, or None for the engine loop.
        description: one phrase for the report, e.g. ``"compiled kernel (numba)"`` or
            ``"engine (bot 'search' has no kernel policy)"``.
    """

    policies: tuple[str, ...] | None
    description: str


def plan(game: Any, bots: Sequence[str], use_kernel: bool = True) -> Plan:
    """The kernel policies for ``bots`` (one per entry) when the kernel can play them all."""
    if not use_kernel:
        return Plan(None, "engine (kernel not asked for)")
    kernel = kernel_for(game)
    if kernel is None:
        return Plan(None, f"engine ({game.spec.id} has no bulk kernel for these options)")
    policies: list[str] = []
    for bot in bots:
        policy = kernel.policy_of(bot)
        if policy is None:
            return Plan(None, f"engine (bot {bot!r} has no kernel policy)")
        policies.append(policy)
    if BACKEND == "numba":
        return Plan(tuple(policies), "compiled kernel (numba)")
    return Plan(tuple(policies), f"kernel in plain Python ({why_not_compiled()})")


def block_seed(seed: int, start: int, shift: int) -> int:
    """The kernel seed of the games of one block (first game ``start``) at one seat shift."""
    digest = hashlib.blake2b(f"dicegames-kernel:{seed}:{start}:{shift}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(slots=True)
class BlockSums:
    """What a block of kernel games adds to the run's tally, per player entry."""

    wins: list[float]
    scores: list[float]
    turns: Counter[int]
    no_winner: int
    longest: int


def play_block(game: Any, policies: Sequence[str], seed: int, start: int, stop: int, *,
               rotate: bool) -> BlockSums:
    """Play games ``start`` to ``stop - 1`` with the kernel (entry ``j`` in seat ``(j + i) %
    n`` for game ``i`` when ``rotate``) and sum them per entry."""
    kernel = kernel_for(game)
    assert kernel is not None
    entries = game.players
    sums = BlockSums([0.0] * entries, [0.0] * entries, Counter(), 0, 0)
    first = game.new_state().data
    for shift in range(entries if rotate else 1):
        count = len(range(start + (shift - start) % entries, stop, entries)) if rotate \
            else stop - start
        if count == 0:
            continue
        entry_of_seat = [(seat - shift) % entries for seat in range(entries)]
        seat_policies = [policies[entry] for entry in entry_of_seat]
        result = kernel.playouts(first, seat_policies, count, block_seed(seed, start, shift))
        winners, scores = to_list(result.winners), to_list(result.scores)
        for g in range(count):
            row = winners[g * entries:(g + 1) * entries]
            won = sum(row)
            if won == 0:
                sums.no_winner += 1
            for seat in range(entries):
                entry = entry_of_seat[seat]
                if row[seat]:
                    sums.wins[entry] += 1.0 / won
                sums.scores[entry] += scores[g * entries + seat]
        sums.turns.update(to_list(result.turns))
        sums.longest = max([sums.longest, *to_list(result.moves)])
    return sums
