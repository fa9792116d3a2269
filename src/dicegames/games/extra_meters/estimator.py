"""Two-player For a Few Extra Meters is solved: its exact win chances (the ``estimator`` part
of its definition, read by reviews, hints and the design report)."""

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
        mine = self._mover(state)
        chances = [0.0, 0.0]
        chances[seat], chances[1 - seat] = mine, 1.0 - mine
        return Estimate(tuple(chances), 0.0)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """Roll and stop, each with the mover's exact chance after it (the game's
        ``estimates.win_chances``, which ``dicegames hint`` shows too)."""
        from dicegames.games.extra_meters.estimates import win_chances

        values = win_chances(state, seat)
        assert values is not None  # two players: checked by estimator()
        result: dict[Hashable, Estimate] = {}
        for action in state.legal_actions(seat):
            mine = values[action]
            chances = [0.0, 0.0]
            chances[seat], chances[1 - seat] = mine, 1.0 - mine
            result[action] = Estimate(tuple(chances), 0.0)
        return result


def estimator(game: Game[Any, Any, Any]) -> Estimator | None:
    """The exact estimate of a two-player game; None with more players (the solution is
    then a duel's, not exact)."""
    return ExactExtraMeters(game) if game.players == 2 else None
