"""QR codes of the invite links (issue 14, defect 1): drawn by the server as SVG, shown per
link on the match page of the device that holds the links, and only ever for a token the
asker holds. The code is checked module by module against segno's own matrix of the link,
both in the SVG the server sends and in the pixels Chromium draws."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, expect

from dicegames.web.qr import QR_BORDER, link_qr
from web.client import AppClient
from web.server import Server

Matrix = list[list[bool]]


def expected_matrix(url: str) -> Matrix:
    """segno's matrix of ``url`` with the quiet zone around it, as the SVG draws it."""
    code = link_qr(url)
    size = len(code.matrix) + 2 * QR_BORDER
    grid = [[False] * size for _ in range(size)]
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            grid[y + QR_BORDER][x + QR_BORDER] = bool(dark & 1)
    return grid


def svg_matrix(svg: str) -> Matrix:
    """The dark modules of a segno SVG: its ``viewBox`` size and the dark path's runs
    (``M x y`` / ``m dx dy`` moves, ``h n`` a run of ``n`` dark modules on row ``y``)."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert box is not None and box.group(1) == box.group(2), svg[:200]
    size = int(box.group(1))
    grid = [[False] * size for _ in range(size)]
    dark = re.search(r'<path stroke="#000" d="([^"]+)"', svg)
    assert dark is not None, svg[:200]
    x = y = 0.0
    for command, args in re.findall(r"([MmHh])([-\d. ]*)", dark.group(1)):
        numbers = [float(n) for n in args.split()]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            assert command == "h" and numbers[0] > 0
            for column in range(int(x), int(x + numbers[0])):
                grid[int(y)][column] = True
            x += numbers[0]
    return grid


def pixel_matrix(png: bytes, size: int) -> Matrix:
    """The modules Chromium drew: the colour at the middle of each of ``size`` x ``size``
    cells of the screenshot, dark when under half brightness."""
    image = Image.open(io.BytesIO(png)).convert("L")
    width, height = image.size
    grey = image.tobytes()
    return [[grey[int((y + .5) * height / size) * width + int((x + .5) * width / size)]
             < 128 for x in range(size)] for y in range(size)]


def qr_status(client: AppClient, match_id: str, token: str) -> tuple[int, str, Any]:
    """GET the QR of ``token``: the status, the content type and the body (text or JSON)."""
    answer = client.http.get(f"/api/matches/{match_id}/qr?token={token}")
    kind = answer.headers["content-type"]
    return answer.status_code, kind, answer.text if answer.status_code == 200 else answer.json()


def two_people(client: AppClient | Server) -> dict[str, Any]:
    match: dict[str, Any] = client.post("/api/matches", {
        "game": "extra-meters", "seed": 4, "players": [
            {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    return match


def test_the_qr_code_is_the_seat_link_and_only_for_its_token(client: AppClient) -> None:
    match = two_people(client)
    ann, ben = match["seats"]
    status, kind, svg = qr_status(client, match["id"], ben["token"])
    assert status == 200 and kind.startswith("image/svg+xml"), (status, svg)
    assert svg_matrix(svg) == expected_matrix(client.url + ben["link"])
    assert ben["token"] not in svg  # the modules only: no text of the link
    # No token, a token of another match, two tokens at once, an unknown match.
    other = two_people(client)
    for token in ("", other["seats"][0]["token"], f"{ann['token']},{ben['token']}", "x"):
        status, _kind, body = qr_status(client, match["id"], token)
        assert status == 403 and body["error"] == "bad_token", (token, body)
    status, _kind, body = qr_status(client, "nope", ben["token"])
    assert status == 404 and body["error"] == "unknown_match"


def test_the_invite_panel_shows_a_qr_code_per_seat_link(server: Server,
                                                       browser: Browser) -> None:
    match = two_people(server)
    ann, ben = match["seats"]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(server.url + "/")  # as the set-up page leaves the creating device
        saved = {"tokens": [ann["token"]], "invites": [{"name": "Ben", "link": ben["link"]}]}
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"dicegames:{match['id']}", json.dumps(saved)])
        page.goto(server.url + f"/m/{match['id']}")
        expect(page.locator("#invites")).to_have_attribute("open", "")
        toggle = page.get_by_role("button", name="QR code of Ben's seat link")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        expect(page.locator(".qr img")).to_have_count(0)  # fetched when first shown
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        image = page.get_by_role("img", name=re.compile("QR code of Ben's seat link"))
        expect(image).to_be_visible()
        page.wait_for_function("() => document.querySelector('.qr img').naturalWidth > 0")
        # It fits the phone's screen, and it is exactly the link the panel shows.
        box = image.bounding_box()
        assert box is not None and 150 <= box["width"] <= 390 - 32, box
        link = page.locator("#links input").first.input_value()
        assert link == server.url + ben["link"]
        wanted = expected_matrix(link)
        assert pixel_matrix(image.screenshot(), len(wanted)) == wanted
        toggle.click()  # and folds away again
        expect(image).to_be_hidden()
        # The spectator's link has no QR code of a seat.
        expect(page.locator("#links li").nth(1).locator(".qr-toggle")).to_have_count(0)
    finally:
        context.close()
