"""The lobby in Chromium (issue 14, open tables): one person creates an open match with an
invited seat from the set-up form; another, in their own browser, sees it under "Join a
table", joins with the keyboard alone, and both see the seat taken by name and connected."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from dicegames.i18n import LANGUAGES
from web.server import Server
from web.test_languages import untranslated


def test_an_empty_lobby_says_how_to_fill_it(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#no-tables")).to_be_visible()
    expect(page.locator("#no-tables")).to_contain_text("tick “Open table”")
    expect(page.locator("#tables li")).to_have_count(0)


@pytest.mark.both_stores  # on PostgreSQL too (tests/web/conftest.py)
def test_a_table_opened_in_one_browser_is_joined_from_another(server: Server,
                                                             browser: Browser) -> None:
    host_context = browser.new_context(viewport={"width": 1000, "height": 900})
    guest_context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        host = host_context.new_page()
        host.goto(server.url + "/?game=extra-meters")
        expect(host.locator("#players .player")).to_have_count(2)
        host.locator("#players .name").first.fill("Ann")
        # An open table needs an invited seat: the form says so before asking the server.
        host.get_by_label("Open table: list this game under “Join a table”").check()
        host.locator("#start").click()
        expect(host.locator("#setup-error")).to_contain_text("An open table needs an invited")
        host.locator("#players .kind").nth(1).select_option("invited")
        host.locator("#players .name").nth(1).fill("Friend")
        host.locator("#start").click()
        host.wait_for_url("**/m/**")
        match_id = host.url.rsplit("/", 1)[-1]
        seats = host.locator("#seats li")
        expect(seats.nth(1)).to_contain_text("not yet joined")

        guest = guest_context.new_page()
        guest.goto(server.url + "/")
        card = guest.locator(f"#tables li[data-id='{match_id}']")
        expect(card).to_contain_text("For a Few Extra Meters")
        expect(card).to_contain_text("Ann's table")
        expect(card).to_contain_text("1 of 2 seats free")
        expect(card).to_contain_text("Ann, free seat")
        # Keyboard only: focus "Join", Enter opens the name form, Enter takes the seat.
        join = card.get_by_role("button", name="Join")
        expect(card.locator("form")).to_be_hidden()
        join.focus()
        guest.keyboard.press("Enter")
        expect(join).to_have_attribute("aria-expanded", "true")
        name = card.get_by_label("Your name")
        expect(name).to_be_focused()
        guest.keyboard.type("Cleo")
        guest.keyboard.press("Enter")
        guest.wait_for_url(f"**/m/{match_id}?seat=*")
        guest_seats = guest.locator("#seats li")
        expect(guest_seats.nth(1)).to_contain_text("Cleo")
        expect(guest_seats.nth(1)).to_contain_text("connected")
        expect(guest_seats.nth(0)).to_contain_text("Ann")
        # The host sees the seat taken by name, and connected, and so do the links to share.
        expect(host.locator("#links")).to_contain_text("Cleo's seat (secret)")
        expect(seats.nth(1)).to_contain_text("Cleo")
        expect(seats.nth(1)).to_contain_text("connected")
        expect(seats.nth(1)).not_to_contain_text("not yet joined")
        # The table left the lobby: a third visitor finds it gone.
        again = guest_context.new_page()
        again.goto(server.url + "/")
        expect(again.locator("#no-tables")).to_be_visible()
        expect(again.locator(f"#tables li[data-id='{match_id}']")).to_have_count(0)
    finally:
        host_context.close()
        guest_context.close()


def test_a_lobby_refreshes_and_says_when_someone_was_quicker(server: Server,
                                                            page: Page) -> None:
    page.goto(server.url + "/")
    match = server.post("/api/matches", {"game": "monza", "open": True, "players": [
        {"name": "Dora", "kind": "human"}, {"name": "Robo", "kind": "bot:easy"},
        {"name": "Player 3", "kind": "human", "invited": True}]})
    card = page.locator(f"#tables li[data-id='{match['id']}']")
    expect(card).to_contain_text("Dora's table", timeout=10_000)  # the list refreshes
    expect(card).to_contain_text("Dora, Robo (bot), free seat")
    card.get_by_role("button", name="Join").click()
    card.get_by_label("Your name").fill("Eve")
    server.post(f"/api/tables/{match['id']}/join", {"name": "Fay"})  # someone was quicker
    card.get_by_role("button", name="Take the seat").click()
    expect(card.get_by_role("alert")).to_have_text(
        "Someone was quicker: this table has no free seat left.")
    assert page.url.rstrip("/") == server.url


def test_the_lobby_and_the_open_table_option_are_translated(server: Server,
                                                            page: Page) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "open": True,
                                         "options": {"track_length": 40}, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "P2", "kind": "human", "invited": True}]})
    for lang in [lang for lang in LANGUAGES if lang != "en"]:
        page.goto(f"{server.url}/?game=extra-meters&lang={lang}")
        card = page.locator(f"#tables li[data-id='{match['id']}']")
        expect(card.locator(".options-line")).to_be_visible()
        card.locator("button.join").click()
        expect(card.locator("form")).to_be_visible()
        expect(page.locator("#open-table")).to_be_visible()
        assert untranslated(page, lang, skip="#rules-html") == []  # rules: test_languages
