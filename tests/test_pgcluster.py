"""The PostgreSQL test fixture (tests/pgcluster.py): a real server, fresh databases that
don't share tables, templates copied, and the skip-or-fail rule when PostgreSQL is missing."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from pgcluster import PgServer, Unavailable, find_programs, in_ci, open_server, unavailable


def test_fresh_databases_are_separate(pg_server: PgServer) -> None:
    first, second = pg_server.create_database(), pg_server.create_database()
    try:
        with psycopg.connect(first, autocommit=True) as connection:
            connection.execute("CREATE TABLE t (x integer)")
            connection.execute("INSERT INTO t VALUES (1)")
        with psycopg.connect(second, autocommit=True) as connection:
            row = connection.execute("SELECT to_regclass('t') IS NULL").fetchone()
            assert row == (True,)
    finally:
        pg_server.drop_database(first)
        pg_server.drop_database(second)


def test_the_server_listens_on_loopback(pg_dsn: str) -> None:
    with psycopg.connect(pg_dsn) as connection:
        row = connection.execute(
            "SELECT inet_server_addr()::text, current_setting('server_encoding')").fetchone()
    assert row is not None
    assert row[0] in ("127.0.0.1/32", "::1/128")
    assert row[1] == "UTF8"


def test_a_template_is_copied(pg_server: PgServer) -> None:
    def prepare(dsn: str) -> None:
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute("CREATE TABLE kept (word text)")
            connection.execute("INSERT INTO kept VALUES ('dice')")

    template = pg_server.template("test_pgcluster", prepare)
    assert pg_server.template("test_pgcluster", prepare) == template
    dsn = pg_server.create_database(template)
    try:
        with psycopg.connect(dsn) as connection:
            assert connection.execute("SELECT word FROM kept").fetchall() == [("dice",)]
    finally:
        pg_server.drop_database(dsn)


def test_a_database_left_connected_is_still_dropped(pg_server: PgServer) -> None:
    dsn = pg_server.create_database()
    left = psycopg.connect(dsn)
    pg_server.drop_database(dsn)
    with pytest.raises(psycopg.OperationalError):
        left.execute("SELECT 1")
    left.close()


def test_programs_are_found_in_debians_folders(tmp_path: Path) -> None:
    for version in ("13", "15"):
        folder = tmp_path / version / "bin"
        folder.mkdir(parents=True)
        (folder / "pg_ctl").touch()
        (folder / "initdb").touch()
    assert find_programs(path="", debian=tmp_path) == tmp_path / "15" / "bin"
    assert find_programs(path="", debian=tmp_path / "missing") is None


def test_missing_postgresql_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pgcluster.find_programs", lambda: None)
    with pytest.raises(Unavailable, match="initdb and pg_ctl were not found"):
        open_server({})
    with pytest.raises(Unavailable, match="must be a postgresql:// address"):
        open_server({"DICEGAMES_TEST_PG": "/tmp/nothing"})


def test_ci_fails_instead_of_skipping(monkeypatch: pytest.MonkeyPatch) -> None:
    assert in_ci({"CI": "true"})
    assert not in_ci({"CI": "false"})
    assert not in_ci({})
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="cannot run in CI: no server"):
        unavailable("no server")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match="skipped: no server"):
        unavailable("no server")


def test_an_existing_server_is_used_when_named(pg_server: PgServer) -> None:
    given = open_server({"DICEGAMES_TEST_PG": pg_server.admin_dsn})
    assert type(given) is PgServer and given.admin_dsn == pg_server.admin_dsn
    dsn = given.create_database()
    with psycopg.connect(dsn) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
    given.close()  # drops its own databases only
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        psycopg.connect(dsn).close()
    with psycopg.connect(pg_server.admin_dsn) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
