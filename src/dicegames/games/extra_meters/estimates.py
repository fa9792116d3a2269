"""Exact win chances for ``dicegames hint``: the solved two-player race (see solver.py)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import ExtraMetersData
from dicegames.games.extra_meters.solver import solution_for


def win_chances(state: State[Any, Any, Any], seat: Seat) -> Mapping[Hashable, float] | None:
    """The deciding seat's exact chance to win after ``roll`` and after ``stop`` with two
    players (None with more: the solution is then that of a duel, not exact)."""
    data = state.data
    if state.game.players != 2 or not isinstance(data, ExtraMetersData):
        return None
    values = solution_for(state).decision_values(data)
    return {action: chance for action, chance in values.items()}
