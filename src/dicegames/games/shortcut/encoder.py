"""Shortcut as vectors: the cars on the board's cells, the turn's phase and dice.

Actions: ``0`` road, ``1`` shortcut, ``2`` push, ``3`` press, ``4 + c`` the board cell
numbered ``c`` (a destination). Chance outcomes: a die's face ``f`` is ``f - 1``.
"""

from __future__ import annotations

from collections.abc import Hashable

from dicegames.core.model import Seat
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, Field, Vector, one_hot, scaled
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.rules import ShortcutRules

WORDS: tuple[Declaration | Press, ...] = (Declaration.ROAD, Declaration.SHORTCUT,
                                          Declaration.PUSH, Press.PRESS)
"""The action ids before the cells: ``WORDS[i]`` is action i."""


class ShortcutEncoder(Encoder):
    """Observation fields and ids of Shortcut (see docs/rl.md)."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        assert isinstance(game, ShortcutRules)
        self.cell_names: tuple[str, ...] = game.board.names
        cells = len(self.cell_names)
        p = self.players
        self.fields = (
            Field("cars", (p, cells), "one-hot per seat: the cell its car stands on (cells in "
                  "the board's reading order)"),
            Field("to_move", (p,), "one-hot: the seat whose turn it is"),
            Field("phase", (len(Phase),), "one-hot: declare, road roll, shortcut roll, choose "
                  "(press or a cell), push to, over"),
            Field("total", (1,), "sum of this shortcut turn's 1-3 dice / number of cells, at "
                  "most 1"),
            Field("presses", (1,), "shortcut dice rolled this turn / number of cells, at "
                  "most 1"),
        )
        self.num_actions = len(WORDS) + cells
        self.num_outcomes = 6

    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        data = state.data
        assert isinstance(data, ShortcutData)
        cells = len(self.cell_names)
        for other, cell in enumerate(data.cars):
            views["cars"][self.relative(seat, other), cell] = 1.0
        one_hot(views["to_move"], self.relative(seat, data.player))
        one_hot(views["phase"], int(data.phase))
        views["total"][0] = scaled(sum(data.rolls), cells)
        views["presses"][0] = scaled(len(data.rolls), cells)

    def action_id(self, action: Hashable) -> int:
        """A declaration or ``press`` by :data:`WORDS`, a cell ``c`` as ``4 + c``."""
        if isinstance(action, Cell):
            return len(WORDS) + action.index
        return WORDS.index(action)

    def action_name(self, action_id: int) -> str:
        """The word, or ``to <cell>`` for a destination."""
        if action_id < len(WORDS):
            return str(WORDS[action_id])
        return f"to {self.cell_names[action_id - len(WORDS)]}"

    def outcome_id(self, outcome: Hashable) -> int:
        """A die face ``f`` is ``f - 1``."""
        assert isinstance(outcome, int)
        return outcome - 1

    def outcome_name(self, outcome_id: int) -> str:
        """The die's face: ``outcome_id + 1``."""
        return str(outcome_id + 1)
