"""``dicegames db copy SRC DST``: every row of one store into another, SQLite to PostgreSQL
and back; ``dicegames db migrate TARGET``: bring a store's schema up to this code's.

A copy moves the three tables as they are stored (matches with their set-up, dice secrets,
lobby flags and rematch links; seats with their tokens and claims; every move with its
time), uploaded records included (they are matches whose dice are ``record``), column by
column, without decoding them: what the destination holds afterwards is what the source
held. Both sides are migrated to this code's schema first (:mod:`.migrations`); the source
must exist (a missing file is not created). The copy is one transaction on the
destination: it is all there, or (an error, Ctrl-C) none of it is. The destination must
hold no match, unless ``replace`` is given, in which case its matches are deleted first
(in the same transaction). Afterwards the rows of each table are counted on both sides.

Run it while no server writes to the source (stop the servers, or copy a backup): a move
made during the copy may be left out.

Synchronous (plain ``sqlite3`` and ``psycopg`` connections): it runs from the command line,
not on the server's event loop.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicegames.web.database import StoreOpenError, open_file
from dicegames.web.migrations import (
    TABLES,
    SchemaTooNew,
    migrate_postgres,
    migrate_sqlite,
)
from dicegames.web.stores import is_postgres, redact, sqlite_path

if TYPE_CHECKING:
    import psycopg

COLUMNS = {
    "matches": ("id", "game", "options", "players", "seed", "dice", "created", "position",
                "open", "finished", "fair", "rematch"),
    "seats": ("match_id", "seat", "token", "invited", "claimed"),
    "moves": ("match_id", "idx", "seat", "text", "several", "at"),
}
"""Every column of each table (as of the last migration), in the order copied."""

ORDER = {"matches": "id", "seats": "match_id, seat", "moves": "match_id, idx"}
"""Each table's key: rows are read in its order."""

BATCH = 2000
"""Rows read and written at a time."""


class CopyError(Exception):
    """The copy was refused or failed; nothing was written to the destination."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a copy moved: rows per table."""

    matches: int
    seats: int
    moves: int

    def __str__(self) -> str:
        return f"{self.matches} matches, {self.seats} seats, {self.moves} moves"


class _Side:
    """One store opened for copying (a SQLite file or a PostgreSQL database)."""

    shown: str
    """The store as it may be printed (no password)."""
    version: int = 0
    """The schema version it is at (after its migrations)."""

    def count(self, table: str) -> int:
        """Rows in ``table``."""
        raise NotImplementedError

    def rows(self, table: str) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of ``table`` (all :data:`COLUMNS`), in batches, in key order."""
        raise NotImplementedError

    def begin(self) -> None:
        """Start the destination's transaction."""
        raise NotImplementedError

    def clear(self) -> None:
        """Delete every row (children first), inside the transaction."""
        raise NotImplementedError

    def insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        """Insert rows into ``table``, inside the transaction."""
        raise NotImplementedError

    def commit(self) -> None:
        """Commit the transaction."""
        raise NotImplementedError

    def rollback(self) -> None:
        """Undo the transaction (when one is open)."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the connection."""
        raise NotImplementedError


class _Sqlite(_Side):
    def __init__(self, path: Path, *, create: bool) -> None:
        self.shown = str(path)
        if not create and not path.exists():
            raise StoreOpenError(f"cannot open the database {path}: there is no such file")

        def migrate(db: sqlite3.Connection) -> None:
            self.version = migrate_sqlite(db)

        try:
            self.db = open_file(path, migrate)
        except SchemaTooNew as error:
            raise StoreOpenError(f"cannot open the database {path}: {error}") from None

    def count(self, table: str) -> int:
        return int(self.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    def rows(self, table: str) -> Iterator[list[tuple[Any, ...]]]:
        cursor = self.db.execute(f"SELECT {', '.join(COLUMNS[table])} FROM {table} "
                                 f"ORDER BY {ORDER[table]}")
        while batch := cursor.fetchmany(BATCH):
            yield [tuple(row) for row in batch]

    def begin(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def clear(self) -> None:
        for table in reversed(TABLES):
            self.db.execute(f"DELETE FROM {table}")

    def insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        columns = COLUMNS[table]
        self.db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                            f"({', '.join('?' * len(columns))})", rows)

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def close(self) -> None:
        self.db.close()


class _Postgres(_Side):
    def __init__(self, url: str) -> None:
        import psycopg

        self.shown = redact(url)
        try:
            self.db: psycopg.Connection[tuple[Any, ...]] = psycopg.connect(
                url, autocommit=True, connect_timeout=10)
        except psycopg.Error as error:
            raise StoreOpenError(f"cannot use the database {self.shown}: "
                                 f"{str(error).strip().splitlines()[0]}") from None
        try:
            self.version = migrate_postgres(self.db)
        except SchemaTooNew as error:
            self.db.close()
            raise StoreOpenError(f"cannot use the database {self.shown}: {error}") from None

    def count(self, table: str) -> int:
        row = self.db.execute(f"SELECT count(*) FROM {table}".encode()).fetchone()
        return int(row[0]) if row is not None else 0

    def rows(self, table: str) -> Iterator[list[tuple[Any, ...]]]:
        with self.db.transaction(), self.db.cursor(name=f"copy_{table}") as cursor:
            cursor.execute(f"SELECT {', '.join(COLUMNS[table])} FROM {table} "
                           f"ORDER BY {ORDER[table]}".encode())
            while batch := cursor.fetchmany(BATCH):
                yield batch

    def begin(self) -> None:
        self.db.autocommit = False  # the next statement opens the transaction

    def clear(self) -> None:
        self.db.execute(f"TRUNCATE {', '.join(TABLES)}".encode())

    def insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        with self.db.cursor() as cursor, cursor.copy(
                f"COPY {table} ({', '.join(COLUMNS[table])}) FROM STDIN".encode()) as copy:
            for row in rows:
                copy.write_row(row)

    def commit(self) -> None:
        self.db.commit()
        self.db.autocommit = True

    def rollback(self) -> None:
        if not self.db.autocommit and not self.db.closed:
            self.db.rollback()
            self.db.autocommit = True

    def close(self) -> None:
        self.db.close()


def open_side(target: str | Path, *, create: bool) -> _Side:
    """A store opened for :func:`copy_store` (``create``: a missing SQLite file may be
    made).

    Raises:
        StoreOpenError: the target can't be used.
    """
    if is_postgres(target):
        try:
            import psycopg  # noqa: F401
        except ImportError as error:
            raise StoreOpenError(
                f"cannot use the database {redact(target)}: PostgreSQL needs psycopg 3 "
                f"({error}); install it with: pip install 'dicegames[postgres]'") from None
        return _Postgres(str(target))
    return _Sqlite(sqlite_path(target), create=create)


def migrate_store(target: str | Path) -> int:
    """Bring the store ``target`` to this code's schema (created when missing); the
    version it is at.

    Raises:
        StoreOpenError: the target can't be used (or is newer than this code).
    """
    side = open_side(target, create=True)
    try:
        return side.version
    finally:
        side.close()


def copy_store(source: str | Path, destination: str | Path, *,
               replace: bool = False) -> Copied:
    """Copy every row of ``source`` into ``destination`` (see the module's docstring).

    Raises:
        StoreOpenError: either store can't be used.
        CopyError: the destination holds matches (and ``replace`` is false), a row the
            destination refuses, counts that differ afterwards; nothing was written.
    """
    if str(source) == str(destination):
        raise CopyError("the source and the destination are the same store")
    src = open_side(source, create=False)
    try:
        dst = open_side(destination, create=True)
    except BaseException:
        src.close()
        raise
    try:
        return _copy(src, dst, replace)
    finally:
        src.close()
        dst.close()


def _copy(src: _Side, dst: _Side, replace: bool) -> Copied:
    """The copy proper, in one transaction on ``dst``."""
    held = dst.count("matches")
    if held and not replace:
        raise CopyError(f"{dst.shown} already holds {held} matches: copy into an empty "
                        "store, or pass --replace to delete them first")
    counts: dict[str, int] = {}
    dst.begin()
    try:
        if replace:
            dst.clear()
        for table in TABLES:
            counts[table] = 0
            for batch in src.rows(table):
                try:
                    dst.insert(table, batch)
                except Exception as error:
                    raise CopyError(
                        f"{dst.shown} refused a row of {table} (between {batch[0][:2]!r} and "
                        f"{batch[-1][:2]!r}): {str(error).strip().splitlines()[0]}; nothing "
                        "was copied") from None
                counts[table] += len(batch)
        for table in TABLES:
            if dst.count(table) != counts[table]:
                raise CopyError(f"{dst.shown} holds {dst.count(table)} rows of {table} "
                                f"after the copy, not {counts[table]}; nothing was copied")
        dst.commit()
    except BaseException:
        dst.rollback()
        raise
    return Copied(counts["matches"], counts["seats"], counts["moves"])
