"""Every board at its default options fits the screen (issue 25, defect 5), for each game in
each language: on a 1366 x 800 laptop the whole board is on the first screen, no scrolling;
on a 390 x 844 phone the board is no wider than the screen and no taller, so one look takes
it all in; and nothing above the board moves when the dice appear or go (the dice row keeps
its place, empty or not).

Shortcut's bottom road was below a laptop's fold, hiding a car there, and its board jumped
down by a dice row when the first die was rolled.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from dicegames.i18n import LANGUAGES
from web.browser import READY
from web.games import game_ids, skip_unless
from web.server import Server

SIZES: dict[str, ViewportSize] = {"laptop": {"width": 1366, "height": 800},
                                  "phone": {"width": 390, "height": 844}}
CLICKS = 40
"""Moves played looking for the dice to appear or go (a game whose dice stay shown from
the first decision on, greyed once spent, has no such moment)."""

MEASURE = """() => {
  const box = (id) => document.getElementById(id).getBoundingClientRect().toJSON();
  const board = document.getElementById('board');
  return {board: box('board'), dice: box('dice'),
          count: document.querySelectorAll('#dice .die').length,
          scroll: [scrollX, scrollY], page: document.documentElement.scrollWidth,
          inner: board.scrollWidth - board.clientWidth, screen: [innerWidth, innerHeight],
          over: document.getElementById('end').open};
}"""


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page at a laptop's or a phone's size."""
    phone = request.param == "phone"
    context = browser.new_context(viewport=SIZES[request.param], is_mobile=phone, has_touch=phone)
    try:
        yield context.new_page()
    finally:
        context.close()


def check_fit(seen: dict[str, Any], where: str) -> None:
    """The board is whole on screen (laptop) or no bigger than the screen (phone)."""
    width, height = seen["screen"]
    board = seen["board"]
    assert seen["page"] <= width, f"{where}: the page is {seen['page']} px wide"
    assert seen["inner"] <= 0, f"{where}: the board scrolls sideways by {seen['inner']} px"
    assert board["right"] <= width + 0.5, f"{where}: the board ends at {board['right']} px"
    if width > 760:
        assert board["bottom"] <= height + 0.5, (
            f"{where}: the board ends at {board['bottom']:.0f} px, below the {height} px screen")
    else:
        assert board["height"] <= height + 0.5, (
            f"{where}: the board is {board['height']:.0f} px high, on a {height} px screen")


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game", game_ids())
def test_the_board_fits_and_stays_put_when_the_dice_come(
        server: Server, sized: Page, game: str, lang: str) -> None:
    skip_unless(game, "board", "bots")
    match = server.post("/api/matches", {"game": game, "seed": 5, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
    sized.goto(server.url + match["seats"][0]["link"] + f"&lang={lang}")
    sized.wait_for_function(READY, timeout=20_000)
    first = sized.evaluate(MEASURE)
    where = f"{game} in {lang} at {first['screen']}"
    check_fit(first, where)
    gap = first["board"]["top"] - first["dice"]["top"]
    rng = random.Random(1)
    for _ in range(CLICKS):
        buttons = sized.locator("#choices button.choice:not([disabled])")
        if buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
        sized.wait_for_function(READY, timeout=20_000)
        seen = sized.evaluate(MEASURE)
        if seen["over"]:
            break
        check_fit(seen, where)
        assert abs(seen["board"]["top"] - seen["dice"]["top"] - gap) <= 1, (
            f"{where}: the board moved by "
            f"{seen['board']['top'] - seen['dice']['top'] - gap:.0f} px "
            f"with {seen['count']} dice shown (first {first['count']})")
        if (seen["count"] == 0) != (first["count"] == 0):
            break  # the dice came (or went): the board stayed put
