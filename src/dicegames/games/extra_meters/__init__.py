"""For a Few Extra Meters (``extra-meters``): rules, rendering and heuristics."""

from dicegames.core.definition import GameDefinition
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.rules import SPEC, ExtraMetersRules

DEFINITION = GameDefinition(
    rules=ExtraMetersRules,
    presenter="dicegames.games.extra_meters.presenter:ExtraMetersPresenter",
    bots="dicegames.games.extra_meters.bots:levels",
    kernel="dicegames.games.extra_meters.kernel:ExtraMetersKernel",
    vector="dicegames.games.extra_meters.vector:ExtraMetersVector",
    encoder="dicegames.games.extra_meters.encoder:ExtraMetersEncoder",
    estimator="dicegames.games.extra_meters.estimator:estimator",
    solver="dicegames.games.extra_meters.strategy:strategy_chart",
    solution="dicegames.games.extra_meters.export:solution_tables",
    exact="dicegames.games.extra_meters.exact:exact",
)
"""The game as the registry knows it: the rules, and the parts imported on first use."""

__all__ = ["DEFINITION", "SPEC", "Decision", "ExtraMetersData", "ExtraMetersRules", "Phase"]
