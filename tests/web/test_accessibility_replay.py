"""Each game's replay passes axe-core at every kind of move, in light mode
(``test_accessibility_replay_dark.py``: the other mode;
the check itself: :func:`web.axe_replay.check_every_move`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from web.axe_replay import STEP_AND_CHECK, check_every_move, scheme_page
from web.games import game_ids
from web.server import Server
from web.test_accessibility import AXE, RULES


@pytest.fixture
def seen(browser: Browser) -> Iterator[Page]:
    """A desktop page in light mode."""
    yield from scheme_page(browser, "light")


@pytest.mark.parametrize("game", game_ids())
def test_a_replay_at_every_move(server: Server, seen: Page, game: str) -> None:
    check_every_move(server, seen, game)


FAKE_REPLAY = """<!doctype html><html lang="en"><title>replay</title><main id="game" data-shown="0">
<input id="step" type="range" min="0" max="9" value="0" aria-label="Move">
<p id="status">move 0</p><div id="board"></div><p id="error"></p></main><script>
document.getElementById("step").addEventListener("input", (event) => {
  const move = Number(event.target.value);
  document.getElementById("status").textContent = `move ${move}`;
  document.getElementById("board").innerHTML = move === 5 ? '<img src="data:,">'
    : `<span>square ${move + 10}</span>`;
  document.getElementById("game").dataset.shown = String(move);
});
</script>"""
"""A replay page of ten moves whose fifth alone shows a new kind of element (an image
without a text alternative: an axe-core violation)."""


def test_a_move_is_checked_when_it_shows_a_new_kind_of_element(seen: Page) -> None:
    """Moves that show only kinds already checked are drawn, not checked; the move with a
    new kind is checked, and its violation found."""
    seen.set_content(FAKE_REPLAY)
    seen.evaluate(AXE.axe_script)
    options = {**RULES, "resultTypes": ["violations"]}
    parts = ["#status", "#board"]
    found = [seen.evaluate(STEP_AND_CHECK, [move, parts, options]) for move in range(1, 10)]
    assert found[0] == []  # the first move's kinds: checked
    assert found[1:4] == [None] * 3  # the same kinds, other numbers: drawn only
    assert found[4] is not None and any(line.startswith("image-alt") for line in found[4])
    assert found[5:] == [None] * 4
    assert seen.evaluate(STEP_AND_CHECK, [9, None, options]) is not None  # whole page
