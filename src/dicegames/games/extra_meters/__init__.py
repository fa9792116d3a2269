"""For a Few Extra Meters (``extra-meters``): rules, rendering and heuristics."""

from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.game import ExtraMeters
from dicegames.games.extra_meters.rules import SPEC, ExtraMetersRules

__all__ = ["SPEC", "Decision", "ExtraMeters", "ExtraMetersData", "ExtraMetersRules", "Phase"]
