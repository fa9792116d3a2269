"""Viewers that stop reading are pinged and closed, and what the server queues for them is
bounded: real sockets that complete the websocket handshake and never read again.

The server's intervals are short here (``--ping-interval 1 --ping-timeout 2``); with the
defaults the same bound is 27 s (checked on the constants). Before, such a connection was
never closed (the close waited for the peer to read what was queued) and each pinned its
kernel send queue, megabytes on a fast link.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

from dicegames.web.sockets import CLOSE_GRACE, PING_INTERVAL, PING_TIMEOUT, SEND_BUFFER
from polling import until
from web.server import Server
from web.test_fuzz_ws import BIG_BOARD, TWO_PEOPLE, _slow_reader

# Timing-sensitive: `make test` runs these alone, after the parallel run (see the Makefile).
pytestmark = pytest.mark.timing

INTERVAL, TIMEOUT = 1.0, 2.0
"""The test server's ping interval and timeout (seconds)."""

MARGIN = 5.0
"""Seconds allowed beyond the promised bound (a loaded 2-core machine)."""

ESTABLISHED = 1
"""``tcpi_state`` of an open TCP connection (Linux ``TCP_ESTABLISHED``)."""


def _tcp_state(sock: socket.socket) -> int:
    """The kernel's state of ``sock``'s connection (first byte of ``TCP_INFO``)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]


def _server_queues(server_port: int, clients: set[int]) -> dict[int, int]:
    """The bytes the server's kernel still queues to send to each of the ``clients``
    (by their port) whose connection it still has (from ``/proc/net/tcp``)."""
    queued = {}
    with open("/proc/net/tcp", encoding="ascii") as table:
        next(table)
        for line in table:
            fields = line.split()
            local, remote = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
            if local == server_port and remote in clients:
                queued[remote] = int(fields[4].split(":")[0], 16)
    return queued


def test_the_default_bound_is_within_30_seconds() -> None:
    assert PING_INTERVAL + PING_TIMEOUT + CLOSE_GRACE <= 30


@pytest.mark.process
def test_viewers_that_stop_reading_are_closed_and_free_their_queues(tmp_path: Path) -> None:
    """Four viewers of a busy match on the largest board (their buffers full) and four of a
    quiet one (nothing pushed after the first state) stop reading: each is closed within
    ping interval + ping timeout + grace of the last push, and the server's kernel holds
    nothing for them any more; a viewer that reads stays connected throughout."""
    running = Server(tmp_path / "games.sqlite3",
                     extra=("--ping-interval", str(INTERVAL), "--ping-timeout", str(TIMEOUT),
                            "--send-timeout", "600")).start()
    try:
        busy = running.post("/api/matches", {"game": "shortcut", "players": TWO_PEOPLE,
                                             "options": {"board": BIG_BOARD}})
        quiet = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
        slow = [_slow_reader(running.url, f"/ws/matches/{match['id']}")
                for match in (busy, busy, busy, busy, quiet, quiet, quiet, quiet)]
        port = int(running.url.rsplit(":", 1)[1])
        clients = {sock.getsockname()[1] for sock in slow}
        tokens = [seat["token"] for seat in busy["seats"]]
        with connect(f"{running.ws_url}/ws/matches/{busy['id']}", max_size=2**22,
                     open_timeout=10) as reader:
            pushed = 0
            while pushed < 4 * 2**20:  # more than the slow viewers' buffers hold
                state = running.get(f"/api/matches/{busy['id']}?token={','.join(tokens)}")
                pushed += len(json.dumps(state))
                seat = next(int(seat) for seat, hints in state["hints"].items() if hints)
                running.post(f"/api/matches/{busy['id']}/actions", {
                    "token": tokens[seat], "expect": state["version"],
                    "move": state["hints"][str(seat)][-1]["move"]})
            last_push = time.monotonic()
            queued = max(_server_queues(port, clients).values())
            deadline = last_push + INTERVAL + TIMEOUT + CLOSE_GRACE + MARGIN
            while any(_tcp_state(sock) == ESTABLISHED for sock in slow):
                assert time.monotonic() < deadline, [_tcp_state(sock) for sock in slow]
                time.sleep(0.1)
            closed_after = time.monotonic() - last_push
            until(lambda: sum(_server_queues(port, clients).values()) == 0,
                  "the server to let go of the dropped viewers' queued bytes", 10)
            # The reader kept up: it gets the next state, over the same connection.
            version = state["version"] + 1
            seen = 0
            while seen < version:
                message = json.loads(reader.recv(timeout=10))
                seen = max(seen, message["state"]["version"])
        for sock in slow:
            sock.close()
    finally:
        running.stop()
    assert queued <= 4 * SEND_BUFFER, queued  # the kernel's bound (Linux doubles SO_SNDBUF)
    assert closed_after < INTERVAL + TIMEOUT + CLOSE_GRACE + MARGIN, closed_after
