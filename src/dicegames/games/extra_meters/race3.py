"""The exact solution of the three-runner race (``finish=first``), by dynamic programming.

Each runner maximises its own chance to win (a max^n equilibrium, exact over the dice). A
turn starts with the mover on square a and the next two runners, in turn order, on b and c;
``W(a; b, c)`` is the vector of the three runners' winning chances (mover, next, last).
A turn ending on square x <= N hands the move to the runner on b: the state (b; c, x),
whose vector, reordered, is the mover's ``h(x)``; passing the end wins at once (1, 0, 0).

As for two runners (see :mod:`.solver`), the turn is an optimal stopping problem in absolute
squares: with x the square stopping reaches and j the square a 6 would leave the runner on,

    U(x, j) = h(x)                                        if stopping is chosen,
              (h(j) + sum_{f=1..5} U(x + f, j + 1)) / 6   if rolling is,

where the mover rolls when that raises **its own** chance by more than :data:`MARGIN`;
**ties go to stopping** (the rule the bots follow too). The table of one (b, c) serves every
a, and each state (a; b, c) adds its row j = a + 2; states are filled by decreasing position
total, so the whole solution is O(N^4) sums: 0.5 s for the default 50 squares with numpy.
The roll/stop decisions are stored as bits (``hard`` decides with one lookup).

Ties between runners cannot happen under ``finish=first`` (the first runner past the end
wins alone), so the chances of a state sum to 1.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.solver import HAVE_NUMPY, MARGIN, optimal_policy

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

LARGEST_TRACK = 50
"""The longest track solved for three runners (the cost grows as N^4: 1.3 s at 50 squares);
longer tracks, ``same_round`` and play without numpy use the two-runner duel instead."""


class ThreeRunnerSolution:
    """Winning chances of three runners at the start of every turn, and the stored decisions.

    ``chances(a, b, c)`` gives (mover, next, last); :meth:`rolls` answers a decision. Build it
    with :func:`solve_three` (cached).
    """

    def __init__(self, track_length: int) -> None:
        import numpy as np

        self.track_length = track_length
        self._chances, self._decisions = _fill(track_length)
        self._np = np

    def chances(self, a: int, b: int, c: int) -> tuple[float, float, float]:
        """The winning chances of the mover (on a) and of the next two runners (b, c)."""
        mover, following, last = self._chances[a, b, c].tolist()
        return (mover, following, last)

    def rolls(self, data: ExtraMetersData) -> bool:
        """Whether the runner to decide in ``data`` (three runners) should roll again."""
        n = self.track_length
        players = len(data.positions)
        mover = data.player
        a = data.positions[mover]
        b = data.positions[(mover + 1) % players]
        c = data.positions[(mover + 2) % players]
        square = a + sum(data.dice)
        if square > n:
            return False
        bust = a + len(data.dice) + 1
        return bool(self._decisions[b, c, bust, square >> 3] >> (square & 7) & 1)

    def start_chances(self, data: ExtraMetersData) -> tuple[float, ...]:
        """Each seat's exact chance at the start of the mover's turn (before its opening
        roll), in seat order."""
        mover = data.player
        a, b, c = (data.positions[(mover + k) % 3] for k in range(3))
        return _by_seat(mover, self.chances(a, b, c))

    def decision_chances(self, data: ExtraMetersData) -> dict[Decision, tuple[float, ...]]:
        """Each seat's exact chance after ``roll`` and after ``stop`` at a decision, in seat
        order: the values :meth:`rolls` chooses by (rolling when it raises the mover's own
        chance by more than :data:`MARGIN`), so a hint or review shows what ``hard`` plays.
        """
        n = self.track_length
        mover = data.player
        a, b, c = (data.positions[(mover + k) % 3] for k in range(3))
        win = (1.0, 0.0, 0.0)
        table = self._chances

        def after(x: int) -> tuple[float, float, float]:
            """h(x): the runners' chances (mover, next, last) once the turn ends on x."""
            if x > n:
                return win
            following, last, mine = table[b, c, x].tolist()
            return (mine, following, last)

        memo: dict[tuple[int, int], tuple[float, float, float]] = {}

        def roll(x: int, j: int) -> tuple[float, float, float]:
            """Rolling on with the stop square x and the bust square j (a 6 ends on j)."""
            total = list(after(j))
            for face in range(1, 6):
                value = best(x + face, j + 1)
                for k in range(3):
                    total[k] += value[k]
            return (total[0] / 6, total[1] / 6, total[2] / 6)

        def best(x: int, j: int) -> tuple[float, float, float]:
            """U(x, j): the stored decision's value (stopping past the end wins)."""
            if x > n:
                return win
            key = (x, j)
            if key not in memo:
                rolls = bool(self._decisions[b, c, j, x >> 3] >> (x & 7) & 1)
                memo[key] = roll(x, j) if rolls else after(x)
            return memo[key]

        square = a + sum(data.dice)
        bust = a + len(data.dice) + 1
        return {Decision.ROLL: _by_seat(mover, roll(square, bust)),
                Decision.STOP: _by_seat(mover, after(square))}


def _by_seat(mover: Seat, chances: tuple[float, float, float]) -> tuple[float, ...]:
    """(mover, next, last) in seat order."""
    ordered = [0.0, 0.0, 0.0]
    for k, chance in enumerate(chances):
        ordered[(mover + k) % 3] = chance
    return tuple(ordered)


def _fill(n: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
    """The chances W[a, b, c, 3] and the packed decisions D[b, c, j, x // 8] (bit x % 8)."""
    import numpy as np

    chances = np.zeros((n + 1, n + 1, n + 1, 3))
    win = np.array([1.0, 0.0, 0.0])
    # rows[b, c, x]: the latest row of U for the pair (b, c), x = 0..N+5 (past N: a win).
    rows = np.empty((n + 1, n + 1, n + 6, 3))
    rows[...] = win
    decisions = np.zeros((n + 1, n + 1, n + 3, (n + 1 + 7) // 8), dtype=np.uint8)
    squares = np.arange(n + 1)
    faces = np.arange(1, 6)
    grid_b, grid_c = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    for position_total in range(3 * n, -1, -1):
        movers_all = position_total - grid_b - grid_c
        chosen = (movers_all >= 0) & (movers_all <= n)
        bs, cs = grid_b[chosen], grid_c[chosen]
        movers = movers_all[chosen]
        count = len(bs)
        # h(x) for x = 0..N: the state (b; c, x) reordered to (runner on x, on b, on c).
        after = chances[bs, cs][:, :, [2, 0, 1]]
        row = rows[bs, cs]
        bust_squares = movers + 2
        bust = np.where((bust_squares <= n)[:, None],
                        after[np.arange(count), np.minimum(bust_squares, n)], win)
        roll = row[:, 1 : n + 2] + row[:, 2 : n + 3]
        roll += row[:, 3 : n + 4]
        roll += row[:, 4 : n + 5]
        roll += row[:, 5 : n + 6]
        roll = bust[:, None, :] + roll
        roll /= 6
        rolling = roll[:, :, 0] > after[:, :, 0] + MARGIN
        # Entries x <= a are no reachable turn state (see the module docstring of .solver);
        # they are filled anyway and never read.
        row[:, : n + 1] = np.where(rolling[:, :, None], roll, after)
        rows[bs, cs] = row
        picks = row[np.arange(count)[:, None], movers[:, None] + faces]
        chances[movers, bs, cs] = (picks[:, 0] + picks[:, 1] + picks[:, 2] + picks[:, 3]
                                   + picks[:, 4]) / 5
        rolling &= squares[None, :] > movers[:, None]
        decisions[bs, cs, bust_squares] = np.packbits(rolling, axis=1, bitorder="little")
    return chances, decisions


def three_runner_solution(length: int, finish: str, players: int
                          ) -> ThreeRunnerSolution | None:
    """The exact solution for a game's options, or None where it is not used (see
    :data:`LARGEST_TRACK`)."""
    if players != 3 or finish != "first" or length > LARGEST_TRACK or not HAVE_NUMPY:
        return None
    return solve_three(length)


@lru_cache(maxsize=2)
def solve_three(track_length: int) -> ThreeRunnerSolution:
    """The exact three-runner solution of a track under ``finish=first`` (cached)."""
    return ThreeRunnerSolution(track_length)



def hard_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The ``hard`` bot: the exact three-runner solution where it is solved, else the
    two-runner duel with the leading opponent (:func:`.solver.optimal_policy`)."""
    data = state.data
    assert isinstance(data, ExtraMetersData) and data.phase is Phase.DECIDE
    length, finish = state.game.options["track_length"], state.game.options["finish"]
    assert isinstance(length, int) and isinstance(finish, str)
    exact = three_runner_solution(length, finish, len(data.positions))
    if exact is None:
        return optimal_policy(state, seat, rng)
    return Decision.ROLL if exact.rolls(data) else Decision.STOP
