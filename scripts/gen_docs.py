"""Write docs/rules/<game>.md for every game the package ships (the registered games whose
folder is inside it) from dicegames.docs.rules_page.

Run it (or `make docs`) after changing a game's spec, options, bots or rules.md;
tests/test_docs.py fails while the files are out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

import dicegames
from dicegames.docs import rules_page
from dicegames.i18n import PACKAGE, game_folder

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def main() -> int:
    """Regenerate every rules page and say which files changed."""
    DOCS.mkdir(parents=True, exist_ok=True)
    for spec in dicegames.games():
        if not game_folder(spec.id).is_relative_to(PACKAGE):
            continue  # registered from elsewhere (DICEGAMES_GAMES, a plug-in): no page here
        target = DOCS / f"{spec.id}.md"
        text = rules_page(spec.id)
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old != text:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
