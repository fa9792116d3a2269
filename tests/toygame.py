"""Toy Race: the smallest complete game, registered for the whole test session.

Two to four runners race to square ``length`` (an option, default 12). On your turn the die
is rolled; then you ``run`` (move by the die) or ``walk`` (move one square). A runner must
land on the finish exactly, so ``run`` is legal only when it does not overshoot. The first
runner on the finish wins.

It is what docs/architecture.md's "How to add a game" builds: rules, a presenter, an encoder,
a definition and a rules page (``toy/rules.md``), nothing else (no kernel, no bots of its
own, no translations, no board.js). tests/conftest.py registers :data:`DEFINITION` (and names it in
``DICEGAMES_GAMES`` for the servers the tests spawn), so every suite that iterates the
registry plays it too.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path

from dicegames.core.chance import uniform
from dicegames.core.definition import GameDefinition
from dicegames.core.game import Game, State
from dicegames.core.model import (
    CHANCE,
    TERMINAL,
    GameSpec,
    JsonObject,
    Node,
    Result,
    Seat,
    TurnInfo,
)
from dicegames.core.options import OptionSpec
from dicegames.core.position import Reader, seat_text
from dicegames.core.presenter import Presenter
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, Field, Vector, one_hot, scaled


class Step(StrEnum):
    """The two decisions."""

    RUN = "run"
    WALK = "walk"


@dataclass(frozen=True, slots=True)
class RaceData:
    """The runners' squares, the seat to move, the die (0 before the roll) and the turn."""

    squares: tuple[int, ...]
    player: Seat = 0
    roll: int = 0
    turn: int = 1


FIELDS = ("runners", "to-move", "roll", "turn")
SPEC = GameSpec(
    id="toy-race", name="Toy Race", pitch="Run or walk to the finish; land on it exactly.",
    min_players=2, max_players=4, default_players=2, aliases=("toyrace",),
    options=(OptionSpec("length", "int", 12, "How many squares to the finish.",
                        minimum=6, maximum=60, label="Length"),))


class ToyRace(Game[RaceData, Step, int]):
    """The rules (see the module docstring)."""

    spec = SPEC

    @property
    def length(self) -> int:
        """The finish square."""
        value = self.options["length"]
        assert isinstance(value, int)
        return value

    def _initial(self) -> RaceData:
        return RaceData((0,) * self.players)

    def _node(self, data: RaceData) -> Node:
        if self.length in data.squares:
            return TERMINAL
        return Node.decision(data.player) if data.roll else CHANCE

    def _turn(self, data: RaceData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def _legal_actions(self, data: RaceData, seat: Seat) -> tuple[Step, ...]:
        fits = data.squares[seat] + data.roll <= self.length
        return (Step.RUN, Step.WALK) if fits else (Step.WALK,)

    def _apply_action(self, data: RaceData, seat: Seat, action: Step) -> RaceData:
        squares = list(data.squares)
        squares[seat] += data.roll if action is Step.RUN else 1
        if squares[seat] == self.length:
            return RaceData(tuple(squares), seat, 0, data.turn)
        return RaceData(tuple(squares), (seat + 1) % self.players, 0, data.turn + 1)

    def _chance_outcomes(self, data: RaceData) -> tuple[tuple[int, Fraction], ...]:
        return uniform(range(1, 7))

    def _apply_outcome(self, data: RaceData, outcome: int) -> RaceData:
        return RaceData(data.squares, data.player, outcome, data.turn)

    def _result(self, data: RaceData) -> Result:
        return Result.from_scores([data.player], [float(s) for s in data.squares])

    def _position(self, data: RaceData) -> str:
        squares = "/".join(str(square) for square in data.squares)
        return f"{squares} {seat_text(data.player)} {data.roll or '-'} {data.turn}"

    def _from_position(self, text: str) -> RaceData:
        reader = Reader(SPEC.name, text, FIELDS, self.players)
        squares = tuple(reader.whole("runners", part, 0, self.length, "a square")
                        for part in reader.seats("runners", "runners"))
        player, turn = reader.seat("to-move"), reader.whole("turn", reader.raw("turn"), 1)
        roll = 0 if reader.raw("roll") == "-" else reader.whole("roll", reader.raw("roll"), 1, 6)
        reader.check_rotation(player, turn)
        over = self.length in squares
        if over and (squares.count(self.length) > 1 or squares[player] != self.length or roll):
            raise reader.error("runners", "a finished race has one runner on the finish, the "
                               "seat to move's, and no die")
        done = turn if over else turn - 1  # turns played so far
        for seat, square in enumerate(squares):
            turns = max(0, -(-(done - seat) // self.players))
            if not turns <= square <= 6 * turns:
                raise reader.error("runners", f"runner {seat + 1} cannot be on square {square} "
                                   f"after {turns} turns (1 to 6 squares a turn)")
        return RaceData(squares, player, roll, turn)


class ToyPresenter(Presenter[ToyRace]):
    """The race as a line of text per runner and a tiny board of runners."""

    def render(self, state: State[RaceData, Step, int], names: Sequence[str] | None = None) -> str:
        names = names or [f"Player {seat + 1}" for seat in range(self.game.players)]
        return "\n".join(f"{name}: square {square} of {self.game.length}"
                         for name, square in zip(names, state.data.squares, strict=False))

    def view(self, state: State[RaceData, Step, int]) -> JsonObject:
        data = state.data
        runners = [{"id": f"runner-{seat}", "square": square}
                   for seat, square in enumerate(data.squares)]
        return {"game": SPEC.id, "board": {"length": self.game.length, "runners": runners},
                "dice": [{"value": data.roll, "label": str(data.roll)}] if data.roll else [],
                "dice_entry": None}


class ToyEncoder(Encoder):
    """Squares, whose turn and the die; ``run`` is action 0, ``walk`` 1; a face ``f`` is
    outcome ``f - 1``."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        assert isinstance(game, ToyRace)
        self.length, p = game.length, self.players
        self.fields = (Field("square", (p,), "each runner's square / length"),
                       Field("to_move", (p,), "one-hot: the seat whose turn it is"),
                       Field("roll", (6,), "one-hot: the die, when rolled"))
        self.num_actions, self.num_outcomes = 2, 6

    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        data: RaceData = state.data
        for other, square in enumerate(data.squares):
            views["square"][self.relative(seat, other)] = scaled(square, self.length)
        one_hot(views["to_move"], self.relative(seat, data.player))
        if data.roll:
            one_hot(views["roll"], data.roll - 1)

    def action_id(self, action: Hashable) -> int:
        return list(Step).index(Step(str(action)))

    def action_name(self, action_id: int) -> str:
        return str(list(Step)[action_id])

    def outcome_id(self, outcome: Hashable) -> int:
        assert isinstance(outcome, int)
        return outcome - 1

    def outcome_name(self, outcome_id: int) -> str:
        return str(outcome_id + 1)


DEFINITION = GameDefinition(rules=ToyRace, presenter=ToyPresenter, encoder=ToyEncoder,
                            folder=Path(__file__).with_name("toy"))
"""The toy's definition: rules, a presenter and an encoder, no other part; its folder holds
its rules page (``toy/rules.md``)."""
