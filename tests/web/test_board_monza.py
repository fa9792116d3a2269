"""Monza's SVG board in a real headless Chromium: drawn instead of the text board, the dice
shown, the marked squares clicked and chosen by keyboard, no horizontal scroll at phone
width, the winner named at the end, and the replay page drawing the same board.

Screenshots go to ``test-output/monza-board-*.png``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

import dicegames
from dicegames.core.registry import presenter_of
from web.browser import READY, SHOTS, play_to_the_end
from web.server import Server

PICK = "svg.mz-track .mz-pick"
RING = PICK + " .mz-glow"


def read_aloud(square: str) -> str:
    """How the log names a default-circuit square (``o22``: "square 22 of the outer
    lane")."""
    lane = {"i": "inner", "m": "middle", "o": "outer"}[square[0]]
    return f"square {square[1:]} of the {lane} lane"
"""The ring drawn on a marked element."""

TWO_LANES: dict[str, Any] = {
    "name": "two lanes",
    "lanes": [
        {"name": "a", "squares": [[0, 3, "white"], [3, 6, "red"], [6, 9, "yellow"],
                                  [9, 12, "red"], [12, 15, "green"], [15, 18, "blue"],
                                  [18, 21, "purple"]]},
        {"name": "b", "squares": [[1, 4, "purple"], [4, 8, "purple"], [8, 11, "tyre"],
                                  [11, 14, "white"], [14, 17, "blue"], [17, 20, "red"]]}],
    "entries": ["a1", "b1"],
    "targets": ["a7", "b6"],
}
"""A user's circuit file with two lanes (the web app plays the shipped one only, so this
one is drawn by calling the module directly)."""


def new_match(server: Server, seed: int, bots: int = 2) -> dict[str, str]:
    """A match with Ann (a person) against easy bots, fixed dice; returns its id and link."""
    players = [{"name": "Ann", "kind": "human"}] + [
        {"name": name, "kind": "bot:easy"} for name in ["Ben", "Cleo", "Dan"][:bots]]
    match = server.post("/api/matches", {"game": "monza", "seed": seed, "players": players})
    return {"id": match["id"], "link": server.url + match["seats"][0]["link"]}


def wait_for_pick(page: Page) -> bool:
    """Wait until Ann can choose (True) or the game is over (False)."""
    page.wait_for_function(READY, timeout=20_000)
    if page.locator("#end").evaluate("dialog => dialog.open"):
        return False
    expect(page.locator(PICK).first).to_be_visible()
    return True


def test_the_board_is_drawn_clicked_and_played_by_keyboard(server: Server, page: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    match = new_match(server, seed=3, bots=1)
    page.goto(match["link"])
    expect(page.locator("svg.mz-track")).to_be_visible()
    expect(page.locator("pre.text-board")).to_have_count(0)
    # Every square of the default circuit is drawn, lettered, and the cars are there.
    expect(page.locator("svg.mz-track g[data-colour]")).to_have_count(67)
    expect(page.locator("svg.mz-track [data-id=car-0]")).to_have_count(1)
    expect(page.locator(".monza-cars li")).to_have_count(2)
    assert wait_for_pick(page)
    expect(page.locator("#dice svg.die")).to_have_count(6)
    # The marked squares are exactly the offered moves; the buttons stay.
    marked = sorted(page.locator(PICK).evaluate_all("nodes => nodes.map(n => n.dataset.move)"))
    offered = sorted(page.locator("#choices button.choice").evaluate_all(
        "nodes => nodes.map(n => n.dataset.move)"))
    assert marked == offered and marked
    target = page.locator(PICK).first
    assert target.get_attribute("role") == "button" and target.get_attribute("tabindex") == "0"
    assert target.get_attribute("aria-label")
    page.screenshot(path=str(SHOTS / "monza-board-desktop.png"), full_page=True)
    # A click on a marked square plays that step.
    square = target.get_attribute("data-id")
    page.locator(RING).first.click()
    expect(page.locator("#log")).to_contain_text(f"Ann steps to {read_aloud(str(square))}")
    # Keyboard: focus a marked square (square or car) and press Enter.
    assert wait_for_pick(page)
    pick = page.locator(PICK).first
    move = pick.get_attribute("data-move") or ""
    before = page.locator("#log li").count()
    pick.focus()
    assert page.evaluate("document.activeElement.dataset.move") == move
    page.screenshot(path=str(SHOTS / "monza-board-midgame.png"), full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    name = move.split()[-1]
    expect(page.locator("#log")).to_contain_text(
        re.compile(f"Ann (steps|advances).*{read_aloud(name)}"))
    # To the end by the page's buttons; the board names the winner.
    play_to_the_end(page, random.Random(3))
    page.locator("#end-close").click()
    expect(page.locator(".monza-turn")).to_contain_text("the race!")
    expect(page.locator(PICK)).to_have_count(0)
    page.screenshot(path=str(SHOTS / "monza-board-end.png"), full_page=True)
    # The replay page draws the same board, with nothing to click.
    page.goto(server.url + f"/replay/{match['id']}")
    expect(page.locator("svg.mz-track")).to_be_visible()
    page.keyboard.press("End")
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator(".monza-turn")).to_contain_text("the race!")
    expect(page.locator(PICK)).to_have_count(0)
    page.screenshot(path=str(SHOTS / "monza-board-replay.png"), full_page=True)


def test_phone_width_has_no_horizontal_scroll(server: Server, dark_phone: Page) -> None:
    SHOTS.mkdir(exist_ok=True)
    match = new_match(server, seed=3, bots=1)
    page = dark_phone
    page.goto(match["link"])
    expect(page.locator("svg.mz-track")).to_be_visible()
    assert wait_for_pick(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = page.locator("svg.mz-track").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # A square to tap is at least about 35 px wide on the phone.
    tap = page.locator(PICK).first.bounding_box()
    assert tap is not None and tap["width"] >= 30 and tap["height"] >= 30
    page.screenshot(path=str(SHOTS / "monza-board-phone.png"), full_page=True)
    square = page.locator(PICK).first.get_attribute("data-id")
    page.locator(RING).first.click()
    expect(page.locator("#log")).to_contain_text(f"Ann steps to {read_aloud(str(square))}")


def test_real_dice_are_entered_and_the_last_colour_step_is_declined_on_the_car(
        server: Server, page: Page) -> None:
    match = server.post("/api/matches", {
        "game": "monza", "seed": 5, "dice": "manual", "options": {"variant_last_colour": True},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    tokens = [seat["token"] for seat in match["seats"]]
    page.goto(server.url + "/")
    # Both seats on this device, as the home page keeps them for a hot-seat game.
    page.evaluate("([key, tokens]) => localStorage.setItem(key, "
                  "JSON.stringify({tokens, invites: []}))", [f"dicegames:{match['id']}", tokens])
    page.goto(server.url + f"/m/{match['id']}")
    expect(page.locator(".monza-turn")).to_contain_text("Ann rolls")
    # One row of six colours: a tap adds a die of that colour, "−" takes one back.
    adds = page.locator("#entry .counter button.add")
    expect(adds).to_have_count(6)
    expect(page.locator("#entry button.primary")).to_be_disabled()
    for face in "rygbbp":
        page.click(f"#entry button.add[data-value={face}]")
    expect(page.locator("#entry .entry-status")).to_contain_text("6 of 6 dice")
    expect(page.locator("#entry button.add[data-value=w]")).to_be_disabled()
    page.click("#entry button.less[data-value=p]")
    page.click("#entry button.add[data-value=w]")
    expect(page.locator("#entry button.add[data-value=b]")).to_have_attribute(
        "aria-label", "Blue: 2 so far. Add one")
    expect(page.locator("#entry .entry-status")).to_contain_text(
        "6 of 6 dice: Red, Yellow, Green, Blue, Blue, White.")
    page.locator("#entry button.primary").click()
    expect(page.locator("#log")).to_contain_text("Ann rolls red, yellow, green, blue, blue, white")
    expect(page.locator("#dice svg.die")).to_have_count(6)
    # Step on until the move ends; the last die's car (red: Ann's own) may then move one square.
    for _ in range(6):
        if "free square" in page.locator(".monza-turn").inner_text():
            break
        count = page.locator("#log li").count()
        page.locator(RING).first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {count}")
    expect(page.locator(".monza-turn")).to_contain_text("free square")
    expect(page.locator("#dice svg.die.used")).to_have_count(4)
    car = page.locator("svg.mz-track [data-id=car-0].mz-pick")
    expect(car).to_have_attribute("aria-label", "Keep your car where it is")
    car.locator(".mz-glow").click()
    expect(page.locator("#log")).to_contain_text("Ann stays put")
    expect(page.locator(".monza-turn")).to_contain_text("Ben rolls")


def test_a_users_own_circuit_is_drawn_from_its_data(server: Server, page: Page,
                                                    tmp_path: Path) -> None:
    path = tmp_path / "two-lanes.json"
    path.write_text(json.dumps(TWO_LANES), encoding="utf-8")
    game = dicegames.make("monza", players=4, circuit=str(path))
    state = game.new_state().apply("wwpppr")
    view, hints = presenter_of(game).view(state), presenter_of(game).action_hints(state, 0)
    page.goto(server.url + "/games/monza/board.js")  # a page of the server with no script
    page.evaluate("""async ([view, hints]) => {
      const board = await import('/games/monza/board.js');
      const box = document.createElement('div');
      box.id = 'own';
      document.body.replaceChildren(box);
      window.picked = [];
      window.answer = board.render(box, view, {hints, pick: (move) => window.picked.push(move),
        names: ['Ann', 'Ben', 'Cy', 'Di'], seat: 0, deciding: [0]});
    }""", [view, hints])
    expect(page.locator("#own svg.mz-track g[data-colour]")).to_have_count(13)
    expect(page.locator("#own g[data-colour=tyre]")).to_have_count(1)
    expect(page.locator("#own .monza-cars li")).to_have_count(4)
    assert page.evaluate("window.answer") == {"ownsChoices": False}
    page.locator(f"#own {RING.removeprefix('svg')}").first.click()
    assert page.evaluate("window.picked") == [hints[0]["move"]]
    page.screenshot(path=str(SHOTS / "monza-board-own-circuit.png"), full_page=True)


def test_no_square_is_cut_where_a_row_ends_and_each_marked_one_is_clicked(
        server: Server, browser: Any) -> None:
    # Squares cut at a row's end (i12, m6, o11) were slivers, and a click on the middle
    # of a marked one hit the road between the rows.
    for width in (390, 700, 1000, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            match = server.post("/api/matches", {"game": "monza", "seed": 3, "players": [
                {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
            page.goto(server.url + match["seats"][0]["link"])
            expect(page.locator("svg.mz-track [data-id=i1]")).to_be_visible()
            # Every square is one rectangle one lane high (plus tyres and finish stripes).
            heights = page.evaluate("""() => [...document.querySelectorAll(
                'svg.mz-track g[data-colour]')].map((g) => [g.dataset.id,
                g.getBoundingClientRect().height])""")
            lane = min(height for _, height in heights)
            assert all(height < lane * 1.5 for _, height in heights), heights
            for _ in range(3):
                page.wait_for_function(READY, timeout=20_000)
                marked = page.locator(PICK + "[data-colour]")
                if marked.count() == 0:
                    break
                count = page.locator("#log li").count()
                marked.first.click(timeout=5_000)
                page.wait_for_function(
                    f"() => document.querySelectorAll('#log li').length > {count}")
        finally:
            context.close()


def test_the_dice_use_the_boards_colours(server: Server, page: Page) -> None:
    match = server.post("/api/matches", {"game": "monza", "seed": 2, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
    page.goto(server.url + match["seats"][0]["link"])
    expect(page.locator("#dice svg.die")).to_have_count(6)
    fills = page.evaluate("""() => [...document.querySelectorAll('#dice svg.die')].map((die) =>
        [die.getAttribute('aria-label'), die.querySelector('rect').getAttribute('fill')])""")
    palette = {"Red": "#e53935", "Yellow": "#fbc02d", "Green": "#43a047", "Blue": "#1e88e5",
               "White": "#f4f4ef", "Purple": "#8e24aa"}
    for label, fill in fills:
        colour = label.split()[-1]
        assert fill == palette[colour], (label, fill)
        # The same colour as the board's squares of that colour.
        square = page.locator(f"svg.mz-track g[data-colour={colour.lower()}] rect").first
        assert square.get_attribute("fill") == fill
