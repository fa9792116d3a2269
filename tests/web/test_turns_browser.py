"""Issue 25's turn defects in a real headless Chromium: the undo grace period and its
countdown (defect 2), the quick start's remembered name and the second person (defect 3),
the end screen in words (defect 8), the note where real dice are entered in Extra Meters
(defect 11) and squares named as the board names them (defect 13)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from web.browser import READY
from web.server import Server

GRACE = 30.0
"""The server's undo grace period: longer than any test looks at a held game."""


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with no bot pause and a long undo grace period."""
    running = Server(tmp_path_factory.mktemp("turns") / "games.sqlite3",
                     extra=("--undo-grace", str(GRACE))).start()
    yield running
    running.stop()


def seat_link(server: Server, body: dict[str, object]) -> str:
    """Create a match; the first seat's secret link."""
    match = server.post("/api/matches", body)
    link: str = match["seats"][0]["link"]
    return server.url + link


def test_the_last_decision_of_a_turn_can_be_undone_during_a_countdown(
        held: Server, page: Page) -> None:
    page.goto(seat_link(held, {"game": "extra-meters", "seed": 7, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]}))
    stop = page.locator("#choices button[data-move=stop]")
    expect(stop).to_be_enabled()
    stop.click()
    # The bot's turn waits: the undo button stays, with the time left beside it.
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#undo-grace")).to_have_text(re.compile(r"The game goes on in \d+ s"))
    expect(page.locator("#log")).to_contain_text("Ann stops")
    expect(page.locator("#log")).not_to_contain_text("Bot rolls")
    page.click("#undo")
    expect(page.locator("#choices button[data-move=stop]")).to_be_enabled()
    expect(page.locator("#undo-grace")).to_be_hidden()
    expect(page.locator("#log")).not_to_contain_text("Ann stops")


def test_the_quick_start_asks_a_name_once_and_never_says_you_for_it(
        held: Server, page: Page) -> None:
    page.goto(held.url + "/")
    page.locator(".game-card[data-id=extra-meters] .play-now").click()
    expect(page.locator("#player-name")).to_be_visible()
    page.fill("#player-name", "Mia")
    page.locator(".name-dialog button[type=submit]").click()
    page.wait_for_url("**/m/**")
    expect(page.locator("#seats li").first).to_contain_text("Mia")
    expect(page.locator("#status")).to_contain_text(re.compile(r"Your turn, Mia|You roll"))
    text = page.locator("main").inner_text()
    assert "You's" not in text and "You wins" not in text and "You —" not in text, text
    # The name is remembered on this device: the next quick start asks nothing.
    first = page.url
    page.goto(held.url + "/")
    page.locator(".game-card[data-id=extra-meters] .play-now").click()
    page.wait_for_url(lambda url: url != first and "/m/" in url)
    expect(page.locator("#seats li").first).to_contain_text("Mia")
    # Another person on the same device changes the name from the home page.
    page.goto(held.url + "/")
    expect(page.locator("#player-line")).to_contain_text("Playing as Mia.")
    page.locator("#player-line .change-name").click()
    page.fill("#player-name", "Leo")
    page.locator(".name-dialog button[type=submit]").click()
    expect(page.locator("#player-line")).to_contain_text("Playing as Leo.")
    second = page.url
    page.locator(".game-card[data-id=extra-meters] .play-now").click()
    page.wait_for_url(lambda url: url != second and "/m/" in url)
    expect(page.locator("#seats li").first).to_contain_text("Leo")


def test_left_empty_the_name_is_player_1(held: Server, page: Page) -> None:
    page.goto(held.url + "/")
    page.locator(".game-card[data-id=extra-meters] .play-now").click()
    page.locator(".name-dialog button[type=submit]").click()
    page.wait_for_url("**/m/**")
    expect(page.locator("#seats li").first).to_contain_text("Player 1")


def test_the_end_screen_says_why_and_what_the_numbers_mean(held: Server, page: Page) -> None:
    """Shortcut used to end with "You: -4": the steps left are now said in words."""
    # Ann's car one step before the finish, her turn to declare: a push wins.
    page.goto(seat_link(held, {"game": "shortcut", "seed": 1, "position": "e12/a12 1 declare - 1",
                               "players": [{"name": "Ann", "kind": "human"},
                                           {"name": "Bot", "kind": "bot:easy"}]}))
    page.locator("#choices button[data-move=push]").click()
    page.wait_for_function(READY)
    if not page.locator("#end").evaluate("dialog => dialog.open"):  # the push's one step
        page.locator("#choices button.choice").first.click()
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#end-text")).to_contain_text("You win")
    expect(page.locator("#end-why")).to_contain_text("The first car on the finish wins")
    scores = page.locator("#end-scores li")
    expect(scores.nth(0)).to_have_text("1. Ann: on the finish")
    expect(scores.nth(1)).to_have_text(re.compile(r"^2\. Bot: \d+ steps from the finish$"))


def test_extra_meters_says_a_first_six_is_rolled_again_where_dice_are_entered(
        held: Server, page: Page) -> None:
    page.goto(seat_link(held, {"game": "extra-meters", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]}))
    note = page.locator("#entry .entry-note")
    expect(note).to_contain_text("a 6 does not count")
    page.locator("#entry button.outcome[data-move='3']").click()
    page.locator("#choices button[data-move=roll]").click()
    expect(page.locator("#entry button.outcome[data-move='6']")).to_be_visible()
    expect(note).to_have_count(0)  # later rolls: a 6 ends the turn, as the rules say
