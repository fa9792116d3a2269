"""For a Few Extra Meters: the push-your-luck race, as pure rules.

Source: the free game "Pour quelques mètres de plus" (seed 000_0478bffcba2d29c8.txt), with the
gaps closed by RULINGS.md. Runners start at position 0, behind square 1; a runner wins by
passing square N (``track_length``). On a turn the first roll is compulsory; a 6 on it is
rolled again until it is not a 6, and all those rolls count as one die, so the opening roll is
a chance node over 1..5 at 1/5 each. After each non-6 roll the player chooses ``roll`` or
``stop``: ``stop`` moves the runner by the sum of the dice; a later 6 ends the turn at once
and moves the runner by the number of dice rolled, that 6 included.

``finish=first`` ends the game as soon as a runner passes N; ``finish=same_round`` completes
the round (seat 0 starts each round) and every runner past N by then shares the win.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dicegames.core.chance import uniform
from dicegames.core.errors import Reroll
from dicegames.core.game import Game, State, normalize
from dicegames.core.model import (
    CHANCE,
    TERMINAL,
    GameSpec,
    Node,
    Result,
    Seat,
    TurnInfo,
)
from dicegames.core.options import OptionSpec
from dicegames.games.binding import forward
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.position import ExtraMetersFacts, facts, from_position, position

OPENING_ROLL = uniform(range(1, 6))
"""The opening die: a 6 is rolled again, so 1..5 each with probability 1/5."""

FURTHER_ROLL = uniform(range(1, 7))
"""A further roll: 1..6 each with probability 1/6 (a 6 ends the turn)."""

SPEC = GameSpec(
    id="extra-meters",
    name="For a Few Extra Meters",
    pitch=(
        "A push-your-luck race for young players who can add up. Roll the die as often as you "
        "dare and move the sum of your dice when you stop, but a 6 ends your turn and you only "
        "move one square per die rolled. First runner past the last square wins."
    ),
    min_players=2,
    max_players=8,
    default_players=2,
    aliases=("extrameters", "meters", "few-extra-meters"),
    age=5,  # the rule sheet: "Age : 5 yo+"
    # 77 rolls and choices a 2-player game, 127 with four (medium bots), at about 4 s each.
    minutes=(5, 10),
    options=(
        OptionSpec("track_length", "int", 50, "number of squares; a runner wins by passing "
                   "the last one", minimum=10, maximum=200),
        OptionSpec("finish", "choice", "first", "first: the first runner past the end wins at "
                   "once; same_round: the round is completed and all runners past the end share "
                   "the win", choices=("first", "same_round")),
    ),
)


class ExtraMetersRules(Game[ExtraMetersData, Decision, int]):
    """The rules of For a Few Extra Meters (see the module docstring)."""

    spec = SPEC

    @property
    def track_length(self) -> int:
        """N: the number of squares; a runner wins by passing square N."""
        value = self.options["track_length"]
        assert isinstance(value, int)
        return value

    def _initial(self) -> ExtraMetersData:
        return ExtraMetersData(positions=(0,) * self.players)

    def _node(self, data: ExtraMetersData) -> Node:
        if data.phase is Phase.DECIDE:
            return Node.decision(data.player)
        if data.phase is Phase.OVER:
            return TERMINAL
        return CHANCE

    def _turn(self, data: ExtraMetersData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def _legal_actions(self, data: ExtraMetersData, seat: Seat) -> tuple[Decision, ...]:
        return (Decision.ROLL, Decision.STOP)

    def _apply_action(self, data: ExtraMetersData, seat: Seat, action: Decision) -> ExtraMetersData:
        if action is Decision.ROLL:
            return ExtraMetersData(data.positions, data.player, data.turn, Phase.ROLLING,
                                   data.dice)
        return self._end_turn(data, sum(data.dice))

    def _chance_outcomes(self, data: ExtraMetersData) -> tuple[tuple[int, Fraction], ...]:
        return OPENING_ROLL if data.phase is Phase.OPENING else FURTHER_ROLL

    def _apply_outcome(self, data: ExtraMetersData, outcome: int) -> ExtraMetersData:
        if outcome == 6:
            return self._end_turn(data, len(data.dice) + 1)
        return ExtraMetersData(data.positions, data.player, data.turn, Phase.DECIDE,
                               (*data.dice, outcome))

    def _end_turn(self, data: ExtraMetersData, distance: int) -> ExtraMetersData:
        """Move the current runner, decide whether the game is over, or pass the turn."""
        player = data.player
        positions = list(data.positions)
        positions[player] += distance
        moved = tuple(positions)
        end = self.track_length
        if self.options["finish"] == "first":
            if moved[player] > end:
                return ExtraMetersData(moved, player, data.turn, Phase.OVER, (), (player,))
        elif player == self.players - 1:
            winners = tuple(s for s, p in enumerate(moved) if p > end)
            if winners:
                return ExtraMetersData(moved, player, data.turn, Phase.OVER, (), winners)
        return ExtraMetersData(moved, (player + 1) % self.players, data.turn + 1)

    def _result(self, data: ExtraMetersData) -> Result:
        rounds = (data.turn + self.players - 1) // self.players
        return Result.from_scores(
            data.winners, data.positions,
            f"past square {self.track_length} in round {rounds}",
        )

    def _parse_action(self, data: ExtraMetersData, seat: Seat, text: str) -> Decision:
        aliases = {"r": "roll", "again": "roll", "roll again": "roll", "continue": "roll",
                   "s": "stop", "move": "stop"}
        return super()._parse_action(data, seat, aliases.get(normalize(text), text))

    def _parse_outcome(self, data: ExtraMetersData, text: str) -> int:
        if data.phase is Phase.OPENING and normalize(text) == "6":
            raise Reroll("a 6 on the first roll of a turn is rolled again: roll the die again")
        return super()._parse_outcome(data, text)

    # ------------------------------------------------------------ positions (position.py)

    def _position(self, data: ExtraMetersData) -> str:
        return position(data)

    def _from_position(self, text: str) -> ExtraMetersData:
        return from_position(text, self.players, self.track_length,
                             self.options["finish"] == "same_round")

    def facts(self, state: State[ExtraMetersData, Decision, int]) -> ExtraMetersFacts:
        """Where the runners stand, the turn's dice, whose turn and the phase."""
        return facts(state.data)


# The playable class's old import path, kept working (see dicegames.games.binding).
if TYPE_CHECKING:
    from dicegames.games.extra_meters.game import ExtraMeters as ExtraMeters  # noqa: PLC0414
else:
    __getattr__ = forward(__name__, "dicegames.games.extra_meters.game", "ExtraMeters")
