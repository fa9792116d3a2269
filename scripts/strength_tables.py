"""Measure every game's levels and write the strength tables (``make strength``).

For each game the package ships (or those named), this plays the round robins of
:mod:`dicegames.analysis.strength` through the game's kernel, writes the figures to
``strength.json`` in the game's folder (the one source of the rules pages' tables and the
launcher's and web's level descriptions, :mod:`dicegames.strength`), then the rules pages
of ``docs/rules/`` (``scripts/gen_docs.py``). Re-running it picks up every level added since
(``optimal``, a trained level, a ``hard`` that got a kernel policy): the levels come from the
registry.

    python scripts/strength_tables.py                  # every game, 20,000 games a pairing
    python scripts/strength_tables.py monza --games 2000
    python scripts/strength_tables.py --check          # figures and pages up to date?

``--check`` plays nothing: it fails (exit 1) when a game has no figures, when its listed
levels or default options changed since they were measured, or when a rules page's block
is not the one its figures give.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import dicegames
from dicegames import strength
from dicegames.analysis.strength import measure, stale
from dicegames.core.files import write_bytes
from dicegames.docs import rules_page
from dicegames.i18n import LANGUAGES, PACKAGE, game_folder

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def shipped() -> list[str]:
    """The ids of the games the package ships that are played by two or more."""
    return [spec.id for spec in dicegames.games()
            if game_folder(spec.id).is_relative_to(PACKAGE) and spec.max_players >= 2]


def problems(game_id: str) -> list[str]:
    """What is out of date for one game (empty when nothing is)."""
    found: list[str] = []
    data = strength.load(game_id)
    why = stale(data, game_id)
    if why is not None:
        found.append(f"{game_id}: {why}")
    if data is None:
        return found
    page = DOCS / f"{game_id}.md"
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    if strength.block_of(text) != strength.block_of(rules_page(game_id)):
        found.append(f"{game_id}: {page} does not carry the table of {game_id}'s figures "
                     f"(run scripts/gen_docs.py)")
    for lang in LANGUAGES:
        if strength.block_of(rules_page(game_id, lang)) is None:
            found.append(f"{game_id}: the {lang} rules page has no strength table")
    return found


def write_pages() -> None:
    """Regenerate docs/rules/ from the new figures (as scripts/gen_docs.py does)."""
    for game_id in shipped():
        target = DOCS / f"{game_id}.md"
        text = rules_page(game_id)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            write_bytes(target, text.encode())  # atomic, only onto a regular file
            print(f"wrote {target}")


def main(argv: list[str] | None = None) -> int:
    """Measure and write, or check (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_named", nargs="*", metavar="GAME",
                        help="the games to measure (default: every game shipped)")
    parser.add_argument("--games", type=int, default=20_000,
                        help="games a pairing, and a level per player count (20000)")
    parser.add_argument("--engine-games", type=int, default=0,
                        help="games a pairing for a level the kernel does not play "
                             "(0: such levels are listed unrated)")
    parser.add_argument("--seed", type=int, default=27, help="the master seed (27)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--check", action="store_true",
                        help="play nothing; fail when figures or pages are out of date")
    args = parser.parse_args(argv)
    chosen = [dicegames.make(name).spec.id for name in args.games_named] or shipped()
    if args.check:
        found = [line for game_id in chosen for line in problems(game_id)]
        for line in found:
            print(line, file=sys.stderr)
        if not found:
            print(f"strength tables up to date: {', '.join(chosen)}")
        return 1 if found else 0
    began = time.perf_counter()
    for game_id in chosen:
        started = time.perf_counter()
        data = measure(game_id, args.games, args.seed, engine_games=args.engine_games,
                       jobs=args.jobs, progress=lambda line: print(line, flush=True))
        data["seconds"] = round(time.perf_counter() - started, 1)
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        write_bytes(strength.data_file(game_id), text.encode())
        print(f"wrote {strength.data_file(game_id)} ({data['seconds']} s)", flush=True)
    strength.load.cache_clear()
    write_pages()
    print(f"done in {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
