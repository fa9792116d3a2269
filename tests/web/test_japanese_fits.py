"""Japanese text fits every board and button, on a laptop (1366 x 800) and a phone (390 x 844),
in a real headless Chromium (issue 25, defect 4: Japanese as a fifth language).

Each game's page, mid-game with the choices showing, and the home page: no button's text
runs out of its button or off the screen, no word drawn on a board is clipped by the board's
edge, and the page is no wider than the screen.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from dicegames.core.registry import game_class
from web.browser import READY
from web.games import game_ids, skip_unless
from web.server import Server

SCREENS = {"laptop": (1366, 800), "phone": (390, 844)}
LANG = "ja"

PROBLEMS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    problems.push(`the page is wider than the screen: ${document.documentElement.scrollWidth} > ${width}`);
  }
  for (const node of document.querySelectorAll('button, select, .choice, a.button')) {
    const box = node.getBoundingClientRect();
    if (!node.getClientRects().length || box.width === 0) continue;  // not shown
    if (node.scrollWidth > node.clientWidth + 1) {
      problems.push(`text runs out of a button: "${node.textContent.trim()}" (${node.scrollWidth} > ${node.clientWidth})`);
    }
    if (box.right > width + 1 || box.left < -1) {
      problems.push(`a button leaves the screen: "${node.textContent.trim()}"`);
    }
  }
  for (const board of document.querySelectorAll('#board svg')) {
    if (board.parentElement.closest('#board svg')) continue;  // a picture inside the board
    const edge = board.getBoundingClientRect();
    if (!edge.width) continue;
    for (const text of board.querySelectorAll('text')) {
      const words = text.textContent.trim();
      const box = text.getBoundingClientRect();
      if (!words || !box.width) continue;
      if (box.left < edge.left - 1 || box.right > edge.right + 1 || box.top < edge.top - 1
          || box.bottom > edge.bottom + 1) {
        problems.push(`board words clipped: "${words}"`);
      }
    }
  }
  return problems;
}"""


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page of the size of one of :data:`SCREENS`, in a fresh context."""
    width, height = SCREENS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, errors


def problems_on(page: Page) -> list[str]:
    found: list[str] = page.evaluate(PROBLEMS)
    return found


@pytest.mark.parametrize("game", game_ids())
def test_japanese_fits_every_board_and_button(server: Server, screen: Page, game: str) -> None:
    skip_unless(game, "board", lang=LANG)
    spec = game_class(game).spec
    players = [{"name": name, "kind": "human"}
               for name in ["ハナ", "ケン", "ユイ", "ソラ"][:max(2, spec.min_players)]]
    match = server.post("/api/matches", {"game": game, "seed": 5, "dice": "auto",
                                         "players": players})
    screen.goto(server.url + match["seats"][0]["link"] + ("&" if "?" in match["seats"][0]["link"]
                                                          else "?") + f"lang={LANG}")
    screen.wait_for_function(READY, timeout=20_000)
    expect(screen.locator("#board svg").first).to_be_visible()
    assert problems_on(screen) == []


def test_japanese_fits_the_home_page(server: Server, screen: Page) -> None:
    screen.goto(server.url + f"/?lang={LANG}")
    expect(screen.locator("#lang")).to_have_value(LANG)
    assert problems_on(screen) == []
