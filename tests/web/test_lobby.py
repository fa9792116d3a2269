"""Open tables (issue 14, "a 'join a table' list"): the lobby's API against the app in
process.

A match whose creator marked it ``open`` is listed while an invited seat is free; joining
hands out one free seat's token, once (two people racing for the last seat: one 200, one
409); a private or unknown match answers the same 404; a finished game leaves the list; a
database from before open tables opens with its matches.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from web.client import AppClient
from web.stores import execute, legacy_sqlite

ANN_HERE = {"name": "Ann", "kind": "human"}
INVITED = {"name": "Player 2", "kind": "human", "invited": True}
BOT = {"name": "Bot", "kind": "bot:easy"}


def table(client: AppClient, players: list[dict[str, Any]] | None = None, *, is_open: bool = True,
          **body: Any) -> dict[str, Any]:
    """Create a match of Extra Meters (default: Ann here, one invited seat, open)."""
    answer: dict[str, Any] = client.post("/api/matches", {
        "game": "extra-meters", "open": is_open,
        "players": players or [ANN_HERE, INVITED], **body})
    return answer


def listed(client: AppClient, lang: str = "en") -> dict[str, dict[str, Any]]:
    """The lobby's tables by id."""
    return {t["id"]: t for t in client.get(f"/api/tables?lang={lang}")["tables"]}


def join(client: AppClient, match_id: str, name: str = "Cleo") -> tuple[int, Any]:
    return client.call("POST", f"/api/tables/{match_id}/join", {"name": name})


def test_an_open_table_is_listed_without_tokens_and_a_private_one_is_not(
        client: AppClient) -> None:
    opened = table(client, [ANN_HERE, INVITED, BOT, dict(INVITED, name="Player 4")],
                   options={"track_length": 40})
    private = table(client, is_open=False)
    tables = listed(client)
    assert private["id"] not in tables
    entry = tables[opened["id"]]
    assert entry["game"] == {"id": "extra-meters", "name": "For a Few Extra Meters"}
    assert (entry["free"], entry["taken"], entry["host"]) == (2, 2, "Ann")
    assert [(s["kind"], s["free"]) for s in entry["seats"]] == [
        ("human", False), ("human", True), ("bot", False), ("human", True)]
    assert [(o["name"], o["value"]) for o in entry["options"]] == [("track_length", 40)]
    assert 0 <= entry["age"] < 60
    text = json.dumps(client.get("/api/tables"))
    for seat in opened["seats"] + private["seats"]:
        assert seat["token"] is None or seat["token"] not in text
    # Labels in the asker's language; newest first.
    assert listed(client, "fr")[opened["id"]]["options"][0]["label"] != entry["options"][0][
        "label"]
    newer = table(client)
    assert next(iter(listed(client))) == newer["id"]


def test_joining_takes_one_seat_once_and_names_it(client: AppClient) -> None:
    match = table(client, [ANN_HERE, INVITED, dict(INVITED, name="Player 3")])
    status, first = join(client, match["id"], "  Cleo ")
    assert status == 200 and (first["seat"], first["name"]) == (1, "Cleo")
    assert first["token"] == match["seats"][1]["token"]
    assert first["link"] == match["seats"][1]["link"]
    state = client.get(f"/api/matches/{match['id']}?token={first['token']}")
    assert state["you"] == [1] and state["players"][1]["name"] == "Cleo"
    assert listed(client)[match["id"]]["free"] == 1
    status, second = join(client, match["id"], "Dan")
    assert status == 200 and second["seat"] == 2
    assert match["id"] not in listed(client)
    status, full = join(client, match["id"], "Eve")
    assert status == 409 and full["error"] == "table_full" and "taken" in full["message"]
    # The names are kept in the stored match: its record says who played.
    record = client.get(f"/api/matches/{match['id']}/record")
    assert [p["name"] for p in record["players"]] == ["Ann", "Cleo", "Dan"]


def race(client: AppClient, match_id: str, names: tuple[str, ...]) -> list[tuple[int, Any]]:
    """Everyone in ``names`` asks to join at the same moment; their answers."""
    start = threading.Barrier(len(names))
    answers: list[tuple[int, Any]] = []

    def ask(name: str) -> None:
        start.wait()
        answers.append(join(client, match_id, name))

    racers = [threading.Thread(target=ask, args=(name,)) for name in names]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(30)
    return answers


def test_two_people_racing_for_the_last_seat_one_gets_it(client: AppClient) -> None:
    for _ in range(5):
        match = table(client)
        answers = race(client, match["id"], ("Cleo", "Dan"))
        assert sorted(status for status, _ in answers) == [200, 409], answers
        winner = next(body for status, body in answers if status == 200)
        loser = next(body for status, body in answers if status == 409)
        assert winner["token"] == match["seats"][1]["token"] and loser["error"] == "table_full"


def test_a_private_or_unknown_match_is_the_same_404(client: AppClient) -> None:
    private = table(client, is_open=False)
    answers = [join(client, match_id) for match_id in (private["id"], "x" * 12, "y" * 500)]
    for status, body in answers:
        assert status == 404 and body["error"] == "unknown_table", body
    messages = {body["message"].replace(match_id[:64], "ID") for (_, body), match_id in
                zip(answers, (private["id"], "x" * 12, "y" * 500), strict=True)}
    assert len(messages) == 1, messages
    # The private match's seat is not taken by asking.
    assert client.get(f"/api/matches/{private['id']}")["presence"] == {"0": "invited",
                                                                       "1": "invited"}


@pytest.mark.parametrize(("body", "status", "error"), [
    ({"open": "yes"}, 400, "bad_request"),
    ({"open": True, "players": [ANN_HERE, dict(ANN_HERE, name="Ben")]}, 422, "bad_open"),
    ({"players": [ANN_HERE, dict(BOT, invited=True)]}, 422, "bad_player"),
    ({"players": [ANN_HERE, dict(INVITED, invited=1)]}, 400, "bad_request"),
])
def test_a_bad_table_set_up_is_refused(client: AppClient, body: dict[str, Any], status: int,
                                       error: str) -> None:
    request = {"game": "extra-meters", "players": [ANN_HERE, INVITED], **body}
    answer = client.call("POST", "/api/matches", request)
    assert answer[0] == status and answer[1]["error"] == error, answer


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, 7, None])
def test_a_joiner_needs_a_name(client: AppClient, name: object) -> None:
    match = table(client)
    status, body = client.call("POST", f"/api/tables/{match['id']}/join", {"name": name})
    assert status == 422 and body["error"] == "bad_player" and "1 to 40" in body["message"]
    assert listed(client)[match["id"]]["free"] == 1


def test_a_seat_whose_invited_person_came_by_link_is_no_longer_offered(
        client: AppClient) -> None:
    match = table(client)
    with client.connect(f"/ws/matches/{match['id']}?token="
                        f"{match['seats'][1]['token']}") as socket:
        socket.recv(10)  # the state: the connection is in
        assert match["id"] not in listed(client)
        status, body = join(client, match["id"])
        assert status == 409 and body["error"] == "table_full"


def _use_token(client: AppClient, match_id: str, token: str, how: str) -> None:
    """Use a seat's token once, the way ``how`` says (the answer does not matter: a
    refused move still carried the token)."""
    if how == "state":
        client.get(f"/api/matches/{match_id}?token={token}")
    elif how == "qr":
        assert client.http.get(f"/api/matches/{match_id}/qr?token={token}").status_code == 200
    elif how == "hint":
        status, _ = client.call("GET", f"/api/matches/{match_id}/hint?token={token}")
        assert status in (200, 409)  # 409 when not this seat's turn: the token was used
    else:
        status, _ = client.call("POST", f"/api/matches/{match_id}/{how}",
                                {"token": token, "move": "roll"})
        assert status in (200, 409, 422)  # refused or not, the token was used


@pytest.mark.parametrize("how", ["state", "qr", "hint", "actions", "undo"])
def test_a_seat_whose_token_was_used_in_any_way_is_no_longer_offered(
        client: AppClient, how: str) -> None:
    # The invited person only read the state (or drew the QR code, asked a hint...) with
    # their token, without opening a websocket: the seat is theirs, never a stranger's.
    match = table(client)
    _use_token(client, match["id"], match["seats"][1]["token"], how)
    assert match["id"] not in listed(client)
    status, body = join(client, match["id"])
    assert status == 409 and body["error"] == "table_full"
    # A token of a seat that was never invited (the host's) changes nothing in the lobby.
    other = table(client, [ANN_HERE, INVITED, dict(INVITED, name="Player 3")])
    _use_token(client, other["id"], other["seats"][0]["token"], how)
    status, joined = join(client, other["id"])
    assert status == 200 and joined["seat"] == 1


def test_a_finished_game_leaves_the_lobby(client: AppClient) -> None:
    match = table(client, position="48/46 1 decide 4 7")  # Ann stops and wins
    assert match["id"] in listed(client)
    client.post(f"/api/matches/{match['id']}/actions",
                {"token": match["seats"][0]["token"], "move": "stop"})
    assert match["id"] not in listed(client)
    status, body = join(client, match["id"])
    assert status == 409 and body["error"] == "game_over"


def test_a_table_left_for_a_day_is_no_longer_listed_but_can_be_joined(client: AppClient) -> None:
    match = table(client)
    execute(client.db, "UPDATE matches SET created = created - 86400 - 60 WHERE id = ?",
            (match["id"],))  # the app's own store, as a day had passed
    assert match["id"] not in listed(client)
    assert join(client, match["id"])[0] == 200


def test_the_list_is_bounded(client: AppClient) -> None:
    made = [table(client)["id"] for _ in range(52)]
    tables = client.get("/api/tables")
    assert tables["limit"] == 50 and len(tables["tables"]) == 50
    assert [t["id"] for t in tables["tables"]] == made[::-1][:50]


def test_a_database_from_before_open_tables_keeps_its_matches(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    # as the web app's first release with positions left it: a match, 2 moves
    legacy_sqlite(path, without=("open", "finished", "invited", "claimed", "fair", "rematch"))
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO matches VALUES ('old', 'extra-meters', '{}', ?, 7, 'auto', 1, "
                   "NULL)", (json.dumps([ANN_HERE, {"name": "Ben", "kind": "human"}]),))
        db.executemany("INSERT INTO seats VALUES ('old', ?, ?)", [(0, "tok-a"), (1, "tok-b")])
        db.executemany("INSERT INTO moves VALUES ('old', ?, ?, ?, 0, 1)",
                       [(0, None, "5"), (1, 0, "roll")])
    running = AppClient(path).start()
    try:
        old = running.get("/api/matches/old?token=tok-a")
        assert old["version"] >= 2 and old["you"] == [0]
        assert running.get("/api/tables")["tables"] == []
        assert join(running, "old")[0] == 404
        new = table(running)
        assert list(listed(running)) == [new["id"]]
    finally:
        running.stop()
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(seats)")}
        assert {"invited", "claimed"} <= columns
