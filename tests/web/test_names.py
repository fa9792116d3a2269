"""Text that can't break anything, against the app in process over a real SQLite file.

A player name with an unpaired surrogate (``"Host\\ud800"`` is valid JSON) used to be stored,
and from then on every JSON answer carrying it failed with a 500: an open table with such a
host took ``GET /api/tables`` down for everyone. Names are now checked where they enter (422
``bad_player`` naming the character class), other text from outside is refused with a 4xx,
and rows written by older versions load with a safe rendering (U+FFFD) instead of a 500.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dicegames.web.responses import encode_json
from web.client import AppClient
from web.test_security import SMALL_BOARD, record_of, upload

HOST = {"name": "Ann", "kind": "human"}
INVITED = {"name": "Player 2", "kind": "human", "invited": True}


def create(client: AppClient, players: list[dict[str, Any]], **body: Any) -> tuple[int, Any]:
    seed = {} if body.get("open") else {"seed": 5}  # an open table draws its own secret
    return client.call("POST", "/api/matches", {"game": "extra-meters", **seed,
                                                "players": players, **body})


def open_table(client: AppClient) -> dict[str, Any]:
    status, answer = create(client, [HOST, INVITED], open=True)
    assert status == 201, answer
    result: dict[str, Any] = answer
    return result


# --------------------------------------------------------------- names coming in


def test_a_host_named_with_a_lone_surrogate_is_refused_and_the_lobby_stays_up(
        client: AppClient) -> None:
    status, error = create(client, [{"name": "Host\ud800", "kind": "human"}, INVITED],
                           open=True)
    assert (status, error["error"]) == (422, "bad_player"), error
    assert "player 1's name contains an unpaired surrogate (U+D800)" in error["message"]
    assert "names may not contain control characters" in error["message"]
    assert client.call("GET", "/api/tables")[0] == 200
    table = open_table(client)
    assert table["id"] in {t["id"] for t in client.get("/api/tables")["tables"]}


@pytest.mark.parametrize(("name", "words"), [
    ("Ben\x07", "a control character (U+0007)"),
    ("Ben\nAnn", "a control character (U+000A)"),
    ("\u202eneB", "a bidirectional control (U+202E)"),
    ("Ben\u2066", "a bidirectional control (U+2066)"),
    ("B\u00aden", "an invisible formatting character (U+00AD)"),
    ("\u200b \u200b", "is invisible (only spaces or zero-width characters)"),
    ("\u3164", "is invisible"),
    ("x" * 41, "has 41 characters; a name has 1 to 40 characters"),
])
def test_names_with_forbidden_characters_are_refused_saying_which(
        client: AppClient, name: str, words: str) -> None:
    status, error = create(client, [HOST, {"name": name, "kind": "human"}])
    assert (status, error["error"]) == (422, "bad_player"), error
    assert f"player 2's name {'contains ' if '(U+' in words else ''}{words}" in (
        error["message"])


def test_names_are_normalised_to_nfc_and_emoji_sequences_stay(client: AppClient) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    status, answer = create(client, [{"name": "Zoe\u0301 ", "kind": "human"},
                                     {"name": family, "kind": "human"}])
    assert status == 201, answer
    assert [seat["name"] for seat in answer["seats"]] == ["Zo\u00e9", family]
    state = client.get(f"/api/matches/{answer['id']}")
    assert [player["name"] for player in state["players"]] == ["Zo\u00e9", family]


def test_joining_with_a_bad_name_is_refused_and_the_seat_stays_free(client: AppClient) -> None:
    table = open_table(client)
    for name in ("Cleo\ud800", "\x1b[31mCleo", "\u202eoelC", " \u200b "):
        status, error = client.call("POST", f"/api/tables/{table['id']}/join", {"name": name})
        assert (status, error["error"]) == (422, "bad_player"), error
        assert error["message"].startswith("'name' (your name) ")
    listed = {t["id"]: t for t in client.get("/api/tables")["tables"]}
    assert listed[table["id"]]["free"] == 1
    joined = client.post(f"/api/tables/{table['id']}/join", {"name": "Cle\u0301o"})
    assert joined["name"] == "Cl\u00e9o"
    assert client.get(f"/api/matches/{table['id']}")["players"][1]["name"] == "Cl\u00e9o"


def test_an_uploaded_record_with_a_bad_name_is_refused(client: AppClient) -> None:
    for name, words in (("Host\ud800", "unpaired surrogate (U+D800)"),
                        ("Ho\x00st", "control character (U+0000)"),
                        ("\u2067Host", "bidirectional control (U+2067)")):
        record = record_of("extra-meters", 6)
        record["players"][0]["name"] = name
        status, error = upload(client, record)
        assert (status, error["error"]) == (422, "bad_record"), error
        assert f"player 1's name contains an {words}" in error["message"] or (
            f"player 1's name contains a {words}" in error["message"])
    record = record_of("extra-meters", 6)
    record["players"][0]["name"] = "Zoe\u0301"
    stored = client.post("/api/replays", record)
    assert client.get(f"/api/matches/{stored['id']}")["players"][0]["name"] == "Zo\u00e9"


# --------------------------------------------------------------- other text coming in


def test_moves_positions_and_options_with_a_lone_surrogate_are_refused(
        client: AppClient) -> None:
    status, match = create(client, [HOST, {"name": "Ben", "kind": "human"}], dice="manual")
    assert status == 201, match
    token = match["seats"][0]["token"]
    status, error = client.call("POST", f"/api/matches/{match['id']}/dice",
                                {"token": token, "dice": "4\ud800"})
    assert (status, error["error"]) == (400, "bad_request"), error
    assert "unpaired surrogate (U+D800)" in error["message"]
    status, error = client.call("POST", f"/api/matches/{match['id']}/actions",
                                {"token": token, "move": "\x07"})
    assert (status, error["error"]) == (400, "bad_request"), error
    with client.connect(f"/ws/matches/{match['id']}?token={token}") as ws:
        assert json.loads(ws.recv())["type"] == "state"
        ws.send(json.dumps({"type": "act", "move": "go\udfff", "id": 1}))
        answer = json.loads(ws.recv())
        assert (answer["type"], answer["status"], answer["error"]) == (
            "error", 400, "bad_request"), answer
        ws.send(json.dumps({"type": "dice", "dice": "4", "id": 2}))
        answer = json.loads(ws.recv())
        while answer["type"] == "state":
            answer = json.loads(ws.recv())
        assert answer["type"] == "ack", answer
    status, error = create(client, [HOST, {"name": "Ben", "kind": "human"}],
                           position="2\ud800")
    assert (status, error["error"]) == (422, "bad_position"), error
    status, error = client.call("POST", "/api/matches", {
        "game": "extra", "players": [HOST, {"name": "Ben", "kind": "human"}],
        "options": {"child_seats": "1\ud800"}})
    assert (status, error["error"]) == (422, "bad_option"), error
    assert "option child_seats: the text contains an unpaired surrogate" in error["message"]
    status, error = client.call("POST", "/api/matches", {
        "game": "shortcut", "players": [HOST, {"name": "Ben", "kind": "human"}],
        "options": {"board": SMALL_BOARD + "# \ud800\n"}})
    assert (status, error["error"]) == (422, "bad_option"), error


def test_a_custom_circuit_whose_name_holds_a_lone_surrogate_is_refused(
        client: AppClient) -> None:
    circuit = json.loads((Path(__file__).parents[2] / "src/dicegames/games/monza/"
                          "default.json").read_text(encoding="utf-8"))
    circuit["name"] = "Monza\ud800"
    status, error = client.call("POST", "/api/matches", {
        "game": "monza", "players": [HOST, {"name": "Ben", "kind": "human"}],
        "options": {"circuit": json.dumps(circuit, indent=1)}})
    assert (status, error["error"]) == (422, "bad_option"), error
    assert "unpaired surrogate (U+D800)" in error["message"]


@pytest.mark.parametrize("columns", ["\u0661\u0660,\u0669,\u0668",
                                     "\uff11\uff10,\uff19,\uff18"])
def test_option_numbers_take_ascii_digits_only(client: AppClient, columns: str) -> None:
    status, error = client.call("POST", "/api/matches", {
        "game": "extra", "players": [HOST, {"name": "Ben", "kind": "human"}],
        "options": {"extra_columns": columns}})
    assert (status, error["error"]) == (422, "bad_option"), error
    assert "option extra_columns=" in error["message"]
    assert "digits 0 to 9" in error["message"]


# --------------------------------------------------------------- rows of older versions


def test_rows_written_by_older_versions_load_with_a_safe_rendering(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    running = AppClient(db).start()
    try:
        table = open_table(running)
        status, played = create(running, [HOST, {"name": "Ben", "kind": "human"}])
        assert status == 201, played
    finally:
        running.stop()
    with sqlite3.connect(db) as connection:  # what older versions let in, written as they did
        connection.execute("UPDATE matches SET players = ? WHERE id = ?", (json.dumps([
            {"name": "Host\ud800", "kind": "human"},
            {"name": "\x07\u202e", "kind": "human"}]), table["id"]))
        connection.execute("UPDATE matches SET players = CAST(? AS TEXT) WHERE id = ?", (
            b'[{"name": "An\xffn", "kind": "human"}, {"name": "Ben\\u0000", '
            b'"kind": "human"}]', played["id"]))
    running = AppClient(db).start()
    try:
        lobby = {t["id"]: t for t in running.get("/api/tables")["tables"]}
        assert lobby[table["id"]]["host"] == "Host\ufffd"
        assert [s["name"] for s in lobby[table["id"]]["seats"]] == ["Host\ufffd",
                                                                    "Player 2"]
        for match_id, names in ((table["id"], ["Host\ufffd", "Player 2"]),
                                (played["id"], ["An\ufffdn", "Ben\ufffd"])):
            state = running.get(f"/api/matches/{match_id}")
            assert [p["name"] for p in state["players"]] == names
            assert [p["name"] for p in running.get(f"/api/matches/{match_id}/record")[
                "players"]] == names
            assert running.get(f"/api/matches/{match_id}/states/0")["players"][0]["name"] == (
                names[0])
            with running.connect(f"/ws/matches/{match_id}") as ws:
                message = json.loads(ws.recv())
                assert [p["name"] for p in message["state"]["players"]] == names
        joined = running.post(f"/api/tables/{table['id']}/join", {"name": "Cleo"})
        assert joined["seat"] == 1
        assert table["id"] not in {t["id"] for t in running.get("/api/tables")["tables"]}
    finally:
        running.stop()


def test_json_answers_encode_any_stored_text() -> None:
    body = encode_json({"name": "Host\ud800", "ok": "caf\u00e9"})
    assert json.loads(body.decode("utf-8")) == {"name": "Host\ufffd", "ok": "caf\u00e9"}
