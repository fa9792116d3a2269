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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicegames.core.session import DICE_MODES
from dicegames.web.database import DatabaseThread, connect, open_file
from dicegames.web.domain import DamagedMatch, StoreBusy

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER,
    dice TEXT NOT NULL,
    created REAL NOT NULL,
    position TEXT,
    open INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    fair TEXT,
    rematch TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    invited INTEGER NOT NULL DEFAULT 0,
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    match_id TEXT NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL,
    several INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (match_id, idx)
);
"""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored: its set-up, seat tokens and moves ``(seat, text, several)``.

    ``dice`` is ``auto`` (the server rolls), ``manual`` (people enter physical dice) or
    ``record`` (an uploaded record: read-only, for replay).
    """

    id: str
    game: str
    options: dict[str, Any]
    players: list[dict[str, str]]
    seed: int | None
    dice: str
    tokens: dict[int, str]
    moves: list[tuple[int | None, str, bool]]
    position: str | None = None
    """The position the match started from (None: the start of the game)."""
    open: bool = False
    """Listed in the lobby while it has free invited seats (False: private)."""
    invited: frozenset[int] = frozenset()
    """The seats whose people were invited by a link (the lobby may hand them out)."""
    fair: dict[str, Any] | None = None
    """The match's dice commitment with its secret (:meth:`dicegames.core.fair.FairDice.
    stored`); None for a match stored before commitments (its seed rolls on). Never leaves
    the server before the game is over."""
    rematch: str | None = None
    """The id of the match its players started to play again (None: none yet)."""


MIGRATIONS = (("matches", "position", "TEXT"),
              ("matches", "open", "INTEGER NOT NULL DEFAULT 0"),
              ("matches", "finished", "INTEGER NOT NULL DEFAULT 0"),
              ("seats", "invited", "INTEGER NOT NULL DEFAULT 0"),
              ("seats", "claimed", "INTEGER NOT NULL DEFAULT 0"),
              ("matches", "fair", "TEXT"),
              ("matches", "rematch", "TEXT"))
"""Columns added since the first schema: a database from before gets them on opening (its
matches stay private and unlisted)."""

INDEXES = """
CREATE INDEX IF NOT EXISTS matches_open ON matches(open, finished, created);
"""


@dataclass(frozen=True, slots=True)
class Table:
    """An open match with at least one free invited seat, as the lobby lists it."""

    id: str
    game: str
    options: dict[str, Any]
    players: list[dict[str, str]]
    created: float
    free: frozenset[int]
    """The invited seats nobody has taken yet."""
    invited: frozenset[int]
    """All the invited seats (taken or not)."""


class Store:
    """The database file. Every method is a coroutine run in a database thread; a method
    that changes anything has committed when it returns.

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
        writer = open_file(self.path, _set_up)
        self._writer = DatabaseThread(writer, "dicegames-db-write")
        self._reader = DatabaseThread(connect(self.path), "dicegames-db-read")

    def close(self) -> None:
        """Finish the calls already made, then close the connections."""
        self._writer.close()
        self._reader.close()

    @property
    def errors(self) -> int:
        """Calls that failed with ``StoreBusy`` since the file was opened (the metrics'
        ``dicegames_store_errors_total``)."""
        return self._writer.errors + self._reader.errors

    async def ready(self) -> str | None:
        """None when the file answers a read and has every table and column of the
        current schema (its migrations are current), else why not (``/readyz``)."""
        def read(db: sqlite3.Connection) -> str | None:
            for table, column, _ in MIGRATIONS:
                names = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                if column not in names:
                    return f"the table {table} has no column {column}: migrations not run"
            return None

        try:
            return await self._reader.run(read)
        except StoreBusy as error:
            return str(error)

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
                raise _damaged(match_id, f"SQLite cannot read it ({error})") from None
            if rows is None:
                return None
            try:
                return _decode(*rows)
            except DamagedRow as error:
                raise _damaged(match_id, str(error)) from None

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
                    renamed = _players(players)
                    renamed[seat] = {**renamed[seat], "name": name}
                except (DamagedRow, IndexError, TypeError) as error:
                    raise _damaged(match_id, f"its players: {error}") from None
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
                        match = _decode(*rows)
                    except DamagedRow:
                        continue
                    taken = {seat for seat, _, _, claimed in rows[1] if claimed}
                    tables.append(Table(match.id, match.game, match.options, match.players,
                                        float(created), match.invited - taken, match.invited))
            return tables

        return await self._reader.run(read)


def _set_up(db: sqlite3.Connection) -> None:
    """The schema, and the columns an older database lacks."""
    db.executescript(SCHEMA)
    for table, column, kind in MIGRATIONS:  # an older database: add what it lacks
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    db.executescript(INDEXES)


# ---------------------------------------------------------------------- damaged rows


class DamagedRow(ValueError):
    """A stored row is not what the app writes (edited by hand, or damaged on disk)."""


DICE = (*DICE_MODES, "record")
"""The stored ``dice`` values: a played match's dice mode, or ``record`` (an upload)."""


def _damaged(match_id: str, reason: str) -> DamagedMatch:
    return DamagedMatch(f"match {match_id!r} is damaged in the database and cannot be "
                        f"loaded: {reason}")


def _rows(db: sqlite3.Connection, match_id: str, *, with_moves: bool = True
          ) -> tuple[Sequence[Any], list[Any], list[Any]] | None:
    """A match's row, its seat rows ``(seat, token, invited, claimed)`` and its move rows
    ``(idx, seat, text, several)`` in order (none unless ``with_moves``), as stored (None:
    no such match)."""
    row = db.execute("SELECT id, game, options, players, seed, dice, position, open, fair, "
                     "rematch FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    seats = db.execute("SELECT seat, token, invited, claimed FROM seats WHERE match_id = ?",
                       (match_id,)).fetchall()
    moves = db.execute("SELECT idx, seat, text, several FROM moves WHERE match_id = ? "
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


def _decode(row: Sequence[Any], seats: list[Any], moves: list[Any]) -> StoredMatch:
    """A match's rows as a :class:`StoredMatch`, every field checked.

    Raises:
        DamagedRow: saying which field is wrong.
    """
    match_id, game, options, players, seed, dice, position, is_open, fair, rematch = row
    if not isinstance(game, str):
        raise DamagedRow(f"its game is {game!r}, not a game id")
    decoded_players = _players(players)
    if seed is not None and not isinstance(seed, int):
        raise DamagedRow(f"its seed is {_short(seed)}, not a whole number")
    if dice not in DICE:
        raise DamagedRow(f"its dice mode is {_short(dice)}, not one of {', '.join(DICE)}")
    if position is not None and not isinstance(position, str):
        raise DamagedRow(f"its position is {_short(position)}, not a position text")
    tokens = {}
    invited = set()
    for seat, token, flag, _claimed in seats:
        if not (isinstance(seat, int) and 0 <= seat < len(decoded_players)
                and isinstance(token, str)):
            raise DamagedRow(f"a seat row is ({_short(seat)}, {_short(token)}), not a seat "
                             f"number below {len(decoded_players)} and its token")
        tokens[seat] = token
        if flag:
            invited.add(seat)
    played: list[tuple[int | None, str, bool]] = []
    for index, (idx, seat, text, several) in enumerate(moves):
        if idx != index or not (seat is None or isinstance(seat, int)) or (
                not isinstance(text, str)) or several not in (0, 1):
            raise DamagedRow(f"move row {_short(idx)} is ({_short(seat)}, {_short(text)}, "
                             f"{_short(several)}), not move {index} as (seat, notation, "
                             "0 or 1)")
        played.append((seat, text, bool(several)))
    return StoredMatch(match_id, game, _object(options), decoded_players, seed, dice, tokens,
                       played, position, is_open == 1, frozenset(invited), _fair(fair),
                       rematch if isinstance(rematch, str) else None)


def _fair(text: object) -> dict[str, Any] | None:
    """The stored dice commitment: null, or a JSON object (checked further when the match
    is rebuilt, :meth:`dicegames.core.fair.FairDice.from_json`)."""
    if text is None:
        return None
    value = _json(text, "fair")
    if not isinstance(value, dict):
        raise DamagedRow(f"its dice commitment is {_short(text)}, not a JSON object")
    return value


def _object(text: object) -> dict[str, Any]:
    """Stored options: a JSON object."""
    value = _json(text, "options")
    if not isinstance(value, dict):
        raise DamagedRow(f"its options are {_short(text)}, not a JSON object")
    return value


def _players(text: object) -> list[dict[str, str]]:
    """Stored players: a non-empty JSON list of ``{"name": text, "kind": text}``."""
    value = _json(text, "players")
    if not (isinstance(value, list) and value and all(
            isinstance(p, dict) and isinstance(p.get("name"), str)
            and isinstance(p.get("kind"), str) for p in value)):
        raise DamagedRow(f"its players are {_short(text)}, not a JSON list of "
                         "{name, kind} objects")
    return value


def _json(text: object, what: str) -> Any:
    if not isinstance(text, str):
        raise DamagedRow(f"its {what} are {_short(text)}, not JSON text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DamagedRow(f"its {what} are {_short(text)}, not valid JSON") from None


def _short(value: object) -> str:
    """A stored value as a message quotes it (at most 40 characters)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
