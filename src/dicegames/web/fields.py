"""The fields a request to the hub carries, checked: a new match's players, a move's text,
an optional starting position. Each refusal is an :class:`~dicegames.web.errors.ApiError`
naming the field and what is allowed; nothing here touches a match."""

from __future__ import annotations

from typing import Any

from dicegames.core.errors import PositionError
from dicegames.core.game import Game, State
from dicegames.core.names import BadName, check_name, text_problem
from dicegames.core.record import MAX_POSITION
from dicegames.core.session import PlayerInfo
from dicegames.web.errors import ApiError


def option_code(message: str) -> str:
    """The error code of an option the registry refused (its message says which)."""
    if message.startswith("unknown game"):
        return "unknown_game"
    return "bad_player_count" if " players, not " in message else "bad_option"


def start_state(game: Game[Any, Any, Any], position: object) -> State[Any, Any, Any] | None:
    """The state a match's optional ``position`` describes (None: the start of the game).

    Raises:
        ApiError: 400 when it is not text or too long, 422 ``bad_position`` when the game
            refuses it (the message names the field and what is allowed).
    """
    if position is None:
        return None
    if not isinstance(position, str) or len(position) > MAX_POSITION:
        raise ApiError(400, "bad_request", f"'position' must be a position text of at most "
                       f"{MAX_POSITION} characters (see Positions on the game's rules page)")
    problem = text_problem(position)
    if problem is not None:
        raise ApiError(422, "bad_position", f"'position' contains {problem}; a position is "
                       "plain text (see Positions on the game's rules page)")
    try:
        return game.from_position(position)
    except PositionError as error:
        raise ApiError(422, "bad_position", str(error)) from None


def move_text(move: object) -> str:
    """A move or roll as a request carries it: plain text of at most 200 characters."""
    if not isinstance(move, str) or not move.strip():
        raise ApiError(400, "bad_request", "'move' must be the move's notation (text)")
    if len(move) > 200:
        raise ApiError(400, "bad_request", "'move' is longer than 200 characters")
    problem = text_problem(move)
    if problem is not None:
        raise ApiError(400, "bad_request", f"'move' contains {problem}; a move is plain "
                       "text in the game's notation")
    return move


def players_of(raw: object) -> list[PlayerInfo]:
    """A new match's ``players``: each ``{name, kind}`` checked (names as every name is,
    :func:`~dicegames.core.names.check_name`)."""
    if not isinstance(raw, list) or not raw:
        raise ApiError(400, "bad_request", "'players' must be a non-empty list of "
                       "{name, kind} objects")
    players = []
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise ApiError(400, "bad_request", f"player {number} must be an object "
                           "{name, kind}")
        kind = item.get("kind", "human")
        if not isinstance(kind, str) or not (kind == "human" or kind.startswith("bot:")):
            raise ApiError(422, "bad_player", f"player {number}'s kind must be 'human' or "
                           "'bot:<level>'")
        name = item.get("name", kind.replace("bot:", "Bot ").capitalize()
                        if kind != "human" else f"Player {number}")
        try:
            players.append(PlayerInfo(check_name(name, f"player {number}'s name"), kind))
        except BadName as error:
            raise ApiError(422, "bad_player", str(error)) from None
    return players
