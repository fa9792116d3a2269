"""Shortcut (``shortcut``): rules, boards as data, rendering and bots."""

from dicegames.games.shortcut.board import Board, BoardError, load_board, parse_board
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.game import Shortcut
from dicegames.games.shortcut.rules import SPEC, ShortcutRules

__all__ = [
           "SPEC",
           "Board",
           "BoardError",
           "Cell",
           "Declaration",
           "Phase",
           "Press",
           "Shortcut",
           "ShortcutData",
           "ShortcutRules",
           "load_board",
           "parse_board",
]
