"""Reaching into a test's store directly, whichever it is: a SQLite file or a PostgreSQL
database (``--db`` as :class:`~web.client.AppClient` and :class:`~web.server.Server` take
it). For tests that age a row or read what the server keeps to itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Collection
from pathlib import Path
from typing import Any

from dicegames.web.migrations import LEGACY_COLUMNS, MIGRATIONS
from dicegames.web.stores import is_postgres, sqlite_path


def execute(target: Path | str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement (``?`` placeholders) on the store ``target``, committed; the rows
    it returns (none for a statement that returns none)."""
    if is_postgres(target):
        import psycopg

        with psycopg.connect(str(target), autocommit=True) as connection:
            cursor = connection.execute(sql.replace("?", "%s").encode(), params)
            return cursor.fetchall() if cursor.description is not None else []
    with contextlib.closing(sqlite3.connect(sqlite_path(target), isolation_level=None)) as db:
        return db.execute(sql, params).fetchall()


def legacy_sqlite(path: Path, without: Collection[str] = ()) -> None:
    """Make ``path`` a SQLite file as a release before versioned migrations left it:
    migration 1's tables (``MIGRATIONS[0]``, the only source of the schema), without the
    ``schema_version`` table and the lobby's index those releases lacked, and without the
    ``without`` columns (some of :data:`~dicegames.web.migrations.LEGACY_COLUMNS`, those
    added after the release the test stands for)."""
    tables = dict((column, table) for table, column, _kind in LEGACY_COLUMNS)
    unknown = set(without) - tables.keys()
    assert not unknown, f"{sorted(unknown)} were in every release"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        for statement in MIGRATIONS[0].sqlite:
            if statement.startswith("CREATE TABLE"):
                db.execute(statement)
        for column in without:
            db.execute(f"ALTER TABLE {tables[column]} DROP COLUMN {column}")
