"""Every page passes axe-core (the accessibility engine browsers' own tools use) with zero
violations, in light and dark mode: the home page with a game's set-up and rules open, each
game's page in every language while a person decides (and while real dice are entered), the
end of a game, and each game's replay at every kind of move (:mod:`web.axe_replay`). axe-core
is the copy bundled by the ``axe-playwright-python`` package; besides its default rules it runs
``label-content-name-mismatch`` (a button's name must hold the words it shows), which found
the boards' buttons named by their move while showing other words (French game pages first).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from dicegames.i18n import LANGUAGES
from web.browser import READY, play_to_the_end
from web.games import game_ids, skip_unless
from web.server import Server

GAMES = game_ids()
"""Every registered game (a new one is covered without an edit here)."""
AXE = Axe()
RULES = {"rules": {"label-content-name-mismatch": {"enabled": True}}}
"""axe-core's options: its default rules, and the experimental one named here."""
def violations(page: Page) -> list[str]:
    """axe-core's violations on the page as it stands, one line each with the nodes."""
    found = AXE.run(page, options=RULES).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(", ".join(n["target"]) for n in v["nodes"][:4]) for v in found]


def check(page: Page) -> None:
    """Fail with every violation listed."""
    found = violations(page)
    assert not found, "\n".join(found)


@pytest.fixture(params=["light", "dark"])
def seen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A desktop page in light or dark mode."""
    context = browser.new_context(viewport={"width": 1100, "height": 900},
                                  color_scheme=request.param)
    try:
        yield context.new_page()
    finally:
        context.close()


def versus_bot(server: Server, game: str, dice: str = "auto") -> str:
    match = server.post("/api/matches", {"game": game, "seed": 4, "dice": dice, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
    return str(server.url + match["seats"][0]["link"])


def test_the_home_page(server: Server, seen: Page) -> None:
    seen.goto(server.url + "/?game=petits-chevaux")
    expect(seen.locator("#setup-title")).not_to_be_empty()
    seen.locator("#rules > summary").click()
    expect(seen.locator("#rules-html h2").first).to_be_visible()
    check(seen)


def test_the_home_page_with_an_open_table_being_joined(server: Server, seen: Page) -> None:
    match = server.post("/api/matches", {"game": "shortcut", "open": True, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "P2", "kind": "human", "invited": True}]})
    seen.goto(server.url + "/")
    card = seen.locator(f"#tables li[data-id='{match['id']}']")
    card.locator("button.join").click()
    expect(card.locator("form input")).to_be_focused()
    check(seen)


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_while_a_person_decides(server: Server, seen: Page, game: str,
                                            lang: str) -> None:
    skip_unless(game, "bots")
    seen.goto(versus_bot(server, game) + f"&lang={lang}")
    seen.wait_for_function(READY, timeout=20_000)
    check(seen)


@pytest.mark.parametrize("game", ["petits-chevaux", "monza"])
def test_a_game_page_while_real_dice_are_entered(server: Server, seen: Page,
                                                 game: str) -> None:
    seen.goto(versus_bot(server, game, dice="manual"))
    expect(seen.locator("#entry")).to_be_visible()
    check(seen)


def test_the_end_of_a_game_and_its_replay(server: Server, page: Page) -> None:
    page.goto(versus_bot(server, "extra-meters"))
    play_to_the_end(page, random.Random(2))
    check(page)
    page.locator("#end-replay").click()
    page.wait_for_url("**/replay/**")
    expect(page.locator("#board svg").first).to_be_visible()
    check(page)
