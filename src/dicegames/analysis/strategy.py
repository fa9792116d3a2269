"""The solved strategy of a game, as a chart's data for the design report.

A game that is solved declares a ``solver`` part in its definition
(:mod:`dicegames.core.definition`): a function ``game -> dict | None`` giving the chart's
data for a configuration it has solved (two-player For a Few Extra Meters' stop thresholds,
``games/extra_meters/strategy.py``), None for one it has not.
"""

from __future__ import annotations

from typing import Any

from dicegames.core.game import Game
from dicegames.core.registry import definition_of


def strategy_for(game: Game[Any, Any, Any]) -> dict[str, Any] | None:
    """The strategy chart's data of ``game``, or None when it has no solved strategy."""
    solver = definition_of(game).part("solver")
    if solver is None:
        return None
    chart: dict[str, Any] | None = solver(game)
    return chart
