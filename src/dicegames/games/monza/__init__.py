"""Monza (``monza``): the colour-dice car race; rules, circuits, rendering and heuristics."""

from dicegames.core.definition import GameDefinition
from dicegames.games.monza.circuit import Circuit, CircuitError
from dicegames.games.monza.data import COLOURS, START, Colour, MonzaData, Phase, Roll, Step
from dicegames.games.monza.rules import ROLLS, SPEC, MonzaRules

DEFINITION = GameDefinition(
    rules=MonzaRules,
    presenter="dicegames.games.monza.presenter:MonzaPresenter",
    bots="dicegames.games.monza.heuristics:bot_levels",
    kernel="dicegames.games.monza.kernel:MonzaKernel",
    encoder="dicegames.games.monza.encoder:MonzaEncoder",
    estimator="dicegames.games.monza.optimal:estimator",
    solution="dicegames.games.monza.export:solution_tables",
    exact="dicegames.games.monza.exact:exact",
)
"""The game as the registry knows it: the rules, and the parts imported on first use."""

__all__ = [
    "COLOURS",
    "DEFINITION",
    "ROLLS",
    "SPEC",
    "START",
    "Circuit",
    "CircuitError",
    "Colour",
    "MonzaData",
    "MonzaRules",
    "Phase",
    "Roll",
    "Step",
]
