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

With ``variant_last_colour`` the tables are :mod:`.solver_variant`'s ``A`` and ``Y`` (one
float array), the value after a move takes the free step at its owner's best as
:func:`.solver_variant._after_red` and ``_after_yellow`` do (the same table reads, maxima
and minima), and :func:`optimal_free_step` decides the free step as
:func:`.optimal.best_variant_step`: the best chance, the first legal choice within
:data:`NEAR` of it.
"""

from __future__ import annotations

from typing import Any

from dicegames.core.kernel import FloatArray, IntArray, array, float_array, njit_uncounted
from dicegames.games.monza.kernel_rules import (
    CARS,
    FINISHING,
    LAST,
    O_COLOUR,
    O_NSUCC,
    O_SUCC,
    O_TARGET,
    PLAYER,
    PLAYERS,
    SQUARES,
    USED,
    VARIANT_ON,
    WIDTH,
    _dice_code,
    _free_next,
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
    ``a``, ``b`` (``S * S`` each, row-major) and ``f`` (``S * 7``) in one float array (with
    the variant: ``A`` then ``Y``, ``S * S * 7``), and the push squares
    (:func:`.solver.push_squares`), read from the solutions' disk cache or solved now."""
    from dicegames.games.monza.solver import exact_solution, push_squares
    from dicegames.games.monza.solver_variant import VariantSolution

    solution = exact_solution(game)
    if isinstance(solution, VariantSolution):
        parts = [solution.a, solution.y]
    else:
        parts = [solution.a, solution.b, solution.f]
    solved = float_array([value for part in parts for value in part.ravel().tolist()])
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


# ------------------------------------------------------------------ with the variant


@njit_uncounted
def _target(t: IntArray, p: int) -> bool:
    """True when position ``p`` (the start zone as ``squares``) is a target."""
    return bool(p < t[SQUARES] and t[t[O_TARGET] + p] == 1)


@njit_uncounted
def _tie(k: int, u: int) -> float:
    """:func:`.solver_variant._tie`: red's chance with both cars on targets."""
    return 1.0 if k < u else 0.5 if k == u else 0.0


@njit_uncounted
def _yellow_start(t: IntArray, solved: FloatArray, x: int, w: int, k: int) -> float:
    """:func:`.solver_variant._yellow_start` (positions as table indices)."""
    if _target(t, w):
        return _tie(k, 0) if _target(t, x) else 0.0
    size = t[SQUARES] + 1
    return solved[size * size + (x * size + w) * F_WIDTH + k]


@njit_uncounted
def _round_end(t: IntArray, solved: FloatArray, x: int, w: int, k: int, u: int) -> float:
    """:func:`.solver_variant._round_end` (positions as table indices)."""
    if _target(t, x):
        return _tie(k, u) if _target(t, w) else 1.0
    if _target(t, w):
        return 0.0
    return solved[x * (t[SQUARES] + 1) + w]


@njit_uncounted
def _after_red(t: IntArray, solved: FloatArray, pushed: IntArray, e: int, u: int,
               w: int) -> float:
    """:func:`.solver_variant._after_red`: red's move ends on ``e`` with ``u`` dice."""
    squares, width = t[SQUARES], t[WIDTH]
    succ, nsucc = t[O_SUCC], t[O_NSUCC]
    if w == e and e != squares and not _target(t, e):
        w = pushed[e]
    value = _yellow_start(t, solved, e, w, u)
    colour = t[t[O_COLOUR] + e]
    if colour == 0:
        for i in range(t[nsucc + e]):
            j = t[succ + e * width + i]
            if j != w:
                value = max(value, _yellow_start(t, solved, j, w, u))
    elif colour == 1 and not _target(t, w):
        for i in range(t[nsucc + w]):
            j = t[succ + w * width + i]
            if j != e:
                value = min(value, _yellow_start(t, solved, e, j, u))
    return value


@njit_uncounted
def _after_yellow(t: IntArray, solved: FloatArray, pushed: IntArray, e: int, u: int,
                  x: int, k: int) -> float:
    """:func:`.solver_variant._after_yellow`: yellow's move ends on ``e`` with ``u`` dice."""
    squares, width = t[SQUARES], t[WIDTH]
    succ, nsucc = t[O_SUCC], t[O_NSUCC]
    if x == e and e != squares and not _target(t, e):
        x = pushed[e]
    value = _round_end(t, solved, x, e, k, u)
    colour = t[t[O_COLOUR] + e]
    if colour == 0 and not _target(t, x):
        for i in range(t[nsucc + x]):
            j = t[succ + x * width + i]
            if j != e:
                value = max(value, _round_end(t, solved, j, e, k, u))
    elif colour == 1 and not _target(t, e):
        for i in range(t[nsucc + e]):
            j = t[succ + e * width + i]
            if j != x:
                value = min(value, _round_end(t, solved, x, j, k, u))
    return value


@njit_uncounted
def optimal_free_step(s: IntArray, t: IntArray, solved: FloatArray, legal: IntArray) -> int:
    """The optimal rule's free step (:func:`.optimal.best_variant_step`): of the advances
    (in the legal order) and stay, the first within :data:`NEAR` of the best chance."""
    squares = t[SQUARES]
    seat, mover = s[LAST], s[PLAYER]
    players = s[PLAYERS]
    red_used, yellow_used = s[CARS + players], s[CARS + players + 1]
    count = _free_next(s, t, seat, legal)
    x0, w0 = s[CARS], s[CARS + 1]
    top = 0.0
    for rank in range(2):  # the best chance, then the first choice near it
        for k in range(count + 1):
            x = squares if x0 < 0 else x0
            w = squares if w0 < 0 else w0
            if k < count:
                if seat == 0:
                    x = legal[k]
                else:
                    w = legal[k]
            if mover == 0:
                red = _yellow_start(t, solved, x, w, red_used)
            else:
                red = _round_end(t, solved, x, w, red_used, yellow_used)
            mine = red if seat == 0 else 1.0 - red
            if rank == 0:
                top = mine if k == 0 else max(top, mine)
            elif mine >= top - NEAR:
                return int(squares + legal[k] if k < count else 2 * squares)
    return int(2 * squares)


@njit_uncounted
def _mine(s: IntArray, t: IntArray, solved: FloatArray, pushed: IntArray, seat: int,
          end: int, used: int) -> float:
    """The mover's exact chance for an end (as :func:`.optimal.end_values`)."""
    if t[VARIANT_ON] == 1:
        squares = t[SQUARES]
        e = squares if end < 0 else end
        if seat == 0:
            car = s[CARS + 1]
            red = _after_red(t, solved, pushed, e, s[USED] + used,
                             squares if car < 0 else car)
        else:
            car = s[CARS]
            red = _after_yellow(t, solved, pushed, e, s[USED] + used,
                                squares if car < 0 else car, s[CARS + s[PLAYERS]])
    else:
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


__all__ = ["optimal_free_step", "optimal_step", "optimal_tables"]
