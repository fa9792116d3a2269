"""Sid Sackson's EXTRA! (``extra``): rules, score sheet, rendering and bots."""

from dicegames.core.definition import GameDefinition
from dicegames.games.extra.data import Decision, ExtraData, Sheet
from dicegames.games.extra.rules import ROLLS, SPEC, ExtraRules, Roll

DEFINITION = GameDefinition(
    rules=ExtraRules,
    presenter="dicegames.games.extra.presenter:ExtraPresenter",
    bots="dicegames.games.extra.bots:levels",
    kernel="dicegames.games.extra.kernel:ExtraKernel",
    encoder="dicegames.games.extra.encoder:ExtraEncoder",
    simultaneous=True,
)
"""The game as the registry knows it: the rules, and the parts imported on first use."""

__all__ = ["DEFINITION", "ROLLS", "SPEC", "Decision", "ExtraData", "ExtraRules", "Roll", "Sheet"]
