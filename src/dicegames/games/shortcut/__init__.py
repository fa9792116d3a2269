"""Shortcut (``shortcut``): rules, boards as data, rendering and bots."""

from dicegames.core.definition import GameDefinition
from dicegames.games.shortcut.board import Board, BoardError, board_for, parse_board
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.rules import SPEC, ShortcutRules

DEFINITION = GameDefinition(
    rules=ShortcutRules,
    presenter="dicegames.games.shortcut.presenter:ShortcutPresenter",
    bots="dicegames.games.shortcut.bots:levels",
    kernel="dicegames.games.shortcut.kernel:ShortcutKernel",
    encoder="dicegames.games.shortcut.encoder:ShortcutEncoder",
    estimator="dicegames.games.shortcut.optimal:estimator",
    solution="dicegames.games.shortcut.solver:solution_tables",
    exact="dicegames.games.shortcut.exact:exact",
)
"""The game as the registry knows it: the rules, and the parts imported on first use."""

__all__ = [
           "DEFINITION",
           "SPEC",
           "Board",
           "BoardError",
           "Cell",
           "Declaration",
           "Phase",
           "Press",
           "ShortcutData",
           "ShortcutRules",
           "board_for",
           "parse_board",
]
