"""Shortcut's SVG board in a real headless Chromium: drawn, clicked, keyboard, phone width.

Against bots (started from the home page) the signs on the board declare road and
shortcut, by mouse and by keyboard. A match with manual dice (set up over the API, so the
dice are known) reaches a shortcut choice, where a glowing square is clicked to move there.
Screenshots go to ``test-output/`` (desktop, phone, a shortcut choice, the end, a replay).
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from dicegames.games import largest
from web.browser import READY, SHOTS, play_to_the_end, start_against_bots
from web.server import Server

BOARD = "#board svg.sc"


def board_ready(page: Page) -> None:
    """Wait until it is the person's turn and the board is drawn."""
    page.wait_for_function(READY, timeout=20_000)
    expect(page.locator(BOARD)).to_be_visible()
    expect(page.locator("#board pre.text-board")).to_have_count(0)


def manual_match(server: Server) -> dict[str, Any]:
    """Ann (a person) against an easy bot, the dice entered by hand."""
    match: dict[str, Any] = server.post("/api/matches", {
        "game": "shortcut", "dice": "manual", "seed": 3,
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Robo", "kind": "bot:easy"}]})
    return match


def test_board_signs_by_mouse_and_keyboard(server: Server, page: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    start_against_bots(page, server.url, "shortcut")
    board_ready(page)
    # The grid, both cars (lettered), the start and the finish are drawn.
    expect(page.locator(f"{BOARD} .cell.road")).to_have_count(27)
    expect(page.locator(f"{BOARD} .cell.grey")).to_have_count(15)
    expect(page.locator(f"{BOARD} .car.piece")).to_have_count(2)
    expect(page.locator(f"{BOARD} .panel")).to_contain_text("Ann's turn")
    # The choices are signs on the board, keyboard-reachable, and the buttons stay.
    signs = page.locator(f"{BOARD} .sign.target")
    expect(signs).to_have_count(3)
    for index in range(3):
        assert signs.nth(index).get_attribute("tabindex") == "0"
        assert signs.nth(index).get_attribute("role") == "button"
        assert signs.nth(index).get_attribute("aria-label")
    expect(page.locator("#choices button.choice")).to_have_count(3)
    page.screenshot(path=str(SHOTS / "shortcut-board.png"), full_page=True)
    # Hovering the road sign previews where each die value would land.
    page.hover("#sc-sign-road")
    expect(page.locator(f"{BOARD} .preview.show circle")).to_have_count(6)
    page.click("#sc-sign-road")
    expect(page.locator("#log")).to_contain_text("Ann takes the main road")
    expect(page.locator("#log")).to_contain_text("Ann rolls")
    # Keyboard: focus the shortcut sign and press Enter.
    board_ready(page)
    page.focus("#sc-sign-shortcut")
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("Ann takes the shortcut")
    play_to_the_end(page, random.Random(5))
    expect(page.locator(f"{BOARD} .panel")).to_contain_text("wins")
    page.locator("#end-close").click()
    page.screenshot(path=str(SHOTS / "shortcut-board-end.png"), full_page=True)
    # The replay page draws the same board, with nothing to click.
    page.click("#replay-link")
    page.wait_for_url("**/replay/**")
    expect(page.locator(BOARD)).to_be_visible()
    page.click("#next")
    page.click("#next")
    expect(page.locator(f"{BOARD} .target")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "shortcut-board-replay.png"), full_page=True)


def test_glowing_square_moves_the_car_with_known_dice(server: Server, page: Page) -> None:
    match = manual_match(server)
    page.goto(server.url + match["seats"][0]["link"])
    board_ready(page)
    page.click("#sc-sign-shortcut")
    # The die is entered with the picker of view.dice_entry: a 2.
    expect(page.locator("#entry .face")).to_have_count(6)
    page.click("#entry .face[data-value='2']")
    page.click("#entry button.primary")
    expect(page.locator("#log")).to_contain_text("Ann rolls 2: up to 2 steps")
    expect(page.locator("#dice .die")).to_have_count(1)
    # Stay, road 1 and road 2 glow; "Roll again" waits in the panel.
    targets = page.locator(f"{BOARD} .cell.target")
    expect(targets).to_have_count(3)
    expect(page.locator("#sc-sign-press")).to_be_visible()
    expect(page.locator(f"{BOARD} .panel")).to_contain_text("Shortcut dice: 2")
    page.screenshot(path=str(SHOTS / "shortcut-board-choose.png"), full_page=True)
    page.click("#sc-cell-a11")
    expect(page.locator("#log")).to_contain_text("Ann moves to road square 2")
    state = server.get(f"/api/matches/{match['id']}")
    assert state["view"]["board"]["cars"][0]["cell"] == "cell-a11"


def test_phone_width_has_no_horizontal_scroll(server: Server, phone: Page) -> None:
    page = phone
    match = manual_match(server)
    page.goto(server.url + match["seats"][0]["link"])
    board_ready(page)
    box = page.locator(BOARD).bounding_box()
    assert box is not None and box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(SHOTS / "shortcut-board-phone.png"), full_page=True)
    # Keyboard on the phone page too: Tab reaches a sign, Space declares.
    page.focus("#sc-sign-road")
    page.keyboard.press(" ")
    expect(page.locator("#log")).to_contain_text("Ann takes the main road")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# Every sign's box against every square number's and car's box, in screen pixels.
OVERLAPS = """() => {
  const box = (node) => node.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const covered = [...document.querySelectorAll('#board .num, #board .car.piece')];
  const found = [];
  for (const sign of document.querySelectorAll('#board .sign .pill')) {
    for (const node of covered) {
      if (hit(box(sign), box(node))) found.push(sign.parentNode.id + ' covers '
        + (node.textContent || node.id));
    }
  }
  return found;
}"""


def test_no_sign_hides_a_square_number_or_a_car(server: Server, page: Page) -> None:
    # The Road and Push signs used to sit on the square they lead to (a12 at the start,
    # hiding its number; a car on b8 under "Push").
    start_against_bots(page, server.url, "shortcut")
    rng = random.Random(8)
    checked = 0
    for _ in range(60):
        page.wait_for_function(READY, timeout=20_000)
        if page.locator("#end").evaluate("dialog => dialog.open"):
            break
        if page.locator(f"{BOARD} .sign.target").count():
            assert page.evaluate(OVERLAPS) == []
            checked += 1
        buttons = page.locator("#choices button.choice:not([disabled])")
        buttons.nth(rng.randrange(buttons.count())).click()
    assert checked >= 3


def test_the_largest_board_stays_whole_after_pushes_without_its_grid(
        server: Server, page: Page) -> None:
    """On a 26 x 99 board only the first push of a connection carries the grid; the page
    keeps it, so after a move (a push without the grid) every cell is still drawn and the
    car stands where the die took it."""
    match = server.post("/api/matches", {
        "game": "shortcut", "dice": "manual", "seed": 3,
        "options": {"board": largest.shortcut_board()},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Robo", "kind": "bot:easy"}]})
    page.goto(server.url + match["seats"][0]["link"])
    board_ready(page)
    expect(page.locator(f"{BOARD} .cell.road")).to_have_count(1347)
    expect(page.locator(f"{BOARD} .cell.grey")).to_have_count(1225)
    page.click("#sc-sign-road")
    page.click("#entry .face[data-value='3']")
    page.click("#entry button.primary")
    expect(page.locator("#log")).to_contain_text("Ann rolls 3")
    expect(page.locator(f"{BOARD} .cell.road")).to_have_count(1347)
    expect(page.locator(f"{BOARD} .cell.grey")).to_have_count(1225)
    expect(page.locator(f"{BOARD} .panel")).to_contain_text("square 3, 1345 to go")
