"""The games the web tests run on: every registered one, in registration order, and what
each lacks of the optional parts a test needs.

A web test that covers every game iterates :func:`game_ids` (never a list of its own, which
would silently leave out a new game), and skips, with the reason, the games that lack a part
it needs (:func:`skip_unless`): a game may come with only its rules and a presenter, as the
test session's toy game does.
"""

from __future__ import annotations

import pytest

from dicegames.core import registry
from dicegames.core.registry import games


def game_ids() -> list[str]:
    """The id of every registered game, in registration order."""
    return [spec.id for spec in games()]


def lacks(game_id: str, part: str) -> bool:
    """True when ``game_id`` is registered without the optional ``part`` (``"bots"``,
    ``"kernel"``, ...) of its definition. Every game has every part where the registry
    does not hold definitions."""
    definition = getattr(registry, "definition", None)
    if definition is None:
        return False
    return definition(game_id).part(part) is None


def lacks_board(game_id: str) -> bool:
    """True when ``game_id`` has no board module of its own (``board.js``)."""
    from dicegames.web.app import board_source

    return board_source(game_id) is None


def lacks_translation(game_id: str, lang: str) -> bool:
    """True when ``game_id``'s own texts have no translation in ``lang`` (its pitch, the
    first sentence anyone sees of it, reads the same as in English)."""
    from dicegames.core.registry import game_class
    from dicegames.i18n import DEFAULT, translate

    pitch = game_class(game_id).spec.pitch
    return lang != DEFAULT and translate(lang, pitch) == pitch


def skip_unless(game_id: str, *parts: str, lang: str = "") -> None:
    """Skip the test for ``game_id`` (saying why) when it lacks one of ``parts``
    (``"board"``: its ``board.js``; the others: parts of its definition) or, with ``lang``,
    a translation into ``lang``."""
    for part in parts:
        if lacks_board(game_id) if part == "board" else lacks(game_id, part):
            pytest.skip(f"the game {game_id!r} has no {part} (an optional part)")
    if lang and lacks_translation(game_id, lang):
        pytest.skip(f"the game {game_id!r} has no translation into {lang!r}")
