"""The pages in a real headless Chromium (an installed one, see ``browser.py``) via Playwright.

Every game is played to the end against bots by clicking; a second browser context plays
another seat from its secret link; undo, manual dice entry, replay and record upload are
used as a person would. Each game's page is saved as a screenshot under ``test-output/``.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from web.browser import READY, SHOTS, play_to_the_end, start_against_bots
from web.games import game_ids, skip_unless
from web.server import Server

GAMES = game_ids()
"""Every registered game (a new one is covered without an edit here)."""


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_to_the_end_by_clicking(server: Server, page: Page,
                                                 game: str) -> None:
    skip_unless(game, "bots")
    SHOTS.mkdir(exist_ok=True)
    page.goto(server.url + f"/?game={game}")
    page.locator("#rules > summary").click()
    expect(page.locator("#rules-html h2").first).to_be_visible()
    start_against_bots(page, server.url, game)
    page.wait_for_function(READY, timeout=20_000)
    page.screenshot(path=str(SHOTS / f"{game}.png"), full_page=True)
    clicks = play_to_the_end(page, random.Random(game))
    assert clicks > 0
    expect(page.locator("#end-text")).to_contain_text("win")
    expect(page.locator("#again")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"{game}-end.png"), full_page=True)
    assert "Game over" in page.locator("#status").inner_text()
    # "Play again" starts a new match with the same set-up.
    first = page.url
    page.click("#again")
    page.wait_for_url(lambda url: url != first and "/m/" in url)
    expect(page.locator("#seats li").first).to_contain_text("Ann")


@pytest.mark.both_stores  # on PostgreSQL too (tests/web/conftest.py)
def test_second_device_plays_its_seat_from_its_link(server: Server, browser: Browser) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "seed": 4, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    ann_link, ben_link = (server.url + seat["link"] for seat in match["seats"])
    # Ben plays on a phone-width screen.
    ann_context = browser.new_context()
    ben_context = browser.new_context(viewport={"width": 390, "height": 800})
    try:
        ann, ben = ann_context.new_page(), ben_context.new_page()
        ann.goto(ann_link)
        ben.goto(ben_link)
        expect(ann.locator("#status")).to_contain_text("Your turn, Ann")
        expect(ben.locator("#status")).to_contain_text("Waiting for Ann")
        expect(ben.locator("#choices button")).to_have_count(0)
        ann.click("#choices button[data-move=stop]")
        expect(ben.locator("#status")).to_contain_text("Your turn, Ben")
        expect(ben.locator("#log")).to_contain_text("Ann stops")
        ben.screenshot(path=str(SHOTS / "second-device-phone.png"), full_page=True)
        assert ben.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        ben.click("#choices button[data-move=stop]")
        expect(ann.locator("#log")).to_contain_text("Ben stops")
        expect(ann.locator("#status")).to_contain_text("Your turn, Ann")
        # A spectator sees the same, with no choices.
        watcher = ben_context.new_page()
        watcher.goto(server.url + match["spectator"])
        expect(watcher.locator("#log")).to_contain_text("Ben stops")
        expect(watcher.locator("#choices button")).to_have_count(0)
    finally:
        ann_context.close()
        ben_context.close()


def test_hot_seat_with_real_dice_and_undo(server: Server, page: Page) -> None:
    page.goto(server.url + "/?game=extra-meters")
    rows = page.locator("#players .kind")
    # The picker offers people and the game's own levels, each with what it does (in plain
    # words, the launcher's: optimal plays as hard does in this game).
    offered = rows.nth(1).locator("option")
    expect(offered).to_have_text(["Person here", "Invited (link)", "Bot: easy", "Bot: medium",
                                  "Bot: hard", "Bot: optimal"])
    expect(offered.nth(5)).to_have_attribute(
        "title", re.compile("optimal|best|exact|same player as hard", re.I))
    rows.nth(1).select_option("here")
    names = page.locator("#players .name")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Ben")
    page.check("input[name=dice][value=manual]")
    page.click("#start")
    page.wait_for_url("**/m/**")
    expect(page.locator("#entry")).to_contain_text("Roll the real dice")
    page.click("#entry button[data-move='3']")
    expect(page.locator("#log")).to_contain_text("Ann rolls 3")
    # Keyboard: "2" picks the second choice (stop).
    expect(page.locator("#choices button.choice")).to_have_count(2)
    page.keyboard.press("2")
    expect(page.locator("#log")).to_contain_text("Ann stops")
    expect(page.locator("#undo")).to_be_visible()
    page.screenshot(path=str(SHOTS / "undo.png"), full_page=True)
    page.click("#undo")
    expect(page.locator("#log")).not_to_contain_text("Ann stops")
    expect(page.locator("#status")).to_contain_text("Your turn, Ann")
    expect(page.locator("#undo")).to_be_hidden()
    # Stop again; Ben's dice come next, entered on the same device (the referee).
    page.click("#choices button[data-move=stop]")
    expect(page.locator("#entry button")).to_have_count(5)
    page.click("#entry button[data-move='5']")
    expect(page.locator("#status")).to_contain_text("Your turn, Ben")
    expect(page.locator("#undo")).to_be_hidden()


def test_replay_steps_through_and_uploads(server: Server, page: Page, tmp_path: Path) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "seed": 9, "players": [
        {"name": "A", "kind": "bot:easy"}, {"name": "B", "kind": "bot:easy"}]})
    for _ in range(400):
        if server.get(f"/api/matches/{match['id']}")["status"] == "finished":
            break
        time.sleep(0.02)
    page.goto(server.url + f"/replay/{match['id']}")
    page.wait_for_function(
        "() => document.querySelector('#where').textContent.startsWith('move 0 of')")
    total = int(page.locator("#where").inner_text().split()[-1])
    assert total > 2
    page.click("#next")
    expect(page.locator("#where")).to_have_text(f"move 1 of {total}")
    expect(page.locator("#log li")).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator("#where")).to_have_text(f"move {total} of {total}")
    expect(page.locator("#status")).to_contain_text("Game over")
    page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
    record = server.get(f"/api/matches/{match['id']}/record")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.goto(server.url + "/")
    page.set_input_files("#record-file", str(path))
    page.wait_for_url("**/replay/**")
    expect(page.locator("#where")).to_have_text(f"move 0 of {total}")
    path.write_text(json.dumps({**record, "moves": ["9", *record["moves"][1:]]}))
    page.goto(server.url + "/")
    page.set_input_files("#record-file", str(path))
    expect(page.locator("#replay-error")).to_contain_text("move 0")


def test_the_board_is_drawn_again_when_the_screen_width_changes(server: Server,
                                                                  page: Page) -> None:
    # Two people and no bot: nothing changes the match while the phone is turned.
    match = server.post("/api/matches", {"game": "monza", "seed": 2, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    page.goto(server.url + match["seats"][0]["link"])
    expect(page.locator("#status")).to_contain_text("Your turn, Ann")
    # The status line is written before the board module has loaded and drawn.
    page.wait_for_selector("#board svg", state="attached")
    page.evaluate("document.querySelector('#board > *').dataset.drawing = 'first'")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function(
        "() => document.querySelector('#board > *')?.dataset.drawing === undefined")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_hint_names_the_expert_move_and_marks_its_button(server: Server, page: Page) -> None:
    # Real dice typed in: Ann (red) plays first, brings a horse out with a 6, rolls a 6 again.
    match = server.post("/api/matches", {"game": "petits-chevaux", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    ann = match["seats"][0]["token"]
    dice, act = f"/api/matches/{match['id']}/dice", f"/api/matches/{match['id']}/actions"
    for path, body in ((dice, {"dice": "red"}), (dice, {"dice": "6"}), (act, {"move": "out"}),
                       (dice, {"dice": "6"})):
        server.post(path, {"token": ann, **body})
    page.goto(server.url + match["seats"][0]["link"])
    choices = page.locator("#choices button.choice")
    expect(choices).to_have_count(2)  # out, or R1 on by 6
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#hint-text")).to_be_hidden()
    page.click("#hint")
    # The server's first hint loads the bot and its estimate (a compiled kernel from the
    # disk cache): seconds on a loaded CI machine, so more than expect's default 5 s.
    expect(page.locator("#hint-text")).to_contain_text("Hint: the expert bot would play",
                                                       timeout=30_000)
    suggested = page.locator("#choices button.choice.suggested")
    expect(suggested).to_have_count(1)
    move = suggested.get_attribute("data-move")
    hint = server.get(f"/api/matches/{match['id']}/hint?token={ann}")
    assert hint["move"] == move and hint["label"] in page.locator("#hint-text").inner_text()
    # On the board, the pieces and squares of that move are marked too, and only they.
    marked = page.locator("#board .suggested")
    assert marked.count() >= 1
    assert set(marked.evaluate_all("nodes => nodes.map((n) => n.dataset.move)")) == {move}
    # Asking changed nothing. Playing the move clears the hint; so does taking it back, and
    # the other move (which brings the version back to the hinted one) shows no old hint.
    assert server.get(f"/api/matches/{match['id']}")["version"] == 4
    suggested.click()
    expect(page.locator("#hint-text")).to_be_hidden()
    page.click("#undo")
    expect(choices).to_have_count(2)
    page.locator(f"#choices button.choice:not([data-move='{move}'])").click()
    expect(page.locator("#status")).not_to_contain_text("choose")
    assert server.get(f"/api/matches/{match['id']}")["version"] == 5
    expect(page.locator("#hint-text")).to_be_hidden()
    expect(page.locator("#board .suggested")).to_have_count(0)
    # The key h asks too; a spectator's page has no Hint button.
    server.post(dice, {"token": ann, "dice": "3"})
    expect(choices.first).to_be_visible()
    page.keyboard.press("h")
    expect(page.locator("#hint-text")).to_contain_text("Hint: the expert bot would play")
    page.goto(server.url + f"/m/{match['id']}")
    expect(page.locator("#status")).to_contain_text("Ann")
    expect(page.locator("#hint")).to_be_hidden()


def test_an_old_hint_is_not_shown_after_undo_and_another_move(server: Server,
                                                              page: Page) -> None:
    # Monza: one roll gives several steps. After "white i1" Ann still decides (a hint there);
    # she takes it back and steps "blue o1" instead: the same number of moves, and she still
    # decides, but the hint was for the other position.
    match = server.post("/api/matches", {"game": "monza", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    ann = match["seats"][0]["token"]
    base = f"/api/matches/{match['id']}"
    server.post(f"{base}/dice", {"token": ann, "dice": "ryygbw"})
    server.post(f"{base}/actions", {"token": ann, "move": "white i1"})
    page.goto(server.url + match["seats"][0]["link"])
    page.wait_for_function(READY, timeout=20_000)
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("Hint: the hard bot would play")
    page.click("#undo")
    expect(page.locator("#hint-text")).to_be_hidden()
    page.wait_for_function(READY, timeout=20_000)
    server.post(f"{base}/actions", {"token": ann, "move": "blue o1"})
    expect(page.locator("#log")).to_contain_text("blue")
    assert server.get(base)["version"] == 2
    expect(page.locator("#status")).to_contain_text("Your turn, Ann")
    expect(page.locator("#hint-text")).to_be_hidden()
    expect(page.locator(".suggested")).to_have_count(0)


def test_a_game_starts_from_a_typed_position(server: Server, page: Page) -> None:
    page.goto(server.url + "/?game=extra-meters")
    page.locator("#players .name").nth(0).fill("Ann")
    page.locator("#position-set summary").click()
    page.fill("#position", "48/46 1 decide 4 7 zz")
    page.click("#start")
    expect(page.locator("#setup-error")).to_contain_text("has 5 fields")
    page.fill("#position", "48/46 1 decide 4 7")
    page.click("#start")
    page.wait_for_url("**/m/**")
    expect(page.locator("#status")).to_contain_text("Your turn, Ann")
    page.click("#choices button[data-move=stop]")
    expect(page.locator("#log")).to_contain_text("Ann wins")
