"""Monza (``monza``): the colour-dice car race; rules, circuits, rendering and heuristics."""

from dicegames.games.monza.circuit import Circuit, CircuitError
from dicegames.games.monza.data import COLOURS, START, Colour, MonzaData, Phase, Roll, Step
from dicegames.games.monza.game import Monza
from dicegames.games.monza.rules import ROLLS, SPEC, MonzaRules

__all__ = [
           "COLOURS",
           "ROLLS",
           "SPEC",
           "START",
           "Circuit",
           "CircuitError",
           "Colour",
           "Monza",
           "MonzaData",
           "MonzaRules",
           "Phase",
           "Roll",
           "Step",
]
