"""Japanese text fits every board and button, on a laptop (1366 x 800) and a phone (390 x 844),
in a real headless Chromium (issue 25, defect 4: Japanese as a fifth language).

Each game's page, mid-game with the choices showing, and the home page: no button's text
runs out of its button or off the screen, no word drawn on a board is clipped by the board's
edge, and the page is no wider than the screen.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from dicegames.core.registry import game_class
from web.browser import READY
from web.games import game_ids, skip_unless
from web.server import Server

SCREENS = {"laptop": (1366, 800), "phone": (390, 844)}
CHOICES = 8
"""How many of a game's first choices are looked at."""
LANG = "ja"

PROBLEMS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    const wide = document.documentElement.scrollWidth;
    problems.push(`the page is wider than the screen: ${wide} > ${width}`);
  }
  for (const node of document.querySelectorAll('button, select, .choice, a.button')) {
    const box = node.getBoundingClientRect();
    if (!node.getClientRects().length || box.width === 0) continue;  // not shown
    if (node.scrollWidth > node.clientWidth + 1) {
      const words = node.textContent.trim();
      const sizes = `${node.scrollWidth} > ${node.clientWidth}`;
      problems.push(`text runs out of a button: "${words}" (${sizes})`);
    }
    let scroller = node.parentElement;  // a list that scrolls may hold buttons out of view
    while (scroller && !/(auto|scroll|hidden)/.test(getComputedStyle(scroller).overflow)) {
      scroller = scroller.parentElement;
    }
    if (!scroller && (box.right > width + 1 || box.left < -1)) {
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
    """Checked at each of the first choices of a game against easy bots (the board's words
    change with the phase of the turn)."""
    skip_unless(game, "board", "bots", lang=LANG)
    spec = game_class(game).spec
    players = [{"name": "ハナ", "kind": "human"}, *[
        {"name": name, "kind": "bot:easy"} for name in ["ケン", "ユイ", "ソラ"][
            :max(2, spec.min_players) - 1]]]
    match = server.post("/api/matches", {"game": game, "seed": 5, "dice": "auto",
                                         "players": players})
    link = match["seats"][0]["link"]
    screen.goto(server.url + link + ("&" if "?" in link else "?") + f"lang={LANG}")
    rng = random.Random(5)
    for _step in range(CHOICES):
        screen.wait_for_function(READY, timeout=20_000)
        expect(screen.locator("#board svg").first).to_be_visible()
        assert problems_on(screen) == []
        if screen.locator("#end").evaluate("dialog => dialog.open"):
            break
        buttons = screen.locator("#choices button.choice:not([disabled])")
        buttons.nth(rng.randrange(buttons.count())).click()


def test_japanese_fits_the_home_page(server: Server, screen: Page) -> None:
    screen.goto(server.url + f"/?lang={LANG}")
    expect(screen.locator("#lang")).to_have_value(LANG)
    assert problems_on(screen) == []
