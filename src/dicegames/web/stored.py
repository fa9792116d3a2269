"""What the stores hold, whatever the database: a match as stored (:class:`StoredMatch`), an
open table as the lobby lists it (:class:`Table`), and the checks that turn stored rows into
them (:func:`decode`), refusing a damaged row with a sentence saying which field is wrong.

Both stores (:mod:`.store`, SQLite, and :mod:`.store_pg`, PostgreSQL) read the same columns
in the same order and decode them here, so a match reads the same from either.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.core.session import DICE_MODES
from dicegames.web.domain import DamagedMatch

MATCH_COLUMNS = ("id, game, options, players, seed, dice, position, open, fair, rematch")
"""The columns of a match row :func:`decode` takes, in its order."""

SEAT_COLUMNS = "seat, token, invited, claimed"
"""The columns of a seat row :func:`decode` takes, in its order."""

MOVE_COLUMNS = "idx, seat, text, several"
"""The columns of a move row :func:`decode` takes, in its order."""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored: its set-up, seat tokens and moves ``(seat, text, several)``.

    ``dice`` is ``auto`` (the server rolls), ``manual`` (people enter physical dice) or
    ``record`` (an uploaded record: read-only, for replay).
    """

    id: str
    game: str
    options: dict[str, Any]
    players: list[dict[str, str]]
    seed: int | None
    dice: str
    tokens: dict[int, str]
    moves: list[tuple[int | None, str, bool]]
    position: str | None = None
    """The position the match started from (None: the start of the game)."""
    open: bool = False
    """Listed in the lobby while it has free invited seats (False: private)."""
    invited: frozenset[int] = frozenset()
    """The seats whose people were invited by a link (the lobby may hand them out)."""
    fair: dict[str, Any] | None = None
    """The match's dice commitment with its secret (:meth:`dicegames.core.fair.FairDice.
    stored`); None for a match stored before commitments (its seed rolls on). Never leaves
    the server before the game is over."""
    rematch: str | None = None
    """The id of the match its players started to play again (None: none yet)."""


@dataclass(frozen=True, slots=True)
class Table:
    """An open match with at least one free invited seat, as the lobby lists it."""

    id: str
    game: str
    options: dict[str, Any]
    players: list[dict[str, str]]
    created: float
    free: frozenset[int]
    """The invited seats nobody has taken yet."""
    invited: frozenset[int]
    """All the invited seats (taken or not)."""


class DamagedRow(ValueError):
    """A stored row is not what the app writes (edited by hand, or damaged on disk)."""


DICE = (*DICE_MODES, "record")
"""The stored ``dice`` values: a played match's dice mode, or ``record`` (an upload)."""


def damaged(match_id: str, reason: str) -> DamagedMatch:
    return DamagedMatch(f"match {match_id!r} is damaged in the database and cannot be "
                        f"loaded: {reason}")


def decode(row: Sequence[Any], seats: list[Any], moves: list[Any]) -> StoredMatch:
    """A match's rows as a :class:`StoredMatch`, every field checked.

    Raises:
        DamagedRow: saying which field is wrong.
    """
    match_id, game, options, players, seed, dice, position, is_open, fair, rematch = row
    if not isinstance(game, str):
        raise DamagedRow(f"its game is {game!r}, not a game id")
    decoded_players = players_of(players)
    if seed is not None and not isinstance(seed, int):
        raise DamagedRow(f"its seed is {_short(seed)}, not a whole number")
    if dice not in DICE:
        raise DamagedRow(f"its dice mode is {_short(dice)}, not one of {', '.join(DICE)}")
    if position is not None and not isinstance(position, str):
        raise DamagedRow(f"its position is {_short(position)}, not a position text")
    tokens = {}
    invited = set()
    for seat, token, flag, _claimed in seats:
        if not (isinstance(seat, int) and 0 <= seat < len(decoded_players)
                and isinstance(token, str)):
            raise DamagedRow(f"a seat row is ({_short(seat)}, {_short(token)}), not a seat "
                             f"number below {len(decoded_players)} and its token")
        tokens[seat] = token
        if flag:
            invited.add(seat)
    played: list[tuple[int | None, str, bool]] = []
    for index, (idx, seat, text, several) in enumerate(moves):
        if idx != index or not (seat is None or isinstance(seat, int)) or (
                not isinstance(text, str)) or several not in (0, 1):
            raise DamagedRow(f"move row {_short(idx)} is ({_short(seat)}, {_short(text)}, "
                             f"{_short(several)}), not move {index} as (seat, notation, "
                             "0 or 1)")
        played.append((seat, text, bool(several)))
    return StoredMatch(match_id, game, _object(options), decoded_players, seed, dice, tokens,
                       played, position, is_open == 1, frozenset(invited), _fair(fair),
                       rematch if isinstance(rematch, str) else None)


def _fair(text: object) -> dict[str, Any] | None:
    """The stored dice commitment: null, or a JSON object (checked further when the match
    is rebuilt, :meth:`dicegames.core.fair.FairDice.from_json`)."""
    if text is None:
        return None
    value = _json(text, "fair")
    if not isinstance(value, dict):
        raise DamagedRow(f"its dice commitment is {_short(text)}, not a JSON object")
    return value


def _object(text: object) -> dict[str, Any]:
    """Stored options: a JSON object."""
    value = _json(text, "options")
    if not isinstance(value, dict):
        raise DamagedRow(f"its options are {_short(text)}, not a JSON object")
    return value


def players_of(text: object) -> list[dict[str, str]]:
    """Stored players: a non-empty JSON list of ``{"name": text, "kind": text}``."""
    value = _json(text, "players")
    if not (isinstance(value, list) and value and all(
            isinstance(p, dict) and isinstance(p.get("name"), str)
            and isinstance(p.get("kind"), str) for p in value)):
        raise DamagedRow(f"its players are {_short(text)}, not a JSON list of "
                         "{name, kind} objects")
    return value


def _json(text: object, what: str) -> Any:
    if not isinstance(text, str):
        raise DamagedRow(f"its {what} are {_short(text)}, not JSON text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DamagedRow(f"its {what} are {_short(text)}, not valid JSON") from None


def _short(value: object) -> str:
    """A stored value as a message quotes it (at most 40 characters)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
