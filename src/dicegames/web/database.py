"""The SQLite file under the web app: opened and checked once, then used off the event loop.

:func:`open_file` opens the file at start-up and refuses, with one sentence naming the file
and what is wrong with it (:class:`DatabaseFileError`), a folder, an unreadable file, a file
that is not a SQLite database and a damaged (e.g. truncated) one.

:class:`DatabaseThread` owns one connection and runs every statement on it in its own
thread, so the event loop never waits for the disk or for a lock another process holds: an
``async`` call hands the work over and awaits it. Each call may wait for another process's
lock at most :data:`WAIT` seconds from when it was asked (a call queued behind a slow one
does not wait that long again); past that it fails with
:class:`~dicegames.web.domain.StoreBusy` (a 503 answer with ``Retry-After``), and nothing
was changed.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from dicegames.web.domain import StoreBusy

WAIT = 2.0
"""Seconds a database call may wait for a lock held by another connection (counted from
when it was asked), before it gives up with :class:`StoreBusy`."""

OPEN_WAIT = 10.0
"""Seconds opening the file at start-up may wait for another process's lock."""

RETRY_AFTER = 1
"""The ``Retry-After`` (seconds) of a :class:`StoreBusy` answer."""

_T = TypeVar("_T")


class StoreOpenError(Exception):
    """The store cannot be used at all (a file, a server, an address): the message names it
    and says why. ``dicegames serve`` and ``dicegames db`` print it on one line, exit 2."""


class DatabaseFileError(StoreOpenError):
    """The database file cannot be used at all: the message names it and says why."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot open the database {path}: {reason}")
        self.path = path
        self.reason = reason


def store_busy(error: Exception) -> StoreBusy:
    """The refusal of a call that could not use the database in time (answered 503
    ``store_busy`` with ``Retry-After``): nothing was changed, the request may be sent
    again."""
    return StoreBusy(f"the database cannot be used now ({error}); nothing was changed: "
                     f"try again in {RETRY_AFTER} s", retry_after=RETRY_AFTER)


def open_file(path: Path, setup: Callable[[sqlite3.Connection], None]) -> sqlite3.Connection:
    """Open (or create) the database file, run ``setup`` on it (the schema), check it.

    The connection is in autocommit mode (transactions are explicit), WAL journal,
    ``synchronous=NORMAL``, foreign keys on, and may be handed to another thread.

    Raises:
        DatabaseFileError: a folder, a file this user cannot read and write, a file that is
            not a SQLite database, a damaged one (``PRAGMA quick_check``), a folder that
            cannot be made, or a lock that was not released within :data:`OPEN_WAIT`.
    """
    if path.is_dir():
        raise DatabaseFileError(path, "it is a folder, not a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseFileError(path, f"its folder cannot be made "
                                f"({error.strerror or error})") from None
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseFileError(path, "this user may not read and write it (permission "
                                "denied)")
    db: sqlite3.Connection | None = None
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                             timeout=OPEN_WAIT)
        db.text_factory = _text  # text another program stored may not be UTF-8
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        setup(db)
        problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise DatabaseFileError(path, f"it is damaged ({'; '.join(map(str, problems))})")
    except sqlite3.Error as error:
        if db is not None:
            db.close()
        raise DatabaseFileError(path, _reason(error)) from None
    except DatabaseFileError:
        if db is not None:
            db.close()
        raise
    return db


def connect(path: Path) -> sqlite3.Connection:
    """One more connection to a file :func:`open_file` opened (for reading beside it)."""
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                             timeout=WAIT)
    except sqlite3.Error as error:
        raise DatabaseFileError(path, _reason(error)) from None
    db.text_factory = _text
    return db


def _text(data: bytes) -> str:
    """A stored text value: UTF-8, with any invalid bytes (written by another program) shown
    as U+FFFD rather than failing the whole read."""
    return data.decode("utf-8", "replace")


def _reason(error: sqlite3.Error) -> str:
    """What a SQLite error says about the file, for a person."""
    text = str(error)
    if "not a database" in text:
        return f"it is not a SQLite database ({text})"
    if "malformed" in text or "corrupt" in text:
        return f"it is damaged ({text})"
    if "locked" in text or "busy" in text:
        return f"another program holds it locked ({text})"
    if "unable to open" in text:
        return f"it cannot be opened ({text})"
    return f"SQLite refuses it ({text})"


class DatabaseThread:
    """One connection, used only from one thread of its own; ``await run(work)`` runs
    ``work(connection)`` there.

    Calls run one at a time, in the order asked (so writes stay serialised, and a write is
    committed when its call returns). A :class:`sqlite3.Error` raised by ``work`` becomes
    :class:`StoreBusy`; other exceptions pass through unchanged.
    """

    def __init__(self, db: sqlite3.Connection, name: str) -> None:
        self._db = db
        self._pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self._wait_ms: int | None = None

    async def run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """``work(connection)`` in the database thread; waits at most :data:`WAIT`
        seconds, from now, for another process's lock.

        Raises:
            StoreBusy: ``work`` raised a :class:`sqlite3.Error` (a lock held too long...).
        """
        deadline = time.monotonic() + WAIT
        try:
            future = self._pool.submit(self._call, work, deadline)
        except RuntimeError:  # closed: the server is stopping (a driver may still ask)
            raise store_busy(sqlite3.OperationalError("the server is stopping")) from None
        return await asyncio.wrap_future(future)

    def _call(self, work: Callable[[sqlite3.Connection], _T], deadline: float) -> _T:
        wait_ms = max(0, round((deadline - time.monotonic()) * 1000))
        try:
            if self._db.in_transaction:  # left open by a call that failed half-way
                self._db.execute("ROLLBACK")
            if wait_ms != self._wait_ms:
                self._db.execute(f"PRAGMA busy_timeout = {wait_ms}")
                self._wait_ms = wait_ms
            return work(self._db)
        except sqlite3.Error as error:
            raise store_busy(error) from error

    def close(self) -> None:
        """Finish the calls already asked for, then close the connection."""
        self._pool.submit(self._db.close).result()
        self._pool.shutdown(wait=True)
