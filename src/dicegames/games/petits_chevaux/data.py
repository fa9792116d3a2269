"""The data of a Petits Chevaux position: actions, turn phases, and where every horse stands."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from dicegames.core.model import Seat
from dicegames.games.petits_chevaux.board import Colour
from dicegames.games.petits_chevaux.moves import Board


class Action(StrEnum):
    """A decision; the value is the notation.

    ``r1`` .. ``r4`` (and ``b``, ``y``, ``g`` for blue, yellow, green) move that horse by the
    die; ``out`` brings a horse out of the corner stable on a 6 (the horses waiting there are
    interchangeable, so ``out`` takes the lowest-numbered one).
    """

    OUT = "out"
    R1 = "r1"
    R2 = "r2"
    R3 = "r3"
    R4 = "r4"
    B1 = "b1"
    B2 = "b2"
    B3 = "b3"
    B4 = "b4"
    Y1 = "y1"
    Y2 = "y2"
    Y3 = "y3"
    Y4 = "y4"
    G1 = "g1"
    G2 = "g2"
    G3 = "g3"
    G4 = "g4"


HORSE_ACTIONS: dict[Colour, tuple[Action, Action, Action, Action]] = {
    colour: (Action(f"{colour.letter}1"), Action(f"{colour.letter}2"),
             Action(f"{colour.letter}3"), Action(f"{colour.letter}4"))
    for colour in Colour
}
"""The four move actions of each colour, horse 1 to 4."""

HORSE_OF: dict[Action, int] = {
    action: index for actions in HORSE_ACTIONS.values() for index, action in enumerate(actions)}
"""The horse index (0..3) an action moves."""


class Phase(IntEnum):
    """Where the game stands."""

    DRAW = 0  # chance: who plays first (outcome: a colour in play)
    ROLL = 1  # chance: the player to move rolls the die
    MOVE = 2  # the player decides how to play the roll
    OVER = 3


@dataclass(frozen=True, slots=True)
class ChevauxData:
    """A position.

    Attributes:
        horses: per seat, the progress of horses 1..4 along that colour's path: 0 in the
            corner stable, 1 on the start square, 56 on the stable entrance, 57..62 on stable
            squares 1..6 (see :mod:`~dicegames.games.petits_chevaux.board`).
        player: the seat whose turn it is (seat 0 during the draw).
        turn: 1-based turn count; the extra rolls a 6 earns stay in the same turn.
        phase: see :class:`Phase`.
        roll: the die the player must play (0 when none).
        sixes: 6s rolled in a row this turn (for ``three_sixes_penalty``).
        winner: the winning seat once the game is over, else -1.
        occupancy: who stands on each track square, derived from ``horses`` and kept with
            them (not compared, not part of the notation): the rules update it move by move
            instead of rebuilding it (see ``PetitsChevauxRules.board``); None until needed
            for data built by hand.
    """

    horses: tuple[tuple[int, ...], ...]
    player: Seat = 0
    turn: int = 1
    phase: Phase = Phase.DRAW
    roll: int = 0
    sixes: int = 0
    winner: int = -1
    occupancy: Board | None = field(default=None, compare=False, hash=False, repr=False)
