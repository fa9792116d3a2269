"""A custom board or circuit drawn in the report with the web page's own SVG.

A report on a custom board (a ``file`` option holding a board's text rather than a built-in
name) should show the board it measured. The web app draws every board with the game's
``board.js`` (an ES module over ``/static/shell.js`` and ``/static/motion.js``); the report
is one file with no server behind it, so :func:`board_picture` embeds those three modules'
sources and the start position's view (the presenter's ``view``, as the game page gets it),
and a small script loads them as ``blob:`` modules (the imports of ``/static/...`` rewritten
to the blobs) and calls ``render`` with ``picture: true``, as the home page's cards do. The
board is therefore the same SVG as the game page, drawn by the same code. A game without a
board module gets its terminal board as text instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dicegames
from dicegames.analysis.naming import option_value_label
from dicegames.core.game import Game
from dicegames.core.registry import definition_of, presenter_of

STATIC = Path(dicegames.__file__).parent / "web" / "static"
"""The web app's static files (read as text, never imported)."""

SCRIPT = """(async () => {
  const data = JSON.parse(document.getElementById("%(id)s-data").textContent);
  const blob = (text) => URL.createObjectURL(new Blob([text], {type: "text/javascript"}));
  const shell = blob(data.shell);
  const motion = blob(data.motion.replaceAll('"/static/shell.js"', JSON.stringify(shell)));
  const board = blob(data.board.replaceAll('"/static/shell.js"', JSON.stringify(shell))
    .replaceAll('"/static/motion.js"', JSON.stringify(motion)));
  const module = await import(board);
  module.render(document.getElementById("%(id)s"), data.view, {hints: [], pick: () => {},
    seat: null, deciding: [], picture: true, names: data.names});
})();"""


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
    data = {"shell": (STATIC / "shell.js").read_text(encoding="utf-8"),
            "motion": (STATIC / "motion.js").read_text(encoding="utf-8"),
            "board": module.read_text(encoding="utf-8"),
            "view": presenter.view(state),
            "names": [f"seat {seat + 1}" for seat in range(game.players)]}
    return (caption + f"<div id={element_id} class=board></div>"
            f"<script type=application/json id={element_id}-data>{_json_for_html(data)}"
            f"</script><script type=module>{SCRIPT % {'id': element_id}}</script>")
