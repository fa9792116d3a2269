"""The For a Few Extra Meters SVG board in a real headless Chromium.

The board replaces the text board; the ghost runner (stop) and the big die (roll) are
highlighted, clickable and keyboard-reachable; the dice show; a 390 px wide phone has no
horizontal scroll; the end of a game and the replay page draw the board too. Screenshots go
to ``test-output/extra-meters-board*.png``.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from web.browser import SHOTS, start_against_bots
from web.server import Server

STOP = "#board [data-target=landing][role=button]"
ROLL = "#board [data-target=roll][role=button]"


def versus_bot(server: Server, seed: int, **options: object) -> dict[str, str]:
    """A seeded match, Ann (a person) against an easy bot; returns Ann's link and the id."""
    match = server.post("/api/matches", {"game": "extra-meters", "seed": seed,
                                         "options": options, "players": [
                                             {"name": "Ann", "kind": "human"},
                                             {"name": "Robo", "kind": "bot:easy"}]})
    return {"link": server.url + match["seats"][0]["link"], "id": match["id"],
            "spectator": server.url + match["spectator"]}


def test_the_board_is_drawn_with_dice_and_highlighted_choices(server: Server,
                                                              page: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    start_against_bots(page, server.url, "extra-meters")
    expect(page.locator(STOP)).to_be_visible()
    expect(page.locator("#board svg.em-track")).to_be_visible()
    expect(page.locator("#board pre.text-board")).to_have_count(0)
    # 50 numbered squares between START and FINISH, both runners at the start.
    expect(page.locator("#board .em-num")).to_have_count(50)
    expect(page.locator("#board .em-pawn")).to_have_count(2)
    expect(page.locator("#board .em-ghost")).to_have_count(1)
    expect(page.locator("#board .em-legend li")).to_have_count(2)
    # The opening roll shows as a die above the board and as the sum in the panel.
    expect(page.locator("#dice .die")).to_have_count(1)
    expect(page.locator("#board .em-sum")).to_contain_text("so far")
    expect(page.locator(STOP)).to_have_attribute("aria-label", re.compile(r"^Stop: move \d+"))
    assert page.locator(STOP).get_attribute("tabindex") == "0"
    assert (page.locator(ROLL).get_attribute("aria-label") or "").startswith("Roll again")
    # The page's own choice buttons stay.
    expect(page.locator("#choices button.choice")).to_have_count(2)
    page.screenshot(path=str(SHOTS / "extra-meters-board.png"), full_page=True)
    page.locator(STOP).click()
    expect(page.locator("#log")).to_contain_text("Ann stops")


def test_keyboard_rolls_and_stops_on_the_board(server: Server, page: Page) -> None:
    match = versus_bot(server, seed=11)
    page.goto(match["link"])
    expect(page.locator(ROLL)).to_be_visible()
    page.locator(ROLL).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("Ann rolls again")
    # A 6 would end the turn; either way Ann soon decides again (the bot plays at once).
    expect(page.locator(STOP)).to_be_visible(timeout=20_000)
    # The keyboard focus comes back to the die, ready to roll again.
    expect(page.locator(ROLL)).to_be_focused()
    expect(page.locator("#board .em-sum")).to_contain_text("so far")
    page.screenshot(path=str(SHOTS / "extra-meters-board-mid.png"), full_page=True)
    page.locator(STOP).focus()
    page.keyboard.press(" ")
    expect(page.locator("#log")).to_contain_text("Ann stops")
    state = server.get(f"/api/matches/{match['id']}")
    assert any("Ann stops" in event["description"] for event in state["log"])


def test_a_phone_has_no_horizontal_scroll_and_a_spectator_no_targets(
        server: Server, phone: Page) -> None:
    match = versus_bot(server, seed=5)
    phone.goto(match["link"])
    expect(phone.locator(STOP)).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = phone.locator("#board svg.em-track").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    phone.screenshot(path=str(SHOTS / "extra-meters-board-phone.png"), full_page=True)
    # A spectator sees the same board, with nothing to pick.
    phone.goto(match["spectator"])
    expect(phone.locator("#board svg.em-track")).to_be_visible()
    expect(phone.locator("#board .em-ghost")).to_have_count(1)
    expect(phone.locator("#board [role=button]")).to_have_count(0)
    expect(phone.locator("#board .em-head")).to_contain_text("Ann is thinking")


def test_the_end_and_the_replay_draw_the_board(server: Server, page: Page) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "seed": 3,
                                         "options": {"track_length": 20}, "players": [
                                             {"name": "Robo", "kind": "bot:medium"},
                                             {"name": "Zed", "kind": "bot:easy"}]})
    page.goto(server.url + match["spectator"])
    expect(page.locator("#end")).to_be_visible(timeout=20_000)
    page.click("#end-close")
    expect(page.locator("#board .em-head")).to_contain_text("wins!")
    expect(page.locator("#board .em-legend")).to_contain_text("winner")
    expect(page.locator("#board polygon")).to_have_count(1)  # the winner's star
    expect(page.locator("#board [role=button]")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "extra-meters-board-end.png"), full_page=True)
    page.goto(server.url + f"/replay/{match['id']}")
    page.wait_for_function(
        "() => document.querySelector('#where').textContent.startsWith('move 0 of')")
    expect(page.locator("#board svg.em-track")).to_be_visible()
    expect(page.locator("#board .em-head")).to_contain_text("Robo's turn")
    for _ in range(3):
        page.click("#next")
    expect(page.locator("#board [role=button]")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "extra-meters-board-replay.png"), full_page=True)
