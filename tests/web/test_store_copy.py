"""``dicegames db copy`` (:mod:`dicegames.web.store_copy`): a SQLite store into PostgreSQL
and back, nothing lost (every row of every table the same, every match replaying to the
same state), a non-empty destination refused unless ``--replace``, a row PostgreSQL
refuses leaving the destination untouched; and ``dicegames db migrate``."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dicegames.web.migrations import LATEST
from dicegames.web.store_copy import COLUMNS, ORDER
from pgcluster import PgServer
from web.client import AppClient
from web.games import game_ids, lacks
from web.stores import execute

pytestmark = pytest.mark.process

PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def dicegames(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command in a subprocess (the tests' PYTHONPATH: this checkout)."""
    return subprocess.run([sys.executable, "-m", "dicegames", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def rows(target: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a store, in key order."""
    return {table: execute(target, f"SELECT {', '.join(columns)} FROM {table} "
                                   f"ORDER BY {ORDER[table]}")
            for table, columns in COLUMNS.items()}


def finished(client: AppClient, match_id: str) -> None:
    for _ in range(400):
        if client.get(f"/api/matches/{match_id}")["status"] == "finished":
            return
        time.sleep(0.02)
    raise AssertionError(f"match {match_id} never finished")


def fill(client: AppClient) -> list[str]:
    """A store with one of everything: a finished bot match of every game with bots, a
    manual-dice match with an undone move, an open table with one seat joined and one
    free, an uploaded record and a rematch link. The match ids."""
    made = []
    for game_id in game_ids():
        if lacks(game_id, "bots"):
            continue
        match = client.post("/api/matches", {"game": game_id, "seed": 11, "players": [
            {"name": "A", "kind": "bot:easy"}, {"name": "B", "kind": "bot:easy"}]})
        finished(client, match["id"])
        made.append(match["id"])
    manual = client.post("/api/matches", {"game": "extra-meters", "players": PEOPLE,
                                          "seed": 7, "dice": "manual"})
    ann, ben = (seat["token"] for seat in manual["seats"])
    mid = manual["id"]
    client.post(f"/api/matches/{mid}/dice", {"token": ben, "dice": "2"})
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "stop"})
    client.post(f"/api/matches/{mid}/undo", {"token": ann})
    client.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "roll"})
    made.append(mid)
    invited = {"name": "Player", "kind": "human", "invited": True}
    table = client.post("/api/matches", {"game": "extra-meters", "open": True,
                                         "players": [PEOPLE[0], invited, invited]})
    assert client.call("POST", f"/api/tables/{table['id']}/join", {"name": "Cleo"})[0] == 200
    made.append(table["id"])
    record = client.get(f"/api/matches/{made[0]}/record")
    made.append(client.post("/api/replays", record)["id"])
    execute(client.db, "UPDATE matches SET rematch = ? WHERE id = ?", (mid, made[0]))
    return made


def seen(client: AppClient, ids: list[str]) -> dict[str, Any]:
    """What anyone reads of each match: its state and its record (but the record's
    ``saved``, the time it was downloaded)."""
    return {mid: (client.get(f"/api/matches/{mid}"),
                  {key: value for key, value in client.get(f"/api/matches/{mid}/record").items()
                   if key != "saved"})
            for mid in ids}


def test_sqlite_to_postgresql_and_back_loses_nothing(tmp_path: Path, pg_server: PgServer
                                                     ) -> None:
    source = tmp_path / "games.sqlite3"
    with AppClient(source) as client:
        ids = fill(client)
    with AppClient(source) as client:  # as a restarted server reads them
        before = seen(client, ids)
    original = rows(source)
    assert len(original["matches"]) == len(ids) and original["moves"] and original["seats"]

    dsn = pg_server.create_database()
    there = dicegames("db", "copy", str(source), dsn)
    assert there.returncode == 0, there.stderr
    counts = (f"{len(ids)} matches, {len(original['seats'])} seats, "
              f"{len(original['moves'])} moves")
    assert there.stdout.strip() == f"copied {counts} from {source} to {dsn}"
    back_file = tmp_path / "back.sqlite3"
    back = dicegames("db", "copy", dsn, f"sqlite:///{back_file}")
    assert back.returncode == 0, back.stderr
    assert counts in back.stdout

    assert rows(dsn) == original
    assert rows(back_file) == original
    for target in (dsn, back_file):
        with AppClient(target) as client:
            assert seen(client, ids) == before
    pg_server.drop_database(dsn)


def test_a_store_with_matches_is_not_copied_into_unless_replaced(tmp_path: Path) -> None:
    source, other = tmp_path / "one.sqlite3", tmp_path / "two.sqlite3"
    with AppClient(source) as client:
        first = client.post("/api/matches", {"game": "extra-meters", "players": PEOPLE})
    with AppClient(other) as client:
        client.post("/api/matches", {"game": "extra-meters", "players": PEOPLE})
    refused = dicegames("db", "copy", str(source), str(other))
    assert refused.returncode == 1
    assert "already holds 1 matches" in refused.stderr and "--replace" in refused.stderr
    replaced = dicegames("db", "copy", str(source), str(other), "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert rows(other) == rows(source)
    assert execute(other, "SELECT id FROM matches") == [(first["id"],)]


def test_a_row_postgresql_refuses_copies_nothing(tmp_path: Path, pg_server: PgServer) -> None:
    source = tmp_path / "games.sqlite3"
    with AppClient(source) as client:
        for _ in range(3):
            client.post("/api/matches", {"game": "extra-meters", "players": PEOPLE})
    # SQLite keeps whatever it is given: a seed that is text (a damaged row).
    execute(source, "UPDATE matches SET seed = 'seven' WHERE rowid = 2")
    dsn = pg_server.create_database()
    done = dicegames("db", "copy", str(source), dsn)
    assert done.returncode == 1
    assert "refused a row of matches" in done.stderr and "nothing was copied" in done.stderr
    assert execute(dsn, "SELECT count(*) FROM matches") == [(0,)]
    pg_server.drop_database(dsn)


def test_copy_and_migrate_refuse_what_they_cannot_use(tmp_path: Path) -> None:
    missing = dicegames("db", "copy", str(tmp_path / "none.sqlite3"), str(tmp_path / "b"))
    assert missing.returncode == 2 and "there is no such file" in missing.stderr
    assert not (tmp_path / "b").exists()
    same = dicegames("db", "copy", str(tmp_path / "a"), str(tmp_path / "a"))
    assert same.returncode == 1 and "the same store" in same.stderr
    wrong = dicegames("db", "migrate", "mysql://u:secret@host/db")
    assert wrong.returncode == 2 and "secret" not in wrong.stderr
    assert "postgresql://user@host/database" in wrong.stderr
    made = dicegames("db", "migrate", str(tmp_path / "new.sqlite3"))
    assert made.returncode == 0 and made.stdout.strip().endswith(f"schema at version {LATEST}")


DATA = Path(__file__).resolve().parent / "data"


def test_a_store_made_by_the_release_before_migrations_reads_the_same(
        tmp_path: Path, pg_server: PgServer) -> None:
    """``data/store_abd782b.sql`` is the dump of a store that the code of abd782b (the
    release before versioned migrations) made through its own server: a finished bot match,
    a manual-dice match under way, an open table with one seat joined, an uploaded record.
    ``data/store_abd782b.json`` is what that server answered for them after a restart. This
    code upgrades the file in place and answers the same; copied into PostgreSQL, too."""
    old = tmp_path / "old.sqlite3"
    with sqlite3.connect(old) as db:
        db.executescript((DATA / "store_abd782b.sql").read_text(encoding="utf-8"))
        db.execute("UPDATE matches SET created = ?", (time.time(),))  # the lobby shows a day
    expected = json.loads((DATA / "store_abd782b.json").read_text(encoding="utf-8"))
    dsn = pg_server.create_database()
    for target in (old, dsn):
        if target == dsn:
            done = dicegames("db", "copy", str(old), dsn)
            assert done.returncode == 0, done.stderr
        with AppClient(target) as client:
            for name in ("bots", "manual", "table", "upload"):
                mid = expected[name]["id"]
                assert client.get(f"/api/matches/{mid}")["status"] == expected[name]["status"]
                record = client.get(f"/api/matches/{mid}/record")
                record.pop("saved")
                assert record == expected[name]["record"], name
            assert [t["id"] for t in client.get("/api/tables")["tables"]] == expected["tables"]
        assert execute(target, "SELECT version FROM schema_version ORDER BY version") == [
            (version,) for version in range(1, LATEST + 1)]
    pg_server.drop_database(dsn)
