"""A custom board or circuit drawn in the report with the web page's own SVG.

A report on a custom board (a ``file`` option holding a board's text rather than a built-in
name) should show the board it measured. The web app draws every board with the game's
``board.js`` (an ES module over ``/static/shell.js``, ``/static/motion.js`` and what they
import); the report is one file with no server behind it, so :func:`board_picture` embeds
the board module's source, every static module it imports (followed through their own
imports) and the start position's view (the presenter's ``view``, as the game page gets
it), and a small script loads them as ``blob:`` modules, dependencies first (each import of
``/static/...`` rewritten to its blob) and calls ``render`` with ``picture: true``, as the
home page's cards do. The board is therefore the same SVG as the game page, drawn by the
same code. A game without a board module gets its terminal board as text instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import dicegames
from dicegames.analysis.naming import option_value_label
from dicegames.core.game import Game
from dicegames.core.registry import definition_of, presenter_of

STATIC = Path(dicegames.__file__).parent / "web" / "static"
"""The web app's static files (read as text, never imported)."""

IMPORT = re.compile(r"""(?:from|import)\s*["'](/static/[\w.-]+\.js)["']""")
"""An import of one of the web app's static modules."""

SCRIPT = """(async () => {
  const data = JSON.parse(document.getElementById("%(id)s-data").textContent);
  const urls = {};
  for (const [name, text] of data.modules) {  // dependencies first
    let source = text;
    for (const [known, url] of Object.entries(urls)) {
      source = source.replaceAll(JSON.stringify(known), JSON.stringify(url))
        .replaceAll(`'${known}'`, JSON.stringify(url));
    }
    urls[name] = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  }
  const module = await import(urls.board);
  module.render(document.getElementById("%(id)s"), data.view, {hints: [], pick: () => {},
    seat: null, deciding: [], picture: true, names: data.names});
})();"""


def modules_for(board: Path) -> list[tuple[str, str]]:
    """``board``'s source and every ``/static/`` module it imports, directly or not, as
    (name, source) pairs, each after the modules it imports; the board is named ``board``."""
    ordered: list[tuple[str, str]] = []
    seen: set[str] = set()

    def visit(name: str, path: Path) -> None:
        if name in seen:
            return
        seen.add(name)
        source = path.read_text(encoding="utf-8")
        for imported in IMPORT.findall(source):
            visit(imported, STATIC / imported.removeprefix("/static/"))
        ordered.append((name, source))
    visit("board", board)
    return ordered


def custom_options(game: Game[Any, Any, Any]) -> list[str]:
    """The names of ``game``'s file options that hold a custom text (not a built-in name)."""
    return [spec.name for spec in game.spec.options
            if spec.kind == "file" and isinstance(game.options.get(spec.name), str)
            and game.options[spec.name] not in spec.choices]


def _json_for_html(value: Any) -> str:
    """JSON safe inside a ``<script type=application/json>`` element."""
    return json.dumps(value).replace("</", "<\\/").replace("<!--", "<\\!--")


def board_picture(game: Game[Any, Any, Any], element_id: str = "board") -> str | None:
    """HTML drawing ``game``'s custom board at the start, or None when it has none."""
    from html import escape

    custom = custom_options(game)
    if not custom:
        return None
    names = ", ".join(option_value_label(game, name, game.options[name]) for name in custom)
    caption = f"<p class=note>The board measured: {escape(names)}.</p>"
    state = game.new_state()
    presenter = presenter_of(game)
    module = definition_of(game).path / "board.js"
    if not module.is_file():
        return caption + f"<pre>{escape(presenter.render(state))}</pre>"
    data = {"modules": modules_for(module), "view": presenter.view(state),
            "names": [f"seat {seat + 1}" for seat in range(game.players)]}
    return (caption + f"<div id={element_id} class=board></div>"
            f"<script type=application/json id={element_id}-data>{_json_for_html(data)}"
            f"</script><script type=module>{SCRIPT % {'id': element_id}}</script>")
