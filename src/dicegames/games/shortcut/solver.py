"""The exact solution of two-player Shortcut: each car maximising its chance to win.

Every decision is covered: the declaration (road, shortcut or push), each press or stop of a
shortcut turn and its destination, and the cell of a push. The two seats follow the same
rules, so the solution is seen from the car about to declare (the *mover*, on cell ``a``,
the other car on ``b``): ``win[a, b]`` is the mover's chance to win under optimal play by
both. A turn moves only the mover, so it ends on a cell ``c`` and the other car declares
next: the game is a cyclic race (a stuck shortcut or an overshooting road roll leaves a car
where it was, and the grey field leads back onto earlier road squares), solved by value
iteration, Gauss-Seidel over the table, until nothing changes by more than
:data:`TOLERANCE`. The game ends with probability one under any sensible play, so one
car's chance is one minus the other's. A shortcut turn of any number of presses is valued
exactly (see :mod:`.solver_core`, whose compiled loops do the work).

Supported: two players, the default board and any loaded board of at most :data:`LARGEST`
cells. Other player counts are refused with :class:`UnsolvedConfiguration` (each car would
need the others' cells too). Solutions are cached in memory and on disk
(:mod:`dicegames.core.solution_cache`), keyed by the board's cells and this code's version.
"""

from __future__ import annotations

import importlib.util
import time
import tracemalloc
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.core.errors import OptionError
from dicegames.games.shortcut.board import Board
from dicegames.games.shortcut.data import Phase, ShortcutData

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Table = npt.NDArray[np.float64]
    Codes = npt.NDArray[np.int16]

HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
"""Whether the solver can run (numpy is an optional dependency: ``pip install dicegames[fast]``)."""

LARGEST = 200
"""The most cells (start, road, grey and finish) a solved board may have. A sweep reads,
for every pair of cells, the mover's reach with the other car blocking its cell (about
``cells**3`` steps on a board that is mostly grey field), and the reach lists take
``grey cells x cells**2`` entries: the default board (44 cells) solves in 0.07 s; a board of
200 cells, 154 of them grey, in about 8 s and 52 MB, where a table the ``optimal`` bot builds
on demand stops being quick (docs/performance.md)."""

TOLERANCE = 1e-15
"""Value iteration stops when no chance moves by more than this."""

MAX_SWEEPS = 100_000
"""A safety cap on the sweeps (a board never needs this many)."""

SOURCES = ("solver.py", "solver_core.py", "board.py", "rules.py")
"""The modules the tables depend on: their text is part of the cache key."""


class UnsolvedConfiguration(OptionError):
    """A Shortcut configuration the exact solution does not cover (the message says why)."""


def supported(players: int, board: Board) -> str | None:
    """Why the solution does not cover this configuration, or None when it does."""
    if players != 2:
        return f"the exact solution covers two players, not {players}"
    if len(board.kinds) > LARGEST:
        return (f"the board has {len(board.kinds)} cells; the exact solution covers boards "
                f"of at most {LARGEST}")
    if not HAVE_NUMPY:
        return "the exact solution needs numpy (pip install dicegames[fast])"
    return None


@dataclass(frozen=True)
class BoardArrays:
    """A board as the compiled loops read it (see :mod:`.solver_core`)."""

    cells: int
    finish: int
    grey: Any
    greys: Any
    kidx: Any
    road_to: Any
    steps: Any
    nsteps: Any
    rstart: Any
    rcell: Any
    rdist: Any
    cap: int
    """The largest shortcut total that reaches more than a smaller one, plus 3: a policy's
    choice at this total stands for every larger one (:mod:`.solver_evaluate`)."""

    def tables(self) -> tuple[int, Any, Any, Any, Any, Any, Any, Any, Any]:
        """The board arguments of :func:`.solver_core.sweep` and its kin, in order."""
        return (self.finish, self.grey, self.kidx, self.road_to, self.steps, self.nsteps,
                self.rstart, self.rcell, self.rdist)

    def scratch(self) -> tuple[Any, Any]:
        """Two float arrays for a shortcut turn's values by total."""
        import numpy as np

        return np.zeros(self.cap + 1), np.zeros(self.cap + 1)


def board_arrays(board: Board) -> BoardArrays:
    """The board's arrays, reach lists included (every cell, every blocking grey cell)."""
    import numpy as np

    from dicegames.games.shortcut import solver_core

    n = len(board.kinds)
    grey = np.array([int(board.is_grey(c)) for c in range(n)], dtype=np.int64)
    greys = np.flatnonzero(grey).astype(np.int64)
    kidx = np.zeros(n, dtype=np.int64)
    kidx[greys] = np.arange(1, len(greys) + 1)
    road_to = np.full(n * 6, -1, dtype=np.int64)
    for cell in range(n):
        if not board.is_grey(cell) and cell != board.finish:
            for roll in range(1, 7):
                target = board.road_target(cell, roll)
                road_to[cell * 6 + roll - 1] = cell if target is None else target
    steps = np.zeros(n * 4, dtype=np.int64)
    nsteps = np.zeros(n, dtype=np.int64)
    for cell, targets in enumerate(board.steps):
        nsteps[cell] = len(targets)
        steps[cell * 4:cell * 4 + len(targets)] = targets
    blocks = len(greys) + 1
    rstart = np.zeros(blocks * n + 1, dtype=np.int64)
    queue, dist = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    size = solver_core.reach_lists(n, board.finish, grey, greys, steps, nsteps, rstart,
                                   empty, empty, queue, dist)
    rcell, rdist = np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.int32)
    solver_core.reach_lists(n, board.finish, grey, greys, steps, nsteps, rstart, rcell,
                            rdist, queue, dist)
    return BoardArrays(n, board.finish, grey, greys, kidx, road_to, steps, nsteps, rstart,
                       rcell, rdist, int(rdist.max(initial=0)) + 3)


@dataclass(frozen=True)
class Solution:
    """The solved two-player race on one board.

    Attributes:
        board: the board.
        win: ``win[a, b]``, the chance of the car about to declare on ``a`` (the other on
            ``b``) to win under optimal play by both; 0 where no such position exists.
        declare: ``declare[a, b]``, its best declaration (:data:`.solver_core.ROAD`,
            ``SHORTCUT``, ``PUSH``).
        push: ``push[a, b]``, its best push cell (``NONE`` where no push is legal).
        choose: ``choose[a, b, t]``, after a shortcut roll brings the total to ``t``:
            ``PRESS`` or the cell to stop on (the last column stands for every larger total).
        sweeps: value-iteration sweeps it took (0 when read from the disk cache).
        seconds: the time the solve took (0 when read from the cache).
        peak_bytes: the memory the solve allocated at its peak (numpy arrays included).
    """

    board: Board
    win: Table
    declare: Codes
    push: Codes
    choose: Codes
    sweeps: int
    seconds: float
    peak_bytes: int

    @property
    def value(self) -> float:
        """The first player's chance to win from the start under optimal play by both."""
        start = self.board.start
        return float(self.win[start, start])

    def chance(self, cars: tuple[int, ...], mover: int) -> float:
        """Seat ``mover``'s chance when it is about to declare, cars on ``cars``."""
        return float(self.win[cars[mover], cars[1 - mover]])

    def after_turn(self, cars: tuple[int, ...], mover: int, cell: int) -> float:
        """Seat ``mover``'s chance when its turn ends with its car on ``cell``."""
        if cell == self.board.finish:
            return 1.0
        return 1.0 - float(self.win[cars[1 - mover], cell])

    def decision(self, data: ShortcutData) -> tuple[str, int]:
        """The optimal decision at a decision of ``data``: ("declare", code),
        ("push", cell) or ("choose", PRESS or a cell)."""
        seat = data.player
        a, b = data.cars[seat], data.cars[1 - seat]
        if data.phase is Phase.DECLARE:
            return "declare", int(self.declare[a, b])
        if data.phase is Phase.PUSH_TO:
            return "push", int(self.push[a, b])
        total = min(sum(data.rolls), self.choose.shape[2] - 1)
        return "choose", int(self.choose[a, b, total])


def compute(board: Board) -> Solution:
    """Solve the two-player race on ``board`` (no cache; see :func:`solve`)."""
    import numpy as np

    from dicegames.games.shortcut import solver_core

    tracing = not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    began = time.perf_counter()
    arrays = board_arrays(board)
    n = arrays.cells
    win = np.full((n, n), 0.5)
    m, s = arrays.scratch()
    sweeps = 0
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        if solver_core.sweep(win, *arrays.tables(), m, s) <= TOLERANCE:
            break
    declare = np.zeros((n, n), dtype=np.int16)
    push = np.full((n, n), solver_core.NONE, dtype=np.int16)
    choose = np.zeros((n, n, arrays.cap + 1), dtype=np.int16)
    solver_core.extract(win, *arrays.tables(), m, s, declare, push, choose)
    seconds = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1]
    if tracing:
        tracemalloc.stop()
    for table in (win, declare, push, choose):
        table.setflags(write=False)
    return Solution(board, win, declare, push, choose, sweeps, seconds, peak)


def _key(board: Board) -> str:
    from dicegames.core import solution_cache

    version = solution_cache.code_version("dicegames.games.shortcut", SOURCES)
    return solution_cache.cache_name("shortcut", version, "two-players", repr(board.kinds),
                                     repr(board.road), repr(board.steps))


@lru_cache(maxsize=8)
def solve(board: Board) -> Solution:
    """The solution on ``board``: from memory, the disk cache, or computed (and stored)."""
    from dicegames.core import solution_cache

    name = _key(board)
    stored = solution_cache.load_arrays(name)
    n = len(board.kinds)
    if stored is not None and stored.get("win") is not None and stored["win"].shape == (n, n):
        return Solution(board, stored["win"], stored["declare"], stored["push"],
                        stored["choose"], 0, 0.0, 0)
    solution = compute(board)
    solution_cache.store_arrays(name, {"win": solution.win, "declare": solution.declare,
                                       "push": solution.push, "choose": solution.choose})
    return solution


def solution_for(game: Any) -> Solution:
    """The solution of a configured two-player Shortcut game.

    Raises:
        UnsolvedConfiguration: the configuration is not covered (:func:`supported` says why).
    """
    reason = supported(game.players, game.board)
    if reason is not None:
        raise UnsolvedConfiguration(f"Shortcut is not solved here: {reason}")
    return solve(game.board)


def solution_tables(game: Any) -> dict[str, Any] | None:
    """The ``solution`` part: the exact arrays of a covered game (see the layout in
    docs/rl.md), None for a configuration the solver does not cover."""
    import numpy as np

    if supported(game.players, game.board) is not None:
        return None
    solution = solve(game.board)
    board = solution.board
    value = solution.value
    return {"players": 2, "board": board.name, "cells": np.array(board.names),
            "start": board.start, "finish": board.finish, "value": value,
            "win": solution.win, "declare": solution.declare, "push": solution.push,
            "choose": solution.choose,
            "summary": f"the first player wins {value:.4%} under optimal play"}
