"""The game page in Chromium while another process holds the database locked: a seat link
opened then is told the server cannot save just now, and connects by itself once the file
is free (a refusal for a busy database is not final, unlike an unknown match)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from web.server import Server
from web.test_faults import locked, wait_until


@pytest.mark.process
def test_a_seat_link_opened_during_a_lock_connects_once_the_database_is_free(
        tmp_path: Path, page: Page) -> None:
    db = tmp_path / "games.sqlite3"
    running = Server(db).start()
    try:
        match = running.post("/api/matches", {
            "game": "extra-meters", "dice": "manual", "open": True,
            "players": [{"name": "Ann", "kind": "human"},
                        {"name": "Friend", "kind": "human", "invited": True}]})
        friend = match["seats"][1]["token"]
        with locked(db):
            # Connecting claims the invited seat (a write): refused while the lock lasts.
            page.goto(f"{running.url}/m/{match['id']}?seat={friend}")
            expect(page.locator("#error")).to_contain_text(
                "the database cannot be used now", timeout=15_000)
            expect(page.locator("#conn")).not_to_have_text("Cannot open this match.")
            page.wait_for_timeout(1_000)
        wait_until(lambda: running.get(f"/api/matches/{match['id']}")["presence"]["1"]
                   == "connected", 15, "the page connects once the database is free")
        expect(page.locator("#conn")).to_have_text("")
        expect(page.locator("#error")).to_have_text("")
        assert running.get("/api/tables")["tables"] == []  # the seat is claimed
    finally:
        running.stop()
