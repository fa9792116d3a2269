"""Positions as text: what every game's notation shares, and the helpers that read it.

A position is one line of space-separated fields, like chess's FEN. The first field always
lists the seats' pieces (runners, cars, horses, sheets) separated by ``/``, seat 1 first, so
the number of players can be read off any position (:func:`players_in`). The other fields
are the game's own (whose turn, the phase of the turn, the dice on the table, counters); each
game documents them on its rules page and reads them with the helpers below, which raise a
:class:`~dicegames.core.errors.PositionError` naming the field, what it holds and what is
allowed.

:class:`Facts` is the typed, public reading of a position that every game extends with its
pieces (see ``Game.facts``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from dicegames.core.errors import PositionError
from dicegames.core.model import Seat

T = TypeVar("T")

NONE = "-"
"""The notation of an empty field: no dice, no roll, no last colour."""

SEATS = "/"
"""Separates the seats' entries of the first field (and of other per-seat fields)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What every position says, whatever the game (games extend it with their pieces).

    Attributes:
        to_move: the seat whose turn it is (0-based; the roller at a roll).
        turn: the turn count, 1 for the first turn.
        phase: where the turn stands, as the position's phase field names it.
        over: True once the game has ended.
        winners: the winning seats once the game is over (empty before).
    """

    to_move: Seat
    turn: int
    phase: str
    over: bool
    winners: tuple[Seat, ...]


def players_in(text: str) -> int:
    """How many seats a position holds: the ``/``-separated entries of its first field.

    Raises:
        PositionError: the text is empty or not text.
    """
    if not isinstance(text, str) or not text.split():
        raise PositionError("a position is one line of text: the seats' pieces first, then "
                            "the game's other fields")
    return len(text.split(maxsplit=1)[0].split(SEATS))


class Reader:
    """Reads one game's position text field by field, with errors that name the field.

    Args:
        game: the game's name for error messages (``Monza``).
        text: the position.
        names: the names of the fields, in order (their count is checked).
        players: the game's player count (the first field's entries are checked against it).
    """

    def __init__(self, game: str, text: str, names: Sequence[str], players: int) -> None:
        self.game = game
        if not isinstance(text, str):
            raise PositionError(f"a {game} position is text, not {type(text).__name__}")
        self.fields = text.split()
        self.names = tuple(names)
        self.players = players
        if len(self.fields) != len(self.names):
            raise PositionError(
                f"a position of {game} has {len(self.names)} fields ({' '.join(self.names)}), "
                f"separated by spaces; this one has {len(self.fields)}")

    def error(self, name: str, problem: str) -> PositionError:
        """A PositionError about field ``name``."""
        return PositionError(f"bad {self.game} position, field {name}: {problem}")

    def raw(self, name: str) -> str:
        """The text of field ``name``."""
        return self.fields[self.names.index(name)]

    def seats(self, name: str, what: str) -> list[str]:
        """Field ``name`` split at ``/``: one entry per seat (the count is checked)."""
        parts = self.raw(name).split(SEATS)
        if len(parts) != self.players:
            raise self.error(name, f"{len(parts)} {what} for a {self.players}-player game "
                                   f"(one per seat, separated by {SEATS})")
        return parts

    def whole(self, name: str, text: str, low: int, high: int | None = None,
              what: str = "") -> int:
        """``text`` as a whole number from ``low`` to ``high`` (no limit when None)."""
        label = what or name
        allowed = f"from {low} to {high}" if high is not None else f"of {low} or more"
        if not text.isdecimal() or not text.isascii():
            raise self.error(name, f"{label} {text!r} is not a whole number {allowed}")
        value = int(text)
        if value < low or (high is not None and value > high):
            raise self.error(name, f"{label} {value} is out of range: a whole number {allowed}")
        return value

    def seat(self, name: str) -> Seat:
        """Field ``name`` as a seat, written 1-based (``1`` is seat 0)."""
        return self.whole(name, self.raw(name), 1, self.players, "seat") - 1

    def check_rotation(self, seat: Seat, turn: int) -> None:
        """Refuse a seat to move (field ``to-move``) that is not the one of turn ``turn`` in
        games where seat 1 plays turn 1 and the seats take turns in order."""
        expected = (turn - 1) % self.players
        if seat != expected:
            raise self.error("to-move", f"turn {turn} is seat {expected + 1}'s (seat 1 plays "
                             f"turn 1 and the seats take turns in order), not seat {seat + 1}'s")

    def choice(self, name: str, choices: Mapping[str, T]) -> T:
        """Field ``name`` as one of the words of ``choices``."""
        word = self.raw(name)
        if word not in choices:
            raise self.error(name, f"{word!r} is not one of {', '.join(choices)}")
        return choices[word]

    def numbers(self, name: str, text: str, low: int, high: int, what: str) -> tuple[int, ...]:
        """``text`` as comma-separated whole numbers from ``low`` to ``high`` (``-``: none)."""
        if text == NONE:
            return ()
        return tuple(self.whole(name, part, low, high, what) for part in text.split(","))


def numbers_text(values: Sequence[int]) -> str:
    """Whole numbers as a position writes them: ``3,5``, or ``-`` for none."""
    return ",".join(str(v) for v in values) if values else NONE


def seat_text(seat: Seat) -> str:
    """A seat as a position writes it: 1-based."""
    return str(seat + 1)
