"""The simulator's kernel path: whole blocks of games played by a game's bulk kernel.

:func:`~dicegames.analysis.simulate.simulate` asks :func:`plan` (the rollout primitive's,
:func:`dicegames.core.rollout.plan`) whether every seat's bot plays exactly like a policy of
the game's kernel (:mod:`dicegames.core.kernel`); when so, it plays its blocks with
:func:`play_block`, through :func:`dicegames.core.rollout.playouts`: the same rules, the
same bots' decisions, dice from the kernel's own generator. A block's games depend only on
the master seed and the block's first game, so the report is the same for any number of
worker processes, and the same with numba or without it (the kernel's plain-Python path
gives the same bits, only slower).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.bots import bot_spec
from dicegames.core.kernel import to_list
from dicegames.core.rollout import Plan, plan, playouts

__all__ = ["BlockSums", "Plan", "block_seed", "plan", "play_block"]


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


def play_block(game: Any, bots: Sequence[str], seed: int, start: int, stop: int, *,
               rotate: bool) -> BlockSums:
    """Play games ``start`` to ``stop - 1`` with the kernel (entry ``j`` in seat ``(j + i) %
    n`` for game ``i`` when ``rotate``; ``bots`` one bot name per entry) and sum them per
    entry."""
    entries = game.players
    specs = [bot_spec(game, name) for name in bots]
    sums = BlockSums([0.0] * entries, [0.0] * entries, Counter(), 0, 0)
    first = game.new_state()
    for shift in range(entries if rotate else 1):
        count = len(range(start + (shift - start) % entries, stop, entries)) if rotate \
            else stop - start
        if count == 0:
            continue
        entry_of_seat = [(seat - shift) % entries for seat in range(entries)]
        seat_bots = [specs[entry] for entry in entry_of_seat]
        result = playouts(first, seat_bots, count, block_seed(seed, start, shift))
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
