"""The stores' schema, as one versioned list of migrations run by both databases.

Each :class:`Migration` has a version (1, 2, ... in order), a name, and its statements for
SQLite and for PostgreSQL (the same tables and columns; the types differ only where the
dialects do: ``REAL`` / ``DOUBLE PRECISION``, ``INTEGER`` / ``BIGINT`` for seeds). The
``schema_version`` table holds one row per migration applied (version, name, when). Opening
a store applies, in one transaction, every migration the database lacks, and refuses
(:class:`SchemaTooNew`) a database that a newer dicegames migrated further than this code
knows: its tables may mean something this code would misread.

Migration 1 is written once for both (:data:`_FIRST`, spelled per :data:`DIALECTS`): the
two texts were near-copies, and a column added to one but not the other would go unseen.
Migration 2 is PostgreSQL's alone (:mod:`.cluster_schema`: triggers and PL/pgSQL, nothing
SQLite could share), and later ones are short enough to write out twice.

Migration 1 is the schema of the releases before versioned migrations. On SQLite it also
brings a file of any of those releases up to it: their tables exist, perhaps without the
columns added since (``position``, ``open``, ``finished``, ``invited``, ``claimed``,
``fair``, ``rematch``), which it adds (such a file's matches stay private and unlisted).

On PostgreSQL the transaction first takes an advisory lock (:data:`PG_LOCK`), so that
several server processes starting at once on one database migrate it once, one after the
other; PostgreSQL's DDL is transactional, so a migration that fails leaves nothing behind.
On SQLite the transaction is ``BEGIN IMMEDIATE`` (the write lock) for the same reason.

To change the schema, append a :class:`Migration` (never edit one that was released): its
SQLite and PostgreSQL statements, a test that a database at the previous version gets it.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dicegames.web.cluster_schema import SCHEMA as CLUSTER_SCHEMA

if TYPE_CHECKING:
    import psycopg


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema, for both databases (statements run in order)."""

    version: int
    name: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]


LEGACY = "-- legacy columns"
"""The pseudo-statement of SQLite's migration 1 that adds the :data:`LEGACY_COLUMNS` an
older file lacks (see :func:`_sqlite_statement`)."""

LEGACY_COLUMNS = (("matches", "position", "TEXT"),
                  ("matches", "open", "INTEGER NOT NULL DEFAULT 0"),
                  ("matches", "finished", "INTEGER NOT NULL DEFAULT 0"),
                  ("seats", "invited", "INTEGER NOT NULL DEFAULT 0"),
                  ("seats", "claimed", "INTEGER NOT NULL DEFAULT 0"),
                  ("matches", "fair", "TEXT"),
                  ("matches", "rematch", "TEXT"))
"""Columns added to the SQLite schema before migrations were versioned: migration 1 adds
those an older file lacks."""

_FIRST = (
    """CREATE TABLE {new}matches (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        players TEXT NOT NULL,
        seed {bigint},
        dice TEXT NOT NULL,
        created {real} NOT NULL,
        position TEXT,
        open INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        fair TEXT,
        rematch TEXT)""",
    """CREATE TABLE {new}seats (
        match_id TEXT NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        token TEXT NOT NULL UNIQUE,
        invited INTEGER NOT NULL DEFAULT 0,
        claimed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (match_id, seat))""",
    """CREATE TABLE {new}moves (
        match_id TEXT NOT NULL REFERENCES matches(id),
        idx INTEGER NOT NULL,
        seat INTEGER,
        text TEXT NOT NULL,
        several INTEGER NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (match_id, idx))""",
    LEGACY,
    "CREATE INDEX {new}matches_open ON matches(open, finished, created)",
)
"""Migration 1 written once for both databases: ``{new}``, ``{real}`` and ``{bigint}``
stand for what the dialects spell differently (:data:`DIALECTS`)."""

DIALECTS = {
    "sqlite": {"new": "IF NOT EXISTS ", "real": "REAL", "bigint": "INTEGER"},
    "postgres": {"new": "", "real": "DOUBLE PRECISION", "bigint": "BIGINT"},
}
"""How each database spells migration 1's placeholders. SQLite creates a table only where
missing (a file of the releases before migrations has them already); PostgreSQL, which no
such release used, creates them outright (a table already there is a database this code did
not make, and is refused). ``seed`` is a 64-bit integer: SQLite's ``INTEGER`` is one,
PostgreSQL's is 32 bits."""


def _spelled(statements: tuple[str, ...], dialect: str) -> tuple[str, ...]:
    """``statements`` in ``dialect`` (:data:`DIALECTS`); :data:`LEGACY` stays on SQLite
    only (a PostgreSQL database never had an older schema)."""
    spelling = DIALECTS[dialect]
    return tuple(statement.format(**spelling) for statement in statements
                 if statement != LEGACY or dialect == "sqlite")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "matches, seats and moves",
              sqlite=_spelled(_FIRST, "sqlite"), postgres=_spelled(_FIRST, "postgres")),
    Migration(
        2, "several processes: leases, shared limits, the moves' guard and notices",
        sqlite=(),  # one process serves a SQLite file: nothing to share
        postgres=(CLUSTER_SCHEMA,)),
)
"""Every migration, in order; ``MIGRATIONS[i].version == i + 1``."""

LATEST = len(MIGRATIONS)
"""The schema version this code writes and reads."""

TABLES = ("matches", "seats", "moves")
"""The stores' tables, parents first (the order to copy them in)."""

VERSION_TABLE = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
              "name TEXT NOT NULL, applied REAL NOT NULL)",
    "postgres": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied DOUBLE PRECISION NOT NULL)",
}
"""The table of the migrations applied."""

PG_LOCK = 0x646963656761
"""The advisory lock key (``dicega`` in ASCII) taken while a PostgreSQL database migrates."""


class SchemaTooNew(Exception):
    """The database was migrated by a newer dicegames than this one."""

    def __init__(self, found: int, known: int = LATEST) -> None:
        super().__init__(f"its schema is at version {found}, newer than this dicegames "
                         f"knows (version {known}): run the newer dicegames, or upgrade "
                         "this one")
        self.found = found
        self.known = known


def check(found: int, known: int = LATEST) -> None:
    """Refuse a schema newer than ``known``.

    Raises:
        SchemaTooNew: ``found > known``.
    """
    if found > known:
        raise SchemaTooNew(found, known)


def pending_reason(found: int, known: int = LATEST) -> str | None:
    """Why a database at version ``found`` is not ready for this code (None: it is)."""
    if found > known:
        return str(SchemaTooNew(found, known))
    if found < known:
        return f"its schema is at version {found}, not yet migrated to {known}"
    return None


# ---------------------------------------------------------------------------- SQLite


def sqlite_version(db: sqlite3.Connection) -> int:
    """The schema version of a SQLite database (0: no migration recorded)."""
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                        "AND name = 'schema_version'").fetchone()
    if exists is None:
        return 0
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


def migrate_sqlite(db: sqlite3.Connection,
                   migrations: tuple[Migration, ...] = MIGRATIONS) -> int:
    """Apply the migrations a SQLite database lacks, in one transaction (``db`` is in
    autocommit mode, no transaction open); the version it is at afterwards. A database
    already at the last version is only read.

    Raises:
        SchemaTooNew: the database is at a version past ``migrations``.
        sqlite3.Error: the database refused a statement (nothing was changed).
    """
    found = sqlite_version(db)  # up to date: no write lock taken (another may hold it)
    check(found, len(migrations))
    if found == len(migrations):
        return found
    db.execute("BEGIN IMMEDIATE")
    try:
        found = sqlite_version(db)
        check(found, len(migrations))
        if found < len(migrations):
            db.execute(VERSION_TABLE["sqlite"])
        for migration in migrations[found:]:
            for statement in migration.sqlite:
                _sqlite_statement(db, statement)
            db.execute("INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)",
                       (migration.version, migration.name, time.time()))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return max(found, len(migrations))


def _sqlite_statement(db: sqlite3.Connection, statement: str) -> None:
    """One statement of a SQLite migration; :data:`LEGACY` adds the
    :data:`LEGACY_COLUMNS` an older file lacks."""
    if statement != LEGACY:
        db.execute(statement)
        return
    for table, column, kind in LEGACY_COLUMNS:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


# ------------------------------------------------------------------------ PostgreSQL


def postgres_version(connection: psycopg.Connection[Any]) -> int:
    """The schema version of a PostgreSQL database (0: no migration recorded)."""
    row = connection.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return 0
    row = connection.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


def migrate_postgres(connection: psycopg.Connection[Any],
                     migrations: tuple[Migration, ...] = MIGRATIONS) -> int:
    """Apply the migrations a PostgreSQL database lacks, in one transaction under the
    advisory lock :data:`PG_LOCK`; the version it is at afterwards.

    Raises:
        SchemaTooNew: the database is at a version past ``migrations``.
        psycopg.Error: the database refused a statement (nothing was changed).
    """
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (PG_LOCK,))
        found = postgres_version(connection)
        check(found, len(migrations))
        if found < len(migrations):
            connection.execute(VERSION_TABLE["postgres"])
        for migration in migrations[found:]:
            for statement in migration.postgres:
                connection.execute(statement.encode())
            connection.execute(
                "INSERT INTO schema_version (version, name, applied) VALUES (%s, %s, %s)",
                (migration.version, migration.name, time.time()))
    return max(found, len(migrations))
