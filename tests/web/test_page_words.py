"""What the game page says, checked in a real headless Chromium: the status line while a
forced pass is pending, the connection message after a reconnect, the Extra Meters "roll
again" die, and one spelling of a Petits Chevaux horse on the board and in the log."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web.browser import READY
from web.server import Server


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that pauses 1.5 s before a bot move or a forced pass, as people see it."""
    running = Server(tmp_path_factory.mktemp("paced") / "games.sqlite3", bot_delay=1.5).start()
    yield running
    running.stop()


def two_people(server: Server, game: str, seed: int = 1, dice: str = "manual") -> dict[str, str]:
    """A match of Ann and Ben, both people; returns their tokens, links and the match id."""
    match = server.post("/api/matches", {"game": game, "seed": seed, "dice": dice, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    ann, ben = match["seats"]
    return {"id": match["id"], "ann": ann["token"], "ben": ben["token"],
            "ann_link": server.url + ann["link"], "ben_link": server.url + ben["link"]}


def enter(server: Server, match: dict[str, str], dice: str) -> None:
    """Enter real dice through the API, as the other device at the table would."""
    server.post(f"/api/matches/{match['id']}/dice", {"token": match["ben"], "dice": dice})


@pytest.mark.process
def test_a_forced_pass_on_your_own_turn_says_so(paced: Server, page: Page) -> None:
    match = two_people(paced, "petits-chevaux")
    page.goto(match["ann_link"])
    # The first player is drawn by lot (entered as a colour), then Ann rolls a 3 with
    # every horse in its corner stable: she cannot move, and the server passes for her
    # after its pause. Meanwhile her page must not say it waits for her.
    enter(paced, match, "red")
    # Ann's own page speaks to her in the second person.
    expect(page.locator("#status")).to_contain_text("Your roll")
    enter(paced, match, "3")
    expect(page.locator("#status")).to_contain_text("You cannot move: the turn passes")
    expect(page.locator("#status")).not_to_contain_text("Waiting for Ann")
    # Once passed, it is Ben's roll.
    expect(page.locator("#status")).to_contain_text("Ben's roll", timeout=10_000)
    expect(page.locator("#log")).to_contain_text("Ann cannot move")


# Every websocket the page opens is kept in window.__sockets; while window.__hold is true,
# new ones go to a path the server refuses, so the page stays disconnected and retries.
HOLD_SOCKETS = """
const Real = window.WebSocket;
window.__sockets = [];
window.__hold = false;
function Held(url, protocols) {
  const socket = new Real(window.__hold ? url.replace("/ws/", "/no-ws/") : url, protocols);
  window.__sockets.push(socket);
  return socket;
}
Held.prototype = Real.prototype;
for (const key of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Held[key] = Real[key];
window.WebSocket = Held;
"""


def test_the_reconnect_message_goes_once_the_connection_is_back(server: Server,
                                                                 page: Page) -> None:
    match = two_people(server, "extra-meters", dice="auto")
    page.add_init_script(HOLD_SOCKETS)
    page.goto(match["ann_link"])
    expect(page.locator("#status")).to_contain_text("Your turn, Ann")
    # The connection drops and stays down; a click meanwhile says so.
    page.evaluate("() => { window.__hold = true; window.__sockets.at(-1).close(); }")
    expect(page.locator("#conn")).to_contain_text("Reconnecting")
    page.click("#choices button[data-move=stop]")
    expect(page.locator("#error")).to_contain_text("Not connected")
    # Back: both messages go by themselves, before any other action.
    page.evaluate("() => { window.__hold = false; }")
    expect(page.locator("#conn")).to_be_empty(timeout=15_000)
    expect(page.locator("#error")).to_be_empty()
    page.click("#choices button[data-move=stop]")
    expect(page.locator("#log")).to_contain_text("Ann stops")


def test_the_roll_again_die_promises_no_number(server: Server, page: Page) -> None:
    match = two_people(server, "extra-meters", dice="auto")
    page.goto(match["ann_link"])
    roll = page.locator("#board [data-target=roll]")
    expect(roll).to_be_visible()
    # A question mark, not the pips of a face (it used to show a 5 whatever came next).
    expect(roll.locator("svg text")).to_have_text("?")
    expect(roll.locator("svg circle")).to_have_count(0)


def test_a_horse_is_spelled_the_same_on_the_board_and_in_the_log(server: Server,
                                                                  page: Page) -> None:
    match = two_people(server, "petits-chevaux")
    page.goto(match["ann_link"])
    enter(server, match, "red")
    enter(server, match, "6")
    expect(page.locator("#choices button[data-move=out]")).to_be_visible()
    page.click("#choices button[data-move=out]")
    expect(page.locator("#log")).to_contain_text("Ann brings R1 out onto its start square")
    enter(server, match, "4")
    page.click("#choices button[data-move=r1]")
    expect(page.locator("#log")).to_contain_text("Ann moves R1 4")
    expect(page.locator("#log")).not_to_contain_text("r1")
    expect(page.locator("#board")).to_contain_text("R1")


def test_extra_real_dice_are_five_taps_on_one_row_of_faces(server: Server, page: Page) -> None:
    match = two_people(server, "extra")
    page.goto(match["ann_link"])
    expect(page.locator("#entry .counter button.add")).to_have_count(6)
    for face in "35516":
        page.click(f"#entry button.add[data-value='{face}']")
    expect(page.locator("#entry .entry-status")).to_have_text("5 of 5 dice: 1, 3, 5, 5, 6.")
    page.click("#entry button.primary")
    expect(page.locator("#log")).to_contain_text("rolls 1 3 5 5 6")


@pytest.mark.parametrize("game", ["extra-meters", "shortcut", "petits-chevaux", "monza"])
def test_a_laptop_screen_shows_the_board_and_the_choices_without_scrolling(
        server: Server, browser: Browser, game: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        match = server.post("/api/matches", {"game": game, "seed": 6, "players": [
            {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
        page.goto(server.url + match["seats"][0]["link"])
        page.wait_for_function(READY, timeout=20_000)
        bottoms = page.evaluate("""() => ({
            choices: Math.max(...[...document.querySelectorAll('#choices button.choice')]
                .map((b) => b.getBoundingClientRect().bottom)),
            board: document.querySelector('#board svg').getBoundingClientRect().bottom})""")
        assert bottoms["choices"] <= 800, bottoms
        assert bottoms["board"] <= 800, bottoms
    finally:
        context.close()
