"""Reaching into a test's store directly, whichever it is: a SQLite file or a PostgreSQL
database (``--db`` as :class:`~web.client.AppClient` and :class:`~web.server.Server` take
it). For tests that age a row or read what the server keeps to itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

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
