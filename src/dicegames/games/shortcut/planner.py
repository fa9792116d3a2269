"""The one-car race solved exactly: what the bots know about a board.

:class:`Planner` solves the one-car race on a board (other cars ignored) by value iteration:
the expected number of turns to the finish from every cell under the best choice of
``road``, ``push`` and ``shortcut`` (with the best press/stop rule and destination), and from
that policy the distribution of the number of turns each cell still needs. Boards are small
(about 50 cells), so this takes a fraction of a second, once per board.

The ``hard`` bot (:mod:`.heuristics`) values the end of a turn with these distributions.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dicegames.games.shortcut.board import Board
from dicegames.games.shortcut.data import Declaration

if TYPE_CHECKING:
    from dicegames.games.shortcut.rules import ShortcutRules

HORIZON = 200
"""Turns covered by the turn-count distributions (the rest of the tail is negligible)."""

UNREACHABLE = 10_000
"""Step count standing for "cannot reach the finish"."""


def _steps_to_finish(board: Board) -> tuple[int, ...]:
    """Fewest legal steps from each cell to the finish, ignoring cars (reverse BFS)."""
    incoming: list[list[int]] = [[] for _ in board.kinds]
    for cell, steps in enumerate(board.steps):
        for step in steps:
            incoming[step].append(cell)
    distance = [UNREACHABLE] * len(board.kinds)
    distance[board.finish] = 0
    frontier = deque((board.finish,))
    while frontier:
        here = frontier.popleft()
        for before in incoming[here]:
            if distance[before] == UNREACHABLE:
                distance[before] = distance[here] + 1
                frontier.append(before)
    return tuple(distance)


def _road_or_stay(board: Board, cell: int, roll: int) -> int:
    """Where a road roll takes a car (its own cell when the roll overshoots the finish)."""
    target = board.road_target(cell, roll)
    return cell if target is None else target


@dataclass(frozen=True, slots=True)
class Planner:
    """The solved one-car race on a board.

    Attributes:
        board: the board.
        steps_to_finish: fewest legal steps from each cell to the finish (no cars).
        rings: per cell, the cells at each exact step distance (index 0 is the cell itself).
        expected_turns: per cell, expected turns to the finish under the best solo play.
        choice: per cell, the best declaration.
        within: per cell, ``within[c][n]`` is the chance to reach the finish within ``n``
            more turns (``n`` = 0..HORIZON) under that play.
    """

    board: Board
    steps_to_finish: tuple[int, ...]
    rings: tuple[tuple[tuple[int, ...], ...], ...]
    expected_turns: tuple[float, ...]
    choice: tuple[Declaration, ...]
    within: tuple[tuple[float, ...], ...]


def solve(board: Board) -> Planner:
    """Solve the one-car race on ``board`` (value iteration, then the turn-count law)."""
    solo = _Solo(board)
    solo.iterate()
    choice: list[Declaration] = []
    kernels: list[dict[int, float]] = []
    for cell in range(len(board.kinds)):
        if not solo.live(cell):
            choice.append(Declaration.SHORTCUT)
            kernels.append({} if cell == board.finish else {cell: 1.0})
            continue
        found = solo.options(cell)
        best = min(found, key=lambda d: (found[d], list(Declaration).index(d)))
        choice.append(best)
        kernels.append(solo.kernel(cell, best))
    within = _turn_law(range(len(board.kinds)), board.finish, kernels)
    return Planner(board, solo.steps, solo.rings, tuple(solo.value), tuple(choice), within)


class _Solo:
    """Value iteration for one car alone: expected turns to the finish from every cell."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.steps = _steps_to_finish(board)
        rings = []
        for cell in range(len(board.kinds)):
            reach = board.reachable(cell, UNREACHABLE, ())
            ring: list[list[int]] = [[] for _ in range(max(reach.values()) + 1)]
            for other, distance in reach.items():
                ring[distance].append(other)
            rings.append(tuple(tuple(sorted(r)) for r in ring))
        self.rings = tuple(rings)
        self.value = [0.0 if cell == board.finish else
                      float(UNREACHABLE if self.steps[cell] == UNREACHABLE else board.road_length)
                      for cell in range(len(board.kinds))]

    def live(self, cell: int) -> bool:
        """True for a cell that is not the finish and from which the finish can be reached."""
        return cell != self.board.finish and self.steps[cell] < UNREACHABLE

    def iterate(self) -> None:
        """Sweep the Bellman equation, nearest cells first, until it no longer changes."""
        order = sorted((c for c in range(len(self.value)) if self.live(c)),
                       key=lambda c: self.steps[c])
        for _ in range(10_000):
            change = 0.0
            for cell in order:
                new = 1 + min(self.options(cell).values())
                change = max(change, abs(new - self.value[cell]))
                self.value[cell] = new
            if change < 1e-10:
                return

    def options(self, cell: int) -> dict[Declaration, float]:
        """Expected turns after this one, per declaration available on ``cell``."""
        board, value = self.board, self.value
        found: dict[Declaration, float] = {}
        if not board.is_grey(cell):
            found[Declaration.ROAD] = sum(
                value[_road_or_stay(board, cell, k)] for k in range(1, 7)) / 6
        found[Declaration.SHORTCUT] = self.shortcut(cell)[0]
        if board.steps[cell]:
            found[Declaration.PUSH] = min(value[s] for s in board.steps[cell])
        return found

    def shortcut(self, cell: int) -> tuple[float, list[float], list[int]]:
        """The shortcut from ``cell``: its expected value, the value of having rolled each
        total (pressing or stopping, whichever is better) and where a stop with it goes."""
        value, ring = self.value, self.rings[cell]
        deepest = len(ring) - 1
        best, where = value[cell], cell
        stop_value, stop_cell = [], []
        for distance in range(deepest + 1):
            for other in ring[distance]:
                if value[other] < best:
                    best, where = value[other], other
            stop_value.append(best)
            stop_cell.append(where)
        wait = [0.0] * (deepest + 4)
        for total in range(deepest + 3, 0, -1):
            stop = stop_value[min(total, deepest)]
            if total >= deepest:
                wait[total] = stop
                continue
            press = value[cell] / 2 + sum(wait[total + k] for k in (1, 2, 3)) / 6
            wait[total] = min(stop, press)
        return value[cell] / 2 + sum(wait[1:4]) / 6, wait, stop_cell

    def kernel(self, cell: int, declaration: Declaration) -> dict[int, float]:
        """Where one turn of the best solo play from ``cell`` ends, with probabilities."""
        board, value = self.board, self.value
        kernel: dict[int, float] = {}

        def add(target: int, p: float) -> None:
            kernel[target] = kernel.get(target, 0.0) + p

        if declaration is Declaration.ROAD:
            for k in range(1, 7):
                add(_road_or_stay(board, cell, k), 1 / 6)
            return kernel
        if declaration is Declaration.PUSH:
            add(min(board.steps[cell], key=lambda s: value[s]), 1.0)
            return kernel
        _, wait, stop_cell = self.shortcut(cell)
        deepest = len(stop_cell) - 1
        mass = [0.0] * (len(wait) + 3)
        add(cell, 0.5)
        for k in (1, 2, 3):
            mass[k] = 1 / 6
        for total in range(1, len(wait)):
            if not mass[total]:
                continue
            stop_here = stop_cell[min(total, deepest)]
            if total >= deepest or value[stop_here] <= wait[total] + 1e-12:
                add(stop_here, mass[total])
            else:
                add(cell, mass[total] / 2)
                for k in (1, 2, 3):
                    mass[total + k] += mass[total] / 6
        return kernel


def _turn_law(cells: range, finish: int,
              kernels: list[dict[int, float]]) -> tuple[tuple[float, ...], ...]:
    """``within[c][n]``: the chance to finish within ``n`` turns from ``c``."""
    columns = [[1.0 if cell == finish else 0.0 for cell in cells]]
    for _ in range(HORIZON):
        last = columns[-1]
        columns.append([1.0 if cell == finish else
                        sum(p * last[t] for t, p in kernels[cell].items()) for cell in cells])
    return tuple(tuple(column[cell] for column in columns) for cell in cells)


_PLANNERS: dict[int, tuple[Board, Planner]] = {}


def planner_for(game: ShortcutRules) -> Planner:
    """The solved solo race of ``game``'s board (computed once per board object)."""
    entry = _PLANNERS.get(id(game.board))
    if entry is None or entry[0] is not game.board:
        entry = (game.board, solve(game.board))
        _PLANNERS[id(game.board)] = entry
    return entry[1]
