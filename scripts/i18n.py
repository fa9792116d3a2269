"""Translation catalogues: extract the English messages, merge them into each language's
``.po`` file, compile the ``.mo`` files (Python) and the JSON catalogues (web pages).

    python scripts/i18n.py update    # extract, merge into every .po (new ids untranslated)
    python scripts/i18n.py compile   # .po -> .mo and web/static/i18n/<lang>.json
    python scripts/i18n.py check     # exit 1 when a .po lacks an id or a compiled file is stale

Messages come from four places, all in English: Python ``_("...")`` / ``N_("...")`` calls
and the web pages' ``t("...")`` calls (both read by Babel's extractors), the ``data-i18n``
elements and ``data-i18n-attrs`` attributes of the pages' HTML, and the games' specs (option
labels and explanations, pitches, bot levels), read from the registry. See
docs/translating.md for the translators' workflow. Needs Babel (``pip install -e '.[dev]'``).
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

import dicegames
from dicegames.bots import bot_levels
from dicegames.core.registry import definition, games, make
from dicegames.i18n import DEFAULT, DOMAIN, LANGUAGES
from dicegames.terminal.launcher import PLAIN_LEVELS

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "dicegames"
LOCALE = PACKAGE / "locale"
STATIC = PACKAGE / "web" / "static"
JSON_DIR = STATIC / "i18n"

_TAG = re.compile(r"<(\w+)\b([^>]*\bdata-i18n(?![\w-])[^>]*)>([^<]*)</\1>")
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


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


def spec_messages() -> Iterator[str]:
    """Option labels, explanations and choice labels, pitches, the listed bot levels' names
    and plain descriptions, and every bot's description of how it plays (for every player
    count: some change with it)."""
    yield from PLAIN_LEVELS.values()
    yield "the same player as {level}"
    for spec in games():
        if not definition(spec.id).path.is_relative_to(Path(dicegames.__file__).parent):
            continue  # a game registered from outside the package (a test's) has its own
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


def template() -> Catalog:
    """Every English message, each with where it comes from."""
    catalog = Catalog(domain=DOMAIN, project="dicegames", version="0.1.0")
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "i18n.py":
            continue
        with path.open("rb") as handle:
            for line, message, _comments, _context in extract(
                    "python", handle, keywords={"_": None, "N_": None}):
                if isinstance(message, str):
                    catalog.add(message, locations=[(path.relative_to(PACKAGE).as_posix(), line)],
                                flags=["python-brace-format"] if "{" in message else [])
    sources = [*sorted(STATIC.glob("*.js")), *sorted(PACKAGE.glob("games/*/board.js"))]
    for path in sources:
        with path.open("rb") as handle:
            for line, message, _comments, _context in extract(
                    "javascript", handle, keywords={"t": None, "tr": None}):
                if isinstance(message, str):
                    catalog.add(message, locations=[(path.relative_to(PACKAGE).as_posix(), line)])
    for path in sorted(STATIC.glob("*.html")):
        for message in html_messages(path.read_text(encoding="utf-8")):
            catalog.add(message, locations=[(path.relative_to(PACKAGE).as_posix(), 0)])
    for message in spec_messages():
        if message:
            catalog.add(message, locations=[("games (specs)", 0)])
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def update() -> None:
    """Merge the current messages into every language's ``.po`` (creating missing ones)."""
    pot = template()
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as handle:
        write_po(handle, pot, omit_header=False, width=100)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = read(lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, ignore_obsolete=True)
        print(f"wrote {path}")


def compiled(lang: str) -> tuple[bytes, str]:
    """The ``.mo`` bytes and the JSON text of one language's ``.po``."""
    catalog = read(lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    table = {str(m.id): str(m.string) for m in catalog if m.id and m.string and not m.fuzzy}
    return buffer.getvalue(), json.dumps(table, ensure_ascii=False, indent=0,
                                         sort_keys=True) + "\n"


def compile_all() -> None:
    """Write every language's ``.mo`` and JSON catalogue."""
    JSON_DIR.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        mo, table = compiled(lang)
        po_path(lang).with_suffix(".mo").write_bytes(mo)
        (JSON_DIR / f"{lang}.json").write_text(table, encoding="utf-8")
        print(f"compiled {lang}")


def problems() -> list[str]:
    """What ``check`` reports: ids missing from a ``.po``, and stale compiled files."""
    found: list[str] = []
    wanted = {str(m.id) for m in template() if m.id}
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        have = {str(m.id) for m in read(lang) if m.id}
        found += [f"{lang}: {message!r} is not in the .po (run update)"
                  for message in sorted(wanted - have)]
        mo, table = compiled(lang)
        if po_path(lang).with_suffix(".mo").read_bytes() != mo:
            found.append(f"{lang}: the .mo is stale (run compile)")
        if (JSON_DIR / f"{lang}.json").read_text(encoding="utf-8") != table:
            found.append(f"{lang}: the JSON catalogue is stale (run compile)")
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
