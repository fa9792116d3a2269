"""Translation catalogues: extract the English messages, sort each into its catalogue, merge
them into each language's ``.po`` file and compile the ``.mo`` files.

    python scripts/i18n.py update    # extract, merge into every .po (new ids untranslated)
    python scripts/i18n.py compile   # .po -> .mo
    python scripts/i18n.py check     # exit 1 when a .po lacks an id or a compiled file is stale

There is one catalogue per folder, in the gettext layout
(``<folder>/locale/<lang>/LC_MESSAGES/dicegames.po``, with ``.mo`` and a ``dicegames.pot``
template): the shared one in ``src/dicegames/`` and one in each registered game's folder.
Each message lives in exactly one of them, by this rule:

- a message that only one game uses (in its folder's Python files or ``board.js``, or its
  spec: pitch, option labels, explanations and choice labels, bot levels) is that game's;
- a message the shared code uses (the package outside the games' folders, the web pages'
  ``*.js`` and ``*.html``, the generic bots, the launcher's level words), or more than one
  game, is shared.

So a new game's own messages go in its own folder; a message it shares with another game
moves (with its translations) into the shared catalogue at the next ``update``. A game whose
folder lies outside the package and has no ``locale/`` folder (a plug-in, the tests' toy
game) is left out: it shows in English. The web pages read the merged catalogue as JSON,
served by the app (``dicegames.i18n.table``), so nothing else is compiled.

Messages come from four places, all in English: Python ``_("...")`` / ``N_("...")`` calls
and the web pages' ``t("...")`` calls (both read by Babel's extractors), the ``data-i18n``
elements and ``data-i18n-attrs`` attributes of the pages' HTML, and the games' specs (option
labels and explanations, pitches, bot levels), read from the registry. See
docs/translating.md for the translators' workflow. Needs Babel (``pip install -e '.[dev]'``).
"""

from __future__ import annotations

import copy
import gettext
import io
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from dicegames.bots import GENERIC, bot_levels
from dicegames.core.registry import games, make
from dicegames.i18n import DEFAULT, DOMAIN, LANGUAGES, PACKAGE, catalogue_file, game_folder
from dicegames.terminal.launcher import PLAIN_LEVELS

STATIC = PACKAGE / "web" / "static"
SHARED = "shared"
"""The name of the shared catalogue (the others are named by their game's id)."""
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT)

_TAG = re.compile(r"<(\w+)\b([^>]*\bdata-i18n(?![\w-])[^>]*)>([^<]*)</\1>")
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')

Location = tuple[str, int]


@dataclass(frozen=True)
class Unit:
    """One catalogue: its name (:data:`SHARED` or a game id) and the folder whose
    ``locale/`` holds it."""

    name: str
    folder: Path

    def po(self, lang: str) -> Path:
        return catalogue_file(self.folder, lang, ".po")

    def mo(self, lang: str) -> Path:
        return catalogue_file(self.folder, lang, ".mo")

    @property
    def pot(self) -> Path:
        return self.folder / "locale" / f"{DOMAIN}.pot"

    def read(self, lang: str) -> Catalog:
        """The ``.po`` of ``lang`` (an empty catalogue when there is none yet)."""
        if not self.po(lang).is_file():
            return Catalog(locale=lang, domain=DOMAIN)
        with self.po(lang).open("rb") as handle:
            return read_po(handle, locale=lang, domain=DOMAIN)


def normalise(text: str) -> str:
    """Whitespace as the pages compare it (``textContent`` with runs folded)."""
    return re.sub(r"\s+", " ", text).strip()


def html_messages(text: str) -> Iterator[str]:
    """The texts of ``data-i18n`` elements and the attributes named by ``data-i18n-attrs``."""
    for match in re.finditer(r"<(\w+)\b([^>]*)>", text):
        attrs = dict(_ATTR.findall(match.group(2)))
        for name in attrs.get("data-i18n-attrs", "").split():
            yield normalise(attrs[name])
    for match in _TAG.finditer(text):
        yield normalise(match.group(3))


def spec_messages(game_id: str) -> Iterator[str]:
    """A game's title, option labels, explanations and choice labels, its pitch, its listed bot
    levels' names and every bot's description of how it plays (for every player count: some
    change with it)."""
    spec = make(game_id).spec
    yield spec.name  # the title, in each language (dicegames.i18n.title)
    yield spec.pitch
    for option in spec.options:
        yield option.title
        yield option.doc
        yield from (option.choice_title(choice) for choice in option.choices)
    for level in bot_levels(make(spec.id)):
        if level.listed:
            yield level.name
    for players in range(spec.min_players, spec.max_players + 1):
        for level in bot_levels(make(spec.id, players=players)):
            yield level.doc  # how each bot plays, on the rules pages


def shared_spec_messages() -> Iterator[str]:
    """The launcher's plain level words and the generic bots' names and descriptions."""
    yield from PLAIN_LEVELS.values()
    yield "the same player as {level}"
    for level in GENERIC:
        if level.listed:
            yield level.name
        yield level.doc


def code_messages(paths: Iterable[Path], method: str) -> Iterator[tuple[str, Location, bool]]:
    """The messages Babel extracts from ``paths`` (``method``: python or javascript), each
    with its location and whether it is a Python brace-format message."""
    keywords = {"_": None, "N_": None} if method == "python" else {"t": None, "tr": None}
    for path in paths:
        with path.open("rb") as handle:
            for line, message, _comments, _context in extract(method, handle,
                                                               keywords=keywords):
                if isinstance(message, str):
                    yield (message, (where(path), line),
                           method == "python" and "{" in message)


def where(path: Path) -> str:
    """A source's location as the catalogues name it (relative to the package when in it)."""
    return (path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path).as_posix()


def units() -> tuple[Unit, ...]:
    """The shared catalogue, then each translated game's, in registration order: a game is
    translated when its folder has a ``locale/`` folder or lies inside the package (the
    games dicegames ships, which ``update`` gives a catalogue)."""
    found = [Unit(SHARED, PACKAGE)]
    for spec in games():
        folder = game_folder(spec.id)
        if folder != PACKAGE and (folder.is_relative_to(PACKAGE) or (folder / "locale").is_dir()):
            found.append(Unit(spec.id, folder))
    return tuple(found)


def sources() -> Iterator[tuple[str, str, Location, bool]]:
    """Every message with the catalogue that uses it: ``(unit, message, location, python
    brace-format)``, the shared code's first."""
    game_units = units()[1:]
    folders = [game_folder(spec.id) for spec in games()]
    shared_py = [path for path in sorted(PACKAGE.rglob("*.py")) if path.name != "i18n.py"
                 and not any(path.is_relative_to(folder) for folder in folders
                             if folder != PACKAGE)]
    for message, location, brace in code_messages(shared_py, "python"):
        yield SHARED, message, location, brace
    for message, location, brace in code_messages(sorted(STATIC.glob("*.js")), "javascript"):
        yield SHARED, message, location, brace
    for path in sorted(STATIC.glob("*.html")):
        for message in html_messages(path.read_text(encoding="utf-8")):
            yield SHARED, message, (where(path), 0), False
    for message in shared_spec_messages():
        yield SHARED, message, ("bots and launcher", 0), False
    for unit in game_units:
        python = sorted(unit.folder.rglob("*.py"))
        for message, location, brace in code_messages(python, "python"):
            yield unit.name, message, location, brace
        for message, location, brace in code_messages(sorted(unit.folder.rglob("*.js")),
                                                       "javascript"):
            yield unit.name, message, location, brace
        for message in spec_messages(unit.name):
            yield unit.name, message, (f"{where(unit.folder)} (spec)", 0), False


def owners() -> dict[str, str]:
    """Each message's catalogue, by the rule in this module's docstring."""
    users: dict[str, set[str]] = {}
    for unit, message, _location, _brace in sources():
        if message:
            users.setdefault(message, set()).add(unit)
    return {message: next(iter(found)) if len(found) == 1 else SHARED
            for message, found in users.items()}


def templates() -> dict[str, Catalog]:
    """Each catalogue's English messages, each with where it comes from."""
    found = {unit.name: Catalog(domain=DOMAIN, project="dicegames", version="0.1.0")
             for unit in units()}
    owner = owners()
    for _unit, message, location, brace in sources():
        if message:
            found[owner[message]].add(message, locations=[location],
                                      flags=["python-brace-format"] if brace else [])
    return found


def template() -> Catalog:
    """Every English message of every catalogue (the ids the tests expect translated)."""
    merged = Catalog(domain=DOMAIN, project="dicegames", version="0.1.0")
    for catalog in templates().values():
        for message in catalog:
            if message.id:
                merged[message.id] = message
    return merged


def read(lang: str) -> Catalog:
    """Every catalogue's ``.po`` of ``lang``, merged into one (as the app merges them)."""
    merged = Catalog(locale=lang, domain=DOMAIN)
    for unit in units():
        for message in unit.read(lang):
            if message.id:
                merged[message.id] = message
    return merged


def update() -> None:
    """Merge the current messages into every catalogue's ``.po`` files (creating missing
    ones). A message that moved to another catalogue takes its translation along."""
    pots = templates()
    known = {lang: {str(m.id): m for m in read(lang) if m.id and m.string and not m.fuzzy}
             for lang in TRANSLATED}
    for unit in units():
        pot = pots[unit.name]
        unit.pot.parent.mkdir(parents=True, exist_ok=True)
        with unit.pot.open("wb") as handle:
            write_po(handle, pot, omit_header=False, width=100)
        for lang in TRANSLATED:
            catalog = unit.read(lang)
            catalog.update(copy.deepcopy(pot), no_fuzzy_matching=True)  # it adopts the
            # template's entries: a copy each, or one language's text would reach the next
            for message in catalog:
                found = known[lang].get(str(message.id)) if message.id else None
                if found is not None and not message.string:
                    message.string = found.string
            unit.po(lang).parent.mkdir(parents=True, exist_ok=True)
            with unit.po(lang).open("wb") as handle:
                write_po(handle, catalog, width=100, ignore_obsolete=True)
            print(f"wrote {unit.po(lang)}")


def compiled(unit: Unit, lang: str) -> bytes:
    """The ``.mo`` bytes of one catalogue's ``.po``."""
    buffer = io.BytesIO()
    write_mo(buffer, unit.read(lang))
    return buffer.getvalue()


def messages_of(mo: bytes) -> dict[object, str]:
    """A compiled catalogue's translations, as gettext reads them, without the header: the
    header names the Babel version that wrote the file ("Generated-By"), so the bytes of
    equal catalogues differ between Babel releases while what a reader gets does not."""
    table: dict[object, str] = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]
    table.pop("", None)
    return table


def compile_all() -> None:
    """Write every catalogue's ``.mo`` files."""
    for unit in units():
        for lang in TRANSLATED:
            if unit.po(lang).is_file():
                unit.mo(lang).write_bytes(compiled(unit, lang))
        print(f"compiled {unit.name}")


def problems() -> list[str]:
    """What ``check`` reports: a missing catalogue, ids missing from a ``.po`` or left in
    one after they moved, an id in two catalogues, and stale compiled files."""
    found: list[str] = []
    pots = templates()
    for lang in TRANSLATED:
        seen: dict[str, str] = {}
        for unit in units():
            if not unit.po(lang).is_file():
                found.append(f"{unit.name} {lang}: no catalogue at {unit.po(lang)} (run update)")
                continue
            wanted = {str(m.id) for m in pots[unit.name] if m.id}
            have = {str(m.id) for m in unit.read(lang) if m.id}
            found += [f"{unit.name} {lang}: {message!r} is not in the .po (run update)"
                      for message in sorted(wanted - have)]
            found += [f"{unit.name} {lang}: {message!r} belongs to another catalogue or is no "
                      f"longer used (run update)" for message in sorted(have - wanted)]
            for message in sorted(have):
                if message in seen:
                    found.append(f"{lang}: {message!r} is in both {seen[message]} and "
                                 f"{unit.name}")
                seen.setdefault(message, unit.name)
            if not unit.mo(lang).is_file() or messages_of(unit.mo(lang).read_bytes()) \
                    != messages_of(compiled(unit, lang)):
                found.append(f"{unit.name} {lang}: the .mo is stale (run compile)")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        print("\n".join(found) or "catalogues up to date")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
