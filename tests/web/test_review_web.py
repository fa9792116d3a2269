"""The review over the API (against the app in process) and on the replay page (against a
real server and Chromium)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

import dicegames
from dicegames.core.record import to_record
from dicegames.core.session import PlayerInfo, Session
from polling import until
from web.client import AppClient
from web.server import Server
from web.test_accessibility import check

# Extra Meters on 15 squares (an exact review): Ann stops after her opening 5, a blunder by
# the solver (26 points); later stops on a low sum are blunders too.
BLUNDERS = ["5", "stop", "4", "roll", "3", "roll", "2", "stop", "1", "stop"]


def blunder_record() -> dict[str, Any]:
    """A finished record: the scripted start, then both stop on every 5 until one passes 15."""
    game = dicegames.make("extra-meters", track_length=15)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], seed=1)
    for move in BLUNDERS:
        session.apply(move, None if session.state.is_chance else session.state.node.players[0])
    while not session.state.is_terminal:
        state = session.state
        if state.is_chance:
            session.apply("5")
        else:
            session.apply("stop", state.node.players[0])
    return to_record(session)


def wait_review(client: AppClient | Server, match_id: str) -> dict[str, Any]:
    """The review once done (or failed); the first one starts the analysis workers."""
    def ended() -> dict[str, Any] | None:
        data: dict[str, Any] = client.get(f"/api/matches/{match_id}/review")
        return data if data["status"] in ("done", "failed") else None

    return until(ended, "the review to finish", 60)


def finished(client: AppClient, match_id: str) -> dict[str, Any]:
    """The match's state once its bots have played it to the end."""
    def ended() -> dict[str, Any] | None:
        state: dict[str, Any] = client.get(f"/api/matches/{match_id}")
        return state if state["status"] == "finished" else None

    return until(ended, f"match {match_id} to finish", 60)


def test_review_api_flags_the_mistakes(client: AppClient) -> None:
    match = client.post("/api/replays", blunder_record())
    review = wait_review(client, match["id"])
    assert review["status"] == "done", review
    assert review["estimate"]["kind"] == "exact"
    assert 1 in review["mistakes"]
    assert review["curve"][0]["index"] == 0
    assert review["done"] == review["total"] == match["moves"]


def test_a_match_started_from_a_position_is_reviewed_from_it(client: AppClient) -> None:
    # Seat 1 decides first (after a 5 and a 4): replayed from the start of the game its
    # first move would be a roll, and the review failed with "'stop' is not a possible roll".
    match = client.post("/api/matches", {
        "game": "extra-meters", "seed": 5, "options": {"track_length": 15},
        "position": "0/0 1 decide 5,4 1",
        "players": [{"name": "Ann", "kind": "bot:optimal"}, {"name": "Ben", "kind": "bot:easy"}]})
    state = finished(client, match["id"])
    review = wait_review(client, match["id"])
    assert review["status"] == "done", review
    first = review["moves"][0]
    assert first["index"] == 0 and first["played"] in ("stop", "roll")
    assert review["done"] == review["total"] == state["version"]


def test_review_of_an_unfinished_or_unknown_match_is_refused(client: AppClient) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "seed": 3, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    status, data = client.call("GET", f"/api/matches/{match['id']}/review")
    assert (status, data["error"]) == (409, "not_finished")
    status, data = client.call("GET", "/api/matches/nope/review")
    assert status == 404


def test_replay_page_draws_the_curve_and_notes_the_mistake(server: Server, page: Page) -> None:
    match = server.post("/api/replays", blunder_record())
    page.goto(server.url + f"/replay/{match['id']}")
    page.click("#review-start")
    expect(page.locator("#review-status")).to_contain_text(  # the first review starts
        "Reviewed:", timeout=60_000)  # the analysis workers
    expect(page.locator("#review-graph polyline")).to_have_count(2)
    dots = page.locator("#review-graph circle.flag")
    assert dots.count() >= 1
    dots.first.dispatch_event("click")
    expect(page.locator("#where")).to_have_text(f"move 2 of {match['moves']}")
    # The moves read as their choice buttons do, in the page's language.
    expect(page.locator("#review-note")).to_contain_text(
        "Ann played “Stop: move 5 to square 5”; “Roll again (a 6 moves you only 2)” was better")
    page.click("#next")
    expect(page.locator("#review-note")).to_have_text("")


def in_view(page: Page, selector: str) -> bool:
    """True when the element is wholly inside the window."""
    return bool(page.eval_on_selector(selector, """(node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight
            && box.right <= innerWidth && box.height > 0;
    }"""))


def test_the_review_graph_has_axes_names_tooltips_a_list_and_a_plain_caption(
        server: Server, phone: Page) -> None:
    # Issue 25, defect 9: no axes, no legend, no percentages; a caption with nested
    # brackets; clicking a mistake scrolled the replay controls away.
    match = server.post("/api/replays", blunder_record())
    phone.goto(server.url + f"/replay/{match['id']}?review")
    expect(phone.locator("#review-status")).to_contain_text("Reviewed:", timeout=60_000)
    review = server.get(f"/api/matches/{match['id']}/review")
    graph = phone.locator("#review-graph")
    # The axes: win chance from 0 to 100 %, and the move numbers.
    ticks = graph.locator("svg.curve text.tick").all_text_contents()
    assert {"0%", "50%", "100%"} <= set(ticks), ticks
    assert "0" in ticks, ticks
    assert graph.locator("svg.curve text.title").all_text_contents() == ["Move", "Win chance"]
    # Each player's line is named beside the graph, and every point has its tooltip.
    expect(graph.locator(".legend li")).to_have_text(["Ann", "Ben"])
    points = graph.locator("circle.point")
    expect(points).to_have_count(2 * len(review["curve"]))
    first = points.first.locator("title").text_content() or ""
    assert first.startswith("Ann, after move 0: ") and first.endswith("% chance to win"), first
    points.nth(3).hover()
    expect(graph.locator(".tip")).to_contain_text(
        f"Ann, after move {points.nth(3).get_attribute('data-index')}:")
    # The flagged moves, listed beside the graph with what was better.
    mistakes = graph.locator(".mistakes button")
    expect(mistakes).to_have_count(len(review["mistakes"]))
    expect(mistakes.first).to_contain_text("Move 2")
    expect(mistakes.first).to_contain_text("Ann played “Stop: move 5 to square 5”")
    # A plain caption: sentences, no brackets at all.
    caption = graph.locator("figcaption").text_content() or ""
    assert "exact" in caption and "0 to 100%" in caption, caption
    assert "(" not in caption and "(" not in (phone.text_content("#review-status") or "")
    # On a phone the list is below the board: choosing a move there shows it, and the
    # step controls are still on screen.
    mistakes.last.scroll_into_view_if_needed()
    assert not in_view(phone, "#board")
    mistakes.last.click()
    chosen = review["mistakes"][-1] + 1
    expect(phone.locator("#where")).to_have_text(f"move {chosen} of {match['moves']}")
    for control in ("#prev", "#next", "#where"):
        assert in_view(phone, control), control
    expect(mistakes.last).to_have_attribute("aria-current", "true")
    check(phone)  # axe-core: the graph, its list and its caption pass


def test_the_review_graph_passes_axe_in_dark_mode(server: Server, dark_phone: Page) -> None:
    match = server.post("/api/replays", blunder_record())
    dark_phone.goto(server.url + f"/replay/{match['id']}?review&lang=fr")
    expect(dark_phone.locator("#review-graph .mistakes button").first).to_be_visible(
        timeout=60_000)
    ticks = dark_phone.locator("#review-graph svg.curve text.tick").all_text_contents()
    assert "100\xa0%" in ticks, ticks  # French writes a (no-break) space before the sign
    check(dark_phone)
