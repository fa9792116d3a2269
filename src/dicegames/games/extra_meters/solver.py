"""The exact solution of two-player For a Few Extra Meters, by dynamic programming.

With two runners the game is small enough to solve: the probability that the player to move
wins, under optimal play by both, is computed for every pair of positions, and inside a turn
for every running sum S and number of dice k. A turn always moves a runner at least one
square, so positions only grow and the table fills from the end of the track backwards
(pairs with a larger position total first).

Inside a turn at positions (a, b), with ``after(d)`` the mover's winning chance once the
runner has moved d squares:

    V(S, k) = max( after(S),                                   # stop
                   (after(k + 1) + sum_{f=1..5} V(S + f, k + 1)) / 6 )   # roll again
    W(a, b) = sum_{f=1..5} V(f, 1) / 5                          # the opening die is 1..5

**Why it is fast.** Written in absolute squares, a turn's state is the square ``x = a + S``
the runner reaches by stopping and the square ``j = a + k + 1`` a 6 would leave it on, and
``after`` is ``h_b(x) = 1 - W'(b, x)`` (the opponent's chance to move at b against x). The
turn's values ``U_b(x, j) = max(h_b(x), (h_b(j) + sum_f U_b(x + f, j + 1)) / 6)`` then do
not depend on a: one table per opponent square b serves every a. Each pair (a, b) adds one
row, j = a + 2, so the whole solution costs O(N^3) instead of O(N^4); with numpy each
position total is one vector step over all its pairs (track 200 in well under a second),
and without numpy the same recurrence runs in plain Python, with the same floating-point
sums in the same order (so both give bit-identical tables, equal to the former turn-by-turn
solution). The roll/stop decision of every (b, j, x) is kept as a bit of an integer mask,
so the ``hard`` bot decides with one lookup.

``finish=same_round``: when seat 0 passes the end, seat 1 still has its turn and shares the
win if it passes too, which it tries with the best one-turn "reach d squares" play; when seat
1 passes the end first, it wins alone. Ties count as half a win.

This is game knowledge for the ``optimal`` (and two-player ``hard``) bot and for hints; it is
cross-checked against brute-force expectimax over the real rules in the tests.
"""

from __future__ import annotations

import importlib.util
import random
from functools import lru_cache
from typing import Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase

HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
"""Whether the vectorised fill is available (numpy is an optional dependency)."""

MARGIN = 1e-12
"""Rolling is chosen only when it beats stopping by more than this (stop on a tie)."""


def _reach_probabilities(limit: int) -> tuple[float, ...]:
    """R[d]: the best chance to move at least d squares in one turn, for d = 0..limit.

    The best play rolls until the sum reaches d. In deficits, ``e = d - S`` left to reach by
    stopping and ``g = d - (k + 1)`` left for a 6 (which succeeds when g <= 0), the chance
    ``Q(e, g) = (1[g <= 0] + sum_f Q(e - f, g - 1)) / 6`` (1 once e <= 0) does not depend on
    d, so one table serves every d.
    """
    # q[g + 1][e]: rows g = -1..limit; entries e = 0..g + 1 (e <= 0 is "reached": 1.0).
    q: list[list[float]] = [[1.0]]
    for g in range(limit + 1):
        bust = 1.0 if g <= 0 else 0.0
        previous = q[g]
        row = [1.0] * (g + 2)
        for e in range(1, g + 2):
            acc = bust
            for face in range(1, 6):
                acc += 1.0 if e - face <= 0 else previous[e - face]
            row[e] = acc / 6
        q.append(row)
    result = [1.0]
    for d in range(1, limit + 1):
        opening = q[d - 1]  # g = d - 2 after the opening die (k = 1)
        result.append(sum(1.0 if face >= d else opening[d - face] for face in range(1, 6)) / 5)
    return tuple(result)


class Solution:
    """Winning chances of the player to move at the start of a turn, per seat to move.

    ``tables[seat][a][b]`` is the chance that ``seat``, to move at position ``a`` with the
    opponent at ``b``, wins. Under ``finish=first`` both seats share one table.
    ``masks[seat][b][j]`` has bit x set when, against an opponent on b, rolling is best with
    the runner reaching square x by stopping and square j on a 6. Build it with :func:`solve`
    (cached); it is read-only once built.
    """

    def __init__(self, track_length: int, same_round: bool, vectorised: bool | None = None
                 ) -> None:
        n = track_length
        self.track_length = n
        self.same_round = same_round
        self.reach = _reach_probabilities(n + 1) if same_round else ()
        seats = (0, 1) if same_round else (0,)
        self._seats = seats
        self.passed = tuple(tuple(self._passed(seat, b) for b in range(n + 1)) for seat in seats)
        if vectorised is None:
            vectorised = HAVE_NUMPY
        tables, masks = (_fill_numpy if vectorised else _fill_python)(n, seats, self.passed)
        self.tables = (tables[0], tables[-1])
        self.masks = (masks[0], masks[-1])

    def _passed(self, seat: Seat, b: int) -> float:
        """The mover's chance once past the end, against an opponent on ``b <= N``."""
        if self.same_round and seat == 0:
            return 1.0 - 0.5 * self.reach[self.track_length - b + 1]
        return 1.0

    def after(self, seat: Seat, a: int, b: int, distance: int) -> float:
        """The mover's winning chance once it has moved ``distance`` squares from ``a``.

        ``b > N`` is seat 1's last turn under ``same_round`` after seat 0 passed the end:
        passing too shares the win (1/2), anything else loses.
        """
        n = self.track_length
        moved = a + distance
        if b > n:
            return 0.5 if moved > n else 0.0
        if moved > n:
            return self._passed(seat, b)
        return 1.0 - self.tables[1 - seat][b][moved]

    def turn_table(self, seat: Seat, a: int, b: int) -> list[list[float]]:
        """V[k][S] for a turn at (a, b): the best chance with running sum S of k dice.

        Row k holds sums 0..N-a, then five entries for sums past the end (where the player
        stops and passes), so ``sum(row[S + 1 : S + 6])`` covers the next die's five faces.
        Row N-a+1 is all "passed" (no sum of that many dice is still on the track).
        """
        top = self.track_length - a
        after = [self.after(seat, a, b, d) for d in range(top + 2)]
        passed = after[top + 1]
        table: list[list[float]] = [[] for _ in range(top + 2)]
        table[top + 1] = [passed] * (top + 6)
        for k in range(top, 0, -1):
            bust = after[min(k + 1, top + 1)]
            nxt = table[k + 1]
            current = [0.0] * (top + 1) + [passed] * 5
            for total in range(k, min(5 * k, top) + 1):
                roll = (bust + sum(nxt[total + 1 : total + 6])) / 6
                stop = after[total]
                current[total] = roll if roll > stop else stop
            table[k] = current
        return table

    def win_probability(self, seat: Seat, a: int, b: int) -> float:
        """The chance that ``seat``, to start a turn at ``a`` against ``b``, wins."""
        return self.tables[seat][a][b]

    def decision_values(self, data: ExtraMetersData, rival: Seat | None = None
                        ) -> dict[Decision, float]:
        """The mover's exact winning chance after ``roll`` and after ``stop``.

        With two players the rival is the other seat and the values are exact. With more,
        pass the ``rival`` to duel with (the values are then those of that two-runner race).
        This builds the turn's table (about N^2 / 2 sums); :meth:`rolls` only looks up.
        """
        seat = data.player if self.same_round else 0
        if rival is None:
            rival = 1 - data.player
        a, b = data.positions[data.player], data.positions[rival]
        total, count = sum(data.dice), len(data.dice)
        top = self.track_length - a
        row = self.turn_table(seat, a, b)[min(count + 1, top + 1)]
        passed = row[-1]
        later = sum(row[total + face] if total + face <= top else passed for face in range(1, 6))
        roll = (self.after(seat, a, b, count + 1) + later) / 6
        return {Decision.ROLL: roll, Decision.STOP: self.after(seat, a, b, total)}

    def rolls(self, data: ExtraMetersData, rival: Seat | None = None) -> bool:
        """Whether rolling beats stopping by more than :data:`MARGIN` (the stored decision).

        The same answer as comparing :meth:`decision_values`, read from the masks.
        """
        if rival is None:
            rival = 1 - data.player
        a, b = data.positions[data.player], data.positions[rival]
        n = self.track_length
        if b > n:  # seat 1's last turn under same_round: a one-turn problem, built on demand
            values = self.decision_values(data, rival)
            return values[Decision.ROLL] > values[Decision.STOP] + MARGIN
        stop_square = a + sum(data.dice)
        if stop_square > n:
            return False
        seat = data.player if self.same_round else 0
        return bool(self.masks[seat][b][a + len(data.dice) + 1] >> stop_square & 1)


def _fill_python(n: int, seats: tuple[Seat, ...], passed: tuple[tuple[float, ...], ...]
                 ) -> tuple[list[list[list[float]]], list[list[list[int]]]]:
    """The tables and masks by the O(N^3) recurrence of the module docstring, in Python."""
    tables = [[[0.0] * (n + 1) for _ in range(n + 1)] for _ in seats]
    masks = [[[0] * (n + 3) for _ in range(n + 1)] for _ in seats]
    # rows[seat][b][x]: the latest row of U_b, for x = 0..N+5 (x > N: passed). Updated in
    # place for ascending x, so each x reads the previous row's x + 1..x + 5.
    rows = [[[passed[i][b]] * (n + 6) for b in range(n + 1)] for i in range(len(seats))]
    for position_total in range(2 * n, -1, -1):
        for a in range(max(0, position_total - n), min(n, position_total) + 1):
            b = position_total - a
            j = a + 2
            for i, seat in enumerate(seats):
                other = tables[(1 - seat) if len(seats) == 2 else 0][b]
                row = rows[i][b]
                bust = 1.0 - other[j] if j <= n else passed[i][b]
                mask = 0
                for x in range(a + 1, n + 1):
                    roll = (bust + (row[x + 1] + row[x + 2] + row[x + 3] + row[x + 4]
                                    + row[x + 5])) / 6
                    stop = 1.0 - other[x]
                    if roll > stop:
                        row[x] = roll
                        if roll > stop + MARGIN:
                            mask |= 1 << x
                    else:
                        row[x] = stop
                masks[i][b][j] = mask
                tables[i][a][b] = sum(row[a + 1 : a + 6]) / 5
    return tables, masks


def _fill_numpy(n: int, seats: tuple[Seat, ...], passed: tuple[tuple[float, ...], ...]
                ) -> tuple[list[list[list[float]]], list[list[list[int]]]]:
    """The same recurrence, one numpy step per position total over all its pairs.

    The pairs of one total have consecutive opponent squares b, so each step works on
    slices (views) of the row and table arrays. It also fills row entries x <= a, which no
    reachable turn state reads (stopping reaches x >= j - 1 = a + 1), instead of masking.
    """
    import numpy as np

    tables = [np.zeros((n + 1, n + 1)) for _ in seats]
    losses = [np.ones((n + 1, n + 1)) for _ in seats]  # 1 - tables, the mover's stop values
    masks = [[[0] * (n + 3) for _ in range(n + 1)] for _ in seats]
    passed_arrays = [np.array(p) for p in passed]
    rows = [np.repeat(p[:, None], n + 6, axis=1) for p in passed_arrays]
    faces = np.arange(1, 6)
    for position_total in range(2 * n, -1, -1):
        low, high = max(0, position_total - n), min(n, position_total)  # range of b
        rivals = np.arange(low, high + 1)
        movers = position_total - rivals
        count = len(rivals)
        bust_squares = movers + 2
        for i, seat in enumerate(seats):
            lose = losses[(1 - seat) if len(seats) == 2 else 0][low : high + 1]
            row = rows[i][low : high + 1]
            bust = np.where(bust_squares <= n,
                            lose[np.arange(count), np.minimum(bust_squares, n)],
                            passed_arrays[i][low : high + 1])
            roll = row[:, 1 : n + 2] + row[:, 2 : n + 3]
            roll += row[:, 3 : n + 4]
            roll += row[:, 4 : n + 5]
            roll += row[:, 5 : n + 6]
            roll = bust[:, None] + roll
            roll /= 6
            bits = np.packbits(roll > lose + MARGIN, axis=1, bitorder="little")
            np.maximum(roll, lose, out=row[:, : n + 1])
            picks = row[np.arange(count)[:, None], movers[:, None] + faces]
            won = (picks[:, 0] + picks[:, 1] + picks[:, 2] + picks[:, 3] + picks[:, 4]) / 5
            tables[i][movers, rivals] = won
            losses[i][movers, rivals] = 1.0 - won
            for mover, rival, packed in zip(movers.tolist(), rivals.tolist(), bits,
                                            strict=True):
                # Bits x <= a are never looked up; cleared, as the plain fill leaves them.
                bits_from = mover + 1
                masks[i][rival][mover + 2] = (
                    int.from_bytes(packed.tobytes(), "little") >> bits_from << bits_from)
    return [table.tolist() for table in tables], masks


@lru_cache(maxsize=8)
def solve(track_length: int, finish: str = "first") -> Solution:
    """The exact two-player solution for a track (cached; about 0.1 s for 200 squares with
    numpy, a few seconds without)."""
    return Solution(track_length, finish == "same_round")


def solution_for(state: State[Any, Any, Any]) -> Solution:
    """The solution matching a state's options (for 3+ players: the duel under ``first``)."""
    length, finish = state.game.options["track_length"], state.game.options["finish"]
    assert isinstance(length, int) and isinstance(finish, str)
    return solve(length, finish if state.game.players == 2 else "first")


def optimal_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The decision with the higher exact winning chance (stop on a tie).

    Exact with two players. With more, it plays the exact two-runner race against the
    leading opponent (the most advanced other runner; the next to play on a tie), which is
    where the danger is; see the rules page for how it fares.
    """
    data = state.data
    assert isinstance(data, ExtraMetersData) and data.phase is Phase.DECIDE
    players = len(data.positions)
    others = [(data.player + step) % players for step in range(1, players)]
    rival = max(others, key=lambda s: data.positions[s])  # max() keeps the first (next) on ties
    return Decision.ROLL if solution_for(state).rolls(data, rival) else Decision.STOP
