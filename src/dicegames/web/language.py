"""The language of a web request, and the game texts the pages show, in that language.

A page asks with ``?lang=xx`` (its header's switch, kept in the browser); without it the
``Accept-Language`` header decides, then English (see :func:`dicegames.i18n.choose`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from dicegames import strength
from dicegames.core.model import BotLevel
from dicegames.core.options import OptionSpec
from dicegames.i18n import choose, translate, use
from dicegames.terminal.launcher import PLAIN_LEVELS


def request_language(connection: HTTPConnection) -> str:
    """The language a request (or websocket) asks for."""
    return choose(connection.query_params.get("lang"),
                  connection.headers.get("accept-language"))


def option_json(option: OptionSpec, lang: str) -> dict[str, Any]:
    """One option as the set-up form shows it: label, explanation and choice labels in
    ``lang``; the name, kind and values as they are typed."""
    return {"name": option.name, "kind": option.kind, "default": option.default,
            "doc": translate(lang, option.doc), "label": translate(lang, option.title),
            "minimum": option.minimum, "maximum": option.maximum,
            "choices": list(option.choices),
            "choice_labels": [translate(lang, option.choice_title(c)) for c in option.choices],
            "allowed": option.allowed()}


def strength_words(game_id: str, level: str, lang: str) -> dict[str, str]:
    """How strong ``level`` is in words in ``lang``, by player count (see
    :func:`dicegames.strength.plain_strength`; ``"1"``: its mean score alone)."""
    data = strength.load(game_id)
    entry = strength.level_entry(data, level) if data is not None else None
    if entry is None:
        return {}
    counts = [versus["players"] for versus in entry.get("versus") or []]
    if entry.get("alone") is not None:
        counts.insert(0, 1)
    found: dict[str, str] = {}
    with use(lang):
        for players in counts:
            words = strength.plain_strength(game_id, level, players)
            if words is not None:
                found[str(players)] = words
    return found


def bot_json(levels: tuple[BotLevel, ...], lang: str, game_id: str | None = None
             ) -> list[dict[str, Any]]:
    """The bot levels: each with its technical description (``doc``, English, as on the
    rules pages) and, for listed levels, a plain one in ``lang`` (``plain``) and how strong
    it is in words for each player count measured (``strength``: ``{"2": "wins about 2
    games in 3 against medium", ...}``, from the game's strength figures; empty without
    them)."""
    seen: dict[str, str] = {}
    answer: list[dict[str, Any]] = []
    for level in levels:
        plain = PLAIN_LEVELS.get(level.name, "")
        if level.listed and level.doc in seen:
            plain = translate(lang, "the same player as {level}",
                              level=translate(lang, seen[level.doc]))
        else:
            plain = translate(lang, plain)
        if level.listed:
            seen.setdefault(level.doc, level.name)
        answer.append({"name": level.name, "doc": level.doc, "plain": plain,
                       "listed": level.listed,
                       "strength": strength_words(game_id, level.name, lang)
                       if game_id is not None and level.listed else {}})
    return answer
