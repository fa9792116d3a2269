"""The exact solution of the race of three or four runners (``finish=first``).

Each runner maximises its own chance to win (a max^n equilibrium, exact over the dice). A
turn starts with the mover on square ``a`` and the other runners, in turn order, on the
squares of the *rest*; ``W(a; rest)`` is the vector of every runner's winning chance (the
mover first, then in turn order). A turn ending on square ``x <= N`` hands the move to the
next runner: the state ``(next; ..., x)``, whose vector, reordered, is the mover's ``h(x)``;
passing the end wins at once (1, 0, ...).

As for two runners (see :mod:`.solver`), the turn is an optimal stopping problem in absolute
squares: with ``x`` the square stopping reaches and ``j`` the square a 6 would leave the
runner on,

    U(x, j) = h(x)                                        if stopping is chosen,
              (h(j) + sum_{f=1..5} U(x + f, j + 1)) / 6   if rolling is,

where the mover rolls when that raises **its own** chance by more than
:data:`.solver.MARGIN`; **a tie goes to stopping** (the rule every bot follows, written on
the rules page). The row of one rest serves every ``a``: each state ``(a; rest)`` adds its
row ``j = a + 2``, and states are filled by decreasing position total, so the whole solution
costs O(N^(P+1)) sums. Ties between runners cannot happen under ``finish=first`` (the first
runner past the end wins alone), so the chances of a state sum to 1; ``finish=same_round``
(shared wins) is not solved beyond two runners.

**Where it runs.** With numba the fill is compiled (:mod:`.kernel_race`); with numpy alone
it is vectorised over all the states of one position total (:func:`fill_numpy`): the same
float operations in the same order, so the same bits. Tables are cached in memory and on
disk (:mod:`dicegames.core.solution_cache`), keyed by the runners, the track and this code.
The default track of 50 squares: three runners in 0.1 s compiled, four in about 6 s and
265 MB (measured figures: docs/performance.md); :data:`LARGEST_TRACK` bounds each count.
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.core import solution_cache
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData
from dicegames.games.extra_meters.solver import HAVE_NUMPY, MARGIN

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)

LARGEST_TRACK = {3: 100, 4: 50}
"""The longest track solved for each number of runners: the tables hold ``(N+1)**P`` states
of ``P`` chances each (four runners on 50 squares: 216 MB of chances, 49 MB of decisions;
on 60 squares it would be 430 MB). Longer tracks, more runners and ``same_round`` play the
two-runner duel against the leader instead (:func:`.solver.optimal_policy`)."""

SOURCES = ("races.py", "kernel_race.py", "solver.py", "rules.py")
"""The modules the tables depend on: their text is part of the disk cache's key."""


class RaceSolution:
    """Every runner's winning chance at the start of every turn, and the stored decisions,
    for ``players`` (3 or 4) runners under ``finish=first``. Build it with :func:`solve_race`
    (cached); it is read-only once built.

    Attributes:
        players, track_length: the configuration.
        table: ``table[a, *rest, k]``: runner ``k``'s chance (turn order from the mover on
            ``a``) at the start of the mover's turn.
        decisions: ``decisions[*rest, j, x >> 3]`` bit ``x & 7``: roll again with the stop
            square ``x`` and the bust square ``j`` (packed, little bit order).
        seconds: the time the fill took (0 when read from the disk cache).
    """

    def __init__(self, players: int, track_length: int, table: npt.NDArray[np.float64],
                 decisions: npt.NDArray[np.uint8], seconds: float) -> None:
        self.players = players
        self.track_length = track_length
        self.table = table
        self.decisions = decisions
        self.seconds = seconds

    def _turn_order(self, data: ExtraMetersData) -> tuple[int, ...]:
        """The positions from the mover on, in turn order."""
        p, mover = self.players, data.player
        return tuple(data.positions[(mover + k) % p] for k in range(p))

    def chances(self, *positions: int) -> tuple[float, ...]:
        """The winning chances of the mover (on ``positions[0]``) and of the others in turn
        order, at the start of the mover's turn."""
        return tuple(self.table[positions].tolist())

    def _rolls_at(self, rest: tuple[int, ...], j: int, x: int) -> bool:
        """The stored decision: roll with the stop square ``x`` and the bust square ``j``."""
        return bool(self.decisions[(*rest, j, x >> 3)] >> (x & 7) & 1)

    def rolls(self, data: ExtraMetersData) -> bool:
        """Whether the runner to decide in ``data`` should roll again."""
        a, *rest = self._turn_order(data)
        square = a + sum(data.dice)
        if square > self.track_length:
            return False
        return self._rolls_at(tuple(rest), a + len(data.dice) + 1, square)

    def start_chances(self, data: ExtraMetersData) -> tuple[float, ...]:
        """Each seat's exact chance at the start of the mover's turn (before its opening
        roll), in seat order."""
        return self._by_seat(data.player, self.chances(*self._turn_order(data)))

    def decision_chances(self, data: ExtraMetersData) -> dict[Decision, tuple[float, ...]]:
        """Each seat's exact chance after ``roll`` and after ``stop`` at a decision, in seat
        order: the values :meth:`rolls` chooses by (rolling when it raises the mover's own
        chance by more than :data:`.solver.MARGIN`), so a hint or review shows what the
        exact bots play."""
        n, p = self.track_length, self.players
        a, *others = self._turn_order(data)
        rest = tuple(others)
        win = (1.0,) + (0.0,) * (p - 1)
        table = self.table

        def after(x: int) -> tuple[float, ...]:
            """h(x): the runners' chances (mover first) once the turn ends on x."""
            if x > n:
                return win
            values = table[(*rest, x)].tolist()
            return (values[-1], *values[:-1])

        memo: dict[tuple[int, int], tuple[float, ...]] = {}

        def roll(x: int, j: int) -> tuple[float, ...]:
            """Rolling on with the stop square x and the bust square j (a 6 ends on j)."""
            total = list(after(j))
            for face in range(1, 6):
                value = best(x + face, j + 1)
                for k in range(p):
                    total[k] += value[k]
            return tuple(t / 6 for t in total)

        def best(x: int, j: int) -> tuple[float, ...]:
            """U(x, j): the stored decision's value (stopping past the end wins)."""
            if x > n:
                return win
            key = (x, j)
            if key not in memo:
                memo[key] = roll(x, j) if self._rolls_at(rest, j, x) else after(x)
            return memo[key]

        square = a + sum(data.dice)
        bust = a + len(data.dice) + 1
        return {Decision.ROLL: self._by_seat(data.player, roll(square, bust)),
                Decision.STOP: self._by_seat(data.player, after(square))}

    def _by_seat(self, mover: Seat, chances: tuple[float, ...]) -> tuple[float, ...]:
        """Turn order (mover first) to seat order."""
        ordered = [0.0] * self.players
        for k, chance in enumerate(chances):
            ordered[(mover + k) % self.players] = chance
        return tuple(ordered)


def covers(length: int, finish: str, players: int) -> bool:
    """Whether this module solves a game's options (without solving anything): three or
    four runners, ``finish=first``, a track of at most :data:`LARGEST_TRACK` squares, and
    numpy (two runners are :mod:`.solver`'s)."""
    return (players in LARGEST_TRACK and finish == "first" and length <= LARGEST_TRACK[players]
            and HAVE_NUMPY)


def race_solution(length: int, finish: str, players: int) -> RaceSolution | None:
    """The exact solution for a game's options (solved now, read from the disk cache or
    from memory), or None where :func:`covers` says it is not solved."""
    return solve_race(players, length) if covers(length, finish, players) else None


@lru_cache(maxsize=2)
def solve_race(players: int, track_length: int) -> RaceSolution:
    """The exact solution of ``players`` runners on a track under ``finish=first``: from
    memory, the disk cache, or computed now (and then stored)."""
    import numpy as np

    n = track_length
    name = cache_key(players, n)
    stored = solution_cache.load_arrays(name)
    shape = (n + 1,) * players
    if stored is not None:
        table, decisions = stored.get("chances"), stored.get("decisions")
        if (table is not None and decisions is not None and table.shape == (*shape, players)
                and decisions.shape == (*shape[1:], n + 3, (n + 8) // 8)):
            return RaceSolution(players, n, table, decisions, 0.0)
    started = time.perf_counter()
    chances, decisions = fill(players, n)
    seconds = time.perf_counter() - started
    log.info("solved the race of %d runners on %d squares in %.1f s", players, n, seconds)
    table = chances.reshape((*shape, players))
    packed = decisions.reshape((*shape[1:], n + 3, (n + 8) // 8))
    solution_cache.store_arrays(name, {"chances": table, "decisions": packed,
                                       "seconds": np.float64(seconds)})
    return RaceSolution(players, n, table, packed, seconds)


def cache_key(players: int, track_length: int) -> str:
    """The disk cache's file name of a race: runners, track, finish and code version."""
    return solution_cache.cache_name(
        "extra-meters", solution_cache.code_version("dicegames.games.extra_meters", SOURCES),
        f"players={players}", f"track_length={track_length}", "finish=first")


def fill(players: int, n: int, compiled: bool | None = None
         ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
    """The flat tables (see :mod:`.kernel_race`): ``chances[(N+1)**P, P]`` and
    ``decisions[(N+1)**(P-1), N+3, (N+8)//8]``; compiled where numba is installed (or as
    ``compiled`` says), else with numpy."""
    import numpy as np

    from dicegames.core import kernel

    if compiled is None:
        compiled = bool(kernel.HAVE_NUMBA)
    squares = n + 1
    rests = squares ** (players - 1)
    sums = _rest_positions(players, n).sum(axis=1).astype(np.int64)
    chances = np.zeros((squares * rests, players))
    decisions = np.zeros((rests, n + 3, (n + 8) // 8), dtype=np.uint8)
    if compiled:
        from dicegames.games.extra_meters.kernel_race import fill_race

        rows = np.empty((rests, n + 6, players))
        fill_race(players, n, MARGIN, sums, chances, rows, decisions)
    else:
        fill_numpy(players, n, sums, chances, decisions)
    return chances, decisions


def _rest_positions(players: int, n: int) -> npt.NDArray[np.int64]:
    """The positions of every rest, ``[r, k]`` (the next runner first), as in
    :mod:`.kernel_race`."""
    import numpy as np

    grids = np.meshgrid(*([np.arange(n + 1)] * (players - 1)), indexing="ij")
    return np.stack([g.ravel() for g in grids], axis=1).astype(np.int64)


def fill_numpy(players: int, n: int, sums: npt.NDArray[np.int64],
               chances: npt.NDArray[np.float64], decisions: npt.NDArray[np.uint8]) -> None:
    """The fill of :mod:`.kernel_race` with numpy: one vector step per position total over
    all its states, the same float operations in the same order. Entries ``x <= a`` of a
    row are filled too, and never read (stopping reaches ``x >= j - 1 = a + 1``)."""
    import numpy as np

    squares = n + 1
    rests = squares ** (players - 1)
    tail = rests // squares
    win = np.zeros(players)
    win[0] = 1.0
    rows = np.empty((rests, n + 6, players))
    rows[...] = win
    order = [players - 1, *range(players - 1)]
    positions = np.arange(n + 1)
    faces = np.arange(1, 6)
    everyone = np.arange(rests)
    bases = (everyone // tail) * rests + (everyone % tail) * squares
    for total in range(players * n, -1, -1):
        movers_all = total - sums
        chosen = (movers_all >= 0) & (movers_all <= n)
        rs = everyone[chosen]
        movers = movers_all[chosen]
        count = len(rs)
        picked = np.arange(count)
        after = chances[bases[rs][:, None] + positions[None, :]][:, :, order]
        row = rows[rs]
        bust_squares = movers + 2
        bust = np.where((bust_squares <= n)[:, None],
                        after[picked, np.minimum(bust_squares, n)], win)
        roll = row[:, 1 : n + 2] + row[:, 2 : n + 3]
        roll += row[:, 3 : n + 4]
        roll += row[:, 4 : n + 5]
        roll += row[:, 5 : n + 6]
        roll = bust[:, None, :] + roll
        roll /= 6
        rolling = roll[:, :, 0] > after[:, :, 0] + MARGIN
        row[:, : n + 1] = np.where(rolling[:, :, None], roll, after)
        rows[rs] = row
        picks = row[picked[:, None], movers[:, None] + faces]
        chances[movers * rests + rs] = (
            picks[:, 0] + picks[:, 1] + picks[:, 2] + picks[:, 3] + picks[:, 4]) / 5
        rolling &= positions[None, :] > movers[:, None]
        decisions[rs, bust_squares] = np.packbits(rolling, axis=1, bitorder="little")


def exact_policy(state: Any, seat: Seat, rng: Any) -> Decision:
    """The decision of the exact race solution where it is solved (three or four runners,
    ``finish=first``, :data:`LARGEST_TRACK`), else the two-runner duel with the leading
    opponent (:func:`.solver.optimal_policy`)."""
    from dicegames.games.extra_meters.solver import optimal_policy

    data = state.data
    length, finish = state.game.options["track_length"], state.game.options["finish"]
    exact = race_solution(length, finish, len(data.positions))
    if exact is None:
        return optimal_policy(state, seat, rng)
    return Decision.ROLL if exact.rolls(data) else Decision.STOP
