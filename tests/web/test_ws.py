"""Websockets and storage: live pushes, races, presence against the app in process; kill -9
against a real server process."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from dicegames.core.record import from_record
from web.client import AppClient, Socket
from web.server import Server

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def open_socket(client: AppClient, match_id: str, token: str = ""
                ) -> AbstractContextManager[Socket]:
    query = f"?token={token}" if token else ""
    return client.connect(f"/ws/matches/{match_id}{query}")


def real_socket(server: Server, match_id: str, token: str = "") -> ClientConnection:
    """A websocket to a real server process."""
    query = f"?token={token}" if token else ""
    return connect(f"{server.ws_url}/ws/matches/{match_id}{query}", open_timeout=10)


def receive(socket: Socket | ClientConnection, kind: str, timeout: float = 10.0
            ) -> dict[str, Any]:
    """The next message of ``kind`` (states and answers interleave), each message within
    ``timeout`` seconds."""
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=timeout))
        if message["type"] == kind:
            return message


def state_at(socket: Socket | ClientConnection, version: int) -> dict[str, Any]:
    """Wait for the pushed state at ``version`` (pushes coalesce, so skip older ones)."""
    while True:
        state: dict[str, Any] = receive(socket, "state")["state"]
        if state["version"] >= version:
            assert state["version"] == version
            return state


def test_moves_are_pushed_to_every_viewer(client: AppClient) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                         "dice": "manual"})
    ann, ben = (seat["token"] for seat in match["seats"])
    with open_socket(client, match["id"], ann) as mine, \
            open_socket(client, match["id"]) as watcher:
        assert receive(mine, "state")["state"]["can_enter_dice"]
        assert receive(watcher, "state")["state"]["you"] == []
        mine.send(json.dumps({"type": "hint", "id": 0}))  # the dice come first
        assert receive(mine, "error")["error"] == "not_your_turn"
        mine.send(json.dumps({"type": "dice", "dice": "4", "id": 1}))
        assert receive(mine, "ack") == {"type": "ack", "id": 1, "version": 1}
        mine.send(json.dumps({"type": "hint", "id": 5}))
        hint = receive(mine, "hint", 60)  # the first hint starts the analysis workers
        assert (hint["id"], hint["seat"], hint["version"], hint["bot"]) == (5, 0, 1, "hard")
        assert hint["move"] in ("roll", "stop")
        seen = state_at(watcher, 1)
        assert seen["log"][0]["description"] == "Ann rolls 4" and seen["hints"] == {}
        watcher.send(json.dumps({"type": "hint", "id": 6}))
        assert receive(watcher, "error")["status"] == 403
        mine.send(json.dumps({"type": "act", "move": "fly", "id": 2}))
        error = receive(mine, "error")
        assert (error["id"], error["status"], error["error"]) == (2, 422, "illegal_move")
        mine.send("{broken")
        assert receive(mine, "error")["error"] == "bad_json"
        watcher.send(json.dumps({"type": "act", "move": "stop", "id": 3}))
        assert receive(watcher, "error")["status"] == 403
        mine.send(json.dumps({"type": "act", "move": "stop", "id": 4}))
        assert receive(mine, "ack")["version"] == 2
        assert state_at(watcher, 2)["node"]["turn"]["seat"] == 1
    # Reconnecting resumes where the match is.
    with open_socket(client, match["id"], ben) as again:
        state = receive(again, "state")["state"]
        assert state["version"] == 2 and state["you"] == [1] and state["can_enter_dice"]


def test_bad_socket_links_are_refused(client: AppClient) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
    with open_socket(client, match["id"], "forged") as socket:
        error = receive(socket, "error")
        assert error["status"] == 403 and error["id"] is None
    with open_socket(client, "nosuchmatch") as socket:
        assert receive(socket, "error")["status"] == 404


def test_two_clients_racing_for_one_seat(client: AppClient) -> None:
    """Two devices holding Ann's link send the same move at once: exactly one counts."""
    match = client.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                         "dice": "manual"})
    mid = match["id"]
    ann = match["seats"][0]["token"]
    client.post(f"/api/matches/{mid}/dice", {"token": ann, "dice": "2"})
    for round_number in range(10):
        version = client.get(f"/api/matches/{mid}?token={ann}")["version"]
        stack = contextlib.ExitStack()
        sockets = [stack.enter_context(open_socket(client, mid, ann)) for _ in range(2)]
        for socket in sockets:
            receive(socket, "state")
        start = threading.Barrier(2)
        answers: list[dict[str, Any]] = []
        message = json.dumps({"type": "act", "move": "roll", "expect": version,
                              "id": round_number})
        threads = [threading.Thread(target=_race, args=(socket, start, message, answers))
                   for socket in sockets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(15)
        kinds = sorted(answer["type"] for answer in answers)
        assert kinds == ["ack", "error"], answers
        error = next(answer for answer in answers if answer["type"] == "error")
        assert error["status"] == 409 and error["error"] in ("stale", "not_your_turn")
        after = client.get(f"/api/matches/{mid}?token={ann}")
        assert after["version"] == version + 1
        stack.close()
        client.post(f"/api/matches/{mid}/dice", {"token": ann, "dice": "1"})


def _race(socket: Socket, start: threading.Barrier, message: str,
          answers: list[dict[str, Any]]) -> None:
    start.wait()
    socket.send(message)
    answers.append(_answer(socket))


def _answer(socket: Socket | ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        if message["type"] in ("ack", "error"):
            return message


@pytest.mark.process
def test_kill_9_at_any_moment_loses_no_acknowledged_move(fresh_target: Path | str) -> None:
    """Moves fired as fast as possible; SIGKILL mid-stream; restart; resume exactly (on
    each store)."""
    server = Server(fresh_target).start()
    try:
        bots = server.post("/api/matches", {
            "game": "petits-chevaux", "seed": 5,
            "players": [{"name": "A", "kind": "bot:easy"}, {"name": "B", "kind": "bot:easy"}]})
        acked: list[tuple[int, str]] = []
        stop = threading.Event()

        def play() -> None:
            try:
                with real_socket(server, mid, tokens) as socket:
                    ident = 0
                    while not stop.is_set():
                        state = receive(socket, "state")["state"]
                        moves = [(int(seat), hints[-1]["move"])
                                 for seat, hints in state["hints"].items() if hints]
                        if state["status"] != "playing":
                            return
                        if not moves:
                            continue
                        ident += 1
                        socket.send(json.dumps({"type": "act", "seat": moves[0][0],
                                                "move": moves[0][1], "id": ident,
                                                "expect": state["version"]}))
                        answer = _answer(socket)
                        if answer["type"] == "ack":
                            acked.append((answer["version"], moves[0][1]))
            except Exception:  # the server died under us: that is the point
                return

        seen_bots = bots["state"]["version"]
        for pause in (0.3, 0.75, 0.5):
            # A race of its own each time: answers come at once (no Nagle delay), so one
            # race may end within a pause.
            match = server.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                                 "seed": 11, "options": {"track_length": 200}})
            mid = match["id"]
            tokens = ",".join(seat["token"] for seat in match["seats"])
            acked.clear()
            stop.clear()
            player = threading.Thread(target=play)
            player.start()
            deadline = time.monotonic() + 30  # the stream is under way (a loaded machine)
            while not acked and player.is_alive() and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(pause)  # then a kill at another moment of it each time
            server.kill()
            stop.set()
            player.join(15)
            assert acked, "no move was acknowledged before the kill"
            server.start()
            record = server.get(f"/api/matches/{mid}/record")
            # Every acknowledged move is there, at its place; the record replays.
            assert len(record["moves"]) >= acked[-1][0]
            for version, move in acked:
                assert record["moves"][version - 1] == move
            assert len(from_record(record).moves) == len(record["moves"])
            state = server.get(f"/api/matches/{mid}?token={tokens}")
        # The all-bot match resumes by itself and plays to the end.
        for _ in range(600):
            bot_state = server.get(f"/api/matches/{bots['id']}")
            if bot_state["status"] == "finished":
                break
            time.sleep(0.05)
        assert bot_state["status"] == "finished" and bot_state["version"] > seen_bots
        # The people's match carries on from there.
        seat = next(int(s) for s, hints in state["hints"].items() if hints) if any(
            state["hints"].values()) else None
        if seat is not None:
            token = match["seats"][seat]["token"]
            move = state["hints"][str(seat)][0]["move"]
            assert server.post(f"/api/matches/{mid}/actions",
                               {"token": token, "move": move})["version"] > state["version"]
    finally:
        server.kill()


def presence_now(socket: Socket, wanted: dict[str, str]) -> dict[str, Any]:
    """Wait for a pushed state whose presence is ``wanted`` (pushes coalesce)."""
    while True:
        state: dict[str, Any] = receive(socket, "state")["state"]
        if state["presence"] == wanted:
            return state


def test_presence_is_pushed_and_names_no_token(client: AppClient) -> None:
    match = client.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                         "dice": "manual"})
    ann, ben = (seat["token"] for seat in match["seats"])
    with open_socket(client, match["id"]) as watcher:
        presence_now(watcher, {"0": "invited", "1": "invited"})
        with open_socket(client, match["id"], ann):
            state = presence_now(watcher, {"0": "connected", "1": "invited"})
            assert ann not in json.dumps(state) and ben not in json.dumps(state)
        presence_now(watcher, {"0": "away", "1": "invited"})


def test_a_refusal_is_told_in_the_players_language(client: AppClient) -> None:
    """The code stays the same; the message is the player's sentence in the socket's or
    request's language, the precise English sentence in ``detail`` (issue 14)."""
    match = client.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                         "dice": "manual"})
    ann, ben = (seat["token"] for seat in match["seats"])
    with client.connect(f"/ws/matches/{match['id']}?token={ann}&lang=fr") as mine:
        receive(mine, "state")
        mine.send(json.dumps({"type": "dice", "dice": "4", "id": 1}))
        receive(mine, "ack")
        mine.send(json.dumps({"type": "act", "move": "fly", "id": 2}))
        error = receive(mine, "error")
        assert (error["status"], error["error"]) == (422, "illegal_move")
        assert error["message"] == ("Ce coup n'est pas permis maintenant : choisissez l'un "
                                    "des coups proposés.")
        assert "fly" in error["detail"]
    actions = f"/api/matches/{match['id']}/actions"
    for lang, expected in (("de", "Du bist nicht an der Reihe."),
                           ("it", "Non è il tuo turno.")):
        status, body = client.call("POST", f"{actions}?lang={lang}",
                                   {"token": ben, "move": "stop"})
        assert (status, body["error"], body["message"]) == (409, "not_your_turn", expected)
        assert "Ben" in body["detail"]
    status, body = client.call("POST", actions, {"token": ben, "move": "stop"})
    assert status == 409 and "detail" not in body and "Ben" in body["message"]
