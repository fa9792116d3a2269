"""A design report on a custom board draws that board with the game page's own board module.

The report page is a file with no server behind it; its script loads the game's board.js
(over shell.js and motion.js) from the page itself and draws the start position, as the home
page's cards draw their pictures. Before issue 26 a report printed the board's whole text in
its title and drew nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from dicegames.analysis.html import report_page
from dicegames.analysis.naming import text_hash
from dicegames.analysis.report import build_report
from dicegames.core.registry import configure, definition, presenter_of


def _custom(game_id: str) -> tuple[str, str]:
    """A custom board of ``game_id``: its built-in board with a new first comment or name,
    and the option's name."""
    folder = Path(definition(game_id).path)
    if game_id == "shortcut":
        text = (folder / "boards" / "default.txt").read_text(encoding="utf-8")
        return text.replace("# Shortcut: the default board", "# A test board", 1), "board"
    raw = json.loads((folder / "default.json").read_text(encoding="utf-8"))
    raw["name"] = "A test board"
    return json.dumps(raw, indent=1), "circuit"


@pytest.mark.parametrize("game_id", ["shortcut", "monza"])
def test_the_report_draws_the_custom_board_it_measured(page: Page, tmp_path: Path,
                                                       game_id: str) -> None:
    from dicegames.analysis.board_picture import board_picture

    text, option = _custom(game_id)
    game = configure(game_id, 2, {option: text})
    data = build_report(game, games=20, seed=1, traced=2, bots=["random", "medium"]).to_json()
    data["board"] = board_picture(game, "board-1")
    assert text not in data["name"] and text_hash(text) in data["name"]
    out = tmp_path / "report.html"
    out.write_text(report_page([data]), encoding="utf-8")
    page.goto(out.as_uri())
    drawn = page.locator("#board-1 svg").first
    drawn.wait_for(timeout=15_000)
    board = presenter_of(game).view(game.new_state())["board"]
    label = drawn.get_attribute("aria-label") or ""
    assert page.locator("#board-1 svg *").count() > 50
    if "width" in board:
        assert f"{board['width']} by {board['height']}" in label
    assert "A test board" in page.content()
