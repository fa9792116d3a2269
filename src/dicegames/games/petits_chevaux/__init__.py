"""Jeu des Petits Chevaux (``petits-chevaux``): board, rules, rendering and bots."""

from dicegames.games.petits_chevaux.board import Colour
from dicegames.games.petits_chevaux.data import Action, ChevauxData, Phase
from dicegames.games.petits_chevaux.game import PetitsChevaux
from dicegames.games.petits_chevaux.rules import SPEC, PetitsChevauxRules

__all__ = ["SPEC", "Action", "ChevauxData", "Colour", "PetitsChevaux", "PetitsChevauxRules",
           "Phase"]
