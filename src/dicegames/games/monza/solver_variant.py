"""The exact solution of two-player Monza with ``variant_last_colour``.

After a move, the owner of the car of the last die's colour may advance that car one free
square (RULINGS.md). The last die's colour is the colour of the square the move ends on
(each step uses a die of the colour of the square stepped to), so a move is still a choice
of (end square, dice used) (:meth:`.Circuit.ends`), and the variant step that may follow is
decided by the red player when the end square is red, by the yellow player when it is
yellow. The free step can put a car on a target during the other player's turn, so the
dice counts of the round matter beyond the last turn. The tables (positions are square ids,
the start zone the last index ``n``; a shared win counts half, seat 0's chance):

- ``A[x, y]``: red (seat 0) to roll at the start of a round, red on ``x``, yellow on ``y``,
  nobody on a target;
- ``Y[x, y, k]``: yellow (seat 1) to roll, yellow on ``y`` off the targets, red on ``x``
  (a target too: then it is the last turn) having used ``k`` dice in the round (red's
  count decides a tie on the targets, and a free step of red onto a target in yellow's turn
  is compared with yellow's dice).

A yellow car standing on a target when its turn comes passes with 0 dice and the game ends
(:func:`_yellow_start`). Every value after a move (:func:`_after_red`, :func:`_after_yellow`)
takes the best variant step of its owner (or staying). ``A`` and ``Y`` are found together
by value iteration (Gauss-Seidel: red's moves over ``Y``, then yellow's over the new ``A``)
in compiled code (:func:`dicegames.core.kernel.njit`; plain Python on tiny circuits without
numba), over each position's distinct sets of move ends, until nothing changes by more than
:data:`.solver.TOLERANCE`.

Supported as the solver without the variant: both compulsions, any circuit of at most
:data:`.solver.LARGEST` playable positions. The tables are cached on disk
(:mod:`.solution_cache`) like the solution without the variant.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dicegames.core.kernel import njit
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import DICE, START
from dicegames.games.monza.rules import ROLLS
from dicegames.games.monza.solver import MAX_SWEEPS, TOLERANCE, push_squares

Array = Any
"""A numpy array (the compiled functions take and fill numpy arrays)."""

K = DICE + 1
"""Dice counts of a move: 0 to 6."""


@dataclass(frozen=True)
class CircuitArrays:
    """A circuit as the compiled functions read it (positions: squares, the start zone ``n``).

    Attributes:
        target: 1 on a target square. playable: 1 on a non-tyre square or the start zone.
        colour: each position's colour index (-1 for the start zone and tyres).
        succ, nsucc: the legal next squares (``width`` slots a position; the start zone's
            are the entries). pushed: :func:`.solver.push_squares`.
        stuck: each position's chance that no die fits. group_at: where each position's
            sets of ends start in ``group_p`` (one more entry at the end); group_p: each
            set's chance; option_at: where each set's ends start in ``ends`` (one more at
            the end); ends: (end, dice used) pairs, flat.
    """

    target: Array
    playable: Array
    colour: Array
    succ: Array
    nsucc: Array
    width: int
    pushed: Array
    stuck: Array
    group_at: Array
    group_p: Array
    option_at: Array
    ends: Array


def _moves(circuit: Circuit) -> tuple[Any, ...]:
    """(target, playable, colour, succ, nsucc, width, pushed) of a circuit (see
    :class:`CircuitArrays`)."""
    import numpy as np

    n = len(circuit.squares)
    positions = [*range(n), START]
    nexts = [circuit.next_squares(p) for p in positions]
    width = max(1, *(len(x) for x in nexts))
    succ = np.zeros((n + 1) * width, dtype=np.int64)
    for p, found in enumerate(nexts):
        succ[p * width:p * width + len(found)] = found
    return (np.array([int(p in circuit.targets) for p in positions], dtype=np.int64),
            np.array([int(p == START or not circuit.squares[p].is_tyre) for p in positions],
                     dtype=np.int64),
            np.array([-1 if p == START else circuit.colour_of[p] for p in positions],
                     dtype=np.int64),
            succ, np.array([len(x) for x in nexts], dtype=np.int64), width,
            np.array(push_squares(circuit), dtype=np.int64))


def circuit_arrays(circuit: Circuit, longest: bool) -> CircuitArrays:
    """The arrays of a circuit and compulsion: each position's rolls grouped by the set of
    (end, dice used) pairs they allow (most of the 462 rolls share a set)."""
    import numpy as np

    n = len(circuit.squares)
    positions = [*range(n), START]
    stuck = np.zeros(n + 1)
    group_at: list[int] = [0]
    group_p: list[float] = []
    option_at: list[int] = [0]
    ends: list[int] = []
    for p, position in enumerate(positions):
        if position != START and (position in circuit.targets
                                  or circuit.squares[position].is_tyre):
            group_at.append(len(group_p))
            continue
        groups: dict[tuple[tuple[int, int], ...], float] = {}
        for roll, chance in ROLLS:
            found_ends = circuit.ends(position, roll.counts, longest)
            if (position, 0) in found_ends:
                stuck[p] += float(chance)
                continue
            key = tuple(sorted((n if e == START else e, u) for e, u in found_ends))
            groups[key] = groups.get(key, 0.0) + float(chance)
        for key, weight in sorted(groups.items()):
            group_p.append(weight)
            for pair in key:
                ends.extend(pair)
            option_at.append(len(ends) // 2)
        group_at.append(len(group_p))
    target, playable, colour, succ, nsucc, width, pushed = _moves(circuit)
    return CircuitArrays(target, playable, colour, succ, nsucc, width, pushed, stuck,
                         np.array(group_at, dtype=np.int64), np.array(group_p),
                         np.array(option_at, dtype=np.int64), np.array(ends, dtype=np.int64))


# ------------------------------------------------------------------------ the equations


@njit
def _tie(k: int, u: int) -> float:
    """Red's chance when both cars stand on targets: red used ``k`` dice, yellow ``u``."""
    return 1.0 if k < u else 0.5 if k == u else 0.0


@njit
def _yellow_start(a: Array, y: Array, target: Array, x: int, w: int, k: int) -> float:  # noqa: PLR0917
    """Red's chance at the start of yellow's turn (red on ``x`` with ``k`` dice, yellow on
    ``w``): a yellow car on a target passes with 0 dice and the game ends."""
    if target[w] == 1:
        return _tie(k, 0) if target[x] == 1 else 0.0
    return float(y[x, w, k])


@njit
def _round_end(a: Array, target: Array, x: int, w: int, k: int, u: int) -> float:  # noqa: PLR0917
    """Red's chance at the end of yellow's turn (red on ``x`` with ``k`` dice, yellow on
    ``w`` with ``u``): the game ends when a car stands on a target, else a new round."""
    if target[x] == 1:
        return _tie(k, u) if target[w] == 1 else 1.0
    if target[w] == 1:
        return 0.0
    return float(a[x, w])


@njit
def _after_red(a: Array, y: Array, c: Any, e: int, u: int, w: int) -> float:  # noqa: PLR0917
    """Red's chance once red's move ends on ``e`` with ``u`` dice, yellow on ``w`` before
    any push, the variant step (of red when ``e`` is red, of yellow when it is yellow)
    taken at its owner's best."""
    target, colour, succ, nsucc, width, pushed = c
    n = len(target) - 1
    if w == e and e != n and target[e] == 0:
        w = pushed[e]
    value = _yellow_start(a, y, target, e, w, u)
    if colour[e] == 0:
        for i in range(nsucc[e]):
            j = succ[e * width + i]
            if j != w:
                value = max(value, _yellow_start(a, y, target, j, w, u))
    elif colour[e] == 1 and target[w] == 0:
        for i in range(nsucc[w]):
            j = succ[w * width + i]
            if j != e:
                value = min(value, _yellow_start(a, y, target, e, j, u))
    return value


@njit
def _after_yellow(a: Array, c: Any, e: int, u: int, x: int, k: int) -> float:  # noqa: PLR0917
    """Red's chance once yellow's move ends on ``e`` with ``u`` dice, red on ``x`` (before
    any push) with ``k`` dice in the round, the variant step taken at its owner's best."""
    target, colour, succ, nsucc, width, pushed = c
    n = len(target) - 1
    if x == e and e != n and target[e] == 0:
        x = pushed[e]
    value = _round_end(a, target, x, e, k, u)
    if colour[e] == 0 and target[x] == 0:
        for i in range(nsucc[x]):
            j = succ[x * width + i]
            if j != e:
                value = max(value, _round_end(a, target, j, e, k, u))
    elif colour[e] == 1 and target[e] == 0:
        for i in range(nsucc[e]):
            j = succ[e * width + i]
            if j != x:
                value = min(value, _round_end(a, target, x, j, k, u))
    return value


@njit
def _sweep(a: Array, y: Array, c: Any, m: Any, r: Array, q: Array) -> float:  # noqa: PLR0917
    """One Gauss-Seidel sweep in place (``A`` from ``Y``, then ``Y`` from the new ``A``);
    the largest change. ``r`` and ``q`` are scratch: the values after red's and yellow's
    moves by (end, dice used) and the other car."""
    target, playable = c[0], m[0]
    stuck, group_at, group_p, option_at, ends = m[1], m[2], m[3], m[4], m[5]
    size = len(target)
    change = 0.0
    for e in range(size):
        if playable[e] == 1:
            for u in range(K):
                for w in range(size):
                    if playable[w] == 1 and target[w] == 0:
                        r[e, u, w] = _after_red(a, y, c, e, u, w)
    for x in range(size):
        if playable[x] == 0 or target[x] == 1:
            continue
        for w in range(size):
            if playable[w] == 0 or target[w] == 1:
                continue
            total = stuck[x] * y[x, w, 0]
            for g in range(group_at[x], group_at[x + 1]):
                best = -1.0
                for o in range(option_at[g], option_at[g + 1]):
                    best = max(best, r[ends[2 * o], ends[2 * o + 1], w])
                total += group_p[g] * best
            change = max(change, abs(total - a[x, w]))
            a[x, w] = total
    for e in range(size):
        if playable[e] == 1:
            for u in range(K):
                for x in range(size):
                    if playable[x] == 1:
                        for k in range(K):
                            q[e, u, x, k] = _after_yellow(a, c, e, u, x, k)
    for w in range(size):
        if playable[w] == 0 or target[w] == 1:
            continue
        for x in range(size):
            if playable[x] == 0:
                continue
            for k in range(K):
                total = stuck[w] * _round_end(a, target, x, w, k, 0)
                for g in range(group_at[w], group_at[w + 1]):
                    best = 2.0
                    for o in range(option_at[g], option_at[g + 1]):
                        best = min(best, q[ends[2 * o], ends[2 * o + 1], x, k])
                    total += group_p[g] * best
                change = max(change, abs(total - y[x, w, k]))
                y[x, w, k] = total
    return change


# ------------------------------------------------------------------------ the solution


@dataclass(frozen=True)
class VariantSolution:
    """The solved two-player race with ``variant_last_colour`` (see the module docstring):
    the same questions as :class:`.solver.Solution` answers, and the value of a variant step.

    Attributes:
        circuit: the circuit solved. longest: the compulsion (True for ``longest``).
        a: ``A[x, y]``; y: ``Y[x, y, k]`` (see the module docstring).
        sweeps: value-iteration sweeps used; seconds: the solve time (0 when read from disk).
    """

    circuit: Circuit
    longest: bool
    a: Array
    y: Array
    sweeps: int
    seconds: float

    def index(self, car: int) -> int:
        """A car's table index (the start zone is the last one)."""
        return len(self.circuit.squares) if car == START else car

    def _arrays(self) -> tuple[Any, ...]:
        return _equation_arrays(self.circuit)

    def after_move(self, cars: tuple[int, ...], mover: int, end: int, used: int, *,
                   finishing: bool, red_used: int) -> float:
        """Seat 0's chance once ``mover`` ends its move on ``end`` with ``used`` dice in the
        turn, the variant step that follows played at its owner's best (``red_used``: red's
        dice in the round; ``finishing`` is implied by the cars)."""
        e = self.index(end)
        if mover == 0:
            return float(_after_red(self.a, self.y, self._arrays(), e, used,
                                    self.index(cars[1])))
        return float(_after_yellow(self.a, self._arrays(), e, used, self.index(cars[0]),
                                   red_used))

    def turn_end(self, cars: tuple[int, ...], mover: int, red_used: int,
                 yellow_used: int) -> float:
        """Seat 0's chance once ``mover``'s turn is over (after any variant step)."""
        target = self._arrays()[0]
        x, w = self.index(cars[0]), self.index(cars[1])
        if mover == 0:
            return float(_yellow_start(self.a, self.y, target, x, w, red_used))
        return float(_round_end(self.a, target, x, w, red_used, yellow_used))

    def turn_start(self, cars: tuple[int, ...], player: int, finishing: bool,
                   red_used: int) -> float:
        """Seat 0's chance before ``player`` rolls."""
        x, w = self.index(cars[0]), self.index(cars[1])
        if player == 0:
            return float(self.a[x, w])
        return float(_yellow_start(self.a, self.y, self._arrays()[0], x, w, red_used))


@lru_cache(maxsize=16)
def _equation_arrays(circuit: Circuit) -> tuple[Any, ...]:
    """(target, colour, succ, nsucc, width, pushed) of a circuit, as the equations read them."""
    moves = _moves(circuit)
    return moves[:1] + moves[2:]


def compute(circuit: Circuit, longest: bool) -> VariantSolution:
    """Solve the race with the variant now (no cache): see the module docstring."""
    import numpy as np

    started = time.perf_counter()
    arrays = circuit_arrays(circuit, longest)
    size = len(circuit.squares) + 1
    c = (arrays.target, arrays.colour, arrays.succ, arrays.nsucc, arrays.width, arrays.pushed)
    m = (arrays.playable, arrays.stuck, arrays.group_at, arrays.group_p, arrays.option_at,
         arrays.ends)
    a = np.full((size, size), 0.5)
    y = np.full((size, size, K), 0.5)
    r = np.zeros((size, K, size))
    q = np.zeros((size, K, size, K))
    sweeps = 0
    while True:
        sweeps += 1
        if sweeps > MAX_SWEEPS:
            raise RuntimeError(f"the Monza variant solution did not settle in {MAX_SWEEPS} "
                               f"sweeps")
        if _sweep(a, y, c, m, r, q) <= TOLERANCE:
            break
    return VariantSolution(circuit, longest, a, y, sweeps, time.perf_counter() - started)


@lru_cache(maxsize=8)
def solve(circuit: Circuit, longest: bool) -> VariantSolution:
    """The variant's solution for a circuit and compulsion: from memory, the disk cache, or
    computed now (and then stored)."""
    from dicegames.games.monza.solution_cache import load_variant, store_variant

    found = load_variant(circuit, longest)
    if found is not None:
        return found
    solution = compute(circuit, longest)
    store_variant(solution)
    return solution
