"""The JSON API, against the app in process (:mod:`web.client`): games, matches, moves, bad
input, replays, restarts over the same database."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.core.record import from_record
from dicegames.docs import rules_page
from dicegames.web.store import Store
from polling import until
from web.client import AppClient
from web.games import game_ids, skip_unless
from web.stores import execute, legacy_sqlite

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def create(client: AppClient, **body: Any) -> dict[str, Any]:
    """Create a match (default: extra-meters, Ann and Ben, seed 7) and return the answer."""
    request = {"game": "extra-meters", "players": TWO_PEOPLE, "seed": 7, **body}
    data: dict[str, Any] = client.post("/api/matches", request)
    return data


def state_of(client: AppClient, match_id: str, token: str = "") -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/matches/{match_id}?token={token}")
    return data


def deciding_seat(client: AppClient, match_id: str, token: str) -> tuple[int, dict[str, Any]]:
    """Wait until one of the viewer's seats has choices (or the game ended: seat -1).

    The server rolls and passes right after a move, in its own task: the state read just
    after an answer may still be at the roll.
    """
    for _ in range(200):
        state = state_of(client, match_id, token)
        if state["status"] != "playing":
            return -1, state
        for seat in state["node"]["deciding"]:
            if state["hints"].get(str(seat)):
                return seat, state
        time.sleep(0.01)
    raise AssertionError(f"nobody of {state['you']} decides: {state['node']}")


def test_games_and_rules(client: AppClient) -> None:
    games = client.get("/api/games")["games"]
    assert [g["id"] for g in games] == game_ids()  # every registered game, in order
    assert all(g["bots"] and g["pitch"] for g in games)
    # The picker's levels: the game's own, less those kept for simulations.
    listed = {g["id"]: [b["name"] for b in g["bots"] if b["listed"]] for g in games}
    assert listed["petits-chevaux"] == ["easy", "medium", "hard", "expert", "trained", "search"]
    assert listed["extra-meters"] == ["easy", "medium", "hard", "optimal"]
    detail = client.get("/api/games/extra-meters")
    assert detail["rules_markdown"] == rules_page("extra-meters")
    assert "<h2>Options</h2>" in detail["rules_html"] and "<table>" in detail["rules_html"]
    status, error = client.call("GET", "/api/games/chess")
    assert status == 404 and error["error"] == "unknown_game" and "extra-meters" in error["message"]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_is_listed_with_its_pitch_and_bots(client: AppClient, game_id: str) -> None:
    described = {g["id"]: g for g in client.get("/api/games")["games"]}[game_id]
    assert described["pitch"]
    assert client.get(f"/api/games/{game_id}")["rules_markdown"] == rules_page(game_id)
    skip_unless(game_id, "bots")
    assert described["bots"]
    assert "mcts" in [b["name"] for b in described["bots"]]


def test_create_gives_secret_links_and_bots_play(client: AppClient) -> None:
    match = create(client, players=[{"name": "Ann", "kind": "human"},
                                    {"name": "Robo", "kind": "bot:easy"}])
    ann, robo = match["seats"]
    assert ann["token"] and ann["link"] == f"/m/{match['id']}?seat={ann['token']}"
    assert robo["token"] is None and robo["link"] is None
    state = match["state"]
    assert state["you"] == [0] and state["players"][1]["kind"] == "bot:easy"
    # Ann plays her hints until the game ends; the server rolls and the bot answers.
    token = ann["token"]
    for _ in range(500):
        seat, state = deciding_seat(client, match["id"], token)
        if seat < 0:
            break
        client.post(f"/api/matches/{match['id']}/actions",
                    {"token": token, "move": state["hints"]["0"][-1]["move"]})
    assert state["status"] == "finished" and state["result"]["winners"]
    record = client.get(f"/api/matches/{match['id']}/record")
    assert from_record(record).state.is_terminal
    assert record["players"][1] == {"name": "Robo", "kind": "bot:easy"}


def test_spectator_sees_no_hints_and_cannot_act(client: AppClient) -> None:
    match = create(client)
    spectator = state_of(client, match["id"])
    assert spectator["you"] == [] and spectator["hints"] == {}
    status, error = client.call("POST", f"/api/matches/{match['id']}/actions",
                                {"move": "roll"})
    assert status == 403 and error["error"] == "bad_token"


def test_a_hint_is_one_of_the_deciders_moves_and_changes_nothing(client: AppClient) -> None:
    match = create(client)
    tokens = [seat["token"] for seat in match["seats"]]
    seat, state = deciding_seat(client, match["id"], ",".join(tokens))
    path = f"/api/matches/{match['id']}/hint"
    hint = client.get(f"{path}?token={tokens[seat]}")
    labels = {h["move"]: h["label"] for h in state["hints"][str(seat)]}
    assert hint["seat"] == seat and hint["version"] == state["version"]
    assert hint["revision"] == state["revision"]
    assert hint["move"] in labels and hint["label"] == labels[hint["move"]]
    assert hint["bot"] == "hard"  # extra-meters' hard is its exact solution
    after = state_of(client, match["id"], tokens[seat])
    assert (after["version"], after["revision"]) == (state["version"], state["revision"])
    # Only the deciding seat's own token gets one: not the other person's, not a spectator.
    status, error = client.call("GET", f"{path}?token={tokens[1 - seat]}")
    assert status == 409 and error["error"] == "not_your_turn"
    assert "decision now; deciding now: " in error["message"]
    status, error = client.call("GET", path)
    assert status == 403 and error["error"] == "bad_token"
    status, error = client.call("GET", "/api/matches/nosuchmatch/hint?token=x")
    assert status == 404


BAD_CREATES = [
    ({"game": "chess"}, 422, "unknown_game", "unknown game 'chess'"),
    ({"options": {"speed": 3}}, 422, "bad_option", "speed"),
    ({"options": {"track_length": 5000}}, 422, "bad_option", "track_length"),
    ({"game": "shortcut", "options": {"board": "/etc/passwd"}}, 422, "bad_option",
     "never from a record or a web request"),
    ({"players": []}, 400, "bad_request", "players"),
    ({"players": [{"kind": "bot:genius"}, {"kind": "human"}]}, 422, "bad_player", "genius"),
    ({"players": [{"name": "x" * 41}, {"kind": "human"}]}, 422, "bad_player", "1 to 40"),
    ({"players": [{"kind": "human"}] * 9}, 422, "bad_player_count", "2 to 8 players, not 9"),
    ({"dice": "loaded"}, 422, "bad_dice", "auto, manual"),
    ({"dice": "manual", "players": [{"kind": "bot:easy"}] * 2}, 422, "bad_dice", "person"),
    ({"seed": "seven"}, 400, "bad_request", "seed"),
    ({"position": 7}, 400, "bad_request", "'position' must be a position text"),
    ({"position": "x" * 2001}, 400, "bad_request", "at most 2000 characters"),
    ({"position": "12/7 2 decide 3,6 4"}, 422, "bad_position", "field dice"),
    ({"position": "12/7/3 3 decide 3,5 6"}, 422, "bad_position",
     "3 runners for a 2-player game"),
    ({"game": "monza", "position": "m5/m5 1 roll - - 0/0 - 1"}, 422, "bad_position",
     "both on m5: a square holds one car"),
]


@pytest.mark.parametrize(("change", "status", "code", "words"), BAD_CREATES)
def test_bad_creates_are_refused(client: AppClient, change: dict[str, Any], status: int,
                                 code: str, words: str) -> None:
    body = {"game": "extra-meters", "players": TWO_PEOPLE, **change}
    got, error = client.call("POST", "/api/matches", body)
    assert (got, error["error"]) == (status, code), error
    assert words in error["message"]


def test_bad_moves_are_refused_and_change_nothing(client: AppClient) -> None:
    match = create(client, dice="manual")
    mid = match["id"]
    ann, ben = (seat["token"] for seat in match["seats"])
    client.post(f"/api/matches/{mid}/dice", {"token": ann, "dice": "3"})
    before = state_of(client, mid, ann)
    assert before["node"]["deciding"] == [0]
    actions = f"/api/matches/{mid}/actions"
    cases: list[tuple[str, str, bytes | None, dict[str, Any] | None, int, str, str]] = [
        ("POST", actions, b"{not json", None, 400, "bad_json", "not valid JSON"),
        ("POST", actions, b"[1, 2]", None, 400, "bad_json", "JSON object"),
        ("POST", actions, b"x" * 70_000, None, 413, "too_large", "limit"),
        ("POST", actions, None, {"token": "nope", "move": "roll"}, 403, "bad_token",
         "does not belong"),
        ("POST", actions, None, {"token": ben, "move": "roll"}, 409, "not_your_turn",
         "not Ben's decision"),
        ("POST", actions, None, {"token": ann, "move": "fly"}, 422, "illegal_move",
         "'fly' is not a legal move here; legal: roll, stop"),
        ("POST", actions, None, {"token": ann, "move": 5}, 400, "bad_request", "notation"),
        ("POST", actions, None, {"token": ann, "move": "roll", "expect": 0}, 409, "stale",
         "version 1"),
        ("POST", f"/api/matches/{mid}/dice", None, {"token": ann, "dice": "4"}, 409,
         "not_dice_time", "a player decides"),
        ("POST", f"/api/matches/{mid}/undo", None, {"token": ben}, 409, "cannot_undo",
         "your own last decision"),
        ("POST", "/api/matches/nosuchmatch/actions", None, {"token": ann, "move": "roll"},
         404, "unknown_match", "nosuchmatch"),
        ("GET", f"/api/matches/{mid}/states/99", None, None, 404, "unknown_step", "0 to 1"),
        ("GET", f"/api/matches/{mid}?token=forged", None, None, 403, "bad_token", "token"),
        ("DELETE", f"/api/matches/{mid}", None, None, 405, "method_not_allowed", "DELETE"),
        ("GET", "/api/nothing-here", None, None, 404, "not_found", "/api/nothing-here"),
    ]
    for method, path, raw, body, status, code, words in cases:
        got, error = client.call(method, path, body, raw=raw)
        assert (got, error["error"]) == (status, code), (path, body, raw, error)
        assert words in error["message"], error
        assert state_of(client, mid, ann) == before


def test_manual_dice_are_checked_by_the_rules(client: AppClient) -> None:
    match = create(client, dice="manual")
    mid = match["id"]
    token = match["seats"][0]["token"]
    state = state_of(client, mid, token)
    assert state["can_enter_dice"] and state["outcomes"] == ["1", "2", "3", "4", "5"]
    status, error = client.call("POST", f"/api/matches/{mid}/dice", {"token": token, "dice": "6"})
    assert status == 422 and error["error"] == "roll_again", error
    status, error = client.call("POST", f"/api/matches/{mid}/dice", {"token": token, "dice": "9"})
    assert status == 422 and "possible" in error["message"]
    status, error = client.call("POST", f"/api/matches/{mid}/actions",
                                {"token": token, "move": "roll"})
    assert status == 409 and "dice must be rolled" in error["message"]
    assert state_of(client, mid, token)["version"] == 0
    client.post(f"/api/matches/{mid}/dice", {"token": token, "dice": "5"})
    assert state_of(client, mid, token)["log"][0]["description"] == "Ann rolls 5"
    # The downloaded record says the dice are physical, so `dicegames play --resume`
    # asks for real dice too.
    record = client.get(f"/api/matches/{mid}/record")
    assert record["dice"] == "manual" and record["moves"] == ["5"]


def test_undo_own_last_decision_only(client: AppClient) -> None:
    match = create(client, dice="manual")
    mid = match["id"]
    ann, ben = (seat["token"] for seat in match["seats"])
    client.post(f"/api/matches/{mid}/dice", {"token": ben, "dice": "2"})
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "stop"})
    assert state_of(client, mid, ann)["can_undo"]
    assert not state_of(client, mid, ben)["can_undo"]
    status, _ = client.call("POST", f"/api/matches/{mid}/undo", {"token": ben})
    assert status == 409
    assert client.post(f"/api/matches/{mid}/undo", {"token": ann})["version"] == 1
    state = state_of(client, mid, ann)
    assert state["node"]["deciding"] == [0] and not state["can_undo"]
    assert [e["text"] for e in state["log"]] == ["2"]
    # After the dice are rolled again, the decision stands.
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "roll"})
    client.post(f"/api/matches/{mid}/dice", {"token": ann, "dice": "4"})
    status, error = client.call("POST", f"/api/matches/{mid}/undo", {"token": ann})
    assert status == 409 and error["error"] == "cannot_undo"


def test_undo_then_another_move_is_what_every_reader_sees(client: AppClient) -> None:
    """After an undo the version comes back with a different move: nothing cached for the
    first move (state, hints, a hint) may be served for the second."""
    match = create(client, dice="manual")
    mid = match["id"]
    ann = match["seats"][0]["token"]
    client.post(f"/api/matches/{mid}/dice", {"token": ann, "dice": "2"})
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "stop"})
    stopped = state_of(client, mid, ann)
    client.post(f"/api/matches/{mid}/undo", {"token": ann})
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "roll"})
    rolling = state_of(client, mid, ann)  # read with no read of version 1 in between
    assert rolling["version"] == stopped["version"] == 2
    assert rolling["revision"] != stopped["revision"]
    assert [e["text"] for e in rolling["log"]] == ["2", "roll"]
    assert (rolling["node"]["turn"]["seat"], stopped["node"]["turn"]["seat"]) == (0, 1)
    # The same again with a hint asked between: its revision tells it is for the old move.
    client.post(f"/api/matches/{mid}/dice", {"token": ann, "dice": "3"})
    hinted = client.get(f"/api/matches/{mid}/hint?token={ann}")
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": hinted["move"]})
    client.post(f"/api/matches/{mid}/undo", {"token": ann})
    other = "roll" if hinted["move"] == "stop" else "stop"
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": other})
    now = state_of(client, mid, ann)
    assert now["version"] == hinted["version"] + 1 and now["log"][-1]["text"] != hinted["move"]
    assert now["revision"] not in (hinted["revision"], rolling["revision"])


def test_record_download_replay_upload_and_steps(client: AppClient) -> None:
    match = create(client, players=[{"name": "A", "kind": "bot:easy"},
                                    {"name": "B", "kind": "bot:medium"}])
    mid = match["id"]
    for _ in range(200):
        if state_of(client, mid)["status"] == "finished":
            break
        time.sleep(0.05)
    record = client.get(f"/api/matches/{mid}/record")
    assert record["result"] is not None
    uploaded = client.post("/api/replays", record)
    assert uploaded["moves"] == len(record["moves"])
    first = client.get(f"/api/matches/{uploaded['id']}/states/0")
    assert first["version"] == 0 and first["log"] == [] and first["status"] == "replay"
    one = client.get(f"/api/matches/{uploaded['id']}/states/1")
    assert one["log"][0]["text"] == record["moves"][0]
    final = client.get(f"/api/matches/{uploaded['id']}")
    # The state's result is the record's, with the end screen's words besides.
    shown = {key: final["result"][key] for key in record["result"]}
    assert final["status"] == "record" and shown == record["result"]
    assert final["result"]["score_words"] and final["result"]["explanation"]
    status, error = client.call("POST", f"/api/matches/{uploaded['id']}/undo", {"token": "x"})
    assert status == 403
    tampered = dict(record, moves=[*record["moves"][:3], "fly", *record["moves"][4:]])
    status, error = client.call("POST", "/api/replays", tampered)
    assert status == 422 and error["error"] == "bad_record" and "move 3" in error["message"]


def test_a_match_from_a_position_survives_a_restart_and_keeps_it(
        fresh_target: Path | str) -> None:
    running = AppClient(fresh_target).start()
    position = "48/46 1 decide 4 7"
    try:
        match = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                               "position": position})
        state = match["state"]
        assert state["node"]["deciding"] == [0] and state["version"] == 0
        assert [hint["move"] for hint in state["hints"]["0"]] == ["roll", "stop"]
        token = match["seats"][0]["token"]
        running.post(f"/api/matches/{match['id']}/actions", {"token": token, "move": "stop"})
        running.stop()
        running = AppClient(fresh_target).start()  # a restart
        again = running.get(f"/api/matches/{match['id']}")
        assert again["status"] == "finished" and again["result"]["winners"] == [0]
        record = running.get(f"/api/matches/{match['id']}/record")
        assert (record["position"], record["moves"]) == (position, ["stop"])
        assert from_record(record).states[0].game.position(from_record(record).states[0]) \
            == position
        uploaded = running.post("/api/replays", record)
        first = running.get(f"/api/matches/{uploaded['id']}/states/0")
        assert first["node"]["deciding"] == [0] and first["version"] == 0
    finally:
        running.stop()


def test_a_database_from_before_positions_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    legacy_sqlite(path, without=("position", "open", "finished", "invited", "claimed", "fair",
                                  "rematch"))
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO matches (id, game, options, players, seed, dice, created) "
                   "VALUES ('old', 'extra-meters', '{}', ?, 7, 'auto', 0)",
                   ('[{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]',))
    store = Store(path)
    try:
        stored = asyncio.run(store.load("old"))
        assert stored is not None and stored.position is None and stored.seed == 7
    finally:
        store.close()


def test_openapi_describes_every_api_route(client: AppClient) -> None:
    spec = client.get("/api/openapi.json")
    assert spec["openapi"].startswith("3.")
    from dicegames.web.api import build_routes

    routes = {route.path for route in build_routes(None)}  # type: ignore[arg-type]
    assert routes == set(spec["paths"]) | {"/api/openapi.json"}
    for path, item in spec["paths"].items():
        for operation in item.values():
            assert operation["summary"], path
            assert {"200", "201"} & set(operation["responses"]), path


@pytest.mark.parametrize("game_id", game_ids())
def test_random_play_through_the_api_never_errs(client: AppClient, game_id: str) -> None:
    """Every game, every seat a person: random hints, random bad tokens; never a 5xx."""
    rng = random.Random(3)
    match = create(client, game=game_id, players=TWO_PEOPLE)
    mid = match["id"]
    tokens = [seat["token"] for seat in match["seats"]]
    for _ in range(40):
        seat, state = deciding_seat(client, mid, ",".join(tokens))
        if seat < 0:
            break
        hints = state["hints"][str(seat)]
        move = rng.choice(hints)["move"]
        other = tokens[1 - seat]
        status, _ = client.call("POST", f"/api/matches/{mid}/actions",
                                {"token": other, "move": move})
        assert status in (200, 409, 422)
        client.post(f"/api/matches/{mid}/actions", {"token": tokens[seat], "move": move})


def test_serve_command_line_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from dicegames.cli import main

    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert "--bot-delay takes seconds from 0 to 60" in capsys.readouterr().err
    assert main(["serve", "--help"]) == 0
    assert "--db PATH" in capsys.readouterr().out


def test_pages_and_static_files_are_served(client: AppClient) -> None:
    for path, words in (("/", "Pick a game"), ("/m/anything", "game.js"),
                        ("/replay/anything", "replay.js"), ("/static/shell.js", "export")):
        answer = client.http.get(path)
        assert answer.status_code == 200 and words in answer.text
    from dicegames.web.app import board_source

    for spec in dicegames.games():
        source = board_source(spec.id)
        if source is None:
            status, error = client.call("GET", f"/games/{spec.id}/board.js")
            assert (status, error["error"]) == (404, "no_board")
        else:
            answer = client.http.get(f"/games/{spec.id}/board.js")
            assert answer.headers["content-type"].startswith("text/javascript")
            assert answer.text == source
    status, error = client.call("GET", "/games/chess/board.js")
    assert (status, error["error"]) == (404, "no_board")


def test_a_stored_match_the_rules_refuse_is_a_clear_409(fresh_target: Path | str) -> None:
    """A database row edited by hand (or written by other rules) never gives a 500."""
    running = AppClient(fresh_target).start()
    try:
        match = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
        # The opening roll is the driver's (automatic dice): wait until it is stored.
        until(lambda: running.call("GET", f"/api/matches/{match['id']}")[1]["version"] >= 1
              or None, "the opening roll to be stored")
        running.stop()
        execute(fresh_target, "UPDATE moves SET text = 'seven' WHERE match_id = ? AND idx = 0",
                (match["id"],))
        assert execute(fresh_target, "SELECT text FROM moves WHERE match_id = ? AND idx = 0",
                       (match["id"],)) == [("seven",)]
        running = AppClient(fresh_target).start()
        status, error = running.call("GET", f"/api/matches/{match['id']}")
        assert (status, error["error"]) == (409, "unplayable_match")
        assert "'seven' is not a possible roll" in error["message"]
    finally:
        running.stop()
