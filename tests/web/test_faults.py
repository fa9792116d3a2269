"""Faults of the database under a real server process: another process holding the SQLite
file locked for seconds, a damaged file, damaged rows.

The lock is taken by this test process on its own connection (``BEGIN EXCLUSIVE``), as any
other program opening the file would; the server must keep answering (reads go on in WAL
mode), refuse the writes it cannot do with 503 ``store_busy`` and ``Retry-After`` (never a
500), lose no acknowledged move, and let its bots carry on once the file is free again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from dicegames.web.database import WAIT
from dicegames.web.hub import _committed
from dicegames.web.store import Store, StoredMatch
from web.server import Server

# Timing-sensitive: `make test` runs these alone, after the parallel run (see the Makefile).
pytestmark = pytest.mark.timing

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
FOUR_BOTS = [{"kind": "bot:easy"}] * 4

LOCK_SECONDS = 6.0
"""How long the other process holds the file: longer than any wait of the server's (the
old server waited 5 s for a lock, blocking everything, then failed)."""


@contextlib.contextmanager
def locked(db: Path) -> Iterator[None]:
    """Hold ``db`` locked for writing from this process (another connection, as another
    program would) until the block ends."""
    holder = sqlite3.connect(db, isolation_level=None, timeout=10)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def timed_get(server: Server, path: str) -> tuple[float, int]:
    """Seconds one GET took, and its status."""
    start = time.perf_counter()
    status, _ = server.call("GET", path)
    return time.perf_counter() - start, status


def call_with_headers(server: Server, method: str, path: str, body: object
                      ) -> tuple[int, dict[str, str], Any]:
    """One HTTP request; the status, the headers (lower-case names) and the JSON answer."""
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     method=method,
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return (answer.status, {k.lower(): v for k, v in answer.headers.items()},
                    json.loads(answer.read()))
    except urllib.error.HTTPError as error:
        return (error.code, {k.lower(): v for k, v in error.headers.items()},
                json.loads(error.read()))


def stored_moves(db: Path, match_id: str) -> list[str]:
    """The moves of a match as the database holds them, in order."""
    with contextlib.closing(sqlite3.connect(db)) as reader:
        return [text for (text,) in reader.execute(
            "SELECT text FROM moves WHERE match_id = ? ORDER BY idx", (match_id,))]


def wait_until(predicate: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


# ---------------------------------------------------------------------- a locked file


@pytest.mark.process
def test_bots_wait_out_a_locked_database_and_other_requests_stay_quick(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    running = Server(db, bot_delay=0.005).start()
    try:
        bots = running.post("/api/matches", {"game": "petits-chevaux", "players": FOUR_BOTS,
                                             "seed": 3})["id"]
        other = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                              "dice": "manual"})["id"]
        wait_until(lambda: running.get(f"/api/matches/{bots}")["version"] >= 30, 30,
                   "the bots play")
        latencies: list[float] = []
        with locked(db):
            held = running.get(f"/api/matches/{bots}")
            assert held["status"] == "playing", "the game ended before the lock: too short"
            end = time.monotonic() + LOCK_SECONDS
            while time.monotonic() < end:
                for path in (f"/api/matches/{other}", "/api/tables",
                             f"/api/matches/{bots}"):
                    took, status = timed_get(running, path)
                    assert status == 200, path
                    latencies.append(took)
                time.sleep(0.02)
            stuck = running.get(f"/api/matches/{bots}")
            # at most the move whose write was under way when the lock was taken
            assert stuck["version"] <= held["version"] + 1
        # The event loop never waited for the lock: every GET answered quickly.
        assert statistics.median(latencies) < 0.1, statistics.median(latencies)
        assert max(latencies) < 1.5, max(latencies)
        # The driver waited and goes on by itself: the game ends, nothing lost.
        wait_until(lambda: running.get(f"/api/matches/{bots}")["status"] == "finished", 90,
                   "the bots go on after the lock and finish")
        record = running.get(f"/api/matches/{bots}/record")
        assert stored_moves(db, bots) == record["moves"]
        running.stop()
        running.start()  # a restart rebuilds the same game from the database
        again = running.get(f"/api/matches/{bots}/record")
        assert {**again, "saved": None} == {**record, "saved": None}
    finally:
        running.stop()


@pytest.mark.process
def test_a_move_the_database_cannot_take_is_503_and_never_lost(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    running = Server(db).start()
    try:
        match = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                              "dice": "manual"})
        ann = match["seats"][0]["token"]
        path = f"/api/matches/{match['id']}"
        assert running.post(f"{path}/dice", {"token": ann, "dice": "4"})["version"] == 1
        with locked(db), connect(f"{running.ws_url}/ws/matches/{match['id']}?token={ann}",
                                 open_timeout=10) as socket:
            status, headers, error = call_with_headers(
                running, "POST", f"{path}/actions", {"token": ann, "move": "stop"})
            assert (status, error["error"]) == (503, "store_busy"), (status, error)
            assert int(headers["retry-after"]) >= 1
            socket.send(json.dumps({"type": "act", "move": "stop", "id": 7}))
            while (answer := json.loads(socket.recv(timeout=30)))["type"] == "state":
                pass
            assert answer["type"] == "error" and answer["id"] == 7, answer
            assert (answer["status"], answer["error"]) == (503, "store_busy")
            assert answer["retry_after"] >= 1
            # refused: the match is as it was, for everyone
            assert running.get(path)["version"] == 1
            status, error = running.call("POST", "/api/matches",
                                         {"game": "extra-meters", "players": TWO_PEOPLE})
            assert (status, error["error"]) == (503, "store_busy")
        assert running.post(f"{path}/actions", {"token": ann, "move": "stop"})["version"] == 2
        assert stored_moves(db, match["id"]) == ["4", "stop"]
        running.kill()
        running.start()
        assert running.get(path)["version"] == 2
    finally:
        running.stop()


def test_a_commit_under_way_ends_in_memory_too_when_its_caller_is_cancelled(
        tmp_path: Path) -> None:
    """A request cancelled while its move is being written (its viewer dropped, the server
    stopping) still waits for the write's outcome, and plays the move in memory exactly when
    it was committed: memory and database never differ, and the match's lock is held to
    the end."""
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    played: list[str] = []

    async def cancelled_during(text: str, index: int, hold: float) -> asyncio.Task[None]:
        with locked(db):
            task = asyncio.ensure_future(_committed(
                store.add_move("m", index, 0, text, several=False),
                lambda: played.append(text)))
            await asyncio.sleep(0.2)
            task.cancel()
            await asyncio.sleep(hold)
            if hold < WAIT:
                assert not task.done(), "the caller let go before the write ended"
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert task.cancelled()
        return task

    async def scenario() -> None:
        await store.create(StoredMatch("m", "extra-meters", {}, TWO_PEOPLE, 7, "manual", {},
                                       []))
        await cancelled_during("4", 0, 0.3)  # committed once the lock goes, after the cancel
        await cancelled_during("5", 1, WAIT + 0.5)  # refused: the lock outlived its wait

    try:
        asyncio.run(scenario())
    finally:
        store.close()
    assert played == ["4"]
    assert stored_moves(db, "m") == ["4"]


# ---------------------------------------------------------------------- a damaged file


def serve_once(db: Path) -> subprocess.CompletedProcess[str]:
    """``dicegames serve --db db`` through the real entry point, until it exits."""
    return subprocess.run([sys.executable, "-m", "dicegames", "serve", "--port", "0",
                           "--db", str(db)], capture_output=True, text=True, timeout=60,
                          check=False)


def assert_refused(db: Path, reason: str) -> None:
    done = serve_once(db)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"cannot open the database {db}: {reason}" in lines[0], lines[0]


@pytest.mark.process  # the real command's exit and output
def test_a_file_that_is_not_a_database_is_one_line_and_exit_2(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"these are not the pages of a database\n" * 200)
    assert_refused(garbage, "it is not a SQLite database (file is not a database)")


@pytest.mark.process
def test_a_truncated_database_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    running = Server(db).start()
    try:
        for seed in range(40):
            running.post("/api/matches", {"game": "petits-chevaux", "seed": seed,
                                          "players": [{"kind": "bot:easy"}] * 2
                                          + TWO_PEOPLE})
    finally:
        running.stop()
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    whole = db.read_bytes()
    assert len(whole) > 8 * 4096, "too small to cut"
    db.write_bytes(whole[:len(whole) // 2])
    assert_refused(db, "it is damaged (")


@pytest.mark.process  # the real command's exit and output
def test_a_folder_or_an_unreadable_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "folder.sqlite3"
    folder.mkdir()
    assert_refused(folder, "it is a folder, not a file")
    if os.geteuid() == 0:
        pytest.skip("root reads every file: the unreadable case cannot be made")
    unreadable = tmp_path / "unreadable.sqlite3"
    unreadable.write_bytes(b"")
    unreadable.chmod(0)
    assert_refused(unreadable, "this user may not read and write it (permission denied)")


# ---------------------------------------------------------------------- damaged rows


def copy_match(db: sqlite3.Connection, source: str, copy: str, **changes: object) -> None:
    """Store a copy of match ``source`` as ``copy`` (fresh seat tokens), with ``changes``
    to its row written as they are (no check: this is how a damaged row looks)."""
    columns = [row[1] for row in db.execute("PRAGMA table_info(matches)")]
    values = dict(zip(columns, db.execute("SELECT * FROM matches WHERE id = ?",
                                          (source,)).fetchone(), strict=True))
    values.update(id=copy, created=time.time(), **changes)
    db.execute(f"INSERT INTO matches ({', '.join(values)}) VALUES "
               f"({', '.join('?' * len(values))})", tuple(values.values()))
    db.execute("INSERT INTO seats SELECT ?, seat, token || ?, invited, claimed FROM seats "
               "WHERE match_id = ?", (copy, copy, source))
    db.execute("INSERT INTO moves SELECT ?, idx, seat, text, several, at FROM moves "
               "WHERE match_id = ?", (copy, source))


DAMAGED: dict[str, dict[str, object]] = {
    "badoptions": {"options": "{not json"},
    "listoptions": {"options": "[1, 2]"},
    "badplayers": {"players": "[1, 2]"},
    "cutplayers": {"players": '[{"name": "Ann", "kind": "human"'},
    "badseed": {"seed": "abc"},
    "baddice": {"dice": 5},
    "badmove": {},  # its second move row is damaged below
    "unknowngame": {"game": "chess"},
}


@pytest.mark.process
def test_damaged_rows_are_409_for_their_match_only_and_left_out_of_the_lobby(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    running = Server(db).start()
    try:
        players = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human",
                                                      "invited": True}]
        good = running.post("/api/matches", {"game": "extra-meters", "players": players,
                                             "dice": "manual", "open": True})
        ann = good["seats"][0]["token"]
        running.post(f"/api/matches/{good['id']}/dice", {"token": ann, "dice": "4"})
        running.post(f"/api/matches/{good['id']}/actions", {"token": ann, "move": "roll"})
        running.stop()
        with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as writer:
            for copy, changes in DAMAGED.items():
                copy_match(writer, good["id"], copy, **changes)
            writer.execute("UPDATE moves SET seat = 'x' WHERE match_id = 'badmove' AND idx = 1")
        running.start()
        for copy in DAMAGED:
            for path in (f"/api/matches/{copy}", f"/api/matches/{copy}/record",
                         f"/api/matches/{copy}/states/0"):
                status, error = running.call("GET", path)
                assert status == 409, (path, status, error)
                assert error["error"] in ("damaged_match", "unplayable_match"), error
            status, error = running.call("POST", f"/api/tables/{copy}/join", {"name": "Cy"})
            assert status == 409, (copy, status, error)
            with connect(f"{running.ws_url}/ws/matches/{copy}", open_timeout=10) as socket:
                answer = json.loads(socket.recv(timeout=10))
                assert (answer["type"], answer["status"]) == ("error", 409), answer
        assert running.call("GET", "/api/matches/badseed")[1]["error"] == "damaged_match"
        assert "seed" in running.call("GET", "/api/matches/badseed")[1]["message"]
        # the lobby lists the good table only; the good match plays on
        tables = running.get("/api/tables")["tables"]
        assert [table["id"] for table in tables] == [good["id"]]
        assert running.get(f"/api/matches/{good['id']}")["version"] == 2
        joined = running.post(f"/api/tables/{good['id']}/join", {"name": "Cy"})
        assert joined["seat"] == 1
    finally:
        running.stop()
