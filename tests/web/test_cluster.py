"""Several server processes on one PostgreSQL database (:mod:`dicegames.web.cluster`):
racing moves, pushes across processes, the takeover of a killed driver, limits that hold
across processes, and ``serve --workers``.

Real processes on a real PostgreSQL (tests/pgcluster.py), each on its own loopback port as
behind a proxy (:mod:`web.cluster_servers`); skipped with the reason where PostgreSQL can't
be had (failed under CI=true).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from typing import Any

import pytest
from websockets.sync.client import connect

from polling import until
from web.cluster_servers import lease_holder, servers_on, stored_moves
from web.server import Server

pytestmark = pytest.mark.process

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def _state(server: Server, match_id: str, token: str) -> dict[str, Any]:
    state: dict[str, Any] = server.get(f"/api/matches/{match_id}?token={token}")
    return state


def _deciding(servers: list[Server], match_id: str, tokens: str
              ) -> list[dict[str, Any]] | None:
    """Each server's state once all show the same version with a person deciding."""
    states = [_state(server, match_id, tokens) for server in servers]
    versions = {state["version"] for state in states}
    if len(versions) > 1 or states[0]["node"]["kind"] != "decision":
        return None
    return states


def test_racing_moves_on_two_processes_one_wins_each_version(pg_dsn: str) -> None:
    """At each decision both processes get a move at the same version at the same moment:
    exactly one is acknowledged, the other refused 409 stale, and both processes and the
    database end with the same moves."""
    with servers_on(pg_dsn, 2) as servers:
        match = servers[0].post("/api/matches", {"game": "extra-meters",
                                                 "players": TWO_PEOPLE, "seed": 7})
        tokens = {seat["seat"]: seat["token"] for seat in match["seats"]}
        both = ",".join(tokens.values())
        rounds = 0
        while rounds < 6:
            states = until(lambda: _deciding(servers, match["id"], both),
                           "both processes at the same decision", timeout=20)
            state = states[0]
            if state["status"] != "playing":
                break
            seat = state["node"]["deciding"][0]
            choices = [hint["move"] for hint in state["hints"][str(seat)]]
            answers = _race(servers, f"/api/matches/{match['id']}/actions",
                            [{"token": tokens[seat], "move": move, "expect": state["version"]}
                             for move in (choices[0], choices[-1])])
            statuses = sorted(status for status, _ in answers)
            assert statuses == [200, 409], answers
            refused = next(answer for status, answer in answers if status == 409)
            assert refused["error"] == "stale"
            rounds += 1
        assert rounds >= 3
        def caught_up() -> list[tuple[int | None, str]] | None:
            stored = stored_moves(pg_dsn, match["id"])
            versions = {_state(server, match["id"], both)["version"] for server in servers}
            return stored if versions == {len(stored)} else None  # the dice may still roll

        stored = until(caught_up, "both processes caught up with the database", timeout=20)
        records = [server.get(f"/api/matches/{match['id']}/record") for server in servers]
        assert records[0]["moves"] == records[1]["moves"]
        assert len(records[0]["moves"]) == len(stored)


def _race(servers: list[Server], path: str, bodies: list[dict[str, Any]]
          ) -> list[tuple[int, Any]]:
    """POST ``bodies[i]`` to ``servers[i]``, all released at the same moment."""
    answers: list[tuple[int, Any]] = [(0, None)] * len(servers)
    start = threading.Barrier(len(servers))

    def send(index: int) -> None:
        start.wait()
        answers[index] = servers[index].call("POST", path, bodies[index])

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(servers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def test_a_move_through_one_process_is_pushed_to_a_viewer_of_another(pg_dsn: str) -> None:
    with servers_on(pg_dsn, 2) as (a, b):
        match = a.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                        "dice": "manual"})
        token = match["seats"][0]["token"]
        with connect(f"{b.ws_url}/ws/matches/{match['id']}", open_timeout=10) as viewer:
            first = json.loads(viewer.recv(timeout=10))
            assert first["type"] == "state" and first["state"]["version"] == 0
            outcome = first["state"]["outcomes"][0]
            a.post(f"/api/matches/{match['id']}/dice", {"token": token, "dice": outcome,
                                                        "expect": 0})
            while True:  # presence pushes may come first
                pushed = json.loads(viewer.recv(timeout=10))
                if pushed["type"] == "state" and pushed["state"]["version"] >= 1:
                    break
            assert pushed["state"]["version"] == 1
            assert pushed["state"]["status"] == "playing"


def _pid(holder: str) -> int:
    return int(holder.split(":")[-2])


def test_kill_9_of_the_driving_process_another_carries_on(pg_dsn: str) -> None:
    """A bots-only match nobody watches: its driver's process is killed; another process
    takes the lease over within seconds, and every stored move stays."""
    with servers_on(pg_dsn, 2, bot_delay=0.05) as servers:
        bots = [{"name": f"Bot {n}", "kind": "bot:random"} for n in range(4)]
        match = servers[0].post("/api/matches", {"game": "petits-chevaux", "players": bots})
        until(lambda: len(stored_moves(pg_dsn, match["id"])) >= 5 or None,
              "the bots playing", timeout=20)
        holder = until(lambda: lease_holder(pg_dsn, match["id"]), "a driver's lease")
        driving = next(server for server in servers
                       if server.process is not None and server.process.pid == _pid(holder))
        driving.kill()
        before = stored_moves(pg_dsn, match["id"])

        def carried_on() -> list[tuple[int | None, str]] | None:
            moves = stored_moves(pg_dsn, match["id"])
            return moves if len(moves) >= len(before) + 5 else None

        after = until(carried_on, "another process carrying the match on", timeout=15)
        assert after[:len(before)] == before
        survivor = next(server for server in servers if server is not driving)
        new_holder = lease_holder(pg_dsn, match["id"])
        assert survivor.process is not None
        assert new_holder is None or _pid(new_holder) == survivor.process.pid


def test_rate_limits_and_websockets_hold_across_processes(pg_dsn: str) -> None:
    extra = ("--rate-limit", "create=3/300", "--max-sockets", "2")
    with servers_on(pg_dsn, 2, extra=extra, limited=True) as (a, b):
        body = {"game": "extra-meters", "players": TWO_PEOPLE}
        statuses = [server.call("POST", "/api/matches", body)[0]
                    for server in (a, b, a, b)]
        assert statuses == [201, 201, 201, 429]
        assert a.call("POST", "/api/matches", body)[0] == 429
    # the buckets are in the database: the creations above still count, unless refilled
    extra = ("--max-sockets", "2", "--rate-limit", "create=100/1")
    with servers_on(pg_dsn, 2, extra=extra, limited=True) as (a, b):
        match = a.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
        path = f"/ws/matches/{match['id']}"
        with connect(a.ws_url + path, open_timeout=10) as one, \
                connect(b.ws_url + path, open_timeout=10) as two:
            assert json.loads(one.recv(timeout=10))["type"] == "state"
            assert json.loads(two.recv(timeout=10))["type"] == "state"
            with connect(b.ws_url + path, open_timeout=10) as three:
                refused = json.loads(three.recv(timeout=10))
                assert refused["type"] == "error" and refused["status"] == 429


def test_workers_share_the_port_on_postgresql(pg_dsn: str) -> None:
    with servers_on(pg_dsn, 1, extra=("--workers", "2")) as (server,):
        match = server.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
        for _ in range(6):  # new connections each: either worker may answer
            assert server.get(f"/api/matches/{match['id']}")["id"] == match["id"]
        assert server.process is not None
        children = subprocess.run(["pgrep", "-P", str(server.process.pid)],
                                  capture_output=True, text=True, check=False).stdout.split()
        assert len(children) >= 2


def test_workers_refused_on_sqlite(tmp_path: Any) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "dicegames", "serve", "--workers", "2",
                           "--port", "0", "--db", str(tmp_path / "x.sqlite3")],
                          capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 2
    assert "PostgreSQL" in done.stderr and "--workers" in done.stderr


def test_lobby_seats_and_names_hold_across_processes(pg_dsn: str) -> None:
    """Two people ask two processes for the last free seat at once: one gets it; a viewer
    of the other process sees the new name."""
    with servers_on(pg_dsn, 2) as servers:
        a, b = servers
        players = [{"name": "Ann", "kind": "human"},
                   {"name": "Player 2", "kind": "human", "invited": True}]
        match = a.post("/api/matches", {"game": "extra-meters", "open": True,
                                        "players": players, "dice": "manual"})
        b.get(f"/api/matches/{match['id']}")  # held in memory there too
        with connect(f"{b.ws_url}/ws/matches/{match['id']}", open_timeout=10) as viewer:
            assert json.loads(viewer.recv(timeout=10))["type"] == "state"
            answers = _race(servers, f"/api/tables/{match['id']}/join",
                            [{"name": "Cleo"}, {"name": "Dan"}])
            statuses = sorted(status for status, _ in answers)
            assert statuses == [200, 409], answers
            joined = next(answer for status, answer in answers if status == 200)
            while True:
                pushed = json.loads(viewer.recv(timeout=10))
                if pushed["type"] == "state" and \
                        pushed["state"]["players"][1]["name"] == joined["name"]:
                    break
