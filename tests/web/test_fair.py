"""Fairness against the app in process, and on the page against a real server (issue:
"Fairness: nobody can predict a roll").

A spectator (no token) gets nothing a future roll can be derived from while the game is
played (no seed, no secret, anywhere: API answers, every step, the record, the lobby, the
pages, the websocket); the 12-roll prediction attack that worked by reading the record's seed
fails; the commitment published at creation is the SHA-256 of the secret revealed at the end,
and ``dicegames verify`` accepts the record; a creator's seed is shown to everyone and refused
on open tables; matches stored before commitments keep rolling from their seed, hidden.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

import dicegames
from dicegames.core.chance import sample
from dicegames.core.record import from_record
from dicegames.core.session import Session
from dicegames.core.verify import verify_record
from web.client import AppClient
from web.server import Server
from web.stores import execute, legacy_sqlite

ANN = {"name": "Ann", "kind": "human"}
BEN = {"name": "Ben", "kind": "human"}
ROBO = {"name": "Robo", "kind": "bot:easy"}
SEED = 918273645
"""A creator's seed distinctive enough to be looked for in every answer."""


def wait_for(client: AppClient, match_id: str, ready: Any, timeout: float = 20) -> dict[str, Any]:
    """Poll the match's spectator state until ``ready(state)``."""
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = client.get(f"/api/matches/{match_id}")
        if ready(state):
            return state
        assert time.monotonic() < deadline, f"the match never got there: {state['version']}"
        time.sleep(0.02)


def stored_fair(client: AppClient, match_id: str) -> dict[str, Any]:
    """What the server keeps to itself: the match's dice with the secret."""
    ((raw,),) = execute(client.db, "SELECT fair FROM matches WHERE id = ?", (match_id,))
    fair: dict[str, Any] = json.loads(raw)
    return fair


def page_text(client: AppClient, path: str) -> str:
    answer = client.http.get(path)
    assert answer.status_code == 200, path
    return answer.text


def leaks(value: Any) -> Iterator[str]:
    """Every key named seed or secret that holds something, anywhere in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("seed", "secret") and item is not None:
                yield f"{key}={item!r}"
            yield from leaks(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaks(item)


def test_a_spectator_gets_nothing_predictive_while_the_game_is_played(client: AppClient) -> None:
    drawn = client.post("/api/matches", {"game": "extra-meters", "players": [ANN, ROBO]})
    seeded = client.post("/api/matches", {"game": "extra-meters", "seed": SEED,
                                          "players": [ANN, dict(BEN, invited=True)]})
    hidden = [stored_fair(client, drawn["id"])["secret"],
              stored_fair(client, seeded["id"])["secret"], str(SEED)]
    assert all(hidden) and len(hidden[0]) == 64
    answers: list[Any] = [drawn, seeded, client.get("/api/tables")]
    pages = [page_text(client, path) for path in ("/", "/static/game.js", "/api/openapi.json")]
    for match in (drawn, seeded):
        match_id, token = match["id"], match["seats"][0]["token"]
        for _ in range(3):  # Ann rolls on; the bot and the dice play in between
            state = wait_for(client, match_id, lambda s: s["node"]["kind"] == "decision")
            if 0 in state["node"]["deciding"]:
                client.call("POST", f"/api/matches/{match_id}/actions",
                            {"token": token, "move": "roll", "expect": state["version"]})
        state = wait_for(client, match_id, lambda s: s["node"]["kind"] == "decision")
        assert state["status"] == "playing" and state["fair"]["commitment"]
        answers += [state, client.get(f"/api/matches/{match_id}?token={token}"),
                    client.get(f"/api/matches/{match_id}/record"),
                    *(client.get(f"/api/matches/{match_id}/states/{k}")
                      for k in range(state["version"] + 1)),
                    client.call("GET", f"/api/matches/{match_id}/hint")[1],
                    client.call("GET", f"/api/matches/{match_id}/review")[1],
                    client.call("GET", f"/api/matches/{match_id}/qr")[1]]
        with client.connect(f"/ws/matches/{match_id}") as socket:
            answers.append(json.loads(socket.recv(timeout=10)))
        pages += [page_text(client, f"/m/{match_id}"), page_text(client, f"/replay/{match_id}")]
    for answer in answers:
        assert list(leaks(answer)) == [], answer
    for text in [json.dumps(answer) for answer in answers] + pages:
        for secret in hidden:
            assert secret not in text
    record = client.get(f"/api/matches/{seeded['id']}/record")
    assert record["seed"] is None and record["fair"]["seeded_by"] == "creator"


def predicted_roll(record: dict[str, Any], decision: str) -> str | None:
    """The attack of the issue: replay the record, play ``decision`` and draw the roll that
    follows as the server does, from the seed the record gives (0 when it gives none)."""
    session = from_record(record)
    session.apply(decision, session.state.current_players[0])
    if not session.state.is_chance:
        return None
    seed = record.get("seed") if isinstance(record.get("seed"), int) else 0
    return str(sample(session.state.chance_outcomes(),
                      random.Random(f"{seed}/{len(session.moves)}")))


def test_twelve_rolls_cannot_be_predicted_from_what_a_spectator_sees(client: AppClient) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "players": [ANN, BEN],
                                         "options": {"track_length": 200}})
    tokens = [seat["token"] for seat in match["seats"]]
    hits = 0
    for _ in range(12):
        state = wait_for(client, match["id"], lambda s: s["node"]["kind"] == "decision")
        version = state["version"]
        prediction = predicted_roll(client.get(f"/api/matches/{match['id']}/record"), "roll")
        seat = state["node"]["deciding"][0]
        client.post(f"/api/matches/{match['id']}/actions",
                    {"token": tokens[seat], "move": "roll", "expect": version})
        wait_for(client, match["id"], lambda s, v=version: s["version"] >= v + 2)
        played = client.get(f"/api/matches/{match['id']}/record")["moves"][version + 1]
        hits += prediction == played
    assert hits < 12  # the old server's record gave its seed away: 12 of 12


def run_verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dicegames", "verify", str(path)],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
                               "PYTHONUTF8": "1", "COLUMNS": "200", "LANG": "C.UTF-8"})


def test_the_commitment_at_creation_is_the_digest_of_the_secret_revealed_at_the_end(
        client: AppClient, tmp_path: Path) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "players": [
        ROBO, dict(ROBO, name="Zed", kind="bot:medium")], "options": {"track_length": 20}})
    published = match["state"]["fair"]
    assert published["scheme"] == "hmac-sha256/1" and published["seeded_by"] == "server"
    assert published["secret"] is None and len(published["commitment"]) == 64
    state = wait_for(client, match["id"], lambda s: s["status"] == "finished")
    assert state["fair"]["commitment"] == published["commitment"]
    record = client.get(f"/api/matches/{match['id']}/record")
    secret = bytes.fromhex(record["fair"]["secret"])
    assert state["fair"]["secret"] == record["fair"]["secret"]
    assert hashlib.sha256(secret).hexdigest() == published["commitment"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = run_verify(path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified: all ") and published["commitment"] in done.stdout
    # The finished record replays as an upload, and still verifies from there.
    uploaded = client.post("/api/replays", record)
    again = client.get(f"/api/matches/{uploaded['id']}/record")
    assert again["fair"] == record["fair"] and verify_record(again).ok


def test_a_creators_seed_is_shown_to_everyone_and_refused_on_an_open_table(
        client: AppClient) -> None:
    status, error = client.call("POST", "/api/matches?lang=fr", {
        "game": "extra-meters", "seed": 3, "open": True, "players": [ANN, dict(BEN,
                                                                             invited=True)]})
    assert (status, error["error"]) == (422, "seeded_table")
    assert "seed" in error["detail"] and error["message"] != error["detail"]
    match = client.post("/api/matches", {"game": "extra-meters", "seed": 3, "players": [
        ANN, dict(BEN, invited=True)]})
    joiner = client.get(f"/api/matches/{match['id']}?token={match['seats'][1]['token']}")
    assert joiner["fair"]["seeded_by"] == "creator"
    assert client.get(f"/api/matches/{match['id']}")["fair"]["seeded_by"] == "creator"
    drawn = client.post("/api/matches", {"game": "extra-meters", "open": True, "players": [
        ANN, dict(BEN, invited=True)]})
    assert drawn["state"]["fair"]["seeded_by"] == "server"


def test_a_match_stored_before_commitments_rolls_on_from_its_hidden_seed(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    legacy_sqlite(path, without=("fair", "rematch"))  # as the previous version left it
    with sqlite3.connect(path) as db:  # and a match
        db.execute("INSERT INTO matches (id, game, options, players, seed, dice, created) "
                   "VALUES ('old', 'extra-meters', '{\"track_length\": 10}', ?, 7, 'auto', 1)",
                   (json.dumps([ANN, BEN]),))
        db.executemany("INSERT INTO seats (match_id, seat, token) VALUES ('old', ?, ?)",
                       [(0, "tok-a"), (1, "tok-b")])
        db.executemany("INSERT INTO moves VALUES ('old', ?, ?, ?, 0, 1)",
                       [(0, None, "5"), (1, 0, "roll")])
    running = AppClient(path).start()
    try:
        state = wait_for(running, "old", lambda s: s["version"] >= 3)
        assert state["fair"] == {"scheme": "seed/1", "commitment": None,
                                 "seeded_by": "server", "secret": None}
        record = running.get("/api/matches/old/record")
        assert record["seed"] is None and record["moves"][:2] == ["5", "roll"]
        while state["status"] == "playing":  # everybody stops at once: a short game
            seat = state["node"]["deciding"][0]
            running.post("/api/matches/old/actions", {"token": ["tok-a", "tok-b"][seat],
                                                      "move": "stop", "expect": state["version"]})
            state = wait_for(running, "old", lambda s, v=state["version"]: s["version"] > v and (
                s["node"]["kind"] != "chance"))
        record = running.get("/api/matches/old/record")
    finally:
        running.stop()
    assert record["seed"] == 7
    # Every roll the server made is the one the previous version would have made.
    session = Session(dicegames.make("extra-meters", players=2, track_length=10), None, 7)
    for index, move in enumerate(record["moves"]):
        state_now = session.state
        if state_now.is_chance and index >= 2:
            assert move == str(sample(state_now.chance_outcomes(),
                                      random.Random(f"7/{index}"))), index
        session.apply(move, None if state_now.is_chance else state_now.current_players[0])
    verdict = verify_record(record)
    assert not verdict.ok and "before dice commitments" in verdict.line


def test_the_game_page_shows_the_commitment_and_at_the_end_how_to_verify(
        server: Server, page: Page) -> None:
    seeded = server.post("/api/matches", {"game": "extra-meters", "seed": 3,
                                          "players": [ANN, ROBO]})
    commitment = seeded["state"]["fair"]["commitment"]
    page.goto(server.url + seeded["spectator"])
    digest = page.locator("#fair button.digest")
    expect(digest).to_have_text(commitment[:12] + "…")
    expect(digest).to_have_attribute("title", commitment)
    expect(page.locator("#fair")).to_contain_text("seeded by the match's creator")
    digest.click()
    expect(digest).to_have_text(commitment)
    bots = server.post("/api/matches", {"game": "extra-meters", "options": {"track_length": 10},
                                        "players": [ROBO, dict(ROBO, name="Zed")]})
    page.goto(server.url + bots["spectator"] + "?lang=fr")
    expect(page.locator("#end")).to_be_visible(timeout=20_000)
    page.click("#end-close")
    expect(page.locator("#fair")).to_contain_text("dicegames verify")
    expect(page.locator("#fair button.digest")).to_have_attribute(
        "title", bots["state"]["fair"]["commitment"])
    expect(page.locator("#fair")).to_contain_text("Le code secret est dévoilé")
