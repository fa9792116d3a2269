"""SQLite storage of the web app: matches, seats and every move, committed before the ack.

One row per match (game, options, players, seed, dice mode, the position it started from, the
dice's secret and commitment), one
row per seat (its secret token) and one row per move in notation. A match is rebuilt by
replaying its moves through the rules, so the database holds nothing the engine cannot check.
The file runs in WAL mode with ``synchronous=NORMAL``: a committed move survives the server
being killed (``kill -9``) at any moment, because the commit is in the operating system's hands
before the ack is sent.

The event loop never touches the file: every method is a coroutine whose statements run in
a database thread (:mod:`dicegames.web.database`). Writes go through one thread and one
connection, one after the other, each committed before its method returns; reads (loading a
match, the lobby) go through a second connection in a second thread, so that in WAL mode
they go on while another process holds the file locked for writing. A write that cannot be
done within :data:`~dicegames.web.database.WAIT` seconds raises
:class:`~dicegames.web.domain.StoreBusy` (503) and changes nothing.

A damaged row (options or players that are not the JSON the app writes, a seed that is not
a whole number, a move row of the wrong types...) is refused as 409 ``damaged_match`` when
its match is loaded, and left out of the lobby; the other matches are not concerned.

Open tables (the lobby, :mod:`dicegames.web.lobby`): a match its creator marked ``open``
offers its ``invited`` seats to whoever asks; a seat is ``claimed`` once the lobby hands its
token out or its token is first used in any way (reading the state, a QR code, a websocket,
a move, a hint, an undo, dice), and from then on it is never offered again.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dicegames.web.database import DatabaseFileError, DatabaseThread, connect, open_file
from dicegames.web.migrations import SchemaTooNew, migrate_sqlite, pending_reason, sqlite_version
from dicegames.web.stored import (
    MATCH_COLUMNS,
    MOVE_COLUMNS,
    SEAT_COLUMNS,
    DamagedRow,
    StoredMatch,
    Table,
    damaged,
    decode,
    players_of,
)

__all__ = ["DamagedRow", "SqliteStore", "Store", "StoredMatch", "Table"]


class Store:
    """The SQLite store (:class:`~dicegames.web.stores.MatchStore`): the database file.
    Every method is a coroutine run in a database thread; a method that changes anything
    has committed when it returns.

    Raises (every method):
        StoreBusy: the file could not be used within
            :data:`~dicegames.web.database.WAIT` seconds; nothing was changed.
    """

    def __init__(self, path: str | Path) -> None:
        """Open the file (created when missing) and bring its schema up to date.

        Raises:
            DatabaseFileError: the file is not a usable SQLite database (see
                :func:`~dicegames.web.database.open_file`).
        """
        self.path = Path(path)
        writer = open_file(self.path, lambda db: _migrate(db, self.path))
        self._writer = DatabaseThread(writer, "dicegames-db-write")
        self._reader = DatabaseThread(connect(self.path), "dicegames-db-read")
        self.created = 0
        """Matches stored through this store so far (:class:`~.metrics.StoredCount`)."""

    def close(self) -> None:
        """Finish the calls already made, then close the connections."""
        self._writer.close()
        self._reader.close()

    async def open(self) -> None:
        """Nothing to do: the file was opened and migrated by the constructor."""

    async def aclose(self) -> None:
        """:meth:`close`, for the server's shutdown (the same for both stores)."""
        self.close()

    async def ready(self) -> str | None:
        """None when the file answers and its schema is this code's, else why not (for
        the readiness check ``/readyz``)."""
        try:
            found = await self._reader.run(sqlite_version)
        except Exception as error:  # StoreBusy or anything the file says
            return f"the database {self.path} cannot be read: {error}"
        return pending_reason(found)

    @property
    def errors(self) -> int:
        """Calls that failed with ``StoreBusy`` since the file was opened (the metrics'
        ``dicegames_store_errors_total``)."""
        return self._writer.errors + self._reader.errors

    async def count_matches(self) -> int:
        """How many matches are stored (the metrics' ``dicegames_matches_stored``)."""
        row = await self._reader.run(
            lambda db: db.execute("SELECT COUNT(*) FROM matches").fetchone())
        return int(row[0])

    async def create(self, match: StoredMatch) -> None:
        """Store a new match with its seats and any moves it starts with (one transaction)."""
        def write(db: sqlite3.Connection) -> None:
            with _Transaction(db):
                db.execute(
                    "INSERT INTO matches (id, game, options, players, seed, dice, created, "
                    "position, open, fair) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match.id, match.game, json.dumps(match.options),
                     json.dumps(match.players), match.seed, match.dice, time.time(),
                     match.position, int(match.open),
                     None if match.fair is None else json.dumps(match.fair)))
                db.executemany(
                    "INSERT INTO seats (match_id, seat, token, invited) VALUES (?, ?, ?, ?)",
                    [(match.id, seat, token, int(seat in match.invited))
                     for seat, token in match.tokens.items()])
                now = time.time()
                db.executemany(
                    "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(match.id, index, seat, text, int(several), now)
                     for index, (seat, text, several) in enumerate(match.moves)])

        await self._writer.run(write)
        self.created += 1

    async def add_move(self, match_id: str, index: int, seat: int | None, text: str,
                       several: bool, *, finished: bool = False) -> None:
        """Append move number ``index`` (0-based) to a match; ``finished``: the move ends
        the game, and the match leaves the lobby (in the same transaction)."""
        def write(db: sqlite3.Connection) -> None:
            with _Transaction(db):
                db.execute(
                    "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, index, seat, text, int(several), time.time()))
                if finished:
                    db.execute("UPDATE matches SET finished = 1 WHERE id = ?", (match_id,))

        await self._writer.run(write)

    async def remove_move(self, match_id: str, index: int) -> None:
        """Delete move ``index`` of a match (an undo of the last move)."""
        await self._writer.run(lambda db: db.execute(
            "DELETE FROM moves WHERE match_id = ? AND idx = ?", (match_id, index)))

    async def load(self, match_id: str) -> StoredMatch | None:
        """The stored match, or None when there is no match with that id.

        Raises:
            DamagedMatch: its rows are not what the app writes.
        """
        def read(db: sqlite3.Connection) -> StoredMatch | None:
            try:
                with _Transaction(db, "BEGIN"):  # one snapshot of the three tables
                    rows = _rows(db, match_id)
            except sqlite3.OperationalError:
                raise
            except sqlite3.DatabaseError as error:  # the pages of this match are damaged
                raise damaged(match_id, f"SQLite cannot read it ({error})") from None
            if rows is None:
                return None
            try:
                return decode(*rows)
            except DamagedRow as error:
                raise damaged(match_id, str(error)) from None

        return await self._reader.run(read)

    async def set_rematch(self, match_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the match its players play again after ``match_id``,
        unless one is recorded already (one transaction: whoever comes first sets it).

        Returns the rematch recorded: ``rematch_id``, or the one that came first.
        """
        def write(db: sqlite3.Connection) -> str:
            with _Transaction(db):
                db.execute("UPDATE matches SET rematch = ? WHERE id = ? AND rematch IS NULL",
                           (rematch_id, match_id))
                row = db.execute("SELECT rematch FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()
            return rematch_id if row is None or not isinstance(row[0], str) else row[0]

        return await self._writer.run(write)

    # ------------------------------------------------------------------ open tables

    async def claim(self, match_id: str, seats: tuple[int, ...]) -> None:
        """The tokens of ``seats`` were used (any request or connection that carried them):
        the lobby no longer offers those seats.

        Writes only when one of them is still offered (a read first), so that connecting
        to a match that is not in the lobby never waits for the database's write lock.
        """
        if not seats:
            return
        condition = (f"match_id = ? AND claimed = 0 AND invited = 1 AND seat IN "
                     f"({', '.join('?' * len(seats))})")
        offered = await self._reader.run(lambda db: db.execute(
            f"SELECT 1 FROM seats WHERE {condition} LIMIT 1", (match_id, *seats)).fetchone())
        if offered is not None:
            await self._writer.run(lambda db: db.execute(
                f"UPDATE seats SET claimed = 1 WHERE {condition}", (match_id, *seats)))

    async def is_open(self, match_id: str) -> bool:
        """True when the match exists and its creator marked it open."""
        row = await self._reader.run(lambda db: db.execute(
            "SELECT open FROM matches WHERE id = ?", (match_id,)).fetchone())
        return row is not None and row[0] == 1

    async def take_seat(self, match_id: str, name: str) -> tuple[int, str] | None:
        """Hand out the first free invited seat of an open match to ``name`` (one
        transaction: a seat is handed out once, however many ask at the same time).

        Returns the seat and its token, or None when no invited seat is free. The seat's
        player is renamed ``name`` in the stored set-up.

        Raises:
            DamagedMatch: the stored players are damaged.
        """
        def write(db: sqlite3.Connection) -> tuple[int, str] | None:
            with _Transaction(db):
                row = db.execute(
                    "SELECT seat, token FROM seats WHERE match_id = ? AND invited = 1 AND "
                    "claimed = 0 ORDER BY seat LIMIT 1", (match_id,)).fetchone()
                if row is None:
                    return None
                seat, token = row
                (players,) = db.execute("SELECT players FROM matches WHERE id = ?",
                                        (match_id,)).fetchone()
                try:
                    renamed = players_of(players)
                    renamed[seat] = {**renamed[seat], "name": name}
                except (DamagedRow, IndexError, TypeError) as error:
                    raise damaged(match_id, f"its players: {error}") from None
                db.execute("UPDATE seats SET claimed = 1 WHERE match_id = ? AND seat = ?",
                           (match_id, seat))
                db.execute("UPDATE matches SET players = ? WHERE id = ?",
                           (json.dumps(renamed), match_id))
            return int(seat), str(token)

        return await self._writer.run(write)

    async def tables(self, limit: int, since: float) -> list[Table]:
        """The open, unfinished matches with a free invited seat created at ``since`` (a
        time.time()) or later, newest first, at most ``limit`` of them; a damaged row is
        left out (each listed match is checked as :meth:`load` does, its move rows in
        SQL)."""
        def read(db: sqlite3.Connection) -> list[Table]:
            tables = []
            with _Transaction(db, "BEGIN"):
                listed = db.execute(
                    "SELECT id, created FROM matches AS m "
                    "WHERE open = 1 AND finished = 0 AND created >= ? AND EXISTS (SELECT 1 "
                    "FROM seats AS s WHERE s.match_id = m.id AND s.invited = 1 AND "
                    "s.claimed = 0) ORDER BY created DESC LIMIT ?", (since, limit)).fetchall()
                for match_id, created in listed:
                    rows = _rows(db, match_id, with_moves=False)
                    if rows is None or isinstance(created, bool) or not isinstance(
                            created, int | float) or not _moves_sound(db, match_id):
                        continue
                    try:
                        match = decode(*rows)
                    except DamagedRow:
                        continue
                    taken = {seat for seat, _, _, claimed in rows[1] if claimed}
                    tables.append(Table(match.id, match.game, match.options, match.players,
                                        float(created), match.invited - taken, match.invited))
            return tables

        return await self._reader.run(read)


SqliteStore = Store
"""The SQLite store by the name that tells it from :class:`~.store_pg.PgStore`."""


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the file's schema to this code's (:mod:`.migrations`); refuse a newer one."""
    try:
        migrate_sqlite(db)
    except SchemaTooNew as error:
        raise DatabaseFileError(path, str(error)) from None


def _rows(db: sqlite3.Connection, match_id: str, *, with_moves: bool = True
          ) -> tuple[Sequence[Any], list[Any], list[Any]] | None:
    """A match's row, its seat rows ``(seat, token, invited, claimed)`` and its move rows
    ``(idx, seat, text, several)`` in order (none unless ``with_moves``), as stored (None:
    no such match)."""
    row = db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?",
                     (match_id,)).fetchone()
    if row is None:
        return None
    seats = db.execute(f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id = ?",
                       (match_id,)).fetchall()
    moves = db.execute(f"SELECT {MOVE_COLUMNS} FROM moves WHERE match_id = ? "
                       "ORDER BY idx", (match_id,)).fetchall() if with_moves else []
    return row, seats, moves


def _moves_sound(db: sqlite3.Connection, match_id: str) -> bool:
    """True when a match's move rows are what :func:`_decode` accepts (numbered from 0
    without a gap, a whole-number or null seat, notation text, a 0 or 1 flag), checked
    without reading them out."""
    count, first, last, bad = db.execute(
        "SELECT count(*), min(idx), max(idx), total(typeof(idx) != 'integer' OR typeof(seat) "
        "NOT IN ('integer', 'null') OR typeof(text) != 'text' OR several NOT IN (0, 1)) "
        "FROM moves WHERE match_id = ?", (match_id,)).fetchone()
    return bool(bad == 0 and (count == 0 or (first == 0 and last == count - 1)))


class _Transaction:
    """BEGIN IMMEDIATE (or ``begin``) ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection, begin: str = "BEGIN IMMEDIATE") -> None:
        self._db = db
        self._begin = begin

    def __enter__(self) -> None:
        self._db.execute(self._begin)

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if not self._db.in_transaction:
            return
        if kind is not None:
            self._db.execute("ROLLBACK")
            return
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error:  # e.g. busy: nothing is written, and the connection is free
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
