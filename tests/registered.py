"""The registered games the translation and documentation tests check, from the registry.

Every game the package ships (its folder inside ``src/dicegames``) is checked: its
translations, its rules pages in every language, its page in docs/rules/; the tests fail
where it falls short. A game registered from elsewhere (the tests' toy game, a plug-in) is
checked for translations when its folder has a catalogue (``locale/``); without one it is
shown in English, and those tests skip it and say why. docs/rules/ has pages for the
package's games only. So no game is left out silently.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dicegames.core.registry import game_class, games
from dicegames.i18n import PACKAGE, game_folder


def shipped(game_id: str) -> bool:
    """True when the game is one of the package's own (its folder is inside it)."""
    return game_folder(game_id).is_relative_to(PACKAGE)


def shipped_games() -> list[Any]:
    """``pytest.param`` per registered game, those from outside the package marked skip
    (docs/rules/ has no page for them)."""
    return [pytest.param(spec.id, id=spec.id, marks=[] if shipped(spec.id) else [
        pytest.mark.skip(reason=f"{spec.id} is not one of the package's games (its folder "
                                f"{game_folder(spec.id)} is outside it): no docs/rules page")])
            for spec in games()]


def has_catalogue(game_id: str) -> bool:
    """True when the game's folder holds its own catalogue."""
    return (game_folder(game_id) / "locale").is_dir()


def untranslated_reason(game_id: str) -> str | None:
    """Why the translation tests skip ``game_id``, or None when they check it (every game
    the package ships is checked, with or without a catalogue)."""
    if has_catalogue(game_id) or shipped(game_id):
        return None
    return (f"{game_id} has no catalogue (no locale/ in {game_folder(game_id)}): it is "
            f"shown in English")


def translated_games(*values: Any) -> list[Any]:
    """``pytest.param`` per registered game (its id, then ``values``), the untranslated
    ones marked skip with their reason."""
    params = []
    for spec in games():
        reason = untranslated_reason(spec.id)
        marks = [pytest.mark.skip(reason=reason)] if reason else []
        params.append(pytest.param(spec.id, *values, marks=marks, id=spec.id))
    return params


@dataclass(frozen=True)
class Playout:
    """Seeded random games of one configuration (a game's ``examples.toml`` ``[[playout]]``):
    ``games`` of them, which must use at least ``coverage`` of the game's messages."""

    game_id: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    games: int = 4
    coverage: float = 0.5


def playouts(game_id: str) -> list[Playout]:
    """The playouts a game declares in its folder's ``examples.toml``; without the file,
    four games with its default players and options (and a floor of half its messages)."""
    path: Path = game_folder(game_id) / "examples.toml"
    if not path.is_file():
        return [Playout(game_id, game_class(game_id).spec.default_players)]
    declared = tomllib.loads(path.read_text(encoding="utf-8")).get("playout", [])
    return [Playout(game_id, **entry) for entry in declared]


def playout_params() -> list[Any]:
    """``pytest.param`` per playout of every registered game, the untranslated games' one
    marked skip with the reason."""
    params = []
    for spec in games():
        reason = untranslated_reason(spec.id)
        if reason:
            params.append(pytest.param(Playout(spec.id, spec.default_players),
                                       marks=pytest.mark.skip(reason=reason), id=spec.id))
            continue
        params += [pytest.param(playout, id=f"{spec.id}-{playout.players}")
                   for playout in playouts(spec.id)]
    return params
