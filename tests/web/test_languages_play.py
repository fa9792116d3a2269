"""Full games in every language (issue 14): each of the five games is played to the end by
clicking the offered choices against easy bots, at desktop size in French, German and
Italian (English: tests/web/test_browser.py), and at phone size in all four languages; the
end screen and the page are in the language chosen.

What the server writes is checked against its English rendering of the very same state:
every few clicks the choice buttons (and the board's clickable targets, labelled by the
same hints) must read exactly as the server's labels in the page's language, none as the
English ones; at the end every line of the log (move sentences, turns, the result) must be
the server's sentence in the page's language and differ from the English one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicegames.i18n import LANGUAGES, translate
from web.browser import READY
from web.games import game_ids, skip_unless
from web.server import Server
from web.test_languages import untranslated

GAMES = game_ids()
"""Every registered game (a new one is covered without an edit here)."""
LANGS = list(LANGUAGES)
PHONE = [(LANGS[index % len(LANGS)], game) for index, game in enumerate(GAMES)]
"""Every game at phone size, the languages taken in turn (each language on at least one
game). The desktop test plays every game in every translated language; at phone size the
layout is what changes, and a game in each language shows it (the whole cross product
cost two minutes of the suite for no further finding)."""
CHECK_EVERY = 3
"""The choices are compared with the server's English labels every this many clicks."""

BUTTONS = """() => [...document.querySelectorAll('#choices button.choice')].map((b) =>
  [b.dataset.move, [...b.childNodes].filter((n) => n.nodeName !== 'KBD')
    .map((n) => n.textContent).join('').trim()])"""
LOG = """() => [...document.querySelectorAll('#log li.ev:not(.more)')].map((li) =>
  li.textContent.trim())"""


def match_of(page: Page) -> tuple[str, str]:
    """The match id of the game page and the seat token the page holds (the creator's
    device keeps its tokens in localStorage)."""
    match_id = page.url.split("/m/")[1].split("?")[0]
    tokens = page.evaluate(f"() => JSON.parse(localStorage.getItem('dicegames:{match_id}'))"
                           ".tokens")
    return match_id, tokens[0]


def server_state(server: Server, match_id: str, token: str, lang: str) -> dict[str, Any]:
    answer: dict[str, Any] = server.get(f"/api/matches/{match_id}?token={token}&lang={lang}")
    return answer


def check_choices(page: Page, server: Server, lang: str) -> bool:
    """The buttons read as the server's labels in ``lang``, and (in another language than
    English) never as its English ones. The person decides, so the state holds still;
    False when the page was caught between two states (nothing compared)."""
    match_id, token = match_of(page)
    shown = dict(page.evaluate(BUTTONS))
    wanted = {hint["move"]: hint["label"] for hints in
              server_state(server, match_id, token, lang)["hints"].values() for hint in hints}
    english = {hint["move"]: hint["label"] for hints in
               server_state(server, match_id, token, "en")["hints"].values() for hint in hints}
    if set(shown) != set(wanted):
        return False  # the page is between two states (a bot moved after the click)
    assert shown == wanted
    if lang != "en":
        same = [label for move, label in shown.items() if label == english[move]]
        assert same == [], f"{lang}: choices in English: {same}"
    return True


def check_log(page: Page, server: Server, lang: str) -> None:
    """At the end (the state holds still): the log shown is the server's log in ``lang``,
    every line of it different from the English one."""
    match_id, token = match_of(page)
    local = [event["description"]
             for event in server_state(server, match_id, token, lang)["log"]]
    english = [event["description"]
               for event in server_state(server, match_id, token, "en")["log"]]
    assert page.evaluate(LOG) == local
    if lang != "en":
        same = [line for line, other in zip(local, english, strict=True) if line == other]
        assert same == [], f"{lang}: log lines in English: {same}"


def play_checking(page: Page, server: Server, rng: random.Random, lang: str,
                  limit: int = 1500) -> int:
    """Click one of the offered choices until the end screen shows, checking the choices'
    language every :data:`CHECK_EVERY` clicks; returns the clicks."""
    checked = 0
    for clicks in range(limit):
        page.wait_for_function(READY, timeout=20_000)
        if page.locator("#end").evaluate("dialog => dialog.open"):
            assert checked > 0, "the choices were never compared with the server's labels"
            return clicks
        buttons = page.locator("#choices button.choice:not([disabled])")
        count = buttons.count()
        if count == 0:
            continue
        if clicks % CHECK_EVERY == 0:
            checked += check_choices(page, server, lang)
        buttons.nth(rng.randrange(count)).click()
    raise AssertionError(f"the game did not end after {limit} clicks")


def play_in(page: Page, server: Server, game: str, lang: str) -> None:
    """Set up ``game`` in ``lang`` from the home page (a person and easy bots), play it to
    the end, and check the end screen, the page, the choices and the log speak ``lang``."""
    base = server.url
    page.goto(f"{base}/?game={game}&lang={lang}")
    expect(page.locator("#setup-title")).not_to_be_empty()
    rows = page.locator("#players .kind")
    for row in range(1, rows.count()):
        rows.nth(row).select_option("bot:easy")
    page.locator("#players .name").first.fill("Ann")
    page.click("#start")
    page.wait_for_url("**/m/**")
    page.wait_for_function(READY, timeout=20_000)
    assert play_checking(page, server, random.Random(f"{game}-{lang}"), lang) > 0
    expect(page.locator("#end-title")).to_have_text(translate(lang, "Game over"))
    expect(page.locator("#again")).to_have_text(translate(lang, "Play again"))
    expect(page.locator("#status")).to_contain_text(translate(lang, "Game over."))
    assert untranslated(page, lang) == []
    check_log(page, server, lang)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_on_a_desktop_page(server: Server, page: Page, game: str,
                                       lang: str) -> None:
    skip_unless(game, "bots", lang=lang)
    play_in(page, server, game, lang)


@pytest.mark.parametrize(("lang", "game"), PHONE)
def test_a_full_game_on_a_phone(server: Server, phone: Page, lang: str, game: str) -> None:
    skip_unless(game, "bots", lang=lang)
    play_in(phone, server, game, lang)
