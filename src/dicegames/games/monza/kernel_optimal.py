"""Monza's ``optimal`` rule in the kernel: :func:`.optimal.optimal_policy`, float for float.

The engine's optimal bot values each (end, dice used from here) its move can still give by
the exact solution (:meth:`.solver.Solution.after_move`: a table read), keeps those within
:data:`.optimal.NEAR` of the best, takes the best of them by the ``medium`` key, then the
smallest (end, dice used), and steps towards it by the first legal step that still leads
there. :func:`optimal_step` reads the same tables (:func:`optimal_tables`: the solution's
``a``, ``b`` and ``f`` as one float array, and the push squares) and does the same float
operations, so it picks the engine's step to the last bit, in every state the engine's bot
decides in (the tables are read as the engine reads them, even in positions the solution
never reaches).
"""

from __future__ import annotations

from typing import Any

from dicegames.core.kernel import FloatArray, IntArray, array, float_array, njit_uncounted
from dicegames.games.monza.kernel_rules import (
    CARS,
    FINISHING,
    O_TARGET,
    PLAYER,
    PLAYERS,
    SQUARES,
    USED,
    _dice_code,
    _steps,
    ends_of,
    medium_key,
)

NEAR = 1e-12
"""Chances closer than this count as equal (:data:`.optimal.NEAR`; a test holds them equal)."""

F_WIDTH = 7
"""Columns of the solution's ``f`` table (dice used onto a target, 0 to 6)."""


def optimal_tables(game: Any) -> tuple[FloatArray, IntArray]:
    """The ``optimal`` policy's tables of a configured two-player game: the solution's
    ``a``, ``b`` (``S * S`` each, row-major) and ``f`` (``S * 7``) in one float array, and
    the push squares (:func:`.solver.push_squares`), read from the solutions' disk cache or
    solved now."""
    from dicegames.games.monza.solver import push_squares, solution_for

    solution = solution_for(game)
    solved = float_array([*solution.a.ravel().tolist(), *solution.b.ravel().tolist(),
                          *solution.f.ravel().tolist()])
    return solved, array(list(push_squares(solution.circuit)))


@njit_uncounted
def _after_move(s: IntArray, t: IntArray, solved: FloatArray, pushed: IntArray, seat: int,
                end: int, used: int) -> float:
    """:meth:`.solver.Solution.after_move`: seat 0's chance once ``seat`` ends its move on
    ``end`` having used ``used`` dice in the turn."""
    squares = t[SQUARES]
    size = squares + 1
    on_target = end >= 0 and t[t[O_TARGET] + end] == 1
    if seat == 1 and s[FINISHING] == 1:
        if not on_target:
            return 1.0
        red_used = s[CARS + s[PLAYERS]]
        return 0.0 if used < red_used else 0.5 if used == red_used else 1.0
    e = squares if end < 0 else end
    car = s[CARS + 1 - seat]
    other = squares if car < 0 else car
    if other == e and end >= 0 and not on_target:
        other = pushed[e]
    if seat == 0:
        if on_target:
            return solved[2 * size * size + other * F_WIDTH + used]
        return solved[size * size + e * size + other]
    return 0.0 if on_target else solved[other * size + e]


@njit_uncounted
def _mine(s: IntArray, t: IntArray, solved: FloatArray, pushed: IntArray, seat: int,
          end: int, used: int) -> float:
    """The mover's exact chance for an end (as :func:`.optimal.end_values`)."""
    red = _after_move(s, t, solved, pushed, seat, end, s[USED] + used)
    return red if seat == 0 else 1.0 - red


@njit_uncounted
def optimal_step(s: IntArray, t: IntArray, solved: FloatArray, pushed: IntArray,
                 legal: IntArray, stamps: IntArray, stack: IntArray, found: IntArray) -> int:
    """The optimal rule's step (:func:`.optimal.best_end`, then ``step_towards``)."""
    seat = s[PLAYER]
    here, dice = s[CARS + seat], _dice_code(s)
    count = ends_of(t, here, dice, stamps, stack, found)
    best = 0
    if count > 1:
        top = _mine(s, t, solved, pushed, seat, found[0], found[1])
        for index in range(1, count):
            top = max(top, _mine(s, t, solved, pushed, seat, found[3 * index],
                                 found[3 * index + 1]))
        floor = top - NEAR
        best = -1
        best_key = (0, 0, 0, 0)
        for index in range(count):
            end, used = found[3 * index], found[3 * index + 1]
            if _mine(s, t, solved, pushed, seat, end, used) < floor:
                continue
            key = medium_key(t, s, CARS, s[PLAYERS], seat, end, used)
            if best < 0 or key > best_key or (key == best_key and (
                    end < found[3 * best] or (end == found[3 * best]
                                              and used < found[3 * best + 1]))):
                best, best_key = index, key
    _steps(t, here, dice, legal, 0)
    return int(legal[found[3 * best + 2]])


__all__ = ["optimal_step", "optimal_tables"]
