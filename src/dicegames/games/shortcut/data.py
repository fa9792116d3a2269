"""The data of a Shortcut position: declarations, turn phases, cells as actions, cars."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from dicegames.core.model import Seat


class Declaration(StrEnum):
    """What a player announces at the start of a turn; the value is the notation."""

    ROAD = "road"
    SHORTCUT = "shortcut"
    PUSH = "push"


class Press(StrEnum):
    """After a 1-3 on a shortcut turn: roll again and add (the other choice is a cell)."""

    PRESS = "press"


@dataclass(frozen=True, slots=True)
class Cell:
    """A destination as an action: the cell a car moves to. ``str()`` is its notation.

    Attributes:
        index: the cell's number on the board (see :class:`~.board.Board`).
        name: its notation, e.g. ``c4`` (kept so that ``str()`` needs no board).
    """

    index: int
    name: str

    def __str__(self) -> str:
        return self.name


class Phase(IntEnum):
    """Where a turn stands."""

    DECLARE = 0  # the player announces road, shortcut or push
    ROAD_ROLL = 1  # the road die (chance)
    SHORTCUT_ROLL = 2  # a shortcut die (chance): 4-6 forfeits the turn
    CHOOSE = 3  # after a 1-3: press, or stop on a reachable cell
    PUSH_TO = 4  # a push with several one-step destinations: which one
    OVER = 5


@dataclass(frozen=True, slots=True)
class ShortcutData:
    """A position: where the cars are and how the current turn stands.

    Attributes:
        cars: each seat's cell (cell numbers of the board).
        player: the seat whose turn it is.
        turn: turns played so far plus one.
        phase: see :class:`Phase`.
        rolls: the 1-3 dice of the current shortcut turn, in order (their sum is the
            movement allowed).
        winner: the seat whose car reached the finish, or -1.
    """

    cars: tuple[int, ...]
    player: Seat = 0
    turn: int = 1
    phase: Phase = Phase.DECLARE
    rolls: tuple[int, ...] = ()
    winner: Seat = -1
