"""The two stores (:mod:`dicegames.web.stores`: SQLite and PostgreSQL) behind one interface:
each test runs on both (``backend``). Rows in and out, the lobby's seats handed out once
among racing stores (as racing processes), damaged rows refused, readiness, a lock held
elsewhere answered StoreBusy; the migrations (:mod:`dicegames.web.migrations`): a file of
the releases before them upgraded in place, a later migration applied once, a newer schema
refused; and the sentences of a ``--db`` that can't be used."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import pytest

from dicegames.web.database import StoreOpenError
from dicegames.web.domain import DamagedMatch, StoreBusy
from dicegames.web.migrations import (
    MIGRATIONS,
    TABLES,
    Migration,
    SchemaTooNew,
    migrate_postgres,
    migrate_sqlite,
    pending_reason,
)
from dicegames.web.stored import StoredMatch
from dicegames.web.stores import MatchStore, is_postgres, open_store, redact
from pgcluster import PgServer, free_port
from web.stores import execute, legacy_sqlite

_T = TypeVar("_T")

PLAYERS = [{"name": "Ann", "kind": "human"}, {"name": "Player 2", "kind": "human"},
           {"name": "Player 3", "kind": "human"}]


def match(match_id: str = "m1", **changes: Any) -> StoredMatch:
    """A stored match of three seats (seats 1 and 2 invited), two moves played."""
    fields: dict[str, Any] = {
        "id": match_id, "game": "extra-meters", "options": {"track_length": 40},
        "players": PLAYERS, "seed": 2**63 - 1, "dice": "auto",
        "tokens": {0: f"{match_id}-t0", 1: f"{match_id}-t1", 2: f"{match_id}-t2"},
        "moves": [(None, "roll", False), (0, "stop", False)], "position": None,
        "open": True, "invited": frozenset({1, 2}), "fair": {"secret": "s", "n": 1},
        "rematch": None}
    fields.update(changes)
    return StoredMatch(**fields)


def run(target: Path | str, work: Callable[[MatchStore], Awaitable[_T]]) -> _T:
    """``work(store)`` on the store ``target`` opened, then closed."""
    async def go() -> _T:
        store = open_store(target)
        await store.open()
        try:
            return await work(store)
        finally:
            await store.aclose()

    return asyncio.run(go())


def test_a_match_reads_back_as_written(fresh_target: Path | str) -> None:
    async def work(store: MatchStore) -> None:
        written = match()
        await store.create(written)
        assert await store.load("m1") == written
        assert await store.load("nothing") is None
        await store.add_move("m1", 2, 0, "roll", True)
        loaded = await store.load("m1")
        assert loaded is not None and loaded.moves[2] == (0, "roll", True)
        await store.remove_move("m1", 2)
        assert await store.load("m1") == written
        assert await store.set_rematch("m1", "m2") == "m2"
        assert await store.set_rematch("m1", "m3") == "m2"  # the first one stays
        loaded = await store.load("m1")
        assert loaded is not None and loaded.rematch == "m2"
        assert await store.ready() is None

    run(fresh_target, work)


def test_the_lobby_hands_each_seat_out_once(fresh_target: Path | str) -> None:
    async def work(store: MatchStore) -> None:
        await store.create(match())
        await store.create(match("private", open=False))
        assert await store.is_open("m1") and not await store.is_open("private")
        assert not await store.is_open("nothing")
        (table,) = await store.tables(10, since=0)
        assert (table.id, table.free, table.invited) == ("m1", frozenset({1, 2}), frozenset({1, 2}))
        assert await store.take_seat("m1", "Cleo") == (1, "m1-t1")
        await store.claim("m1", (2,))  # seat 2's link was used
        assert await store.take_seat("m1", "Dan") is None
        assert await store.tables(10, since=0) == []
        loaded = await store.load("m1")
        assert loaded is not None and loaded.players[1]["name"] == "Cleo"

    run(fresh_target, work)


def test_a_finished_match_leaves_the_lobby(fresh_target: Path | str) -> None:
    async def work(store: MatchStore) -> None:
        await store.create(match())
        assert len(await store.tables(10, since=0)) == 1
        await store.add_move("m1", 2, 0, "roll", False, finished=True)
        assert await store.tables(10, since=0) == []

    run(fresh_target, work)


def test_racing_stores_hand_a_seat_out_once(fresh_target: Path | str) -> None:
    """Two stores on one database (as two server processes), eight people asking at once
    for two seats: two get one each, different ones."""
    run(fresh_target, lambda store: store.create(match()))

    async def race() -> list[tuple[int, str] | None]:
        stores = [open_store(fresh_target), open_store(fresh_target)]
        for store in stores:
            await store.open()
        try:
            return list(await asyncio.gather(*(
                stores[n % 2].take_seat("m1", f"P{n}") for n in range(8))))
        finally:
            for store in stores:
                await store.aclose()

    taken = [seat for seat in asyncio.run(race()) if seat is not None]
    assert sorted(taken) == [(1, "m1-t1"), (2, "m1-t2")]


def test_a_damaged_row_is_refused_and_left_out_of_the_lobby(fresh_target: Path | str) -> None:
    run(fresh_target, lambda store: store.create(match()))
    execute(fresh_target, "UPDATE matches SET players = ? WHERE id = ?", ("[not json", "m1"))

    async def work(store: MatchStore) -> None:
        with pytest.raises(DamagedMatch, match="its players are"):
            await store.load("m1")
        assert await store.tables(10, since=0) == []

    run(fresh_target, work)


def test_a_gap_in_the_moves_is_refused_and_left_out_of_the_lobby(
        fresh_target: Path | str) -> None:
    run(fresh_target, lambda store: store.create(match()))
    if is_postgres(fresh_target):  # the moves' guard (cluster_schema) refuses such a gap
        execute(fresh_target, "ALTER TABLE moves DISABLE TRIGGER moves_guard")
    execute(fresh_target, "DELETE FROM moves WHERE match_id = ? AND idx = 0", ("m1",))
    if is_postgres(fresh_target):
        execute(fresh_target, "ALTER TABLE moves ENABLE TRIGGER moves_guard")

    async def work(store: MatchStore) -> None:
        with pytest.raises(DamagedMatch, match="not move 0"):
            await store.load("m1")
        assert await store.tables(10, since=0) == []
        await store.create(match("m2"))
        assert [table.id for table in await store.tables(10, since=0)] == ["m2"]

    run(fresh_target, work)


def test_a_schema_newer_than_the_code_is_refused(fresh_target: Path | str) -> None:
    run(fresh_target, lambda store: store.create(match()))
    execute(fresh_target, "INSERT INTO schema_version (version, name, applied) "
                          "VALUES (?, 'from the future', 0)", (len(MIGRATIONS) + 1,))
    with pytest.raises(StoreOpenError, match="newer than this dicegames knows"):
        open_store(fresh_target)
    done = subprocess.run([sys.executable, "-m", "dicegames", "serve", "--port", "0", "--db",
                           str(fresh_target)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2 and "newer than this dicegames" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_readiness_says_why(fresh_target: Path | str) -> None:
    async def work(store: MatchStore) -> str | None:
        assert await store.ready() is None
        execute(fresh_target, "INSERT INTO schema_version (version, name, applied) "
                              "VALUES (?, 'from the future', 0)", (len(MIGRATIONS) + 1,))
        return await store.ready()

    reason = run(fresh_target, work)
    assert reason is not None and "newer than this dicegames" in reason
    assert pending_reason(0) == f"its schema is at version 0, not yet migrated to " \
                                f"{len(MIGRATIONS)}"


def test_a_lock_held_elsewhere_is_store_busy(fresh_target: Path | str) -> None:
    """Another process holds the match's row (PostgreSQL) or the file's write lock
    (SQLite) past the wait: the move is refused with StoreBusy, nothing changed."""
    run(fresh_target, lambda store: store.create(match()))
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        if is_postgres(fresh_target):
            with psycopg.connect(str(fresh_target)) as other:
                other.execute("SELECT 1 FROM matches WHERE id = 'm1' FOR UPDATE")
                other.execute("LOCK TABLE moves IN EXCLUSIVE MODE")
                holding.set()
                release.wait(30)
        else:
            writer = sqlite3.connect(fresh_target, isolation_level=None)
            writer.execute("BEGIN IMMEDIATE")
            holding.set()
            release.wait(30)
            writer.execute("ROLLBACK")
            writer.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(30)

        async def work(store: MatchStore) -> None:
            with pytest.raises(StoreBusy, match="nothing was changed"):
                await store.add_move("m1", 2, 0, "roll", False)

        run(fresh_target, work)
    finally:
        release.set()
        holder.join()
    assert execute(fresh_target, "SELECT count(*) FROM moves") == [(2,)]


# ------------------------------------------------------------------------ migrations

LATER = Migration(len(MIGRATIONS) + 1, "a later column",
                  sqlite=("ALTER TABLE matches ADD COLUMN later TEXT",),
                  postgres=("ALTER TABLE matches ADD COLUMN later TEXT",))


def test_a_later_migration_is_applied_once(fresh_target: Path | str) -> None:
    run(fresh_target, lambda store: store.create(match()))
    more = (*MIGRATIONS, LATER)
    # Four processes starting at once: each ends at the last version, it was applied once.
    versions: list[int] = []
    threads = [threading.Thread(target=lambda: versions.append(_migrate_with(fresh_target, more)))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert versions == [len(more)] * 4
    assert execute(fresh_target, "SELECT version FROM schema_version ORDER BY version") == [
        (v,) for v in range(1, len(more) + 1)]
    assert execute(fresh_target, "SELECT id, later FROM matches") == [("m1", None)]
    with pytest.raises(StoreOpenError, match="newer than this dicegames"):
        open_store(fresh_target)  # the code of before refuses it
    with pytest.raises(SchemaTooNew, match=rf"at version {len(more)}, newer .* knows "
                                           rf"\(version {len(MIGRATIONS)}\)"):
        _migrate_with(fresh_target, MIGRATIONS)


def _migrate_with(target: Path | str, migrations: tuple[Migration, ...]) -> int:
    if is_postgres(target):
        with psycopg.connect(str(target), autocommit=True) as connection:
            return migrate_postgres(connection, migrations)
    db = sqlite3.connect(target, isolation_level=None, timeout=30)
    try:
        return migrate_sqlite(db, migrations)
    finally:
        db.close()


def test_both_databases_get_the_same_columns(tmp_path: Path, pg_dsn: str) -> None:
    """Migration 1 is written once for both: each table has the same columns, in the same
    order, as nullable and with the same defaults, in a SQLite file and in PostgreSQL."""
    path = tmp_path / "new.sqlite3"
    _migrate_with(path, MIGRATIONS)
    _migrate_with(pg_dsn, MIGRATIONS)
    for table in TABLES:
        in_sqlite = [(name, bool(notnull or key), default)  # a key: never NULL in PostgreSQL
                     for _, name, _, notnull, default, key
                     in execute(path, f"PRAGMA table_info({table})")]
        in_postgres = [(name, nullable == "NO", default) for name, nullable, default in execute(
            pg_dsn, "SELECT column_name, is_nullable, column_default FROM "
                    "information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
            (table,))]
        assert in_sqlite == in_postgres, table


def test_a_file_of_the_releases_before_migrations_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    legacy_sqlite(path, without=("rematch",))  # as the previous release left it
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO matches (id, game, options, players, seed, dice, created) "
                   "VALUES ('old', 'extra-meters', '{}', ?, 5, 'auto', 1.0)",
                   ('[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]',))
        db.execute("INSERT INTO seats (match_id, seat, token) VALUES ('old', 0, 'tok')")
        db.execute("INSERT INTO moves (match_id, idx, seat, text, several, at) "
                   "VALUES ('old', 0, NULL, 'roll', 0, 1.0)")

    async def work(store: MatchStore) -> StoredMatch | None:
        return await store.load("old")

    loaded = run(path, work)
    assert loaded is not None and loaded.moves == [(None, "roll", False)]
    assert loaded.rematch is None and loaded.tokens == {0: "tok"}
    assert execute(path, "SELECT version, name FROM schema_version ORDER BY version") == [
        (step.version, step.name) for step in MIGRATIONS]


# ------------------------------------------------------------- --db that can't be used


def test_a_db_that_cannot_be_used_says_why(tmp_path: Path, pg_server: PgServer,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(StoreOpenError, match="--db takes a file path, sqlite:///path or "):
        open_store("mysql://ann:secret@host/db")
    with pytest.raises(StoreOpenError, match="not a host"):
        open_store("sqlite://host/file")
    port = free_port()
    with pytest.raises(StoreOpenError, match=r"postgresql://ann:\*\*\*@127.0.0.1:\d+/x: "
                                             r"connection failed") as refused:
        open_store(f"postgresql://ann:secret@127.0.0.1:{port}/x")
    assert "secret" not in str(refused.value)
    with pytest.raises(StoreOpenError, match="not a usable PostgreSQL address"):
        open_store("postgresql://127.0.0.1/x?nosuchoption=1")
    with pytest.raises(StoreOpenError, match=r'database "nosuchdb" does not exist'):
        open_store(pg_server.dsn("nosuchdb"))
    monkeypatch.setitem(sys.modules, "dicegames.web.store_pg", None)  # psycopg missing
    with pytest.raises(StoreOpenError, match=r"needs psycopg 3 .*pip install "
                                             r"'dicegames\[postgres\]'"):
        open_store(pg_server.dsn("postgres"))
    assert redact("postgresql://ann:pw@h:5/db") == "postgresql://ann:***@h:5/db"
    assert open_store(f"sqlite:///{tmp_path}/f.sqlite3") is not None


def test_the_pools_connections_keep_the_addresss_options() -> None:
    from dicegames.web.store_pg import session_options

    assert session_options("postgresql://u@h/db") == (
        "-c lock_timeout=2000 -c statement_timeout=10000")
    assert session_options("postgresql://u@h/db?options=-c%20search_path%3Dgames") == (
        "-c search_path=games -c lock_timeout=2000 -c statement_timeout=10000")


def test_connections_the_server_dropped_answer_busy_once_then_work(
        pg_server: PgServer) -> None:
    """PostgreSQL restarted, or an administrator ended the sessions: a call on a dropped
    connection is StoreBusy (503, nothing changed), and the pool replaces the connection."""
    from web.conftest import schema_template

    dsn = pg_server.create_database(schema_template(pg_server))

    async def work(store: MatchStore) -> None:
        await store.create(match())
        name = dsn.rsplit("/", 1)[1]
        execute(dsn, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = ? AND pid <> pg_backend_pid()", (name,))
        outcomes = []
        for _ in range(4):  # each of the pool's dropped connections fails once at most
            try:
                outcomes.append(await store.load("m1") == match())
            except StoreBusy:
                outcomes.append(False)
        assert outcomes[-1] is True
        assert await store.load("m1") == match()

    try:
        run(dsn, work)
    finally:
        pg_server.drop_database(dsn)
