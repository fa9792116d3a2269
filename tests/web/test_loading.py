"""Loading fast on a phone (issue 25, Lighthouse): the files every page loads go compressed,
the home page draws a card's picture once the card comes near the screen, and nothing jumps
when the first state arrives (the list's room is held, the header keeps its height)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from web.client import AppClient
from web.server import Server

TWO = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def test_pages_scripts_and_boards_go_compressed_and_seat_answers_do_not(
        client: AppClient) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "players": TWO})
    token = match["seats"][0]["token"]
    gzip = {"accept-encoding": "gzip"}
    for path in ("/", f"/m/{match['id']}", "/static/shell.js", "/static/style.css",
                 "/games/extra-meters/board.js", "/i18n/fr.json", "/api/games", "/sw.js"):
        answer = client.http.get(path, headers=gzip)
        assert answer.status_code == 200, path
        assert answer.headers.get("content-encoding") == "gzip", path
    for path in (f"/api/matches/{match['id']}?token={token}",
                 f"/api/matches/{match['id']}/record"):
        answer = client.http.get(path, headers=gzip)
        assert answer.status_code == 200, path
        assert "content-encoding" not in answer.headers, path
    plain = client.http.get("/static/shell.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and "export" in plain.text


def test_a_cards_picture_is_drawn_when_it_comes_near(server: Server, phone: Page) -> None:
    phone.goto(server.url + "/")
    cards = phone.locator("#games .game-card")
    expect(cards.first.locator(".picture > *").first).to_be_attached()
    last = cards.last
    expect(last).to_be_attached()
    assert last.locator(".picture > *").count() == 0  # far below the first screen
    last.scroll_into_view_if_needed()
    expect(last.locator(".picture > *").first).to_be_attached()


def test_the_game_pages_header_keeps_its_height_on_a_phone(server: Server,
                                                           browser: Browser) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "players": TWO})
    # 412 px: Lighthouse's phone, where the header without its title fits on one row.
    context = browser.new_context(viewport={"width": 412, "height": 823})
    page = context.new_page()
    page.goto(server.url + match["seats"][0]["link"])
    expect(page.locator("#title")).not_to_be_empty()
    heights = page.evaluate("""() => {
        const header = document.querySelector('header.top');
        const full = header.offsetHeight;
        document.getElementById('title').textContent = '';
        return [full, header.offsetHeight];
    }""")
    context.close()
    assert heights[0] == heights[1], heights


SHIFTS = """window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }
}).observe({type: "layout-shift", buffered: true});"""
"""Collects the page's layout shifts (the Cumulative Layout Shift Lighthouse adds up)."""


def test_the_game_page_does_not_jump_as_it_loads_on_a_phone(server: Server,
                                                           browser: Browser) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "players": TWO})
    context = browser.new_context(viewport={"width": 412, "height": 823})
    page = context.new_page()
    page.add_init_script(SHIFTS)
    page.goto(server.url + match["seats"][0]["link"])
    expect(page.locator("#choices button.choice").first).to_be_visible()
    expect(page.locator(".side")).to_be_visible()
    shifts = page.evaluate("""() => new Promise((done) => requestAnimationFrame(
        () => requestAnimationFrame(() => done(window.__shifts))))""")
    context.close()
    assert sum(shifts) < 0.1, shifts  # Lighthouse's "good" Cumulative Layout Shift
