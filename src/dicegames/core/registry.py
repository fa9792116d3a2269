"""The game registry: every game's definition, looked up by id or alias.

Each game folder declares one :class:`~dicegames.core.definition.GameDefinition` (its
``DEFINITION``), and ``dicegames/games/__init__.py`` registers the games dicegames ships with
:func:`register`, one line each; importing ``dicegames`` loads that module, so the command
line, the server and the conformance tests all see the same list. Other packages add games
through the entry-point group ``dicegames.games`` (each entry point names a definition), and
the environment variable ``DICEGAMES_GAMES`` (comma-separated ``module:attribute``
references) adds more, so a test's game is also registered in the servers a test spawns.
Both are read on the first lookup, not at import.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from typing import Any

from dicegames.core.definition import GameDefinition, load_reference
from dicegames.core.errors import OptionError, PlayerCount, PositionError, UnknownGame
from dicegames.core.game import Game, State
from dicegames.core.model import GameSpec
from dicegames.core.options import read_option_files, resolve_options
from dicegames.core.position import players_in
from dicegames.core.presenter import Presenter

ENTRY_POINTS = "dicegames.games"
"""The entry-point group of games other packages add (each entry point: a definition)."""

ENVIRONMENT = "DICEGAMES_GAMES"
"""The environment variable naming more definitions (``module:attribute``, comma-separated)."""

_DEFINITIONS: dict[str, GameDefinition] = {}
_ALIASES: dict[str, str] = {}
_BY_CLASS: dict[type[Game[Any, Any, Any]], GameDefinition] = {}
_PLUGINS_READ: set[str] = set()
"""Holds ``"read"`` once the entry points and the environment have been read."""


def register(definition: GameDefinition | type[Game[Any, Any, Any]]) -> GameDefinition:
    """Add a game to the registry and return its definition.

    A bare rules class is registered as a definition with no optional parts. Registering the
    same definition (or rules class) twice is harmless; another game under a taken id or
    alias is refused.

    Raises:
        ValueError: the id or an alias belongs to another registered game.
    """
    if not isinstance(definition, GameDefinition):
        known = _BY_CLASS.get(definition)
        definition = known if known is not None else GameDefinition(rules=definition)
    spec = definition.spec
    taken = _DEFINITIONS.get(spec.id)
    if taken is not None and taken.rules is not definition.rules:
        raise ValueError(f"a game with id {spec.id!r} is already registered")
    for alias in (spec.id, *spec.aliases):
        owner = _ALIASES.get(alias)
        if owner is not None and owner != spec.id:
            raise ValueError(f"the alias {alias!r} already names {owner!r}")
    if taken is not None:
        return taken
    _DEFINITIONS[spec.id] = definition
    _BY_CLASS[definition.rules] = definition
    for alias in (spec.id, *spec.aliases):
        _ALIASES[alias] = spec.id
    return definition


def unregister(game_id: str) -> None:
    """Take a game out of the registry (tests that register a game for a while)."""
    definition = _DEFINITIONS.pop(game_id, None)
    if definition is None:
        return
    _BY_CLASS.pop(definition.rules, None)
    for alias in [a for a, owner in _ALIASES.items() if owner == game_id]:
        del _ALIASES[alias]
    presenter_of.cache_clear()


def _read_plugins() -> None:
    """Register the definitions of the entry points and of ``DICEGAMES_GAMES`` (once).

    A reference that cannot be loaded is skipped with a warning naming it, so a stale
    entry never stops dicegames from starting.
    """
    if _PLUGINS_READ:
        return
    _PLUGINS_READ.add("read")
    from importlib.metadata import entry_points

    references: list[tuple[str, Callable[[], Any]]] = [
        (f"entry point {point.name!r}", point.load)
        for point in entry_points(group=ENTRY_POINTS)]
    references += [(f"{ENVIRONMENT} {text.strip()!r}", partial(load_reference, text.strip()))
                   for text in os.environ.get(ENVIRONMENT, "").split(",") if text.strip()]
    for where, load in references:
        try:
            register(load())
        except Exception as error:
            warnings.warn(f"dicegames: cannot register the game of {where}: {error}",
                          RuntimeWarning, stacklevel=2)


def definitions() -> tuple[GameDefinition, ...]:
    """Every registered game's definition, in registration order (plugins last)."""
    _read_plugins()
    return tuple(_DEFINITIONS.values())


def definition(game_id: str) -> GameDefinition:
    """The definition registered under ``game_id`` or one of its aliases (any case).

    Raises:
        UnknownGame: no such game; the message lists the known ids.
    """
    _read_plugins()
    key = _ALIASES.get(game_id.strip().lower()) if isinstance(game_id, str) else None
    if key is None:
        known = ", ".join(_DEFINITIONS)
        raise UnknownGame(f"unknown game {game_id!r}; the games are: {known}")
    return _DEFINITIONS[key]


def definition_of(game: Game[Any, Any, Any]) -> GameDefinition:
    """The definition of a configured game, found by its rules class (or a base class).

    A game whose class was never registered (a test's game built directly) gets a
    definition of its rules alone: the generic presenter, no bots, kernel or encoder.
    """
    for cls in type(game).__mro__:
        found = _BY_CLASS.get(cls)
        if found is not None:
            return found
    return _unregistered(type(game))


@lru_cache(maxsize=64)
def _unregistered(rules: type[Game[Any, Any, Any]]) -> GameDefinition:
    """The rules-only definition of a game class that is not registered (kept per class)."""
    return GameDefinition(rules=rules)


@lru_cache(maxsize=256)
def presenter_of(game: Game[Any, Any, Any]) -> Presenter[Any]:
    """The presenter of a configured game (kept: one per configured game, 256 at most).

    The game's declared ``presenter`` part, or the generic :class:`Presenter` when the game
    has none.
    """
    cls = definition_of(game).part("presenter") or Presenter
    presenter: Presenter[Any] = cls(game)
    return presenter


def games() -> tuple[GameSpec, ...]:
    """The specs of every registered game, in registration order."""
    return tuple(found.spec for found in definitions())


def game_class(game_id: str) -> type[Game[Any, Any, Any]]:
    """The rules class registered under ``game_id`` (or an alias).

    Raises:
        UnknownGame: no such game; the message lists the known ids.
    """
    return definition(game_id).rules


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
    if count == 1 and spec.min_players > 1:
        # No "/" in the first field: the text is no list of seats, so what is wrong is the
        # text itself, which the game's own reader names (its fields, what they hold).
        configure(spec.id, spec.min_players, options, files=True).from_position(text)
    if not spec.min_players <= count <= spec.max_players:
        raise PositionError(f"the position has {count} seats in its first field; {spec.id} is "
                            f"for {spec.min_players} to {spec.max_players} players")
    return configure(spec.id, count, options, files=True).from_position(text)
