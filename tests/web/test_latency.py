"""Answers on a kept-alive connection come at once: no Nagle delay on any connection.

The server's sockets have ``TCP_NODELAY`` set (:func:`dicegames.web.server.listening_socket`).
Without it, an answer written in two pieces (headers, then body), or a state pushed just
after a move's ack, waits for the client's delayed ACK: about 40 ms on every answer after a
connection's first. Each test times a real server over loopback and asserts the median, with
a wide margin (a few milliseconds are expected, the bound is 10 ms, the delay was 40).
"""

from __future__ import annotations

import http.client
import json
import statistics
import time
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

from web.server import Server

# Timing-sensitive: `make test` runs these alone, after the parallel run (see the Makefile).
pytestmark = pytest.mark.timing

BOUND_S = 0.010
"""The median answer time allowed (seconds); Nagle's delay was 40 ms."""


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own (no other test's load in its event loop)."""
    server = Server(tmp_path_factory.mktemp("latency") / "games.sqlite3").start()
    yield server
    server.stop()


@pytest.mark.process
def test_kept_alive_gets_answer_in_a_few_milliseconds(running: Server) -> None:
    host, port = running.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    times = []
    try:
        for number in range(21):
            started = time.perf_counter()
            connection.request("GET", "/api/games")
            answer = connection.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["games"]
            if number:  # the first sets the connection up
                times.append(time.perf_counter() - started)
    finally:
        connection.close()
    assert statistics.median(times) < BOUND_S, [round(t * 1000, 1) for t in times]


@pytest.mark.process
def test_a_push_follows_its_ack_within_a_few_milliseconds(running: Server) -> None:
    """A person plays over one websocket; each move's state push arrives just after the
    move's ack (the server writes the ack, then the push)."""
    match = running.post("/api/matches", {
        "game": "extra-meters", "dice": "manual",
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    token = match["seats"][0]["token"]
    gaps = []
    with connect(f"{running.ws_url}/ws/matches/{match['id']}?token={token}",
                 open_timeout=10) as socket:
        assert json.loads(socket.recv(timeout=10))["type"] == "state"
        for ident in range(1, 21):  # Ann enters a 3 and rolls again, ten times over
            message = ({"type": "dice", "dice": "3"} if ident % 2
                       else {"type": "act", "seat": 0, "move": "roll"})
            socket.send(json.dumps({**message, "id": ident}))
            ack = json.loads(socket.recv(timeout=10))
            acked = time.perf_counter()
            assert ack == {"type": "ack", "id": ident, "version": ident}, ack
            pushed = json.loads(socket.recv(timeout=10))
            gaps.append(time.perf_counter() - acked)
            assert pushed["type"] == "state" and pushed["state"]["version"] == ident
    assert statistics.median(gaps) < BOUND_S, [round(t * 1000, 1) for t in gaps]
