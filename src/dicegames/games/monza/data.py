"""The data of a Monza position: colours, rolls, actions, turn phases and the cars."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from dicegames.core.model import Seat


class Colour(StrEnum):
    """The six colours of squares, dice and cars; the value is the notation."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    WHITE = "white"
    PURPLE = "purple"


COLOURS: tuple[Colour, ...] = tuple(Colour)
"""The colours in their fixed order: seat i drives the car of colour ``COLOURS[i]``."""

LETTERS = "rygbwp"
"""One letter per colour, in :data:`COLOURS` order (rolls and the board use them)."""

TYRE = "tyre"
"""The colour word of a grey tyre square in circuit files."""

START = -1
"""The position of a car in the wide start zone."""

DICE = 6
"""Six colour dice, each showing all six colours."""


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll of the six dice as counts per colour; notation: six letters, e.g. ``rryyyg``."""

    counts: tuple[int, ...]

    def __str__(self) -> str:
        return "".join(letter * n for letter, n in zip(LETTERS, self.counts, strict=True))


@dataclass(frozen=True, slots=True)
class Step:
    """Use one die of ``colour`` to step to square ``square`` (named ``name``): ``red m5``."""

    colour: Colour
    square: int
    name: str

    def __str__(self) -> str:
        return f"{self.colour} {self.name}"


@dataclass(frozen=True, slots=True)
class Advance:
    """Variant last colour: move one's own car one square to ``name`` for free."""

    square: int
    name: str

    def __str__(self) -> str:
        return f"advance {self.name}"


class Stay(StrEnum):
    """Variant last colour: decline the free step."""

    STAY = "stay"


STAY = Stay.STAY

Action = Step | Advance | Stay
"""Any decision of a Monza turn (besides the engine's pass)."""


class Phase(IntEnum):
    """Where a turn stands."""

    ROLL = 0  # the six dice are rolled (chance)
    STEP = 1  # the mover chooses the next step
    STUCK = 2  # the mover has no legal step (or stands on a target): pass
    VARIANT = 3  # the owner of the last die's colour may advance one square
    OVER = 4


@dataclass(frozen=True, slots=True)
class MonzaData:
    """A position.

    Attributes:
        cars: each seat's car: a square id, or START for the start zone.
        player: the seat whose turn it is.
        turn: turns played so far plus one.
        phase: see :class:`Phase`.
        dice: unused dice of this turn, counts per colour.
        roll: this turn's roll, counts per colour (empty before the roll).
        used: dice used so far this turn.
        last: the colour index of the last die used this turn (-1: none yet).
        round_used: dice used by each seat in the current round.
        finishing: a car has reached a target; the round is being completed.
        winners: the winning seats once the game is over.
    """

    cars: tuple[int, ...]
    player: Seat = 0
    turn: int = 1
    phase: Phase = Phase.ROLL
    dice: tuple[int, ...] = (0,) * DICE
    roll: tuple[int, ...] = ()
    used: int = 0
    last: int = -1
    round_used: tuple[int, ...] = ()
    finishing: bool = False
    winners: tuple[Seat, ...] = ()
