"""Short names for option values in titles: a custom board by its first comment and a hash.

A ``file`` option (a custom Shortcut board, a Monza circuit) holds the file's whole text, so
printing ``name=value`` would put a board of 27 rows in a report's title and in
``simulate``'s ``Options:`` line. :func:`option_value_label` names such a text by its
first comment line (``# ...``), else a JSON ``"name"`` field, else its first line, followed
by the first 8 hex digits of the text's SHA-256, which tell two versions of one board apart.
Built-in names (``default``) and every other kind of option print as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from dicegames.core.game import Game

LABEL_CHARACTERS = 60
"""The most characters kept of a board's comment line."""


def text_hash(text: str) -> str:
    """The short hash of a file option's text: 8 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def first_comment(text: str) -> str:
    """The first comment line of a board file, a JSON file's ``"name"``, or its first line."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#") and stripped.lstrip("#").strip():
            return stripped.lstrip("#").strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("name"), str) and data["name"].strip():
        return str(data["name"]).strip()
    return next((line.strip() for line in text.splitlines() if line.strip()), "empty")


def option_value_label(game: Game[Any, Any, Any], name: str, value: object) -> str:
    """``value`` as a title shows it: a file option's text as ``"comment" (hash)``."""
    spec = next((s for s in game.spec.options if s.name == name), None)
    if spec is None or spec.kind != "file" or not isinstance(value, str) \
            or value in spec.choices:
        return str(value)
    comment = first_comment(value)
    if len(comment) > LABEL_CHARACTERS:
        comment = comment[:LABEL_CHARACTERS - 1] + "…"
    return f"“{comment}” ({text_hash(value)})"


def options_label(game: Game[Any, Any, Any], options: Mapping[str, object] | None = None
                  ) -> str:
    """``name=value, ...`` of ``options`` (default: the game's), file texts named short."""
    values = game.options if options is None else options
    return ", ".join(f"{k}={option_value_label(game, k, v)}" for k, v in values.items())
