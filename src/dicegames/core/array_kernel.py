"""The bulk half of a kernel whose compiled code takes (state, tables, scratch) arrays.

Shortcut's, Monza's and EXTRA!'s kernels share one shape: the configured game becomes a tuple
of table arrays (``tabs``), the compiled functions need a few scratch arrays (``work``), and
three compiled functions of fixed signatures do the bulk work:

- ``choose(state, tabs, policy, rng, work) -> code``;
- ``run(state, tabs, policies, dice, whims, work, stop_seat, stop_turns) -> moves``: play on
  in place until the game ends or the rollout horizon (:meth:`GameKernel.rollout`);
- ``playouts(start, tabs, policies, dice, whims, (winners, scores, turns, moves))``.

:class:`ArrayKernel` turns them into :meth:`~GameKernel.choose`,
:meth:`~GameKernel.playouts` and :meth:`~GameKernel.rollout`, with the generators the
protocol specifies (dice from ``seed``, the random policies from ``~seed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from dicegames.core.kernel import GameKernel, IntArray, Playouts, array, copy, seed_rng, zeros


class ArrayKernel(GameKernel):
    """A :class:`GameKernel` whose bulk methods call the three compiled functions above.

    Subclasses set ``tabs``, ``work`` and ``players`` in ``__init__`` and name their compiled
    functions with ``staticmethod`` class attributes.
    """

    # Each array kernel plays the game's random and medium bots; easy is the random one.
    policies: ClassVar[tuple[str, ...]] = ("random", "medium")
    bot_names: ClassVar[dict[str, str]] = {"easy": "random"}

    compiled_choose: ClassVar[Callable[..., int]]
    compiled_run: ClassVar[Callable[..., int]]
    compiled_playouts: ClassVar[Callable[..., None]]

    tabs: tuple[IntArray, ...]
    work: Any
    players: int

    def choose(self, values: IntArray, policy: str, rng: IntArray) -> int:
        """The code ``policy`` picks here."""
        return int(self.compiled_choose(values, self.tabs, self.policies.index(policy), rng,
                                        self.work))

    def playouts(self, data: Any, seat_policies: Sequence[str], games: int,
                 seed: int) -> Playouts:
        """Play ``games`` games from ``data`` (see :meth:`GameKernel.playouts`)."""
        policies = array(self.check_policies(seat_policies))
        players = self.players
        winners, scores = zeros(games * players), zeros(games * players)
        turns, moves = zeros(games), zeros(games)
        self.compiled_playouts(self.encode(data), self.tabs, policies, seed_rng(seed),
                               seed_rng(~seed), (winners, scores, turns, moves))
        return Playouts(players, winners, scores, turns, moves)

    def rollout(self, values: IntArray, seat_policies: Sequence[str], seed: int,
                stop_seat: int = -1, stop_turns: int = 0) -> IntArray:
        """Play on from ``values`` (see :meth:`GameKernel.rollout`)."""
        moved = copy(values)
        self.compiled_run(moved, self.tabs, array(self.check_policies(seat_policies)),
                          seed_rng(seed), seed_rng(~seed), self.work, stop_seat, stop_turns)
        return moved
