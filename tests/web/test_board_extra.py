"""EXTRA!'s SVG score sheets in a real headless Chromium (games/extra/board.js).

A person picks a decision on their own sheet: taps the glowing rows, then an EXTRA column
(or does the same with Tab and Enter); the dice of the shared roll show; the sheets fit a
phone's width; the replay draws them too. Screenshots go to ``test-output/extra-board-*.png``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from playwright.sync_api import Page, expect

from web.browser import SHOTS, play_to_the_end, start_against_bots
from web.server import Server

BOARD = "#board .xb-main"


def new_match(server: Server, columns: str = "10,9,8") -> tuple[str, str, str]:
    """A seeded match of Ann against an easy bot: its id, Ann's token and her seat link."""
    match = server.post("/api/matches", {
        "game": "extra", "seed": 11, "options": {"extra_columns": columns},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
    seat = match["seats"][0]
    return match["id"], seat["token"], server.url + seat["link"]


def ann_choice(server: Server, page: Page, match_id: str, token: str) -> list[dict[str, Any]]:
    """Ann's choices once she alone decides (the bot has decided), and the page shows it."""
    for _ in range(400):
        state = server.get(f"/api/matches/{match_id}?token={token}")
        if state["node"]["deciding"] == [0]:
            break
        time.sleep(0.025)
    else:
        raise AssertionError("Ann never got to decide alone")
    shown = len(state["log"]) + (state["log_size"] > len(state["log"]))
    expect(page.locator("#log li")).to_have_count(shown)
    hints: list[dict[str, Any]] = state["hints"]["0"]
    return hints


def test_tapping_the_sheet_and_the_keyboard_play_a_decision(server: Server, page: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    match_id, token, link = new_match(server, columns="5,5,5")
    page.goto(link)
    expect(page.locator(f"{BOARD} [data-target]").first).to_be_visible()
    assert page.locator("pre.text-board").count() == 0
    expect(page.locator("#dice .die")).to_have_count(5)
    expect(page.locator("#board .xb-mini")).to_have_count(1)  # the bot's sheet, small
    expect(page.locator("#choices button.choice").first).to_be_visible()  # buttons stay

    # The first roll: tap the rows of one choice, then its EXTRA column.
    hint = ann_choice(server, page, match_id, token)[0]
    rows, column = hint["targets"][:-1], hint["targets"][-1]
    assert column.startswith("s0-x")
    for target in rows:
        page.click(f'{BOARD} [data-target="{target}"]')
    expect(page.locator(BOARD)).to_contain_text("now tap an EXTRA column")
    page.screenshot(path=str(SHOTS / "extra-board-desktop.png"), full_page=True)
    page.click(f'{BOARD} [data-target="{column}"]')
    (a, b), (c, d) = (pair.split("+") for pair in hint["move"].split()[:2])
    expect(page.locator("#log")).to_contain_text(
        f"Ann records {int(a) + int(b)} and {int(c) + int(d)} ({a}+{b}, {c}+{d})")

    # The next roll, with the keyboard only: focus each target and press Enter.
    hint = ann_choice(server, page, match_id, token)[-1]
    for target in hint["targets"]:
        cell = page.locator(f'{BOARD} [data-target="{target}"]')
        cell.focus()
        assert cell.get_attribute("role") == "button" and cell.get_attribute("aria-label")
        page.keyboard.press("Enter")
    expect(page.locator("#log li", has_text="Ann records")).to_have_count(2)

    # Play on with the buttons to the end; the board shows the winner.
    assert play_to_the_end(page, random.Random(3)) > 0
    page.click("#end-close")
    expect(page.locator(BOARD)).to_contain_text("points after")
    page.screenshot(path=str(SHOTS / "extra-board-end.png"), full_page=True)

    # The replay draws the same sheets, with nothing to pick.
    page.goto(server.url + f"/replay/{match_id}")
    expect(page.locator("#where")).to_contain_text("move 0 of")
    page.click("#next")
    page.click("#next")
    expect(page.locator(BOARD)).to_be_visible()
    assert page.locator(f"{BOARD} [data-target]").count() == 0
    page.screenshot(path=str(SHOTS / "extra-board-replay.png"), full_page=True)


def test_the_sheets_fit_a_phone_and_other_sheets_open_large(server: Server,
                                                            phone: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    page = phone
    start_against_bots(page, server.url, "extra")
    expect(page.locator(f"{BOARD} [data-target]").first).to_be_visible()
    expect(page.locator("#dice .die")).to_have_count(5)
    page.screenshot(path=str(SHOTS / "extra-board-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = page.locator(BOARD).bounding_box()
    assert box is not None and box["width"] <= 390
    # A tap on the bot's small sheet shows it large; a tap on Ann's brings hers back.
    page.locator("#board .xb-mini").first.click()
    expect(page.locator(BOARD)).to_contain_text("Tap your own sheet below")
    page.locator("#board .xb-mini").first.click()
    expect(page.locator(f"{BOARD} [data-target]").first).to_be_visible()
