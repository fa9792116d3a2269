"""The game registry: look games up by id or alias and configure them.

Each game class is registered with :func:`register` in ``dicegames/games/__init__.py``, one
line per game; importing ``dicegames`` loads that module, so the command line, the server and
the conformance tests all see the same list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicegames.core.errors import OptionError, PlayerCount, PositionError, UnknownGame
from dicegames.core.game import Game, State
from dicegames.core.model import GameSpec
from dicegames.core.options import read_option_files, resolve_options
from dicegames.core.position import players_in

_GAMES: dict[str, type[Game[Any, Any, Any]]] = {}
_ALIASES: dict[str, str] = {}


def register(cls: type[Game[Any, Any, Any]]) -> type[Game[Any, Any, Any]]:
    """Add a game class to the registry (usable as a class decorator)."""
    spec = cls.spec
    if spec.id in _GAMES and _GAMES[spec.id] is not cls:
        raise ValueError(f"a game with id {spec.id!r} is already registered")
    _GAMES[spec.id] = cls
    for alias in (spec.id, *spec.aliases):
        _ALIASES[alias] = spec.id
    return cls


def games() -> tuple[GameSpec, ...]:
    """The specs of every registered game, in registration order."""
    return tuple(cls.spec for cls in _GAMES.values())


def game_class(game_id: str) -> type[Game[Any, Any, Any]]:
    """The class registered under ``game_id`` (or an alias).

    Raises:
        UnknownGame: no such game; the message lists the known ids.
    """
    key = _ALIASES.get(game_id.strip().lower())
    if key is None:
        known = ", ".join(_GAMES)
        raise UnknownGame(f"unknown game {game_id!r}; the games are: {known}")
    return _GAMES[key]


def make(game_id: str, players: int | None = None, **options: object) -> Game[Any, Any, Any]:
    """Configure a game: ``make("extra-meters", players=2, track_length=50)``.

    ``players`` defaults to the game's usual count; options not given take the defaults
    RULINGS.md rules. Option values may be given as text (``"30"``), as from a command line.
    A file option (a Shortcut board, a Monza circuit) may be a path: it is read here, and
    the game keeps the file's text (so its records replay anywhere).

    Raises:
        OptionError: an unknown game or option, a value out of range, or a player count
            the game does not allow (:class:`~dicegames.core.errors.UnknownGame`,
            ``UnknownOption``, ``BadOptionValue``, ``PlayerCount``). The message names what
            is allowed.
    """
    return configure(game_id, players, options, files=True)


def configure(
    game_id: str, players: int | None = None, options: Mapping[str, object] | None = None,
    *, files: bool = False,
) -> Game[Any, Any, Any]:
    """:func:`make` with the options as a mapping, for options that come from text or files.

    Any key is checked against the game's declared options, so a record or a command line
    cannot smuggle in other arguments. Only with ``files`` (the command line, the library)
    may a file option name a path to read; by default nothing is read, which is what a
    record and the web app use, so their data can never make this process open a file.
    """
    cls = game_class(game_id)
    spec = cls.spec
    count = spec.default_players if players is None else players
    if isinstance(count, bool) or not isinstance(count, int) or not (
        spec.min_players <= count <= spec.max_players
    ):
        raise PlayerCount(
            f"{spec.id} is for {spec.min_players} to {spec.max_players} players, not {count!r}"
        )
    given = dict(options or {})
    values = read_option_files(spec.options, given) if files else given
    paths = [str(given[name]) for name in given if values[name] is not given[name]]
    try:
        return cls(count, resolve_options(spec.id, spec.options, values))
    except OptionError as error:
        if not paths:
            raise
        raise type(error)(f"{error} (read from {', '.join(paths)})") from None


def from_position(game_id: str, text: str, **options: object) -> State[Any, Any, Any]:
    """The state a position describes, in the game configured with ``options``.

    The player count is read off the position (its first field has one entry per seat):
    ``from_position("extra-meters", "12/7 2 opening - 4", track_length=30)``.

    Raises:
        OptionError: an unknown game or option, or a bad option value.
        PositionError: a malformed or impossible position, or a seat count the game does
            not allow.
    """
    cls = game_class(game_id)
    spec = cls.spec
    count = players_in(text)
    if not spec.min_players <= count <= spec.max_players:
        raise PositionError(f"the position has {count} seats in its first field; {spec.id} is "
                            f"for {spec.min_players} to {spec.max_players} players")
    return configure(spec.id, count, options, files=True).from_position(text)
