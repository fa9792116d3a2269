"""Languages: English, French, German and Italian, through gettext catalogues; numbers
and percentages in each language's own way (Babel's CLDR formats: ``55,6 %`` in French).

The English text in the code is the message id. Translations live in gettext catalogues
(``.po`` files edited by translators, see docs/translating.md), one per folder: the shared
catalogue of the package (``locale/<lang>/LC_MESSAGES/dicegames.po``: the web pages, the
terminal, the rules pages' frame, and every message more than one game uses) and each game's
own (``games/<game>/locale/<lang>/LC_MESSAGES/dicegames.po``: the messages only that game
uses). ``scripts/i18n.py`` extracts the ids with Babel, sorts each into its catalogue,
merges them into the ``.po`` files and compiles the ``.mo`` files read here. At load the
shared catalogue and every registered game's are merged into one table per language
(:func:`translations`); the web pages read the same table as JSON (:func:`table`), so both
sides translate from the same source. The ``.mo`` files are package data, so an install
needs neither Babel nor a build step. A registered game without a catalogue is shown in
English.

Sentences are whole messages with named placeholders (``"{name} rolls {value}"``), never
pieces glued together, so each language can order its words as it must. A number a person
reads (a win chance, a share) is written by :func:`percent` or :func:`decimal` before it
fills a placeholder, so its decimal mark and its percent sign follow the language.
"""

from __future__ import annotations

import copy
import gettext as _gettext
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                             "it": "Italiano", "ja": "日本語"}
"""The languages offered, each by its own name (what a language switch shows)."""

DEFAULT = "en"
DOMAIN = "dicegames"

_current: ContextVar[str] = ContextVar("dicegames_language", default=DEFAULT)


PACKAGE = Path(__file__).resolve().parent
"""The package folder: its ``locale/`` holds the shared catalogue."""


def game_folder(game_id: str) -> Path:
    """The folder of a registered game (its ``rules.md``, ``board.js`` and ``locale/``): its
    definition's ``folder`` (:mod:`dicegames.core.definition`)."""
    from dicegames.core.registry import definition

    return definition(game_id).path.resolve()


def catalogue_file(folder: Path, lang: str, suffix: str = ".mo") -> Path:
    """Where the catalogue of ``folder`` (the package's, or a game's) keeps ``lang``: the
    gettext layout, ``<folder>/locale/<lang>/LC_MESSAGES/dicegames<suffix>``."""
    return folder / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def catalogue_folders() -> tuple[Path, ...]:
    """The folders whose catalogues are merged: the package's (the shared catalogue),
    then each registered game's that has a ``locale/`` folder, in registration order."""
    from dicegames.core.registry import games

    found = [game_folder(spec.id) for spec in games()]
    return (PACKAGE, *(folder for folder in dict.fromkeys(found)
                       if folder != PACKAGE and (folder / "locale").is_dir()))


def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang``: the shared one merged with every registered game's
    (English and unknown languages: the ids as they are)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return _ENGLISH
    return _merged(lang, len(_registry_games()()))  # merged again when a game is registered


_ENGLISH = _gettext.NullTranslations()
_loaded: dict[str, _gettext.NullTranslations] = {}
"""The catalogue :func:`translate` last used for each language."""


@cache
def _registry_games() -> Callable[[], tuple[object, ...]]:
    """:func:`dicegames.core.registry.games`, imported on first use (the registry's modules
    import this one)."""
    from dicegames.core.registry import games

    return games


def _lookup(lang: str, message: str) -> str:
    """``message`` in ``lang``. The catalogue of the registered games is kept per language
    and looked at again only when a message is missing from it (a game registered since
    brings its messages), so a found message costs one dictionary lookup."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return message
    catalogue = _loaded.get(lang)
    if catalogue is None:
        catalogue = _loaded[lang] = translations(lang)
    text = catalogue.gettext(message)
    if text == message:
        latest = translations(lang)
        if latest is not catalogue:
            _loaded[lang] = latest
            text = latest.gettext(message)
    return text


@cache
def _merged(lang: str, registered: int) -> _gettext.GNUTranslations:
    """The shared ``.mo`` of ``lang`` with each game's messages added (``registered``:
    how many games the registry held, so a game registered later is merged too).

    Each message lives in one catalogue (``scripts/i18n.py check`` holds that); were one
    in two, the shared catalogue's translation would win.
    """
    folders = catalogue_folders()
    with catalogue_file(folders[0], lang).open("rb") as handle:
        merged = _gettext.GNUTranslations(handle)
    table = _table_of(merged)
    for folder in folders[1:]:
        path = catalogue_file(folder, lang)
        if path.is_file():
            with path.open("rb") as handle:
                for message, text in _table_of(_gettext.GNUTranslations(handle)).items():
                    if message:  # "" is the catalogue's header
                        table.setdefault(message, text)
    return merged


def reload() -> None:
    """Forget the merged catalogues: they are read again from the ``.mo`` files at their
    next use (after a test swaps the folders, or a translator compiles anew)."""
    _merged.cache_clear()
    _loaded.clear()


def _table_of(catalogue: _gettext.GNUTranslations) -> dict[object, str]:
    """The message table a compiled catalogue was read into (``str`` ids, or ``(id, n)``
    pairs for plural forms). gettext keeps it in ``_catalog``: no public name gives it."""
    found: dict[object, str] = vars(catalogue)["_catalog"]
    return found


def table(lang: str) -> Mapping[str, str]:
    """Every translated message of ``lang`` (merged as :func:`translations` does), id to
    text: what the web pages' ``t()`` looks up (served as JSON). Empty for English."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return {}
    merged = translations(lang)
    assert isinstance(merged, _gettext.GNUTranslations)
    return {message: text for message, text in _table_of(merged).items()
            if isinstance(message, str) and message}


def translate(lang: str, message: str, **params: object) -> str:
    """``message`` in ``lang``, its ``{placeholders}`` filled from ``params``."""
    text = _lookup(lang, message) if message else message
    return text.format(**params) if params else text


def title(name: str, lang: str | None = None) -> str:
    """A game's title (its spec's ``name``, a message of the game's catalogue) in ``lang``
    (default: the current language): *Pour quelques mètres de plus* is the original French
    title of *For a Few Extra Meters*."""
    return translate(_current.get() if lang is None else lang, name)


@cache
def _percent_pattern(lang: str, digits: int) -> tuple[object, object]:
    """The language's CLDR percent pattern with ``digits`` decimals, and its Babel locale."""
    from babel import Locale  # the first number written loads Babel, not the start-up

    locale = Locale.parse(lang if lang in LANGUAGES else DEFAULT)
    pattern = copy.copy(locale.percent_formats[None])
    pattern.frac_prec = (digits, digits)
    return pattern, locale


def percent(share: float, digits: int = 1, lang: str | None = None) -> str:
    """``share`` (0 to 1) as a percentage the way ``lang`` writes one (default: the current
    language), with ``digits`` decimals, through Babel's number formats.

    >>> percent(0.5556, lang="en"), percent(0.5556, lang="fr"), percent(0.5556, lang="de")
    ('55.6%', '55,6\xa0%', '55,6\xa0%')
    >>> percent(0.5, 0, lang="it")
    '50%'
    """
    pattern, locale = _percent_pattern(_current.get() if lang is None else lang, digits)
    text: str = pattern.apply(share, locale)  # type: ignore[attr-defined]
    return text


def decimal(value: float, digits: int = 1, lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals the way ``lang`` writes it (default: the current
    language), through Babel's number formats.

    >>> decimal(1234.56, lang="en"), decimal(1234.56, lang="de"), decimal(2.5, 0, "fr")
    ('1,234.6', '1.234,6', '2')
    """
    from babel.numbers import format_decimal

    places = "0" * digits
    pattern = "#,##0" + (f".{places}" if digits else "")
    return format_decimal(value, pattern, locale=_current.get() if lang is None else lang)


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
