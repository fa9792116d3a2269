"""When the connection drops, the page says so and reconnects by itself (issue 25, "An
installable app"): across a server killed and started again on the same address, and across
a phone that leaves the network and comes back (said at once, reconnected at once)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from web.server import Server

TWO = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def test_the_page_comes_back_after_the_server_is_killed_and_restarted(tmp_path: Path,
                                                                     page: Page) -> None:
    first = Server(tmp_path / "games.sqlite3").start()
    match = first.post("/api/matches", {"game": "extra-meters", "dice": "auto",
                                        "players": TWO})
    page.goto(first.url + match["seats"][0]["link"])
    expect(page.locator("#status")).to_contain_text("Your turn, Ann")
    first.kill()
    expect(page.locator("#conn")).to_contain_text("Reconnecting")
    port = str(urlsplit(first.url).port)
    again = Server(first.db, extra=("--port", port)).start()
    try:
        assert again.url == first.url
        expect(page.locator("#conn")).to_be_empty(timeout=15_000)
        page.click("#choices button[data-move=stop]")
        expect(page.locator("#log")).to_contain_text("Ann stops")
    finally:
        again.stop()


def test_leaving_the_network_is_said_at_once_and_coming_back_reconnects(server: Server,
                                                                        page: Page) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "dice": "auto",
                                         "players": TWO})
    page.goto(server.url + match["seats"][0]["link"] + "&lang=it")
    expect(page.locator("#status")).not_to_be_empty()
    page.context.set_offline(True)
    expect(page.locator("#conn")).to_have_text(
        "Offline: la partita riprende appena torna la rete.")
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")  # a second one: same
    page.context.set_offline(False)
    expect(page.locator("#conn")).to_be_empty(timeout=15_000)
    page.click("#choices button[data-move=stop]")
    expect(page.locator("#log")).to_contain_text("Ann")
