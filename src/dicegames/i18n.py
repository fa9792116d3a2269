"""Languages: English, French, German and Italian, through gettext catalogues.

The English text in the code is the message id. Translations live in
``locale/<lang>/LC_MESSAGES/dicegames.po`` (edited by translators, see docs/translating.md);
``scripts/i18n.py`` extracts the ids with Babel, merges them into the ``.po`` files and
compiles the ``.mo`` files read here and the JSON catalogues the web pages read
(``web/static/i18n/<lang>.json``), so both sides translate from the same source. Both
compiled forms are package data, so an install needs neither Babel nor a build step.

Sentences are whole messages with named placeholders (``"{name} rolls {value}"``), never
pieces glued together, so each language can order its words as it must.
"""

from __future__ import annotations

import gettext as _gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib.resources import files

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                             "it": "Italiano"}
"""The languages offered, each by its own name (what a language switch shows)."""

DEFAULT = "en"
DOMAIN = "dicegames"

_current: ContextVar[str] = ContextVar("dicegames_language", default=DEFAULT)


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English and unknown languages: the ids as they
    are)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return _gettext.NullTranslations()
    path = files("dicegames").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")
    return _gettext.GNUTranslations(io.BytesIO(path.read_bytes()))


def translate(lang: str, message: str, **params: object) -> str:
    """``message`` in ``lang``, its ``{placeholders}`` filled from ``params``."""
    text = translations(lang).gettext(message) if message else message
    return text.format(**params) if params else text


def _(message: str, **params: object) -> str:
    """``message`` in the current language (see :func:`use`), placeholders filled."""
    return translate(_current.get(), message, **params)


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Mark ``message`` for extraction without translating it yet (translated where shown)."""
    return message


def current() -> str:
    """The language in use in this context."""
    return _current.get()


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Translate into ``lang`` (when offered; English otherwise) inside the block."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def choose(wanted: str | None = None, accept_language: str | None = None,
           environ_lang: str | None = None) -> str:
    """The language to use: an explicit choice (``?lang=fr``, ``--lang fr``) if offered,
    then the best offered one of an ``Accept-Language`` header, then ``LANG``-style text
    (``de_DE.UTF-8``), then English.

    >>> choose("it"), choose("xx", "de-CH, fr;q=0.8"), choose(None, "es, fr;q=0.5")
    ('it', 'de', 'fr')
    >>> choose(environ_lang="fr_FR.UTF-8"), choose(None, "*", "C")
    ('fr', 'en')
    """
    if wanted:
        code = wanted.strip().lower()[:2]
        if code in LANGUAGES:
            return code
    if accept_language:
        ranked: list[tuple[float, int, str]] = []
        for index, part in enumerate(accept_language.split(",")[:20]):
            tag, _sep, params = part.strip().partition(";")
            quality = 1.0
            if params.strip().startswith("q="):
                try:
                    quality = float(params.strip()[2:])
                except ValueError:
                    quality = 0.0
            code = tag.strip().lower()[:2]
            if code in LANGUAGES and quality > 0:
                ranked.append((-quality, index, code))
        if ranked:
            return min(ranked)[2]
    if environ_lang:
        code = environ_lang.strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT
