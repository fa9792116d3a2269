"""Sid Sackson's EXTRA! (``extra``): rules, score sheet, rendering and bots."""

from dicegames.games.extra.data import Decision, ExtraData, Sheet
from dicegames.games.extra.game import Extra
from dicegames.games.extra.rules import ROLLS, SPEC, ExtraRules, Roll

__all__ = ["ROLLS", "SPEC", "Decision", "Extra", "ExtraData", "ExtraRules", "Roll", "Sheet"]
