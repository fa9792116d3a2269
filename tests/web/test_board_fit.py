"""Every board at its default options fits the screen (issue 25, defect 5), for each game in
each language: on a 1366 x 800 laptop the whole board is on the first screen, no scrolling;
on a 390 x 844 phone the board is no wider than the screen and no taller, so one look takes
it all in; and nothing above the board moves when the dice appear or go (the dice row keeps
its place, empty or not).

Shortcut's bottom road was below a laptop's fold, hiding a car there, and its board jumped
down by a dice row when the first die was rolled.

In Japanese (issue 25, defect 4), with Japanese names at the table, the same pages are also
checked for words that don't fit (no button's text runs out of its button or off the screen,
no word on the board is clipped by its edge: :data:`web.browser.TEXT_PROBLEMS`) at each of the
first :data:`CHOICES` decisions (the board's words change with the phase of the turn). This
was ``test_japanese_fits.py``'s own game, played again for each game and screen.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from dicegames.i18n import LANGUAGES
from web.browser import READY, text_problems
from web.games import game_ids, lacks_translation, skip_unless
from web.server import Server

SIZES: dict[str, ViewportSize] = {"laptop": {"width": 1366, "height": 800},
                                  "phone": {"width": 390, "height": 844}}
CLICKS = 40
"""Moves played looking for the dice to appear or go (a game whose dice stay shown from
the first decision on, greyed once spent, has no such moment)."""
WORDS = "ja"
"""The language whose pages are also checked for words that don't fit."""
CHOICES = 8
"""How many of a game's first decisions are checked for words that don't fit."""
NAMES = {WORDS: ["ハナ", "ケン"]}
"""The players' names at the table in a language (Ann and Bot elsewhere)."""

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
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()
    assert not errors, errors


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
    words = lang == WORDS and not lacks_translation(game, lang)
    ann, bot = NAMES.get(lang, ["Ann", "Bot"])
    match = server.post("/api/matches", {"game": game, "seed": 5, "dice": "auto", "players": [
        {"name": ann, "kind": "human"}, {"name": bot, "kind": "bot:easy"}]})
    sized.goto(server.url + match["seats"][0]["link"] + f"&lang={lang}")
    sized.wait_for_function(READY, timeout=20_000)
    first = sized.evaluate(MEASURE)
    where = f"{game} in {lang} at {first['screen']}"
    check_fit(first, where)
    if words:
        expect(sized.locator("#board svg").first).to_be_visible()
        assert text_problems(sized) == [], f"{where}, first decision"
    gap = first["board"]["top"] - first["dice"]["top"]
    rng = random.Random(1)
    stayed = False  # the dice came or went, and the board stayed put
    for click in range(1, CLICKS + 1):
        buttons = sized.locator("#choices button.choice:not([disabled])")
        if buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
        sized.wait_for_function(READY, timeout=20_000)
        seen = sized.evaluate(MEASURE)
        reading = words and click < CHOICES
        if reading:
            expect(sized.locator("#board svg").first).to_be_visible()
            assert text_problems(sized) == [], f"{where}, after {click} choices"
        if seen["over"]:
            break
        if not stayed:
            check_fit(seen, where)
            assert abs(seen["board"]["top"] - seen["dice"]["top"] - gap) <= 1, (
                f"{where}: the board moved by "
                f"{seen['board']['top'] - seen['dice']['top'] - gap:.0f} px "
                f"with {seen['count']} dice shown (first {first['count']})")
            stayed = (seen["count"] == 0) != (first["count"] == 0)
        if stayed and not reading:
            break
