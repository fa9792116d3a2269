"""Full games in every language (issue 14): each of the five games is played to the end by
clicking the offered choices against easy bots, at desktop size in French, German and
Italian (English: tests/web/test_browser.py), and once per language at phone size (a
different game each), to keep the suite's budget; the end screen and the page are in the
language chosen."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from dicegames.i18n import translate
from web.browser import READY, play_to_the_end
from web.server import Server
from web.test_languages import untranslated

GAMES = ["extra-meters", "shortcut", "petits-chevaux", "monza", "extra"]
PHONE = {"en": "monza", "fr": "petits-chevaux", "de": "extra", "it": "shortcut"}


def play_in(page: Page, base: str, game: str, lang: str) -> None:
    """Set up ``game`` in ``lang`` from the home page (a person and easy bots), play it to
    the end, and check the end screen and the page speak ``lang``."""
    page.goto(f"{base}/?game={game}&lang={lang}")
    expect(page.locator("#setup-title")).not_to_be_empty()
    rows = page.locator("#players .kind")
    for row in range(1, rows.count()):
        rows.nth(row).select_option("bot:easy")
    page.locator("#players .name").first.fill("Ann")
    page.click("#start")
    page.wait_for_url("**/m/**")
    page.wait_for_function(READY, timeout=20_000)
    assert play_to_the_end(page, random.Random(f"{game}-{lang}")) > 0
    expect(page.locator("#end-title")).to_have_text(translate(lang, "Game over"))
    expect(page.locator("#again")).to_have_text(translate(lang, "Play again"))
    expect(page.locator("#status")).to_contain_text(translate(lang, "Game over."))
    assert untranslated(page, lang) == []


@pytest.mark.parametrize("lang", ["fr", "de", "it"])
@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_on_a_desktop_page(server: Server, page: Page, game: str,
                                       lang: str) -> None:
    play_in(page, server.url, game, lang)


@pytest.mark.parametrize(("lang", "game"), sorted(PHONE.items()))
def test_a_full_game_on_a_phone(server: Server, phone: Page, lang: str, game: str) -> None:
    play_in(phone, server.url, game, lang)
