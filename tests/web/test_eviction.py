"""Idle matches leave memory and come back from the database with nothing lost; a 500 does
not close the kept-alive connection. Each test serves the app in this process to see which
matches its hub holds: behind the in-process client (:mod:`web.client`), or, for the
kept-alive connection, served by uvicorn on a real socket (:mod:`web.inprocess`)."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dicegames.web.commands import EnterDice
from dicegames.web.domain import Stale
from dicegames.web.errors import refusal
from dicegames.web.live import LiveMatch
from polling import until
from web.client import AppClient
from web.inprocess import InProcessServer

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[AppClient]:
    """The app dropping a match after 0.3 s idle."""
    with AppClient(tmp_path / "games.sqlite3", idle_evict=0.3) as running:
        yield running


def _tokens(match: dict[str, Any]) -> str:
    return ",".join(seat["token"] for seat in match["seats"])


def _play(server: AppClient, match: dict[str, Any], moves: int) -> None:
    """Play ``moves`` decisions, each the first choice offered (the dice roll themselves)."""
    path = f"/api/matches/{match['id']}"
    for _ in range(moves):
        deadline = time.monotonic() + 10
        while True:
            state = server.get(f"{path}?token={_tokens(match)}")
            deciding = [seat for seat, hints in state["hints"].items() if hints]
            if deciding or state["status"] != "playing":
                break
            assert time.monotonic() < deadline, state
            time.sleep(0.01)
        assert deciding, state
        seat = int(deciding[0])
        server.post(f"{path}/actions", {"token": match["seats"][seat]["token"],
                                        "move": state["hints"][deciding[0]][0]["move"],
                                        "expect": state["version"]})


def _wait_dropped(server: AppClient, match_id: str) -> None:
    until(lambda: match_id not in server.hub.resident, "the idle match to leave memory", 10)


def test_an_idle_match_leaves_memory_and_goes_on_exactly(quick: AppClient) -> None:
    """Dropped after the idle time, the match is replayed on its next request: the same
    state (a newer revision, the presence of the seat that had come), and the game goes on
    to the same record as a match played without a pause."""
    body = {"game": "extra-meters", "players": TWO_PEOPLE, "seed": 11}
    match = quick.post("/api/matches", body)
    _play(quick, match, 5)
    with quick.connect(f"/ws/matches/{match['id']}?token={match['seats'][0]['token']}") as viewer:
        assert json.loads(viewer.recv(timeout=10))["type"] == "state"
    path = f"/api/matches/{match['id']}?token={_tokens(match)}"
    deadline = time.monotonic() + 10
    while ((before := quick.get(path))["presence"]["0"] != "away"  # the viewer has left
           or before["node"]["kind"] != "decision"):  # and the dice have been rolled
        assert time.monotonic() < deadline, (before["presence"], before["node"])
        time.sleep(0.02)
    assert before["presence"] == {"0": "away", "1": "invited"}
    dropped = quick.hub.resident.evictions
    _wait_dropped(quick, match["id"])
    assert quick.hub.resident.evictions > dropped
    after = quick.get(path)
    assert match["id"] in quick.hub.resident
    assert after["revision"] > before["revision"]
    assert {**after, "revision": 0} == {**before, "revision": 0}
    _wait_dropped(quick, match["id"])
    _play(quick, match, 5)
    control = quick.post("/api/matches", body)
    _play(quick, control, 10)
    played = quick.get(f"/api/matches/{match['id']}/record")
    expected = quick.get(f"/api/matches/{control['id']}/record")
    assert played["moves"] == expected["moves"] and len(played["moves"]) >= 20


def test_a_match_being_watched_stays_in_memory(quick: AppClient) -> None:
    match = quick.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
    with quick.connect(f"/ws/matches/{match['id']}") as viewer:
        assert json.loads(viewer.recv(timeout=10))["type"] == "state"
        time.sleep(1.0)  # more than three idle times
        assert match["id"] in quick.hub.resident
    _wait_dropped(quick, match["id"])


def test_past_the_cap_the_least_recently_used_idle_matches_leave_first(
        tmp_path: Path) -> None:
    """With room for 3 idle matches, 8 new ones leave the 3 newest (and the one being
    watched) in memory; every match still answers with its own state."""
    running = AppClient(tmp_path / "games.sqlite3", matches_in_memory=3).start()
    try:
        body = {"game": "extra-meters", "players": TWO_PEOPLE, "dice": "manual"}
        watched = running.post("/api/matches", body)
        with running.connect(f"/ws/matches/{watched['id']}") as viewer:
            assert json.loads(viewer.recv(timeout=10))["type"] == "state"
            ids = [running.post("/api/matches", body)["id"] for _ in range(8)]
            held = [match_id for match_id in ids if match_id in running.hub.resident]
            assert held == ids[-3:] and watched["id"] in running.hub.resident
        for match_id in [watched["id"], *ids]:
            assert running.get(f"/api/matches/{match_id}")["id"] == match_id
        assert sum(match_id in running.hub.resident for match_id in ids) <= 3
    finally:
        running.stop()


def test_a_request_holding_a_dropped_match_cannot_change_it(quick: AppClient) -> None:
    """A request that fetched the match before it was dropped, and acts after, is told
    ``stale`` (two copies of one match would both write its next move); the next request
    acts on the reloaded match."""
    match = quick.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                        "dice": "manual"})
    hub = quick.hub

    async def fetch() -> LiveMatch:
        return await hub.get(match["id"])

    async def drop(held: LiveMatch) -> None:
        hub.resident.drop(held)

    async def roll(held: LiveMatch) -> int:
        return await hub.enter_dice(held, EnterDice(match["seats"][0]["token"], "4"))

    held = quick.run(fetch())
    quick.run(drop(held))
    with pytest.raises(Stale) as refused:
        quick.run(roll(held))
    answer = refusal(refused.value)
    assert answer is not None and (answer.status, answer.code) == (409, "stale")
    assert quick.run(roll(quick.run(fetch()))) == 1


def test_an_unexpected_error_answers_500_and_keeps_the_connection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """The 500 is JSON, and the next request goes on the same kept-alive connection (it
    was closed after the answer, so the next request was reset): uvicorn on a socket."""
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    quick = InProcessServer(tmp_path / "games.sqlite3").start()
    request.addfinalizer(quick.stop)

    monkeypatch.setattr(quick.hub.store, "tables", broken)
    host, port = quick.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", "/api/tables")
        answer = connection.getresponse()
        assert answer.status == 500
        assert answer.getheader("connection") != "close"
        assert json.loads(answer.read()) == {"error": "server_error",
                                             "message": "unexpected server error"}
        sock = connection.sock
        assert sock is not None
        for path in ("/api/games", "/api/tables"):
            connection.request("GET", path)
            answer = connection.getresponse()
            answer.read()
            assert connection.sock is sock  # the same connection, not a new one
        assert answer.status == 500
        connection.request("GET", "/api/games")
        assert connection.getresponse().status == 200
    finally:
        connection.close()
