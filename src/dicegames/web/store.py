"""SQLite storage of the web app: matches, seats and every move, committed before the ack.

One row per match (game, options, players, seed, dice mode, the position it started from), one
row per seat (its secret token) and one row per move in notation. A match is rebuilt by
replaying its moves through the rules, so the database holds nothing the engine cannot check.
The file runs in WAL mode with ``synchronous=NORMAL``: a committed move survives the server
being killed (``kill -9``) at any moment, because the commit is in the operating system's hands
before the ack is sent.

Open tables (the lobby, :mod:`dicegames.web.lobby`): a match its creator marked ``open``
offers its ``invited`` seats to whoever asks; a seat is ``claimed`` once the lobby hands its
token out or its token is first used in any way (reading the state, a QR code, a websocket,
a move, a hint, an undo, dice), and from then on it is never offered again.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    finished INTEGER NOT NULL DEFAULT 0
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


MIGRATIONS = (("matches", "position", "TEXT"),
              ("matches", "open", "INTEGER NOT NULL DEFAULT 0"),
              ("matches", "finished", "INTEGER NOT NULL DEFAULT 0"),
              ("seats", "invited", "INTEGER NOT NULL DEFAULT 0"),
              ("seats", "claimed", "INTEGER NOT NULL DEFAULT 0"))
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
    """The database file. Every method commits before it returns.

    The store is used from the event loop's thread only (each call is a short local
    transaction, well under a millisecond), so one connection serves everything.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        for table, column, kind in MIGRATIONS:  # an older database: add what it lacks
            columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in columns:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self._db.executescript(INDEXES)

    def close(self) -> None:
        """Close the connection (the data is already committed)."""
        self._db.close()

    def create(self, match: StoredMatch) -> None:
        """Store a new match with its seats and any moves it starts with (one transaction)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO matches (id, game, options, players, seed, dice, created, "
                "position, open) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (match.id, match.game, json.dumps(match.options), json.dumps(match.players),
                 match.seed, match.dice, time.time(), match.position, int(match.open)))
            self._db.executemany(
                "INSERT INTO seats (match_id, seat, token, invited) VALUES (?, ?, ?, ?)",
                [(match.id, seat, token, int(seat in match.invited))
                 for seat, token in match.tokens.items()])
            now = time.time()
            self._db.executemany(
                "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(match.id, index, seat, text, int(several), now)
                 for index, (seat, text, several) in enumerate(match.moves)])

    def add_move(self, match_id: str, index: int, seat: int | None, text: str,
                 several: bool) -> None:
        """Append move number ``index`` (0-based) to a match."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, index, seat, text, int(several), time.time()))

    def remove_move(self, match_id: str, index: int) -> None:
        """Delete move ``index`` of a match (an undo of the last move)."""
        with self._transaction():
            self._db.execute("DELETE FROM moves WHERE match_id = ? AND idx = ?",
                             (match_id, index))

    def load(self, match_id: str) -> StoredMatch | None:
        """The stored match, or None when there is no match with that id."""
        row = self._db.execute(
            "SELECT id, game, options, players, seed, dice, position, open FROM matches "
            "WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            return None
        seats = self._db.execute("SELECT seat, token, invited FROM seats WHERE match_id = ?",
                                 (match_id,)).fetchall()
        moves = [(seat, text, bool(several)) for seat, text, several in self._db.execute(
            "SELECT seat, text, several FROM moves WHERE match_id = ? ORDER BY idx",
            (match_id,))]
        return StoredMatch(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4],
                           row[5], {seat: token for seat, token, _ in seats}, moves, row[6],
                           bool(row[7]), frozenset(seat for seat, _, invited in seats
                                                   if invited))

    def match_ids(self) -> list[str]:
        """Every stored match id, oldest first."""
        return [row[0] for row in self._db.execute("SELECT id FROM matches ORDER BY created")]

    # ------------------------------------------------------------------ open tables

    def finish(self, match_id: str) -> None:
        """The match's game is over: it leaves the lobby."""
        self._db.execute("UPDATE matches SET finished = 1 WHERE id = ?", (match_id,))

    def claim(self, match_id: str, seats: tuple[int, ...]) -> None:
        """The tokens of ``seats`` were used (any request or connection that carried them):
        the lobby no longer offers those seats.

        Only a read while nothing changes (the usual case: the seat is not invited, or was
        claimed already), so a request carrying a token costs no write transaction.
        """
        if not seats:
            return
        marks = ", ".join("?" * len(seats))
        unclaimed = self._db.execute(
            "SELECT 1 FROM seats WHERE match_id = ? AND claimed = 0 AND invited = 1 "
            f"AND seat IN ({marks}) LIMIT 1", (match_id, *seats)).fetchone()
        if unclaimed is not None:
            self._db.execute(
                "UPDATE seats SET claimed = 1 WHERE match_id = ? AND claimed = 0 AND invited = 1"
                f" AND seat IN ({marks})", (match_id, *seats))

    def is_open(self, match_id: str) -> bool:
        """True when the match exists and its creator marked it open."""
        row = self._db.execute("SELECT open FROM matches WHERE id = ?", (match_id,)).fetchone()
        return row is not None and bool(row[0])

    def take_seat(self, match_id: str, name: str) -> tuple[int, str] | None:
        """Hand out the first free invited seat of an open match to ``name`` (one
        transaction: a seat is handed out once, however many ask at the same time).

        Returns the seat and its token, or None when no invited seat is free. The seat's
        player is renamed ``name`` in the stored set-up.
        """
        with self._transaction():
            row = self._db.execute(
                "SELECT seat, token FROM seats WHERE match_id = ? AND invited = 1 AND "
                "claimed = 0 ORDER BY seat LIMIT 1", (match_id,)).fetchone()
            if row is None:
                return None
            seat, token = row
            self._db.execute("UPDATE seats SET claimed = 1 WHERE match_id = ? AND seat = ?",
                             (match_id, seat))
            (players,) = self._db.execute("SELECT players FROM matches WHERE id = ?",
                                          (match_id,)).fetchone()
            renamed = json.loads(players)
            renamed[seat] = {**renamed[seat], "name": name}
            self._db.execute("UPDATE matches SET players = ? WHERE id = ?",
                             (json.dumps(renamed), match_id))
        return int(seat), str(token)

    def tables(self, limit: int, since: float) -> list[Table]:
        """The open, unfinished matches with a free invited seat created at ``since`` (a
        time.time()) or later, newest first, at most ``limit`` of them."""
        rows = self._db.execute(
            "SELECT id, game, options, players, created FROM matches AS m "
            "WHERE open = 1 AND finished = 0 AND created >= ? AND EXISTS (SELECT 1 FROM "
            "seats AS s WHERE s.match_id = m.id AND s.invited = 1 AND s.claimed = 0) "
            "ORDER BY created DESC LIMIT ?", (since, limit)).fetchall()
        tables = []
        for match_id, game, options, players, created in rows:
            seats = self._db.execute(
                "SELECT seat, claimed FROM seats WHERE match_id = ? AND invited = 1",
                (match_id,)).fetchall()
            tables.append(Table(match_id, game, json.loads(options), json.loads(players),
                                created, frozenset(s for s, claimed in seats if not claimed),
                                frozenset(s for s, _ in seats)))
        return tables

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
