"""The home page in a real headless Chromium: each game's card shows its own board in a
sample position, its facts (players, length, age), and starts a game against the computer
in one tap; a saved game is opened from a button, not a bare file input."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from dicegames.core.registry import game_class
from web.games import game_ids, lacks_board
from web.server import Server

GAMES = game_ids()
"""Every registered game (a new one is covered without an edit here)."""


def test_every_card_shows_its_board_and_facts(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    cards = page.locator("#games .game-card")
    expect(cards).to_have_count(len(GAMES))
    for game in GAMES:
        card = page.locator(f"#games .game-card[data-id={game}]")
        # The picture is the game's own board module drawing (an SVG, not an image file),
        # drawn once the card comes near the screen; a game without one shows its text board.
        card.scroll_into_view_if_needed()
        if lacks_board(game):
            expect(card.locator(".picture pre.text-board")).to_be_visible()
        else:
            expect(card.locator(".picture svg").first).to_be_visible()
            expect(card.locator(".picture pre.text-board")).to_have_count(0)
        # Players always; the playing time and the age when the game's spec gives them.
        spec = game_class(game).spec
        facts = [f"{spec.min_players}–{spec.max_players} players"]
        if spec.minutes[1]:
            facts.append(f"{spec.minutes[0]}–{spec.minutes[1]} min")
        if spec.age:
            facts.append(f"ages {spec.age}+")
        expect(card.locator(".facts")).to_have_text(" · ".join(facts))
    expect(page.locator("#games [data-id=monza] .facts")).to_have_text(
        "2–6 players · 10–15 min · ages 5+")
    # Nothing on a picture can be clicked or reached with Tab.
    assert page.evaluate("""() => [...document.querySelectorAll('.picture')].every(
        (p) => p.inert && p.getAttribute('aria-hidden') === 'true')""")


def test_one_tap_starts_a_game_against_the_computer(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.click("#games [data-id=petits-chevaux] .play-now")
    # The first one tap on a device asks the person's name (see test_turns_browser.py).
    page.fill("#player-name", "Ann")
    page.click(".name-dialog button[type=submit]")
    page.wait_for_url("**/m/**")
    expect(page.locator("#seats")).to_contain_text("Ann")
    expect(page.locator("#seats")).to_contain_text("Computer (bot, medium)")
    expect(page.locator("#status")).not_to_be_empty()


def test_the_sample_is_the_same_every_time(server: Server) -> None:
    first = server.get("/api/games/shortcut/sample")
    assert server.get("/api/games/shortcut/sample") == first
    assert first["game"]["id"] == "shortcut" and first["view"]["board"]
    assert first["node"]["kind"] == "decision"
    status, body = server.call("GET", "/api/games/chess/sample")
    assert status == 404 and body["error"] == "unknown_game"


def test_a_saved_game_opens_from_a_button(server: Server, page: Page, tmp_path: Path) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "seed": 3, "players": [
        {"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]})
    record = server.get(f"/api/matches/{match['id']}/record")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(server.url + "/")
    expect(page.locator("#record-file")).not_to_be_visible()
    with page.expect_file_chooser() as chooser:
        page.click("#open-record")
    chooser.value.set_files(str(path))
    page.wait_for_url("**/replay/**")
