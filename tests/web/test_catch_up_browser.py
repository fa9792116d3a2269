"""The page of a match the server gave up (it could not catch up with a move another
process stored, :mod:`dicegames.web.fanout`) connects again by itself, at once, in a real
headless Chromium: the server closes its socket with 1012, and the new socket gets the
match as the database has it (here a move these rules refuse: the match cannot be opened,
and the page says so, instead of showing the old state as if nothing had happened)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from web.server import Server
from web.stores import execute

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def test_the_page_of_a_match_given_up_connects_again(pg_dsn: str, page: Page) -> None:
    server = Server(pg_dsn).start()
    try:
        match = server.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                             "dice": "manual"})
        with page.expect_websocket() as opened:
            page.goto(f"{server.url}/m/{match['id']}")
        opened.value.wait_for_event("framereceived")  # the first state
        with page.expect_websocket(timeout=15_000) as again:
            execute(pg_dsn, "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                            "VALUES (?, 0, NULL, 'no such move', 0, 0)", (match["id"],))
        assert again.value is not opened.value
        expect(page.locator("#conn")).to_have_text("Cannot open this match.")
    finally:
        server.stop()
