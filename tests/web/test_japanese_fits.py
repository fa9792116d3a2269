"""Japanese text fits every board and button, on a laptop (1366 x 800) and a phone (390 x 844),
in a real headless Chromium (issue 25, defect 4: Japanese as a fifth language).

Each game's page, mid-game with the choices showing, and the home page: no button's text
runs out of its button or off the screen, no word drawn on a board is clipped by the board's
edge, and the page is no wider than the screen (:data:`web.browser.TEXT_PROBLEMS`). The game
pages are checked by ``test_board_fit.py``'s Japanese runs, on the same pages and moves that
check the board's fit (one game played per game and screen, not two); the home page here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web.browser import text_problems
from web.server import Server

SCREENS = {"laptop": (1366, 800), "phone": (390, 844)}
LANG = "ja"


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


def test_japanese_fits_the_home_page(server: Server, screen: Page) -> None:
    screen.goto(server.url + f"/?lang={LANG}")
    expect(screen.locator("#lang")).to_have_value(LANG)
    assert text_problems(screen) == []
