"""The driver every game's bulk kernel runs on: compiled functions over (state, tables, scratch).

Each game's kernel (``games/<game>/kernel*.py``) turns its configured game into **tables**, a
``NamedTuple`` of arrays and ints (numba compiles ``tables.steps[cell]`` to the same load as
``steps[cell]`` on a loose array, and, in the functions compiled without numba's runtime,
counts no reference for either), names its state slots and phase codes as module-level ints
(compile-time constants to numba), and writes three compiled functions of fixed signatures:

- ``choose(state, tables, policy, rng, work) -> code``: the action code ``policy`` picks;
- ``run(state, tables, policies, dice, whims, work, stop_seat, stop_turns) -> moves``: play on
  in place until the game ends or the rollout horizon (:meth:`GameKernel.rollout`);
- ``playouts(start, tables, policies, dice, whims, (winners, scores, turns, moves))``: one
  whole game from ``start`` per row of the four result arrays.

plus ``work(tables)``, the scratch arrays ``choose`` and ``run`` need (allocated by the caller,
so that the loops allocate nothing). :class:`ArrayKernel` turns them into
:meth:`~GameKernel.choose`, :meth:`~GameKernel.playouts` and :meth:`~GameKernel.rollout`, with
the generators the protocol specifies (dice from ``seed``, the random policies from ``~seed``).

**The rollout horizon** (stop when ``stop_seat`` begins its ``stop_turns + 1``-th new turn) is
:func:`horizon_start` and :func:`horizon_step`, written once here and inlined into each loop
(no call per move, as the hand-written checks they replace); every game's move loop reads
them as::

    seen, left = horizon_start(s[PLAYER], s[TURN], stop_seat, stop_turns)
    while s[PHASE] != OVER and played < MAX_MOVES:
        seen, left = horizon_step(s[PLAYER], s[TURN], stop_seat, seen, left)
        if left == 0:
            break
        ...  # one chance outcome or decision
        played += 1

The loop itself stays in each game's module: a compiled function that takes another compiled
function (as an argument or through a closure) is keyed in numba's disk cache by that
function's address, so it would be compiled again in every process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from dicegames.core.kernel import (
    GameKernel,
    IntArray,
    Playouts,
    array,
    copy,
    njit_inline,
    seed_rng,
    zeros,
)

NO_SEAT = -1
"""``stop_seat`` of a loop with no horizon: play to the end of the game."""


def no_work(tabs: Any) -> None:
    """The scratch of a kernel whose compiled functions need none (numba takes ``None``)."""
    return None


@njit_inline
def horizon_start(player: int, turn: int, stop_seat: int, stop_turns: int) -> tuple[int, int]:
    """The horizon at the loop's first state: ``(seen, left)``.

    ``seen`` is the turn number of ``stop_seat``'s turn in progress (-1 when it is not that
    seat's turn), ``left`` the new turns of ``stop_seat`` still to begin before the horizon,
    counting the one that reaches it.
    """
    return (turn if player == stop_seat else -1), stop_turns + 1


@njit_inline
def horizon_step(player: int, turn: int, stop_seat: int, seen: int,
                 left: int) -> tuple[int, int]:
    """The horizon after a move: ``(seen, left)``, ``left == 0`` once it is reached (a state
    where ``stop_seat`` is to play a turn other than ``seen``)."""
    if player == stop_seat and turn != seen:
        return turn, left - 1
    return seen, left


class ArrayKernel(GameKernel):
    """A :class:`GameKernel` whose bulk methods call the compiled functions above.

    Subclasses set ``tabs`` and ``players`` in ``__init__``, name their four compiled
    functions with ``staticmethod`` class attributes (``compiled_choose``, ``compiled_run``,
    ``compiled_playouts``, ``compiled_work``: :func:`no_work` when they need no scratch), and
    override :meth:`tables_for` when some policies need tables of their own (built on first
    use).
    """

    # Each array kernel plays the game's random and medium bots; easy is the random one.
    policies: ClassVar[tuple[str, ...]] = ("random", "medium")
    bot_names: ClassVar[dict[str, str]] = {"easy": "random"}

    compiled_choose: ClassVar[Callable[..., int]]
    compiled_run: ClassVar[Callable[..., int]]
    compiled_playouts: ClassVar[Callable[..., None]]
    compiled_work: ClassVar[Callable[..., Any]]

    tabs: Any
    """The configured game's tables (a ``NamedTuple``), as the compiled functions take them."""

    players: int

    def tables_for(self, policies: Sequence[int]) -> Any:
        """The tables the compiled functions take when these policy codes play."""
        return self.tabs

    def scratch(self) -> Any:
        """Fresh scratch arrays for one call of the compiled functions (so that calls from
        several threads never share them)."""
        return self.compiled_work(self.tabs)

    def choose(self, values: IntArray, policy: str, rng: IntArray) -> int:
        """The code ``policy`` picks here."""
        code = self.check_policies([policy] * self.players)[0]
        return int(self.compiled_choose(values, self.tables_for([code]), code, rng,
                                        self.scratch()))

    def playouts(self, data: Any, seat_policies: Sequence[str], games: int,
                 seed: int) -> Playouts:
        """Play ``games`` games from ``data`` (see :meth:`GameKernel.playouts`)."""
        codes = self.check_policies(seat_policies)
        players = self.players
        winners, scores = zeros(games * players), zeros(games * players)
        turns, moves = zeros(games), zeros(games)
        self.compiled_playouts(self.encode(data), self.tables_for(codes), array(codes),
                               seed_rng(seed), seed_rng(~seed), (winners, scores, turns, moves))
        return Playouts(players, winners, scores, turns, moves)

    def rollout(self, values: IntArray, seat_policies: Sequence[str], seed: int,
                stop_seat: int = NO_SEAT, stop_turns: int = 0) -> IntArray:
        """Play on from ``values`` (see :meth:`GameKernel.rollout`)."""
        codes = self.check_policies(seat_policies)
        moved = copy(values)
        self.compiled_run(moved, self.tables_for(codes), array(codes), seed_rng(seed),
                          seed_rng(~seed), self.scratch(), stop_seat, stop_turns)
        return moved


__all__ = ["NO_SEAT", "ArrayKernel", "horizon_start", "horizon_step", "no_work"]
