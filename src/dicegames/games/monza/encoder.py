"""Monza as vectors: the cars on the circuit's squares, the unused colour dice.

Actions: ``0`` pass, ``1`` stay (decline the variant's free step), ``2 + q`` step to square
``q`` (with a die of that square's colour: one step of the turn's sequence, so a turn is
several actions), ``2 + n + q`` advance to square ``q`` (the variant's free step), where
``n`` is the number of squares of the circuit (67 on the default circuit: 136 actions).
Chance outcomes: the 462 rolls of six colour dice, numbered in the rules' order.
"""

from __future__ import annotations

from collections.abc import Hashable

from dicegames.core.model import PASS, Seat
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, Field, Vector, one_hot, scaled
from dicegames.games.monza.data import COLOURS, DICE, START, STAY, Advance, MonzaData, Phase, Step
from dicegames.games.monza.rules import ROLLS, MonzaRules


class MonzaEncoder(Encoder):
    """Observation fields and ids of Monza (see docs/rl.md)."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        assert isinstance(game, MonzaRules)
        self.square_names = tuple(square.name for square in game.circuit.squares)
        squares = len(self.square_names)
        p = self.players
        self.fields = (
            Field("cars", (p, squares + 1), "one-hot per seat: the square its car stands on "
                  "(square ids of the circuit), the last column the start zone"),
            Field("colour", (len(COLOURS),), "one-hot: the observer's own car colour (seat i "
                  "drives red, yellow, green, blue, white, purple); dice colours are absolute"),
            Field("dice", (len(COLOURS),), "unused dice of this turn per colour / 6"),
            Field("to_move", (p,), "one-hot: the seat deciding now (the mover, or the owner "
                  "of the last die's colour for the variant step)"),
            Field("mover", (p,), "one-hot: the seat whose turn it is"),
            Field("phase", (len(Phase),), "one-hot: roll, step, stuck, variant step, over"),
            Field("last", (len(COLOURS),), "one-hot: the colour of the last die used this turn"),
            Field("round_used", (p,), "per seat, dice used in the current round / 6"),
            Field("finishing", (1,), "1 once a car has reached a target (the round is being "
                  "completed)"),
        )
        self.num_actions = 2 + 2 * squares
        self.rolls = {roll: index for index, (roll, _) in enumerate(ROLLS)}
        self.num_outcomes = len(ROLLS)

    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        data = state.data
        assert isinstance(data, MonzaData)
        start = len(self.square_names)
        for other, car in enumerate(data.cars):
            views["cars"][self.relative(seat, other), start if car == START else car] = 1.0
        one_hot(views["colour"], seat)
        for colour, count in enumerate(data.dice):
            views["dice"][colour] = count / DICE
        node = state.current_players
        one_hot(views["to_move"], self.relative(seat, node[0]) if node else -1)
        one_hot(views["mover"], self.relative(seat, data.player))
        one_hot(views["phase"], int(data.phase))
        one_hot(views["last"], data.last)
        for other, used in enumerate(data.round_used):
            views["round_used"][self.relative(seat, other)] = scaled(used, DICE)
        views["finishing"][0] = float(data.finishing)

    def action_id(self, action: Hashable) -> int:
        """``pass`` 0, ``stay`` 1, a step to square q ``2 + q``, an advance ``2 + n + q``."""
        if action == PASS:
            return 0
        if action == STAY:
            return 1
        if isinstance(action, Step):
            return 2 + action.square
        assert isinstance(action, Advance)
        return 2 + len(self.square_names) + action.square

    def action_name(self, action_id: int) -> str:
        """``pass``, ``stay``, ``step to <square>`` or ``advance to <square>``."""
        if action_id < 2:
            return ("pass", "stay")[action_id]
        squares = len(self.square_names)
        square = (action_id - 2) % squares
        verb = "step" if action_id < 2 + squares else "advance"
        return f"{verb} to {self.square_names[square]}"

    def outcome_id(self, outcome: Hashable) -> int:
        """The roll's index among the rules' 462 rolls."""
        return self.rolls[outcome]  # type: ignore[index]

    def outcome_name(self, outcome_id: int) -> str:
        """The roll's notation."""
        return str(ROLLS[outcome_id][0])
