"""Exact win chances of For a Few Extra Meters (the ``estimator`` part of its definition,
read by hints, reviews and the design report through :mod:`dicegames.analysis.estimate`).

Two runners: the solved race (:mod:`.solver`), optimal play from here on. Three and four
runners under ``finish=first`` on tracks up to :data:`.races.LARGEST_TRACK` squares: the
exact solution (:mod:`.races`), each runner maximising its own chance, which is exactly how
the ``optimal`` bot (and three-runner ``hard``) plays there. Other configurations have no
exact estimate.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from dicegames.core.estimates import Estimate, Estimator, terminal_estimate
from dicegames.core.game import Game, State
from dicegames.core.model import Seat


class ExactExtraMeters:
    """Two-player For a Few Extra Meters by the exact solution (optimal play from here)."""

    kind = "exact"
    description = "exact win chance under optimal play from here on (the solved game)"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        from dicegames.games.extra_meters.solver import solve

        length, finish = game.options["track_length"], game.options["finish"]
        assert isinstance(length, int) and isinstance(finish, str)
        self._solution = solve(length, finish)

    def _mover(self, state: State[Any, Any, Any]) -> float:
        """The chance that the seat whose turn it is wins, at a non-terminal ``state``."""
        from dicegames.games.extra_meters.data import Phase

        data = state.data
        seat = data.player
        if data.phase is Phase.DECIDE:
            return float(max(self._solution.decision_values(data).values()))
        if data.phase is Phase.OPENING:
            a, b = data.positions[seat], data.positions[1 - seat]
            return math.fsum(self._solution.turn_table(seat, a, b)[1][1:6]) / 5
        return math.fsum(float(p) * self.position(state.apply_unchecked(outcome)).chances[seat]
                         for outcome, p in state.chance_outcomes())

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Both seats' exact chances (they sum to 1: a shared win counts half to each)."""
        if state.is_terminal:
            return terminal_estimate(state)
        seat = state.data.player
        return Estimate(_pair(seat, self._mover(state)), 0.0)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """Roll and stop, each with both seats' exact chances after it."""
        values = self._solution.decision_values(state.data)
        return {action: Estimate(_pair(seat, float(values[action])), 0.0)
                for action in state.legal_actions(seat)}


def _pair(seat: Seat, mine: float) -> tuple[float, float]:
    """Two seats' chances from the chance of ``seat``."""
    return (mine, 1.0 - mine) if seat == 0 else (1.0 - mine, mine)


class ExactRunners:
    """Three- or four-runner For a Few Extra Meters (``finish=first``) by the exact
    solution of :mod:`.races`: the chances when every runner plays to maximise its own, as
    ``optimal`` does; the values its roll/stop decisions are read from."""

    kind = "exact"
    description = ("exact win chance when every runner plays to maximise its own from here "
                   "on (the solved race)")

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        from dicegames.games.extra_meters.races import solve_race

        length = game.options["track_length"]
        assert isinstance(length, int)
        self._players = game.players
        self._solution = solve_race(game.players, length)

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Every seat's exact chance (they sum to 1: nobody shares a win)."""
        from dicegames.games.extra_meters.data import Decision, Phase

        if state.is_terminal:
            return terminal_estimate(state)
        data = state.data
        if data.phase is Phase.OPENING:
            return Estimate(self._solution.start_chances(data), 0.0)
        if data.phase is Phase.DECIDE:
            values = self._solution.decision_chances(data)
            chosen = Decision.ROLL if self._solution.rolls(data) else Decision.STOP
            return Estimate(values[chosen], 0.0)
        total = [0.0] * self._players
        for outcome, p in state.chance_outcomes():
            after = self.position(state.apply_unchecked(outcome)).chances
            for seat in range(self._players):
                total[seat] += float(p) * after[seat]
        return Estimate(tuple(total), 0.0)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """Roll and stop, each with every seat's exact chance after it."""
        values = self._solution.decision_chances(state.data)
        return {action: Estimate(values[action], 0.0) for action in state.legal_actions(seat)}


def estimator(game: Game[Any, Any, Any]) -> Estimator | None:
    """The exact estimate where the game is solved: two runners, or three and four under
    ``finish=first`` on a track :mod:`.races` covers; None elsewhere."""
    if game.players == 2:
        return ExactExtraMeters(game)
    from dicegames.games.extra_meters.races import race_solution

    length, finish = game.options["track_length"], game.options["finish"]
    assert isinstance(length, int) and isinstance(finish, str)
    if race_solution(length, finish, game.players) is not None:
        return ExactRunners(game)
    return None


ExactThreeRunners = ExactRunners
"""The former name of :class:`ExactRunners` (three runners were solved first)."""
