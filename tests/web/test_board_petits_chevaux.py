"""The Petits Chevaux SVG board in a real headless Chromium.

A match with manual dice makes the game deterministic: the test enters the dice (through
the page's picker or the API), then plays Ann's moves on the board itself, by mouse and by
keyboard. Screenshots go to ``test-output/`` (desktop, phone width, mid-game, end, replay).
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

from web.browser import READY, SHOTS, start_against_bots
from web.server import Server

BOARD = "#board svg.pc-board"


def manual_match(server: Server) -> tuple[str, str]:
    """Ann (red) against Ben (yellow), both people, with real dice: (match id, Ann's link)."""
    match = server.post("/api/matches", {"game": "petits-chevaux", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    return match["id"], server.url + match["seats"][0]["link"]


def dice(server: Server, match: str, token: str, face: str) -> None:
    server.post(f"/api/matches/{match}/dice", {"token": token, "dice": face})


def token_of(link: str) -> str:
    return link.split("seat=")[1]


def log_has(page: Page, text: str) -> None:
    expect(page.locator("#log")).to_contain_text(text)


def test_board_draws_and_plays_by_click_and_keyboard(server: Server, page: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    match, link = manual_match(server)
    token = token_of(link)
    page.goto(link)
    expect(page.locator(BOARD)).to_be_visible()
    assert page.locator("pre.text-board").count() == 0
    # The draw for the first player is a list of colours; Ann (red) starts.
    page.click("#entry button[data-move=red]")
    expect(page.locator("#status")).to_contain_text("Your roll")  # Ann's own page
    # The die is entered with the picker of view.dice_entry (faces 1 to 6).
    expect(page.locator("#entry button.face")).to_have_count(6)
    page.click("#entry button.face[data-value='6']")
    page.click("#entry button.primary")
    expect(page.locator("#dice svg.die")).to_have_attribute("aria-label", "die showing 6")
    # A 6: the corner stable, the waiting horses and the start square offer "out".
    targets = page.locator(f"{BOARD} .pc-target")
    expect(targets.first).to_be_visible()
    assert sorted(targets.evaluate_all("ns => ns.map(n => n.dataset.id)")) == sorted(
        ["home-r", "h-r1", "h-r2", "h-r3", "h-r4", "t0"])
    start = page.locator(f"{BOARD} [data-id=t0]")
    expect(start).to_have_attribute("role", "button")
    expect(start).to_have_attribute("aria-label", "Bring R1 out (red's start square)")
    expect(page.locator("#choices button.choice")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "petits-chevaux-board-out.png"), full_page=True)
    start.click()
    log_has(page, "Ann brings R1 out onto its start square")
    # The 6 rolls again; with a 6, R1 may move and a second horse may come out.
    dice(server, match, token, "6")
    horse = page.locator(f"{BOARD} [data-id=h-r1].pc-target")
    expect(horse).to_have_attribute("aria-label", "Move R1 6 squares (horse R1)")
    expect(page.locator(f"{BOARD} [data-id=t6].pc-target")).to_have_count(1)
    # By keyboard: focus the horse, press Enter.
    horse.focus()
    page.keyboard.press("Enter")
    log_has(page, "Ann moves R1 6 to square 7 of its lap")
    dice(server, match, token, "6")
    page.locator(f"{BOARD} [data-id=home-r]").click()
    log_has(page, "Ann brings R2 out")
    # Another 6: R2 catches up with R1 and they make a barrage.
    dice(server, match, token, "6")
    # R2's square t6 is under R1 (a target too): R2 itself is picked on the start square.
    page.locator(f"{BOARD} [data-id=h-r2]").click()
    log_has(page, "making a barrage")
    barrage = page.locator(f"{BOARD} .pc-barrage")
    expect(barrage).to_have_count(1)
    expect(barrage).to_contain_text("R1")
    expect(barrage).to_contain_text("R2")
    dice(server, match, token, "4")
    # Hovering a horse lights up where it would go; the buttons stay for every move.
    page.locator(f"{BOARD} [data-id=h-r1]").hover()
    expect(page.locator(f"{BOARD} [data-id=t10]")).to_have_class("pc-target pc-hot")
    assert page.locator("#choices button.choice").count() == 2
    page.screenshot(path=str(SHOTS / "petits-chevaux-board-mid.png"), full_page=True)
    page.locator(f"{BOARD} [data-id=t10]").click()
    log_has(page, "Ann moves R1 4 to square 11")
    # Ben's turn: Ann's page shows no targets, and the board still draws.
    expect(page.locator("#status")).to_contain_text("Ben")
    expect(page.locator(f"{BOARD} .pc-target")).to_have_count(0)


def test_phone_width_has_no_horizontal_scroll(server: Server, dark_phone: Page) -> None:
    # A phone in dark mode: the board takes the page's colours.
    page = dark_phone
    start_against_bots(page, server.url, "petits-chevaux")
    page.wait_for_function(READY, timeout=20_000)
    expect(page.locator(BOARD)).to_be_visible()
    box = page.locator(BOARD).bounding_box()
    assert box is not None and box["width"] <= 390 and box["width"] > 330
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(page.locator("#dice svg.die")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "petits-chevaux-board-phone.png"), full_page=True)


def finished_bot_match(server: Server) -> str:
    match = server.post("/api/matches", {"game": "petits-chevaux", "seed": 11, "players": [
        {"name": "Robo", "kind": "bot:medium"}, {"name": "Zed", "kind": "bot:easy"},
        {"name": "Kit", "kind": "bot:easy"}]})
    state: Any = None
    for _ in range(300):
        state = server.get(f"/api/matches/{match['id']}")
        if state["status"] == "finished":
            return str(match["id"])
        time.sleep(0.05)
    raise AssertionError(f"the bots did not finish: {state and state['status']}")


def test_end_of_game_and_replay_show_the_board(server: Server, page: Page) -> None:
    match = finished_bot_match(server)
    page.goto(server.url + f"/m/{match}")
    expect(page.locator("#end")).to_be_visible()
    page.click("#end-close")
    board = page.locator(BOARD)
    expect(board).to_contain_text("wins!")
    # Three players: red, blue and yellow stables are in play, green is not.
    expect(board).to_contain_text("not playing")
    assert page.locator(f"{BOARD} .pc-target").count() == 0
    page.screenshot(path=str(SHOTS / "petits-chevaux-board-end.png"), full_page=True)
    page.goto(server.url + f"/replay/{match}")
    expect(page.locator(BOARD)).to_be_visible()
    page.keyboard.press("End")
    expect(page.locator(BOARD)).to_contain_text("wins!")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(BOARD)).not_to_contain_text("wins!")
    page.screenshot(path=str(SHOTS / "petits-chevaux-board-replay.png"), full_page=True)
