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

``finish=same_round``: when seat 0 passes the end, seat 1 still has its turn and shares the
win if it passes too, which it tries with the best one-turn "reach d squares" play; when seat
1 passes the end first, it wins alone. Ties count as half a win.

This is game knowledge for the ``optimal`` (and two-player ``hard``) bot and for hints; it is
cross-checked against brute-force expectimax over the real rules in the tests.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase


def _reach_probabilities(limit: int) -> tuple[float, ...]:
    """R[d]: the best chance to move at least d squares in one turn, for d = 0..limit."""
    result = [1.0]
    for d in range(1, limit + 1):
        # Q over (S, k) with S < d (S >= d stops at once with value 1).
        nxt: list[float] = []
        for k in range(d, 0, -1):
            current = [0.0] * d
            bust = 1.0 if k + 1 >= d else 0.0
            for total in range(k, min(5 * k, d - 1) + 1):
                acc = bust
                for face in range(1, 6):
                    acc += 1.0 if total + face >= d else nxt[total + face]
                current[total] = acc / 6
            nxt = current
        result.append(sum(1.0 if face >= d else nxt[face] for face in range(1, 6)) / 5)
    return tuple(result)


class Solution:
    """Winning chances of the player to move at the start of a turn, per seat to move.

    ``tables[seat][a][b]`` is the chance that ``seat``, to move at position ``a`` with the
    opponent at ``b``, wins. Under ``finish=first`` both seats share one table. Build it with
    :func:`solve` (cached); it is read-only once built.
    """

    def __init__(self, track_length: int, same_round: bool) -> None:
        n = track_length
        self.track_length = n
        self.same_round = same_round
        self.reach = _reach_probabilities(n + 1) if same_round else ()
        first = [[0.0] * (n + 1) for _ in range(n + 1)]
        self.tables = (first, [[0.0] * (n + 1) for _ in range(n + 1)] if same_round else first)
        for position_total in range(2 * n, -1, -1):
            for a in range(max(0, position_total - n), min(n, position_total) + 1):
                b = position_total - a
                for seat in (0, 1) if same_round else (0,):
                    turn = self.turn_table(seat, a, b)
                    self.tables[seat][a][b] = sum(turn[1][1:6]) / 5

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
            if self.same_round and seat == 0:
                return 1.0 - 0.5 * self.reach[n - b + 1]
            return 1.0
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
        """
        seat = data.player
        if rival is None:
            rival = 1 - seat
        a, b = data.positions[seat], data.positions[rival]
        total, count = sum(data.dice), len(data.dice)
        top = self.track_length - a
        row = self.turn_table(seat, a, b)[min(count + 1, top + 1)]
        passed = row[-1]
        later = sum(row[total + face] if total + face <= top else passed for face in range(1, 6))
        roll = (self.after(seat, a, b, count + 1) + later) / 6
        return {Decision.ROLL: roll, Decision.STOP: self.after(seat, a, b, total)}


@lru_cache(maxsize=8)
def solve(track_length: int, finish: str = "first") -> Solution:
    """The exact two-player solution for a track (cached; about 0.5 s for 50 squares)."""
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
    values = solution_for(state).decision_values(data, rival)
    return Decision.ROLL if values[Decision.ROLL] > values[Decision.STOP] + 1e-12 else Decision.STOP
