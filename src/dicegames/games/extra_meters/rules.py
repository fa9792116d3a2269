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

from collections.abc import Mapping
from fractions import Fraction

from dicegames.core.chance import uniform
from dicegames.core.errors import Reroll
from dicegames.core.frozen import builder
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
from dicegames.core.options import OptionSpec, OptionValue
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.position import ExtraMetersFacts, facts, from_position, position

_OPENING, _DECIDE, _ROLLING, _OVER = Phase.OPENING, Phase.DECIDE, Phase.ROLLING, Phase.OVER

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
        OptionSpec("track_length", "int", 50,
                   "How many squares the track has; a runner wins by passing the last one.",
                   minimum=10, maximum=200, label="Length of the track"),
        OptionSpec("finish", "choice", "first",
                   "Either the first runner past the last square wins at once, or the round "
                   "is played to its end and every runner past the last square shares the win.",
                   choices=("first", "same_round"), label="End of the race",
                   choice_labels=("First past the end wins", "Finish the round, share the win")),
    ),
)


_data = builder(ExtraMetersData)
"""``ExtraMetersData`` from all six fields, built fast (see :mod:`dicegames.core.frozen`)."""

DECISIONS = (Decision.ROLL, Decision.STOP)
"""Every decision, in legal order: both are always legal."""


class ExtraMetersRules(Game[ExtraMetersData, Decision, int]):
    """The rules of For a Few Extra Meters (see the module docstring)."""

    spec = SPEC

    def __init__(self, players: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, options)
        self._end = self.track_length
        self._first = self.options["finish"] == "first"
        # The node of each phase and seat: CHANCE, the seat's decision, CHANCE, TERMINAL.
        self._nodes = tuple(
            tuple(Node.decision(seat) if phase is Phase.DECIDE else
                  TERMINAL if phase is Phase.OVER else CHANCE for seat in range(players))
            for phase in Phase)

    @property
    def track_length(self) -> int:
        """N: the number of squares; a runner wins by passing square N."""
        value = self.options["track_length"]
        assert isinstance(value, int)
        return value

    def _initial(self) -> ExtraMetersData:
        return ExtraMetersData(positions=(0,) * self.players)

    def _node(self, data: ExtraMetersData) -> Node:
        return self._nodes[data.phase][data.player]

    def _turn(self, data: ExtraMetersData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def _legal_actions(self, data: ExtraMetersData, seat: Seat) -> tuple[Decision, ...]:
        return DECISIONS

    def _apply_action(self, data: ExtraMetersData, seat: Seat, action: Decision) -> ExtraMetersData:
        if action is Decision.ROLL:
            return _data(data.positions, data.player, data.turn, _ROLLING, data.dice, ())
        return self._end_turn(data, sum(data.dice))

    def _chance_outcomes(self, data: ExtraMetersData) -> tuple[tuple[int, Fraction], ...]:
        return OPENING_ROLL if data.phase is _OPENING else FURTHER_ROLL

    def _apply_outcome(self, data: ExtraMetersData, outcome: int) -> ExtraMetersData:
        if outcome == 6:
            return self._end_turn(data, len(data.dice) + 1)
        return _data(data.positions, data.player, data.turn, _DECIDE, (*data.dice, outcome), ())

    def _end_turn(self, data: ExtraMetersData, distance: int) -> ExtraMetersData:
        """Move the current runner, decide whether the game is over, or pass the turn."""
        player = data.player
        positions = list(data.positions)
        positions[player] += distance
        moved = tuple(positions)
        end = self._end
        if self._first:
            if moved[player] > end:
                return _data(moved, player, data.turn, _OVER, (), (player,))
        elif player == self.players - 1:
            winners = tuple(s for s, p in enumerate(moved) if p > end)
            if winners:
                return _data(moved, player, data.turn, _OVER, (), winners)
        following = player + 1
        return _data(moved, 0 if following == self.players else following, data.turn + 1,
                     _OPENING, (), ())

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
