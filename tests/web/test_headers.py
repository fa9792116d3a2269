"""Security headers (:mod:`dicegames.web.headers`) against a real server, and the pages
under their policy in a real headless Chromium.

Every answer carries a content security policy without inline script, refuses framing
(``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), ``nosniff`` and
``Referrer-Policy: no-referrer``; every answer that carries a seat token or was reached with
one is ``Cache-Control: no-store``. In Chromium, every page and every game's board works
under the policy without a single violation, and no other page can frame a seat page.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from websockets.sync.client import connect

from web.browser import READY
from web.games import game_ids
from web.server import Server


def fetch(server: Server, method: str, path: str, body: object = None
          ) -> tuple[int, dict[str, str], bytes]:
    """One request; the status, the headers (names in lower case) and the body."""
    parts = urlsplit(server.url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data,
                           headers={"content-type": "application/json"})
        answer = connection.getresponse()
        return (answer.status, {k.lower(): v for k, v in answer.getheaders()},
                answer.read())
    finally:
        connection.close()


def directives(policy: str) -> dict[str, list[str]]:
    """A content security policy as {directive: its sources}."""
    found: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            found[words[0]] = words[1:]
    return found


def assert_protected(headers: dict[str, str]) -> None:
    """The headers every answer has."""
    policy = directives(headers["content-security-policy"])
    script = policy.get("script-src", policy.get("default-src"))
    assert script is not None and "'unsafe-inline'" not in script
    assert "'unsafe-eval'" not in script
    assert policy["frame-ancestors"] == ["'none'"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human", "invited": True}]


@pytest.fixture(scope="module")
def match(server: Server) -> dict[str, Any]:
    created: dict[str, Any] = server.post("/api/matches", {
        "game": "extra-meters", "seed": 1, "players": HUMANS})
    return created


def test_every_page_has_the_headers(server: Server, match: dict[str, Any]) -> None:
    token = match["seats"][0]["token"]
    for path in ("/", f"/m/{match['id']}", f"/m/{match['id']}?seat={token}",
                 f"/replay/{match['id']}", "/static/game.js", "/games/shortcut/board.js",
                 "/api/games", "/no/such/page"):
        status, headers, _ = fetch(server, "GET", path)
        assert status in (200, 404), path
        assert_protected(headers)
        assert "'unsafe-inline'" not in headers["content-security-policy"]  # styles too
    # The seat page's address holds the token: never stored; the plain pages may be.
    _, seat_page, _ = fetch(server, "GET", f"/m/{match['id']}?seat={token}")
    assert seat_page["cache-control"] == "no-store"
    for path in ("/", f"/m/{match['id']}", f"/replay/{match['id']}"):
        assert fetch(server, "GET", path)[1]["cache-control"] == "no-cache"


def test_every_answer_with_a_token_is_never_stored(server: Server,
                                                   match: dict[str, Any]) -> None:
    token = match["seats"][0]["token"]
    base = f"/api/matches/{match['id']}"
    for path in (f"{base}?token={token}", f"{base}/hint?token={token}",
                 f"{base}/qr?token={token}", f"{base}?%74oken={token}",
                 f"{base}?token=wrong"):
        status, headers, _ = fetch(server, "GET", path)
        assert status in (200, 403), path
        assert headers["cache-control"] == "no-store", path
        assert_protected(headers)
    # The QR code keeps its own stricter policy.
    qr = fetch(server, "GET", f"{base}/qr?token={token}")[1]
    assert qr["content-security-policy"].startswith("default-src 'none'")
    # The answers that hand tokens out: a new match's links, a lobby seat, and moves.
    status, headers, body = fetch(server, "POST", "/api/matches", {
        "game": "extra-meters", "players": HUMANS, "open": True})
    assert status == 201 and headers["cache-control"] == "no-store"
    created = json.loads(body)
    status, headers, _ = fetch(server, "POST", f"/api/tables/{created['id']}/join",
                               {"name": "Cleo"})
    assert status == 200 and headers["cache-control"] == "no-store"
    status, headers, _ = fetch(server, "POST", f"{base}/actions",
                               {"token": token, "move": "stop"})
    assert headers["cache-control"] == "no-store"
    # Without a token, a state may be cached by the usual rules.
    assert "no-store" not in fetch(server, "GET", base)[1].get("cache-control", "")


def test_the_websocket_is_unaffected(server: Server, match: dict[str, Any]) -> None:
    token = match["seats"][1]["token"]
    with connect(f"{server.ws_url}/ws/matches/{match['id']}?token={token}",
                 open_timeout=10) as socket:
        message = json.loads(socket.recv(10))
        assert message["type"] == "state" and message["state"]["you"] == [1]


# ---------------------------------------------------------------------- in Chromium


def violations(page: Page) -> list[str]:
    """Collects the page's console errors about the content security policy."""
    found: list[str] = []

    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in (
                message.text):
            found.append(message.text)

    page.on("console", seen)
    return found


@pytest.mark.parametrize("game", game_ids())
def test_each_games_seat_page_works_under_the_policy(server: Server, page: Page,
                                                     game: str) -> None:
    seen = violations(page)
    page.goto(f"{server.url}/?game={game}")
    expect(page.locator("#setup-title")).not_to_be_empty()
    expect(page.locator("#rules-html")).not_to_be_empty()
    created = server.post("/api/matches", {"game": game, "seed": 2, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:random"}]})
    page.goto(f"{server.url}{created['seats'][0]['link']}")
    page.wait_for_function(READY, timeout=20_000)
    expect(page.locator("#board")).not_to_be_empty()
    page.locator("#choices button.choice:not([disabled])").first.click()
    page.goto(f"{server.url}/replay/{created['id']}")
    expect(page.locator("#board")).not_to_be_empty()
    assert seen == []


def test_another_page_cannot_frame_a_seat_page(server: Server, browser: Browser,
                                               match: dict[str, Any]) -> None:
    context = browser.new_context()  # not the page fixture: this refusal is a violation
    page = context.new_page()
    seen = violations(page)
    link = f"{server.url}/m/{match['id']}?seat={match['seats'][0]['token']}"
    page.set_content(f'<iframe id="f" src="{link}" width="600" height="400"></iframe>')
    page.wait_for_timeout(1000)  # the frame has had ample time to load (it never does)
    frame = page.frame_locator("#f")
    expect(frame.locator("#status")).to_have_count(0)
    assert any("frame-ancestors" in text for text in seen), seen
    context.close()
