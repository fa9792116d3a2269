"""The requests the hub carries out, as typed values checked once at the door.

A handler (an HTTP route of :mod:`.api` or :mod:`.lobby`, a websocket message of
:mod:`.app`) reads the JSON it was sent and turns it into one of these frozen dataclasses
with ``from_json``; from then on every field has exactly its type, and the
:class:`~dicegames.web.hub.Hub` only decides what the request means for the match. A field
of the wrong shape is refused here with a domain error naming it and what it takes
(:class:`~dicegames.web.domain.BadRequest` and its siblings; :mod:`.errors` gives their
status and code); nothing here touches a match.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dicegames.core.model import Seat
from dicegames.core.names import check_name, text_problem
from dicegames.core.record import MAX_POSITION
from dicegames.core.session import DICE_MODES, DiceMode, PlayerInfo
from dicegames.web.domain import BadDice, BadOpen, BadPlayer, BadRequest, BadToken, SeededTable

JsonObject = Mapping[str, Any]
"""A request's body or message: a parsed JSON object."""

MAX_MOVE = 200
"""The longest move or roll text a request may carry (characters)."""

MAX_TOKENS = 16
"""The most seat tokens one request may carry (more than any game has seats)."""

MAX_SEED = 2**63
"""A creator's seed is a whole number below this."""


@dataclass(frozen=True, slots=True)
class CreateMatch:
    """``POST /api/matches``: a new match (see ``docs/web-api.md``).

    Attributes:
        game: the game's id or alias, as sent (the registry looks it up).
        players: who sits in each seat, names checked.
        options: the game's option values as sent (the game checks them).
        dice: who rolls the dice.
        seed: the creator's seed of the dice, or None (the server draws a secret).
        position: the position text the match starts from, or None (the game's start).
        open: listed in the lobby for people to take its invited seats.
        invited: the seats left for invited people (taken by a link or from the lobby).
    """

    game: str
    players: tuple[PlayerInfo, ...]
    options: Mapping[str, object]
    dice: DiceMode = "auto"
    seed: int | None = None
    position: str | None = None
    open: bool = False
    invited: frozenset[Seat] = frozenset()

    @classmethod
    def from_json(cls, body: JsonObject) -> CreateMatch:
        """The request a new match's body makes.

        Raises:
            BadRequest: a field of the wrong type.
            BadPlayer, BadOpen, BadDice, SeededTable: a set-up no match can have.
        """
        game = body.get("game")
        if not isinstance(game, str):
            raise BadRequest("'game' must be a game id (text)")
        players = _players(body.get("players"))
        is_open, invited = _table(body, players)
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise BadRequest("'options' must be an object of option values")
        dice = next((mode for mode in DICE_MODES if mode == body.get("dice", "auto")), None)
        if dice is None:
            raise BadDice(f"'dice' must be one of {', '.join(DICE_MODES)}")
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed < MAX_SEED):
            raise BadRequest("'seed' must be a whole number from 0 to 2**63-1")
        if seed is not None and is_open:
            raise SeededTable("an open table cannot have a 'seed': whoever chose it could "
                              "know every roll, and people taking a seat from the lobby "
                              "could not tell; leave 'seed' out (the server then draws a "
                              "secret and publishes its commitment)")
        position = body.get("position")
        if position is not None and (not isinstance(position, str)
                                     or len(position) > MAX_POSITION):
            raise BadRequest(f"'position' must be a position text of at most {MAX_POSITION} "
                             "characters (see Positions on the game's rules page)")
        return cls(game, players, MappingProxyType(dict(options)), dice, seed, position,
                   is_open, invited)


@dataclass(frozen=True, slots=True)
class Act:
    """``POST /api/matches/{id}/actions`` (or a websocket's ``act``): a person's decision.

    Attributes:
        token: the seat token of the seat deciding.
        move: the move in the game's notation.
        expect: the match's version the person decided on, or None (whatever it is).
    """

    token: str
    move: str
    expect: int | None = None

    @classmethod
    def from_json(cls, body: JsonObject) -> Act:
        """The decision a body sends (``token``, ``move``, optional ``expect``).

        Raises:
            BadToken: no seat token; BadRequest: a move or version of the wrong shape.
        """
        return cls(seat_token(body.get("token")), _move(body.get("move")),
                   _expect(body.get("expect")))


@dataclass(frozen=True, slots=True)
class EnterDice:
    """``POST /api/matches/{id}/dice`` (or a websocket's ``dice``): physical dice typed in.

    Attributes:
        token: a seat token of the match (anyone sitting may enter the dice).
        dice: the faces, in the game's notation.
        expect: the match's version they were rolled on, or None.
    """

    token: str
    dice: str
    expect: int | None = None

    @classmethod
    def from_json(cls, body: JsonObject) -> EnterDice:
        """The dice a body sends (``token``, ``dice``, optional ``expect``).

        Raises:
            BadToken: no seat token; BadRequest: dice or a version of the wrong shape.
        """
        return cls(seat_token(body.get("token")), _move(body.get("dice")),
                   _expect(body.get("expect")))


@dataclass(frozen=True, slots=True)
class Undo:
    """``POST /api/matches/{id}/undo`` (or a websocket's ``undo``): take back one's own
    last decision.

    Attributes:
        token: the seat token of the seat that decided.
        expect: the match's version the person saw, or None.
    """

    token: str
    expect: int | None = None

    @classmethod
    def from_json(cls, body: JsonObject) -> Undo:
        """The undo a body asks (``token``, optional ``expect``).

        Raises:
            BadToken: no seat token; BadRequest: a version of the wrong shape.
        """
        return cls(seat_token(body.get("token")), _expect(body.get("expect")))


@dataclass(frozen=True, slots=True)
class Again:
    """``POST /api/matches/{id}/again``: play again, the same seats in a new match.

    Attributes:
        tokens: the seat tokens the asking device holds in the finished match (one for a
            phone that joined by its seat link, every local seat for the device that set
            the game up); the answer gives each of those seats' token in the new match, and
            no other.
    """

    tokens: tuple[str, ...]

    @classmethod
    def from_json(cls, body: JsonObject) -> Again:
        """The seats a body asks for: ``token`` (one) or ``tokens`` (a list).

        Raises:
            BadToken: no seat token; BadRequest: tokens of the wrong shape.
        """
        raw = body.get("tokens")
        if raw is None:
            return cls((seat_token(body.get("token")),))
        if not isinstance(raw, list) or not raw or len(raw) > MAX_TOKENS:
            raise BadRequest(f"'tokens' must be a list of 1 to {MAX_TOKENS} seat tokens")
        return cls(tuple(seat_token(token) for token in raw))


@dataclass(frozen=True, slots=True)
class AskHint:
    """``GET /api/matches/{id}/hint?token=`` (or a websocket's ``hint``): what to play.

    Attributes:
        token: the seat token of the seat deciding.
    """

    token: str

    @classmethod
    def from_json(cls, body: JsonObject) -> AskHint:
        """The hint asked (``token``; a query string's parameters are such an object).

        Raises:
            BadToken: no seat token.
        """
        return cls(seat_token(body.get("token")))


@dataclass(frozen=True, slots=True)
class Join:
    """``POST /api/tables/{id}/join``: take a free invited seat of an open table.

    Attributes:
        name: the joiner's name, checked as every player name is.
    """

    name: str

    @classmethod
    def from_json(cls, body: JsonObject) -> Join:
        """The joiner a body names (``name``).

        Raises:
            BadName: a name that is not allowed (422 ``bad_player``).
        """
        return cls(check_name(body.get("name"), "'name' (your name)"))


@dataclass(frozen=True, slots=True)
class Upload:
    """``POST /api/replays``: a saved game record to store for replay.

    Attributes:
        record: the record as sent; :func:`~dicegames.core.record.from_record` checks it
            move by move (it is the record format's own job).
    """

    record: dict[str, Any]

    @classmethod
    def from_json(cls, body: JsonObject) -> Upload:
        """The record a body is (a copy: the request keeps its own)."""
        return cls(dict(body))


def seat_token(raw: object) -> str:
    """A seat token as a request carries it: non-empty text (which seat it holds, if any,
    only the match knows).

    Raises:
        BadToken: anything else.
    """
    if not isinstance(raw, str) or not raw:
        raise BadToken("a seat token is needed to act ('token')")
    return raw


def _move(raw: object) -> str:
    """A move or roll as a request carries it: plain text of at most :data:`MAX_MOVE`
    characters."""
    if not isinstance(raw, str) or not raw.strip():
        raise BadRequest("'move' must be the move's notation (text)")
    if len(raw) > MAX_MOVE:
        raise BadRequest(f"'move' is longer than {MAX_MOVE} characters")
    problem = text_problem(raw)
    if problem is not None:
        raise BadRequest(f"'move' contains {problem}; a move is plain text in the game's "
                         "notation")
    return raw


def _expect(raw: object) -> int | None:
    """The version a change expects the match to be at: a whole number, or None."""
    if raw is not None and (isinstance(raw, bool) or not isinstance(raw, int)):
        raise BadRequest("'expect' must be the match's version (a whole number), not "
                         f"{json.dumps(raw)[:40]}")
    return raw


def _players(raw: object) -> tuple[PlayerInfo, ...]:
    """A new match's ``players``: each ``{name, kind}`` checked (names as every name is,
    :func:`~dicegames.core.names.check_name`)."""
    if not isinstance(raw, list) or not raw:
        raise BadRequest("'players' must be a non-empty list of {name, kind} objects")
    players = []
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise BadRequest(f"player {number} must be an object {{name, kind}}")
        kind = item.get("kind", "human")
        if not isinstance(kind, str) or not (kind == "human" or kind.startswith("bot:")):
            raise BadPlayer(f"player {number}'s kind must be 'human' or 'bot:<level>'")
        name = item.get("name", kind.replace("bot:", "Bot ").capitalize()
                        if kind != "human" else f"Player {number}")
        players.append(PlayerInfo(check_name(name, f"player {number}'s name"), kind))
    return tuple(players)


def _table(body: JsonObject, players: tuple[PlayerInfo, ...]) -> tuple[bool, frozenset[Seat]]:
    """A new match's ``open`` flag and its invited seats (players marked ``"invited":
    true``), checked: an open table needs an invited seat, and a bot is never invited."""
    is_open = body.get("open", False)
    if not isinstance(is_open, bool):
        raise BadRequest("'open' must be true (listed in the lobby) or false (private)")
    invited = set()
    for seat, (item, player) in enumerate(zip(body["players"], players, strict=True)):
        flag = item.get("invited", False)
        if not isinstance(flag, bool):
            raise BadRequest(f"player {seat + 1}'s 'invited' must be true or false")
        if flag and player.is_bot:
            raise BadPlayer(f"player {seat + 1} is a bot: only people are invited")
        if flag:
            invited.add(seat)
    if is_open and not invited:
        raise BadOpen("an open table needs at least one invited seat (a player with "
                      "\"invited\": true) for someone from the lobby to take")
    return is_open, frozenset(invited)
