"""Jeu des Petits Chevaux (``petits-chevaux``): board, rules, rendering and bots."""

from dicegames.core.definition import GameDefinition
from dicegames.games.petits_chevaux.board import Colour
from dicegames.games.petits_chevaux.data import Action, ChevauxData, Phase
from dicegames.games.petits_chevaux.rules import SPEC, PetitsChevauxRules

DEFINITION = GameDefinition(
    rules=PetitsChevauxRules,
    presenter="dicegames.games.petits_chevaux.presenter:PetitsChevauxPresenter",
    bots="dicegames.games.petits_chevaux.bots:levels",
    kernel="dicegames.games.petits_chevaux.kernel:PetitsChevauxKernel",
    vector="dicegames.games.petits_chevaux.vector:PetitsChevauxVector",
    encoder="dicegames.games.petits_chevaux.encoder:PetitsChevauxEncoder",
    estimator="dicegames.games.petits_chevaux.estimator:estimator",
)
"""The game as the registry knows it: the rules, and the parts imported on first use."""

__all__ = ["DEFINITION", "SPEC", "Action", "ChevauxData", "Colour", "PetitsChevauxRules",
           "Phase"]
