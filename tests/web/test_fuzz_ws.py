"""The websocket against random frames, and against 200 viewers plus one that never reads.

Close codes the server uses (docs/web-api.md): 1007 a text frame that is not UTF-8, 1009 a
frame over 64 KiB, 4000 + status a refused connect (4403 foreign origin or bad token,
4404 unknown match), 4408 a viewer that read nothing for ``SEND_TIMEOUT`` seconds. Any other
bad frame is answered with an error message and the socket stays open.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection as AsyncConnection
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dicegames.core.record import from_record
from dicegames.web.app import SLOW_CLOSE
from web.server import Server

# Timing-sensitive: `make test` runs these alone, after the parallel run (see the Makefile).
pytestmark = pytest.mark.timing

VERSION = re.compile(r'"version": (\d+)')
"""The state's version, the first ``version`` key of a state message."""

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
CLOSE_CODES = {1007, 1009}
"""The codes a fuzzed frame may close the socket with (the frame was not a message)."""


def _frames(rng: random.Random, state: dict[str, Any]) -> tuple[bytes | str, bool]:
    """One random frame and whether it is sent as text; biased to near-valid messages."""
    hints = [hint["move"] for moves in state.get("hints", {}).values() for hint in moves]
    moves = hints + (state.get("outcomes") or []) + ["roll", "stop", "", "9" * 300, "\u00b2"]
    choice = rng.random()
    if choice < 0.05:
        return rng.randbytes(rng.randrange(1, 200)), False  # binary
    if choice < 0.08:
        return b"\xff\xfe" + rng.randbytes(8), True  # text that is not UTF-8
    if choice < 0.1:
        return "x" * (70 * 1024), True  # over the frame limit
    if choice < 0.15:
        return rng.choice(["{", "[]", "null", "1", '"act"', "{}" * 10_000]), True
    if choice < 0.55:  # a legal move, or a legal move of the seat not deciding now
        if state.get("can_enter_dice"):
            return json.dumps({"type": "dice", "dice": rng.choice(state["outcomes"])}), True
        deciding = [int(seat) for seat, moves in state.get("hints", {}).items() if moves]
        if deciding:
            seat = deciding[0] if rng.random() < 0.8 else 1 - deciding[0]
            return json.dumps({"type": "act", "seat": seat, "move": rng.choice(hints)}), True
    message: dict[str, Any] = {"type": rng.choice(["act", "dice", "undo", "hint", "chat",
                                                   None, 1])}
    for key, values in (("move", [*moves, None, 5, [], {}]),
                        ("dice", [*moves, None, 7]),
                        ("seat", [0, 1, 2, -1, True, "0", None, 10**30]),
                        ("expect", [state.get("version"), True, -1, "3", None, 2**70]),
                        ("id", [1, "x", None, {"a": []}])):
        if rng.random() < 0.7:
            message[key] = rng.choice(values)
    return json.dumps(message), True


def _read(sock: ClientConnection, state: dict[str, Any]) -> dict[str, Any] | None:
    """Messages until the answer to the last frame (states update ``state``)."""
    while True:
        message: dict[str, Any] = json.loads(sock.recv(timeout=10))
        if message["type"] == "state":
            state.update(message["state"])
            continue
        return message


def test_random_frames_get_an_answer_or_a_documented_close(server: Server) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                         "dice": "manual"})
    tokens = ",".join(seat["token"] for seat in match["seats"])
    address = f"{server.ws_url}/ws/matches/{match['id']}?token={tokens}"
    rng = random.Random(int(os.environ.get("DICEGAMES_FUZZ_SEED", "13")))
    frames = int(os.environ.get("DICEGAMES_FUZZ_EXAMPLES", "400"))
    expected: list[str] = []  # the moves the server acknowledged, undos taken back
    closes: list[int] = []
    state: dict[str, Any] = {}
    sent = 0
    while sent < frames:
        with connect(address, max_size=2**22) as sock:
            _read_state(sock, state)
            while sent < frames:
                frame, text = _frames(rng, state)
                sent += 1
                try:
                    sock.send(frame, text=text)
                    answer = _read(sock, state)
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code in CLOSE_CODES, closed
                    closes.append(closed.rcvd.code)
                    break
                _check(answer, frame, expected)
    assert set(closes) <= CLOSE_CODES and len(expected) > 10, (closes, len(expected))
    record = server.get(f"/api/matches/{match['id']}/record")
    assert record["moves"] == expected
    from_record(record)  # every stored move is legal
    assert server.get("/api/games")["games"]


def _check(answer: dict[str, Any] | None, frame: bytes | str, expected: list[str]) -> None:
    """An answer is an ack, an error (4xx, with a message) or a hint; track the acks."""
    assert answer is not None and answer["type"] in ("ack", "error", "hint"), answer
    if answer["type"] == "error":
        assert 400 <= answer["status"] < 500 and answer["message"], answer
    elif answer["type"] == "ack":
        sent = json.loads(frame)
        if sent["type"] == "undo":
            expected.pop()
        else:
            expected.append(sent["move"] if sent["type"] == "act" else sent["dice"])
        assert answer["version"] == len(expected)


def _read_state(sock: ClientConnection, state: dict[str, Any]) -> None:
    message = json.loads(sock.recv(timeout=10))
    assert message["type"] == "state"
    state.clear()
    state.update(message["state"])


# ------------------------------------------------------------- many viewers, one slow


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _slow_reader(url: str, path: str) -> socket.socket:
    """A websocket client that completes the handshake, then never reads again."""
    host, port = url.removeprefix("http://").split(":")
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = raw.recv(1024)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


async def _viewers(server: Server, match_id: str, token: str, count: int,
                   pace_seconds: float) -> tuple[int, int, int]:
    """``count`` viewers and a player who plays until ``pace_seconds`` have passed; returns
    the moves played, the last version every viewer saw and the bytes the first got."""
    url = f"{server.ws_url}/ws/matches/{match_id}"
    viewers = [await async_connect(url, max_size=2**22) for _ in range(count)]
    seen = [0] * count
    pushed = [0]

    async def watch(number: int, viewer: AsyncConnection) -> None:
        async for raw in viewer:
            if number == 0:
                pushed[0] += len(raw)
            found = VERSION.search(str(raw))  # states only: nothing else is sent to them
            assert found is not None
            seen[number] = int(found.group(1))

    watchers = [asyncio.create_task(watch(n, v)) for n, v in enumerate(viewers)]
    player = await async_connect(f"{url}?token={token}", max_size=2**22)
    version = 0
    rng = random.Random(5)
    deadline = time.monotonic() + pace_seconds
    state: dict[str, Any] = {}
    while time.monotonic() < deadline or version < 30:
        message = json.loads(await player.recv())
        if message["type"] == "state":
            state = message["state"]
        if state.get("version") != version:
            continue
        if state["status"] != "playing":
            break
        if state["can_enter_dice"]:
            sent = {"type": "dice", "dice": rng.choice(state["outcomes"])}
        else:
            hints = [h["move"] for moves in state["hints"].values() for h in moves]
            sent = {"type": "act", "move": rng.choice(hints)}
        await player.send(json.dumps(sent))
        while (answer := json.loads(await player.recv()))["type"] == "state":
            state = answer["state"]
        assert answer["type"] == "ack", answer
        version = answer["version"]
        # Every viewer keeps up: the new state reaches all of them within a few seconds.
        settle = time.monotonic() + 5
        while min(seen) < version and time.monotonic() < settle:
            await asyncio.sleep(0.01)
        assert min(seen) >= version, (version, sorted(seen)[:5])
    await player.close()
    for viewer in viewers:
        await viewer.close()
    for watcher in watchers:
        watcher.cancel()
    return version, min(seen), pushed[0]


def test_two_hundred_viewers_and_one_that_never_reads(server: Server) -> None:
    """The slow reader holds at most its coalesced state and a bounded buffer: the server's
    memory stays flat and every other viewer gets every push."""
    match = server.post("/api/matches", {"game": "extra-meters", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"},
        *({"name": f"P{n}", "kind": "human"} for n in range(3, 9))],
        "options": {"track_length": 100}})
    assert server.process is not None
    before = _rss_kb(server.process.pid)
    slow = _slow_reader(server.url, f"/ws/matches/{match['id']}")
    tokens = ",".join(seat["token"] for seat in match["seats"])
    played, seen, _ = asyncio.run(_viewers(server, match["id"], tokens, 200, 3.0))
    grown_mb = (_rss_kb(server.process.pid) - before) / 1024
    slow.close()
    assert played >= 30 and seen == played
    assert grown_mb < 60, grown_mb


@pytest.mark.process
def test_a_viewer_that_never_reads_is_dropped(tmp_path: Path) -> None:
    """States pushed as fast as a player plays fill the slow reader's buffers; the server
    then waits ``--send-timeout`` and drops it. (The largest Shortcut board's grid is in a
    viewer's first state only; the log tail makes each later push some 20 KB.)"""
    running = Server(tmp_path / "games.sqlite3", extra=("--send-timeout", "1")).start()
    try:
        match = running.post("/api/matches", {"game": "shortcut", "players": TWO_PEOPLE,
                                              "options": {"board": BIG_BOARD}})
        slow = _slow_reader(running.url, f"/ws/matches/{match['id']}")
        tokens = ",".join(seat["token"] for seat in match["seats"])
        assert running.process is not None
        before = _rss_kb(running.process.pid)
        pushed = 0
        with connect(f"{running.ws_url}/ws/matches/{match['id']}?token={tokens}",
                     open_timeout=10, max_size=2**22) as player:
            ident, tried = 0, 0
            while pushed < 12 * 2**20:  # more than any socket buffer holds
                raw = player.recv(timeout=10)
                message = json.loads(raw)
                if message["type"] == "state":
                    pushed += len(raw)  # what the slow reader is sent too (its seats aside)
                    state, tried = message["state"], 0
                elif message["type"] == "error":  # a cell named like a road square ("r5")
                    tried += 1
                else:
                    continue
                deciding = [int(seat) for seat, hints in state["hints"].items() if hints]
                if deciding:  # the last choice: a push, then its square (it never ends)
                    seat, ident = deciding[0], ident + 1
                    hints = state["hints"][str(seat)]
                    player.send(json.dumps({"type": "act", "seat": seat, "id": ident,
                                            "expect": state["version"],
                                            "move": hints[-1 - tried % len(hints)]["move"]}))
        time.sleep(2.5)
        grown_mb = (_rss_kb(running.process.pid) - before) / 1024
        slow.settimeout(10)
        received = bytearray()
        with contextlib.suppress(ConnectionResetError):  # reset once its queue is stuck
            while chunk := slow.recv(1 << 16):
                received += chunk
        slow.close()
        assert len(received) < pushed // 2, (len(received), pushed)
        close_frame = b"\x88\x02" + SLOW_CLOSE.to_bytes(2, "big")
        assert received.endswith(close_frame) or close_frame not in received
        assert grown_mb < 60, grown_mb
    finally:
        running.stop()


BIG_BOARD = "\n".join([" ".join(["S", *map(str, range(1, 25)), "F"])]
                      + [" ".join(["g"] * 26)] * 98) + "\n"
"""The largest board (26 x 99 cells): a whole state of it is about 300 KB."""
