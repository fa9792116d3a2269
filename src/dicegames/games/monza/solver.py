"""The exact solution of two-player Monza: each car maximising its chance to win.

Where a move ends is all that matters (see :mod:`.heuristics`): the legal steps of a car do
not depend on where the other car stands (cars pass each other freely), so a move is a
choice among the (end square, dice used) pairs :meth:`.Circuit.ends` lists for the car's
square and the roll. The value of a position is seat 0's chance to win, a shared win
counting half (the game is then zero-sum: seat 1's chance is one minus it). Three tables:

- ``A[x, y]``: red (seat 0) to roll, red at ``x``, yellow at ``y``, nobody on a target;
- ``B[x, y]``: yellow (seat 1) to roll in the same round, nobody on a target;
- ``F[y, k]``: yellow to roll in the last round, red having reached a target with ``k`` dice
  (yellow wins with fewer, shares with as many, loses otherwise): one turn, solved directly.

Positions are square ids, the start zone being the last index (``n``). Red ending on a
target leads to ``F[y, used]``; yellow ending on a target wins at once (red is not on one);
any other end pushes a car standing there back (the push square depends only on the end
square, see :func:`push_squares`). Pushes make the race cyclic, so ``A`` and ``B`` are found
by value iteration (Gauss-Seidel between the two tables), vectorised with numpy over the
other car's square and over the distinct option sets of each square (the 462 rolls give only
a few dozen different sets of ends per square), until nothing changes by more than
:data:`TOLERANCE`.

Supported: both compulsions, the default circuit and any loaded circuit with at most
:data:`LARGEST` playable positions. Refused with :class:`UnsolvedConfiguration`: other player
counts. With ``variant_last_colour`` (a free step of either car after every move, which can
put red on a target during yellow's turn, so the tables also need red's dice count of the
round) :func:`exact_solution` gives the solution of :mod:`.solver_variant`. Solutions are
cached in memory and on disk (:mod:`.solution_cache`), keyed by the options, the circuit and
this code's version.
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import DICE, START
from dicegames.games.monza.rules import ROLLS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from dicegames.games.monza.solver_variant import VariantSolution

    Table = npt.NDArray[np.float64]

HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
"""Whether the solver can run (numpy is an optional dependency: ``pip install dicegames[fast]``)."""

LARGEST = 300
"""The most playable positions (non-tyre squares plus the start zone) a solved circuit may
have. The tables hold every pair of positions, and one sweep reads each pair once per
distinct option set (a few dozen per square): the default circuit (about 70 positions) takes
well under a second, and 300 positions about 20 times as long per sweep with 16 times the
memory, which is where a table the bots build on demand stops being quick."""

TOLERANCE = 1e-15
"""Value iteration stops when no value moves by more than this."""

MAX_SWEEPS = 100_000
"""A guard: value iteration that has not settled after this many sweeps is an error."""


class UnsolvedConfiguration(ValueError):
    """The game's configuration is not one the exact solver covers (the message says why)."""


def supported(players: int, options: dict[str, Any] | Any, circuit: Circuit) -> str | None:
    """Why a configuration cannot be solved, or None when it can."""
    if players != 2:
        return f"the exact solution covers two players, not {players}"
    if not HAVE_NUMPY:
        return "the exact solution needs numpy (pip install 'dicegames[fast]')"
    size = playable(circuit)
    if size > LARGEST:
        return (f"the circuit has {size} playable positions; the exact solution covers at "
                f"most {LARGEST} (its tables hold every pair of positions and are computed "
                f"when first needed)")
    return None


def playable(circuit: Circuit) -> int:
    """Non-tyre squares plus the start zone."""
    return 1 + sum(not s.is_tyre for s in circuit.squares)


@lru_cache(maxsize=16)
def push_squares(circuit: Circuit) -> tuple[int, ...]:
    """Where a car standing on square ``e`` goes when the other car ends its move there:
    the nearest non-tyre square behind ``e`` in its lane (the only other car is on ``e``),
    or the start zone (index ``n``). Start and targets never push: they map to themselves."""
    n = len(circuit.squares)
    result: list[int] = []
    for e, square in enumerate(circuit.squares):
        if e in circuit.targets or square.is_tyre:
            result.append(e)
            continue
        lane = circuit.lanes[square.lane]
        behind = [j for j in reversed(lane[:square.index]) if not circuit.squares[j].is_tyre]
        result.append(behind[0] if behind else n)
    result.append(n)
    return tuple(result)


@dataclass(frozen=True)
class Solution:
    """The solved two-player race (read-only once built): see the module docstring.

    Attributes:
        circuit: the circuit solved.
        longest: the compulsion (True for ``longest``).
        a, b: seat 0's chance to win at the start of seat 0's and of seat 1's turn, indexed
            ``[red, yellow]`` by position (square id, the start zone last).
        f: ``f[y, k]``: seat 0's chance when seat 0 reached a target with ``k`` dice and
            seat 1 at ``y`` plays the last turn.
        sweeps: value-iteration sweeps used; seconds: the solve time (0 when read from disk).
    """

    circuit: Circuit
    longest: bool
    a: Table
    b: Table
    f: Table
    sweeps: int
    seconds: float

    def index(self, car: int) -> int:
        """A car's table index (the start zone is the last one)."""
        return len(self.circuit.squares) if car == START else car

    def after_move(self, cars: tuple[int, ...], mover: int, end: int, used: int, *,
                   finishing: bool, red_used: int) -> float:
        """Seat 0's chance once ``mover`` ends its move on ``end`` with ``used`` dice in the
        turn (``end`` = its square and ``used`` = 0 when it cannot move); ``finishing`` and
        ``red_used`` say whether red is on a target and with how many dice."""
        targets = self.circuit.targets
        on_target = end != START and end in targets
        if mover == 1 and finishing:  # the last turn: only a target with few dice counts
            if not on_target:
                return 1.0
            return 0.0 if used < red_used else 0.5 if used == red_used else 1.0
        pushed = push_squares(self.circuit)
        e = self.index(end)
        other = self.index(cars[1 - mover])
        if other == e and end != START and not on_target:
            other = pushed[e]
        if mover == 0:
            return float(self.f[other, used]) if on_target else float(self.b[e, other])
        return 0.0 if on_target else float(self.a[other, e])

    def turn_start(self, cars: tuple[int, ...], player: int, finishing: bool,
                   red_used: int) -> float:
        """Seat 0's chance before ``player`` rolls."""
        x, y = self.index(cars[0]), self.index(cars[1])
        if player == 0:
            return float(self.a[x, y])
        return float(self.f[y, red_used]) if finishing else float(self.b[x, y])


def option_sets(circuit: Circuit, longest: bool
                ) -> dict[int, tuple[float, list[tuple[float, tuple[int, ...], tuple[int, ...]]]]]:
    """For each playable position (table index): the chance no die fits, and the distinct
    sets of choices the other rolls give, each as (chance, target dice counts, other ends)."""
    n = len(circuit.squares)
    result: dict[int, tuple[float, list[tuple[float, tuple[int, ...], tuple[int, ...]]]]] = {}
    for x in [*range(n), START]:
        if x != START and (x in circuit.targets or circuit.squares[x].is_tyre):
            continue
        stuck = 0.0
        groups: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        for roll, p in ROLLS:
            ends = circuit.ends(x, roll.counts, longest)
            if (x, 0) in ends:
                stuck += float(p)
                continue
            to_target = tuple(sorted({u for e, u in ends if e in circuit.targets}))
            others = tuple(sorted({e for e, _ in ends if e not in circuit.targets}))
            key = (to_target, others)
            groups[key] = groups.get(key, 0.0) + float(p)
        result[n if x == START else x] = (
            stuck, [(p, t, o) for (t, o), p in sorted(groups.items())])
    return result


def compute(circuit: Circuit, longest: bool) -> Solution:
    """Solve the race now (no cache): see the module docstring."""
    import numpy as np

    started = time.perf_counter()
    size = len(circuit.squares) + 1
    sets = option_sets(circuit, longest)
    stuck, opt, starts, weights, pos_starts, row_ids = _layout(sets, size)
    pushed = np.array(push_squares(circuit), dtype=np.intp)
    diag = np.arange(size)

    f = last_turn(circuit, sets, size)
    a = np.full((size, size), 0.5)
    b = np.full((size, size), 0.5)
    zeros = np.zeros((DICE + 1, size))
    sweeps = 0
    while True:
        sweeps += 1
        if sweeps > MAX_SWEEPS:
            raise RuntimeError(f"the Monza solution did not settle in {MAX_SWEEPS} sweeps")
        # red moves: an end e off the targets reaches B[e, y], y pushed if it stood on e
        moved = b.copy()
        moved[diag, diag] = b[diag, pushed]
        table = np.vstack((moved, f.T))
        best = np.maximum.reduceat(table[opt], starts, axis=0) * weights
        new_a = np.zeros_like(a)
        new_a[row_ids] = np.add.reduceat(best, pos_starts, axis=0)
        new_a += stuck[:, None] * b
        # yellow moves: an end e off the targets reaches A[x, e], x pushed if it stood on e
        at = new_a.T
        moved = at.copy()
        moved[diag, diag] = at[diag, pushed]
        table = np.vstack((moved, zeros))  # a target: yellow wins
        best = np.minimum.reduceat(table[opt], starts, axis=0) * weights
        new_bt = np.zeros_like(b)
        new_bt[row_ids] = np.add.reduceat(best, pos_starts, axis=0)
        new_b = new_bt.T + stuck[None, :] * new_a
        change = max(float(np.abs(new_a - a).max()), float(np.abs(new_b - b).max()))
        a, b = new_a, np.ascontiguousarray(new_b)
        if change <= TOLERANCE:
            break
    return Solution(circuit, longest, a, b, f, sweeps, time.perf_counter() - started)


def _layout(sets: dict[int, tuple[float, list[tuple[float, tuple[int, ...], tuple[int, ...]]]]],
            size: int) -> tuple[Any, ...]:
    """The option sets as flat arrays for one vectorised sweep: each position's chance of
    being stuck; each option's row in the table of values after a move (an end square, or
    ``size + k`` for a target reached with k dice); where each set's options start, each
    set's chance, where each position's sets start, and the positions in that order."""
    import numpy as np

    rows = sorted(sets)
    stuck = np.zeros(size)
    group_p: list[float] = []
    group_start: list[int] = []
    option_row: list[int] = []
    position_start: list[int] = []
    for x in rows:
        stuck[x] = sets[x][0]
        position_start.append(len(group_p))
        assert sets[x][1], "every square has a way forward, so some roll moves the car"
        for p, to_target, others in sets[x][1]:
            group_start.append(len(option_row))
            group_p.append(p)
            option_row.extend(size + u for u in to_target)
            option_row.extend(others)
    return (stuck, np.array(option_row, dtype=np.intp), np.array(group_start, dtype=np.intp),
            np.array(group_p)[:, None], np.array(position_start, dtype=np.intp),
            np.array(rows, dtype=np.intp))


def last_turn(circuit: Circuit, sets: dict[int, tuple[float, list[tuple[float, tuple[int, ...],
              tuple[int, ...]]]]], size: int) -> Table:
    """``F[y, k]``: seat 0's chance when seat 1 at ``y`` plays the last turn against a red
    car on a target reached with ``k`` dice (seat 1 takes its fewest dice onto a target)."""
    import numpy as np

    f = np.ones((size, DICE + 1))
    for y, (_, groups) in sets.items():
        for k in range(DICE + 1):
            total = 0.0
            for p, to_target, _ in groups:
                if to_target:
                    fewest = to_target[0]
                    total += p * (1.0 if fewest < k else 0.5 if fewest == k else 0.0)
            f[y, k] = 1.0 - total
    return f


@lru_cache(maxsize=8)
def solve(circuit: Circuit, longest: bool) -> Solution:
    """The solution for a circuit and compulsion: from memory, the disk cache, or computed
    now (and then stored)."""
    from dicegames.games.monza.solution_cache import load, store

    found = load(circuit, longest)
    if found is not None:
        return found
    solution = compute(circuit, longest)
    store(solution)
    return solution


def solution_for(game: Any) -> Solution:
    """The solution of a configured Monza game without ``variant_last_colour``.

    Raises:
        UnsolvedConfiguration: the configuration is not covered (the message says why), or
            plays the variant (its tables are :func:`exact_solution`'s).
    """
    why = supported(game.players, game.options, game.circuit)
    if why is not None:
        raise UnsolvedConfiguration(why)
    if game.variant:
        raise UnsolvedConfiguration("with variant_last_colour the solution has other tables "
                                    "(solver_variant.VariantSolution)")
    return solve(game.circuit, game.longest_rule)


def exact_solution(game: Any) -> Solution | VariantSolution:
    """The solution of a configured Monza game, with or without ``variant_last_colour``
    (both answer :meth:`Solution.after_move` and :meth:`Solution.turn_start`).

    Raises:
        UnsolvedConfiguration: the configuration is not covered (the message says why).
    """
    if not game.variant:
        return solution_for(game)
    why = supported(game.players, game.options, game.circuit)
    if why is not None:
        raise UnsolvedConfiguration(why)
    from dicegames.games.monza import solver_variant

    return solver_variant.solve(game.circuit, game.longest_rule)
