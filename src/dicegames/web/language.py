"""The language of a web request, and the game texts the pages show, in that language.

A page asks with ``?lang=xx`` (its header's switch, kept in the browser); without it the
``Accept-Language`` header decides, then English (see :func:`dicegames.i18n.choose`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from dicegames.core.model import BotLevel
from dicegames.core.options import OptionSpec
from dicegames.i18n import choose, translate
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


def bot_json(levels: tuple[BotLevel, ...], lang: str) -> list[dict[str, Any]]:
    """The bot levels: each with its technical description (``doc``, English, as on the
    rules pages) and, for listed levels, a plain one in ``lang`` (``plain``)."""
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
                       "listed": level.listed})
    return answer
