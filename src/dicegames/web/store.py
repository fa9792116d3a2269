"""SQLite storage of the web app: matches, seats and every move, committed before the ack.

One row per match (game, options, players, seed, dice mode, the position it started from), one
row per seat (its secret token) and one row per move in notation. A match is rebuilt by
replaying its moves through the rules, so the database holds nothing the engine cannot check.
The file runs in WAL mode with ``synchronous=NORMAL``: a committed move survives the server
being killed (``kill -9``) at any moment, because the commit is in the operating system's hands
before the ack is sent.
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
    position TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
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
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "position" not in columns:  # a database from before positions: add the column
            self._db.execute("ALTER TABLE matches ADD COLUMN position TEXT")

    def close(self) -> None:
        """Close the connection (the data is already committed)."""
        self._db.close()

    def create(self, match: StoredMatch) -> None:
        """Store a new match with its seats and any moves it starts with (one transaction)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO matches (id, game, options, players, seed, dice, created, "
                "position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (match.id, match.game, json.dumps(match.options), json.dumps(match.players),
                 match.seed, match.dice, time.time(), match.position))
            self._db.executemany(
                "INSERT INTO seats (match_id, seat, token) VALUES (?, ?, ?)",
                [(match.id, seat, token) for seat, token in match.tokens.items()])
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
            "SELECT id, game, options, players, seed, dice, position FROM matches WHERE id = ?",
            (match_id,)).fetchone()
        if row is None:
            return None
        tokens = {seat: token for seat, token in self._db.execute(
            "SELECT seat, token FROM seats WHERE match_id = ?", (match_id,))}
        moves = [(seat, text, bool(several)) for seat, text, several in self._db.execute(
            "SELECT seat, text, several FROM moves WHERE match_id = ? ORDER BY idx",
            (match_id,))]
        return StoredMatch(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4],
                           row[5], tokens, moves, row[6])

    def match_ids(self) -> list[str]:
        """Every stored match id, oldest first."""
        return [row[0] for row in self._db.execute("SELECT id FROM matches ORDER BY created")]

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
