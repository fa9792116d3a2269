"""Motion on the boards, in a real headless Chromium: a moved piece passes through the
squares between (its animation's keyframes are those squares, and sampled half-way it stands
on the middle one), a captured or pushed piece travels back after the mover has arrived, the
dice tumble after a roll, an EXTRA! cross is drawn stroke by stroke, and nothing moves under
``prefers-reduced-motion: reduce`` nor on the home page's pictures.

Matches start from positions (``position`` in ``POST /api/matches``) with real dice, so every
move is known. A script counts every Web Animation the page starts (``Element.animate``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from web.conftest import _page
from web.server import Server

COUNT_ANIMATIONS = """
window.__animated = [];
window.__live = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__animated.push({id: this.getAttribute("data-id") || this.tagName,
    delay: (options && options.delay) || 0, frames: JSON.parse(JSON.stringify(frames))});
  const animation = animate.call(this, frames, options);
  window.__live.push({node: this, animation});
  return animation;
};
"""

SAMPLE = """([selector, squares]) => {
  // The last animation started on the piece (kept by the script above: on a busy machine a
  // short one may be over before this runs; it is sought back to be measured).
  const found = window.__live.filter(({node}) => node.isConnected && node.matches(selector)).at(-1);
  if (!found) return null;
  const {node, animation} = found;
  // Hold every piece where it is: the next sample finds the others still under way.
  for (const other of document.getAnimations()) other.pause();
  animation.pause();
  const timing = animation.effect.getComputedTiming();
  const centre = (box) => [box.x + box.width / 2, box.y + box.height / 2];
  const frames = animation.effect.getKeyframes().map((frame) => frame.transform);
  animation.currentTime = timing.delay + timing.duration / 2;
  const middle = centre(node.getBoundingClientRect());
  animation.currentTime = timing.delay;
  const first = centre(node.getBoundingClientRect());
  animation.currentTime = timing.endTime;
  const end = centre(node.getBoundingClientRect());
  window.__live = window.__live.filter((entry) => entry !== found);
  const at = {};
  for (const id of squares) {
    at[id] = centre(document.querySelector(`#board [data-id="${id}"] .pc-shape,`
      + ` #board [data-id="${id}"] rect`).getBoundingClientRect());
  }
  return {frames, middle, first, end, at, delay: timing.delay, duration: timing.duration};
}"""


def recording(browser: Browser, **options: Any) -> Iterator[Page]:
    """A desktop page that records the animations it starts; a page error or an error in
    the console (a board module that failed falls back to text and says so there) fails
    the test."""
    pages = _page(browser, 1000, 900, **options)
    opened = next(pages)
    opened.add_init_script(COUNT_ANIMATIONS)
    errors: list[str] = []
    opened.on("console", lambda message: errors.append(message.text)
              if message.type == "error" else None)
    yield opened
    assert not errors, errors
    next(pages, None)  # closes the context; page errors fail the test there


@pytest.fixture
def moving(browser: Browser) -> Iterator[Page]:
    """A desktop page that records the animations it starts."""
    yield from recording(browser)


@pytest.fixture
def still(browser: Browser) -> Iterator[Page]:
    """A desktop page whose system asks for reduced motion."""
    yield from recording(browser, reduced_motion="reduce")


def match_at(server: Server, game: str, position: str, players: int = 2) -> tuple[str, str]:
    """A match of people from ``position`` with real dice: (id, the first seat's token)."""
    names = ["Ann", "Ben", "Cleo"][:players]
    match = server.post("/api/matches", {"game": game, "dice": "manual", "position": position,
                                         "players": [{"name": n, "kind": "human"} for n in names]})
    return match["id"], match["seats"][0]["link"].split("seat=")[1]


def sample(page: Page, selector: str, squares: list[str]) -> dict[str, Any]:
    """Wait for ``selector`` to start moving, then read its animation (and finish it)."""
    handle = page.wait_for_function(SAMPLE, arg=[selector, squares], timeout=10_000)
    found: dict[str, Any] = handle.json_value()
    return found


def near(a: list[float], b: list[float], tolerance: float = 6) -> bool:
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


CAPTURE = "10,0,0,0/42,0,0,0 1 move 4 0 5"
"""Red's R1 on t9 plays a 4 onto t13, where yellow's Y1 stands alone: a capture."""


def test_a_horse_runs_square_by_square_and_the_captured_one_goes_home_after(
        server: Server, moving: Page) -> None:
    match, token = match_at(server, "petits-chevaux", CAPTURE)
    moving.goto(server.url + f"/m/{match}?seat={token}")
    moving.locator("#board [data-id=h-r1].pc-target").click()
    squares = ["t9", "t10", "t11", "t12", "t13"]
    run = sample(moving, "#board .pc-horse[data-id=h-r1]", squares)
    # One keyframe a square: t9, t10 ... t13 (the last is where it is drawn).
    assert len(run["frames"]) == 5 and run["frames"][-1] == "translate(0px, 0px)"
    assert near(run["first"], run["at"]["t9"]) and near(run["end"], run["at"]["t13"])
    # Half-way through, the horse stands on t11: it goes along the track, not across.
    assert near(run["middle"], run["at"]["t11"])
    back = sample(moving, "#board .pc-horse[data-id=h-y1]", [])
    # The captured horse waits on t13 until R1 has arrived, then travels to its stable.
    assert back["delay"] >= run["duration"] > 0
    assert near(back["first"], run["at"]["t13"])
    assert not near(back["end"], run["at"]["t13"], 60)
    expect(moving.locator("#log")).to_contain_text("R1")


def test_nothing_moves_for_reduced_motion(server: Server, still: Page) -> None:
    match, token = match_at(server, "petits-chevaux", CAPTURE)
    still.goto(server.url + f"/m/{match}?seat={token}")
    still.locator("#board [data-id=h-r1].pc-target").click()
    expect(still.locator("#board [data-id=h-y1]")).to_have_count(1)
    expect(still.locator("#status")).to_contain_text("Ben")
    # Ben's roll, entered: no tumble either.
    still.click("#entry button.face[data-value='3']")
    still.click("#entry button.primary")
    expect(still.locator("#dice svg.die")).to_have_attribute("aria-label",
                                                             re.compile("die showing 3"))
    still.wait_for_timeout(300)
    assert still.evaluate("window.__animated") == []
    assert still.evaluate("document.getAnimations().length") == 0
    assert still.locator("#dice .die.tumble").count() == 0


WATCH_PIPS = """() => {
  window.__flips = 0;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.classList && node.classList.contains("pips")) window.__flips++;
      }
    }
  }).observe(document.querySelector("#dice"), {childList: true, subtree: true});
}"""


def test_the_die_tumbles_when_rolled(server: Server, moving: Page) -> None:
    match, token = match_at(server, "petits-chevaux", "10,0,0,0/42,0,0,0 1 roll - 0 5")
    moving.goto(server.url + f"/m/{match}?seat={token}")
    expect(moving.locator("#entry button.face")).to_have_count(6)
    assert moving.locator("#dice .die.tumble").count() == 0  # nothing rolled yet
    moving.evaluate(WATCH_PIPS)
    moving.click("#entry button.face[data-value='3']")
    moving.click("#entry button.primary")
    die = moving.locator("#dice svg.die.tumble")
    expect(die).to_have_count(1)
    # It turns (a CSS animation) and shows other faces on the way, then lands on its own.
    assert die.evaluate("d => getComputedStyle(d).animationName") == "tumble"
    moving.wait_for_function("() => window.__flips >= 3")
    expect(die).to_have_attribute("aria-label", "die showing 3")
    moving.wait_for_function(
        "() => document.querySelectorAll('#dice .pips circle').length === 3"
        " && !document.querySelector('#dice .die').getAnimations().length")


def test_a_pushed_car_drives_back_after_the_mover(server: Server, moving: Page) -> None:
    match, token = match_at(server, "monza", "i1/i3 1 step ygbbbb - 0/0 - 3")
    moving.goto(server.url + f"/m/{match}?seat={token}")
    moving.locator("#board [data-id=i2].mz-pick").click()
    first = sample(moving, "#board .mz-car[data-id=car-0]", [])
    assert len(first["frames"]) == 2  # one step: i1 to i2
    moving.locator("#board [data-id=i3].mz-pick").click()
    drive = sample(moving, "#board .mz-car[data-id=car-0]", ["i2", "i3"])
    push = sample(moving, "#board .mz-car[data-id=car-1]", ["i2", "i3"])
    assert push["delay"] >= drive["duration"] > 0
    # Yellow goes back from i3 to i2, the square behind it in its lane.
    assert push["first"][0] > push["end"][0]
    assert abs(push["end"][0] - drive["at"]["i2"][0]) < 20


SOLO = "-;-,-,- 1 12235 ? 1"
"""A solo EXTRA! game, the first roll 1 2 2 3 5 to decide on."""


def test_a_car_from_the_start_pushes_one_back_into_the_start_zone(
        server: Server, moving: Page) -> None:
    match, token = match_at(server, "monza", "start/i1 1 step wppppp - 0/0 - 3")
    moving.goto(server.url + f"/m/{match}?seat={token}")
    moving.locator("#board [data-id=i1].mz-pick").click()
    drive = sample(moving, "#board .mz-car[data-id=car-0]", ["i1"])
    push = sample(moving, "#board .mz-car[data-id=car-1]", ["i1"])
    assert push["delay"] >= drive["duration"] > 0
    # Red drives out of the start zone onto i1; yellow goes back from i1 into the zone.
    assert near(drive["end"], push["first"], 40) and push["end"][0] < push["first"][0]
    expect(moving.locator("#log")).to_contain_text("square 1 of the inner lane")


def test_a_cross_is_written_stroke_by_stroke(server: Server, moving: Page) -> None:
    match, token = match_at(server, "extra", SOLO, players=1)
    moving.goto(server.url + f"/m/{match}?seat={token}")
    expect(moving.locator("#board .xb-main .cross")).to_have_count(0)
    moving.locator("#choices button.choice").first.click()
    moving.wait_for_function(
        "() => document.querySelectorAll('#board .new-cross path').length >= 4")
    strokes = moving.evaluate("window.__animated")
    # Two crosses or more (the rows, an EXTRA box), two strokes each, one after the other,
    # each drawn from nothing.
    assert len(strokes) == moving.locator("#board .new-cross path").count() >= 4
    assert all(stroke["id"] == "path" for stroke in strokes)
    assert [[frame["strokeDashoffset"] for frame in stroke["frames"]] for stroke in strokes] == [
        [1, 0]] * len(strokes)
    delays = [stroke["delay"] for stroke in strokes]
    assert delays == sorted(set(delays))


def test_no_cross_stroke_for_reduced_motion(server: Server, still: Page) -> None:
    match, token = match_at(server, "extra", SOLO, players=1)
    still.goto(server.url + f"/m/{match}?seat={token}")
    still.locator("#choices button.choice").first.click()
    expect(still.locator("#board .xb-main .cross")).not_to_have_count(0)
    assert still.locator("#board .new-cross").count() == 0
    assert still.evaluate("window.__animated") == []


PICTURE_THEN_GAME = """async () => {
  // The sample position of the home page's picture, and the same with one horse a square on.
  const sample = await (await fetch("/api/games/petits-chevaux/sample")).json();
  const module = await import(sample.game.board_module);
  const view = sample.view;
  const moved = structuredClone(view);
  const taken = new Set(view.board.horses.map((h) => h.square));
  const track = moved.board.track;
  const horse = moved.board.horses.find((h) => h.place === "track" && !h.barrage
    && !taken.has(track[(track.findIndex((t) => t.id === h.square) + 1) % track.length].id));
  const next = track[(track.findIndex((t) => t.id === horse.square) + 1) % track.length];
  Object.assign(horse, {progress: horse.progress + 1, square: next.id, cell: next.cell});
  const moves = (picture) => {
    const box = document.createElement("div");
    document.body.append(box);
    const ctx = {hints: [], pick() {}, names: [], seat: null, deciding: [], picture};
    module.render(box, view, ctx);
    module.render(box, moved, ctx);
    const count = box.querySelector(`[data-id="${horse.id}"]`).getAnimations().length;
    box.remove();
    return count;
  };
  return [moves(true), moves(false)];
}"""


def test_the_home_pages_pictures_stay_still(server: Server, moving: Page) -> None:
    moving.goto(server.url + "/")
    expect(moving.locator(".picture svg")).not_to_have_count(0)
    moving.wait_for_timeout(300)
    assert moving.evaluate("window.__animated") == []
    # The same board module, drawn twice with a horse a square on: as a picture it stays
    # still; in a game the horse runs.
    assert moving.evaluate(PICTURE_THEN_GAME) == [0, 1]


TWICE = """async ([game, selector]) => {
  MOVES
  // The game's sample position drawn, then the same with one piece moved on (MOVE below):
  // the keyframes of the moved piece's animation, as offsets from where it ends.
  const sample = await (await fetch(`/api/games/${game}/sample`)).json();
  const module = await import(sample.game.board_module);
  const moved = structuredClone(sample.view);
  const squares = MOVE[game](moved.board);
  const box = document.createElement("div");
  box.style.width = "900px";
  document.body.append(box);
  const ctx = {hints: [], pick() {}, names: [], seat: null, deciding: []};
  module.render(box, sample.view, ctx);
  module.render(box, moved, ctx);
  const node = box.querySelector(selector);
  const [animation] = node.getAnimations();
  const frames = animation.effect.getKeyframes().map((frame) => frame.transform);
  // Where the piece rests: drawn in place (no transform), or placed by its transform (Monza).
  const rest = node.style.transform || "translate(0px, 0px)";
  box.remove();
  return {frames, squares, rest};
}"""

MOVE = """const MOVE = {
  // Extra Meters: runner A five squares on.
  "extra-meters": (board) => { board.runners[0].position += 5; return 5; },
  // Shortcut: car A three road squares on (a road roll of 3).
  "shortcut": (board) => {
    const car = board.cars[0];
    const road = board.cells.filter((c) => c.kind === "road").sort((a, b) => a.road - b.road);
    const here = board.cells.find((c) => c.id === car.cell);
    const at = here.kind === "road" ? road.indexOf(here) : -1;
    const taken = new Set(board.cars.map((c) => c.cell));
    let to = at + 3;
    while (taken.has(road[to].id)) to += 1;
    car.cell = road[to].id;
    board.turn.phase = "declare";
    return to - at;
  },
  // Monza: car 1 two squares on in its lane (any way there takes two steps).
  "monza": (board) => {
    const car = board.cars[0];
    const lanes = board.lanes.map((lane) => lane.squares);
    const taken = new Set(board.cars.map((c) => c.at));
    const lane = lanes.find((squares) => squares.some((sq) => sq.id === car.at)) || lanes[0];
    const at = lane.findIndex((sq) => sq.id === car.at);
    const ahead = lane.slice(at + 1, at + 3);
    if (ahead.length < 2 || ahead.some((sq) => sq.colour === "tyre" || taken.has(sq.id))) {
      throw new Error(`no free road two squares ahead of ${car.at}`);
    }
    car.at = ahead[1].id;
    return 2;
  },
};"""


@pytest.mark.parametrize(("game", "selector"), [("extra-meters", ".em-pawn[data-seat='0']"),
                                                ("shortcut", "#car-0"),
                                                ("monza", ".mz-car[data-id=car-0]")])
def test_a_piece_passes_every_square_on_its_way(server: Server, moving: Page, game: str,
                                                selector: str) -> None:
    moving.goto(server.url + "/")
    expect(moving.locator(".picture svg")).not_to_have_count(0)
    found = moving.evaluate(TWICE.replace("MOVES", MOVE), [game, selector])
    # One keyframe a square passed, and the last one where the piece is drawn.
    assert len(found["frames"]) == found["squares"] + 1, found
    assert found["frames"][-1] == found["rest"]
    assert len(set(found["frames"])) == len(found["frames"])  # every square a new place
