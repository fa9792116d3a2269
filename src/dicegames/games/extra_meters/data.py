"""The data of a For a Few Extra Meters position: decisions, turn phases, runners."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from dicegames.core.model import Seat


class Decision(StrEnum):
    """The two decisions of a turn; the value is the notation."""

    ROLL = "roll"
    STOP = "stop"


class Phase(IntEnum):
    """Where a turn stands."""

    OPENING = 0  # the compulsory first roll (chance over 1..5)
    DECIDE = 1  # the player chooses roll or stop
    ROLLING = 2  # a further roll (chance over 1..6)
    OVER = 3


@dataclass(frozen=True, slots=True)
class ExtraMetersData:
    """A position: where the runners are and how the current turn stands.

    Attributes:
        positions: each runner's square (0 = behind square 1).
        player: the seat whose turn it is.
        turn: turns played so far plus one (turn 1 is seat 0's first turn).
        phase: see :class:`Phase`.
        dice: the non-6 dice of this turn so far, in the order rolled.
        winners: the winning seats once the game is over.
    """

    positions: tuple[int, ...]
    player: Seat = 0
    turn: int = 1
    phase: Phase = Phase.OPENING
    dice: tuple[int, ...] = ()
    winners: tuple[Seat, ...] = ()
