"""PostgreSQL storage of the web app: the same matches, seats and moves as the SQLite store
(:mod:`.store`), for several server processes on one database.

``dicegames serve --db postgresql://user@host/database`` uses it. Opening it
(:class:`PgStore`'s constructor, at start-up, before the server listens) connects once
without the pool, runs the migrations (:mod:`.migrations`, under an advisory lock, so that
processes starting together migrate once) and refuses, with one sentence
(:class:`~.database.StoreOpenError`), an address psycopg can't parse, a server that does
not answer, a database whose schema is newer than this code. Then :meth:`PgStore.open`, on
the server's event loop, opens an async pool of connections (``psycopg_pool``): no thread,
the event loop never blocks on the database, several queries run at once.

Every method commits before it returns (a connection of the pool is in autocommit mode; the
methods that write several rows do it in one transaction, the others in one statement).
A call that can't get a connection within :data:`~.database.WAIT` seconds, or whose
statement waits that long for a lock (``lock_timeout``), or that the server refuses
(gone, restarting), raises :class:`~dicegames.web.domain.StoreBusy` (503, nothing
changed), as the SQLite store does.

The rows are those of SQLite (the same columns, :mod:`.stored` decodes both), so a match
reads the same from either store and ``dicegames db copy`` (:mod:`.store_copy`) moves them
without change. PostgreSQL checks the column types itself: the only damaged rows it can
hold are JSON texts that aren't what the app writes, or gaps in the moves.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg
from psycopg_pool import AsyncConnectionPool

from dicegames.web.cluster_schema import STALE_STATE
from dicegames.web.database import WAIT, StoreOpenError, store_busy
from dicegames.web.domain import Stale
from dicegames.web.migrations import SchemaTooNew, migrate_postgres, pending_reason
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

POOL_MIN = 2
"""Connections the pool keeps open."""

POOL_MAX = 16
"""Connections the pool opens at most (each server process)."""

CONNECT_TIMEOUT = 10
"""Seconds opening the store at start-up waits for the server."""

STATEMENT_TIMEOUT = 10.0
"""Seconds one statement of the server may run at most (a hung database answers 503 rather
than holding a request for ever)."""

CREATE = """
WITH match AS (
    INSERT INTO matches (id, game, options, players, seed, dice, created, position, open, fair)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)),
seats AS (
    INSERT INTO seats (match_id, seat, token, invited)
    SELECT %s, seat, token, invited
    FROM unnest(%s::integer[], %s::text[], %s::integer[]) AS s (seat, token, invited)),
moves AS (
    INSERT INTO moves (match_id, idx, seat, text, several, at)
    SELECT %s, idx, seat, text, several, %s::double precision
    FROM unnest(%s::integer[], %s::integer[], %s::text[], %s::integer[])
        AS m (idx, seat, text, several))
SELECT 1"""
"""A new match, its seats and first moves in one statement."""

LOAD = f"""
SELECT {MATCH_COLUMNS},
    (SELECT coalesce(json_agg(json_build_array({SEAT_COLUMNS}) ORDER BY seat), '[]')
     FROM seats WHERE match_id = %(id)s),
    (SELECT coalesce(json_agg(json_build_array({MOVE_COLUMNS}) ORDER BY idx), '[]')
     FROM moves WHERE match_id = %(id)s)
FROM matches WHERE id = %(id)s""".encode()
"""A match row with its seat rows and move rows (JSON arrays), in one statement."""

SETTLED_MOST = 100_000
"""Claimed seats :meth:`PgStore.claim` remembers at most (then it forgets them all)."""

TABLES = f"""
SELECT {MATCH_COLUMNS}, created,
    (SELECT coalesce(json_agg(json_build_array({SEAT_COLUMNS}) ORDER BY seat), '[]')
     FROM seats WHERE match_id = m.id),
    (SELECT count(*) = 0 OR (min(idx) = 0 AND max(idx) = count(*) - 1
                             AND bool_and(several IN (0, 1)))
     FROM moves WHERE match_id = m.id)
FROM matches AS m
WHERE open = 1 AND finished = 0 AND created >= %s AND EXISTS (
    SELECT 1 FROM seats AS s WHERE s.match_id = m.id AND s.invited = 1 AND s.claimed = 0)
ORDER BY created DESC LIMIT %s""".encode()
"""The lobby's open tables with their seats and whether their moves are sound."""

_T = TypeVar("_T")
Connection = psycopg.AsyncConnection[tuple[Any, ...]]


class PgStore:
    """The PostgreSQL store (:class:`~dicegames.web.stores.MatchStore`).

    Raises (every coroutine):
        StoreBusy: the database could not be used within
            :data:`~dicegames.web.database.WAIT` seconds; nothing was changed.
    """

    def __init__(self, url: str, *, pool_min: int = POOL_MIN, pool_max: int = POOL_MAX
                 ) -> None:
        """Check the address, connect once, bring the schema up to date.

        Raises:
            StoreOpenError: the address, the server or the schema can't be used.
        """
        from dicegames.web.stores import redact

        self.url = url
        self.shown = redact(url)
        """The address as it may be printed (no password)."""
        self.errors = 0
        """Calls that failed with StoreBusy so far (the metrics'
        ``dicegames_store_errors_total``)."""
        self.created = 0
        """Matches this process stored so far (:class:`~.metrics.StoredCount`)."""
        try:
            with psycopg.connect(url, autocommit=True,
                                 connect_timeout=CONNECT_TIMEOUT) as connection:
                migrate_postgres(connection)
        except SchemaTooNew as error:
            raise StoreOpenError(f"cannot use the database {self.shown}: {error}") from None
        except psycopg.ProgrammingError as error:  # an address psycopg can't parse
            raise StoreOpenError(f"cannot use the database {self.shown}: it is not a "
                                 f"usable PostgreSQL address ({_first_line(error)})") from None
        except psycopg.Error as error:
            raise StoreOpenError(f"cannot use the database {self.shown}: "
                                 f"{_first_line(error)}") from None
        self._settled: set[tuple[str, int]] = set()
        """(match, seat) pairs known to be no longer offered by the lobby."""
        self._pool = AsyncConnectionPool(
            url, min_size=pool_min, max_size=pool_max, open=False, timeout=WAIT,
            name="dicegames", kwargs={"autocommit": True, "options": session_options(url)})

    @property
    def pool(self) -> AsyncConnectionPool[Any]:
        """The pool of connections (autocommit), for the work of several processes on one
        database that goes beyond the store's calls (a move under the match row's lock,
        LISTEN/NOTIFY is better on a connection of its own: :attr:`url`)."""
        return self._pool

    async def open(self) -> None:
        """Open the pool (on the server's event loop)."""
        await self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)

    async def aclose(self) -> None:
        """Close the pool (the calls in flight finish first)."""
        await self._pool.close()

    async def _run(self, work: Callable[[Connection], Awaitable[_T]]) -> _T:
        """``await work(connection)`` on a connection of the pool; a database error (or no
        connection within :data:`~.database.WAIT`) becomes StoreBusy."""
        try:
            async with self._pool.connection() as connection:
                return await work(connection)
        except psycopg.Error as error:
            if error.sqlstate == STALE_STATE:  # another process moved the match on first
                raise Stale("another player's move came first: reload the state and "
                            "decide again") from None
            self.errors += 1
            raise store_busy(error) from error

    async def ready(self) -> str | None:
        """None when the server answers and the schema is this code's, else why not."""
        async def read(connection: Connection) -> int:
            cursor = await connection.execute(
                "SELECT coalesce(max(version), 0) FROM schema_version")
            row = await cursor.fetchone()
            return int(row[0]) if row is not None else 0

        try:
            found = await self._run(read)
        except Exception as error:  # StoreBusy: the server is gone, the pool exhausted...
            return f"the database {self.shown} cannot be read: {error}"
        return pending_reason(found)

    async def count_matches(self) -> int:
        """How many matches are stored (the metrics' ``dicegames_matches_stored``)."""
        async def read(connection: Connection) -> int:
            cursor = await connection.execute("SELECT count(*) FROM matches")
            row = await cursor.fetchone()
            return int(row[0]) if row is not None else 0

        return await self._run(read)

    async def create(self, match: StoredMatch) -> None:
        """Store a new match with its seats and any moves it starts with: one statement
        (so one transaction and one round trip), the seats and moves as arrays."""
        now = time.time()
        seats = sorted(match.tokens.items())
        moves = match.moves
        params = (
            match.id, match.game, json.dumps(match.options), json.dumps(match.players),
            match.seed, match.dice, now, match.position, int(match.open),
            None if match.fair is None else json.dumps(match.fair),
            match.id, [seat for seat, _ in seats], [token for _, token in seats],
            [int(seat in match.invited) for seat, _ in seats],
            match.id, now, list(range(len(moves))), [seat for seat, _, _ in moves],
            [text for _, text, _ in moves], [int(several) for _, _, several in moves])

        async def write(connection: Connection) -> None:
            await connection.execute(CREATE, params)

        await self._run(write)
        self.created += 1

    async def add_move(self, match_id: str, index: int, seat: int | None, text: str,
                       several: bool, *, finished: bool = False) -> None:
        """Append move number ``index`` (0-based) to a match; ``finished``: the move ends
        the game, and the match leaves the lobby (one statement, so one transaction)."""
        values = (match_id, index, seat, text, int(several), time.time())
        if finished:
            sql = ("WITH added AS (INSERT INTO moves (match_id, idx, seat, text, several, at) "
                   "VALUES (%s, %s, %s, %s, %s, %s)) "
                   "UPDATE matches SET finished = 1 WHERE id = %s")
            params: tuple[Any, ...] = (*values, match_id)
        else:
            sql = ("INSERT INTO moves (match_id, idx, seat, text, several, at) "
                   "VALUES (%s, %s, %s, %s, %s, %s)")
            params = values

        async def write(connection: Connection) -> None:
            await connection.execute(sql.encode(), params)

        await self._run(write)

    async def remove_move(self, match_id: str, index: int) -> None:
        """Delete move ``index`` of a match (an undo of the last move)."""
        async def write(connection: Connection) -> None:
            await connection.execute("DELETE FROM moves WHERE match_id = %s AND idx = %s",
                                     (match_id, index))

        await self._run(write)

    async def load(self, match_id: str) -> StoredMatch | None:
        """The stored match, or None when there is no match with that id (one statement:
        one snapshot of the three tables, one round trip).

        Raises:
            DamagedMatch: its rows are not what the app writes.
        """
        async def read(connection: Connection) -> StoredMatch | None:
            cursor = await connection.execute(LOAD, {"id": match_id})
            row = await cursor.fetchone()
            if row is None:
                return None
            try:
                return decode(row[:-2], row[-2], row[-1])
            except DamagedRow as error:
                raise damaged(match_id, str(error)) from None

        return await self._run(read)

    async def set_rematch(self, match_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the match its players play again after ``match_id``,
        unless one is recorded already (one statement: whoever comes first sets it).

        Returns the rematch recorded: ``rematch_id``, or the one that came first.
        """
        async def write(connection: Connection) -> str:
            cursor = await connection.execute(
                "UPDATE matches SET rematch = coalesce(rematch, %s) WHERE id = %s "
                "RETURNING rematch", (rematch_id, match_id))
            row = await cursor.fetchone()
            return rematch_id if row is None or not isinstance(row[0], str) else row[0]

        return await self._run(write)

    # ------------------------------------------------------------------ open tables

    async def claim(self, match_id: str, seats: tuple[int, ...]) -> None:
        """The tokens of ``seats`` were used: the lobby no longer offers those seats (an
        update of no row when none is offered: it waits for nobody).

        A seat is never offered again once claimed (and an uninvited one never was), so
        the seats this process has claimed are remembered (:data:`SETTLED_MOST` at most)
        and asked about no more: a token used again costs no round trip.
        """
        asked = [seat for seat in seats if (match_id, seat) not in self._settled]
        if not asked:
            return

        async def write(connection: Connection) -> None:
            await connection.execute(
                "UPDATE seats SET claimed = 1 WHERE match_id = %s AND claimed = 0 AND "
                "invited = 1 AND seat = ANY(%s)", (match_id, asked))

        await self._run(write)
        if len(self._settled) >= SETTLED_MOST:
            self._settled.clear()
        self._settled.update((match_id, seat) for seat in asked)

    async def is_open(self, match_id: str) -> bool:
        """True when the match exists and its creator marked it open."""
        async def read(connection: Connection) -> bool:
            cursor = await connection.execute("SELECT open FROM matches WHERE id = %s",
                                              (match_id,))
            row = await cursor.fetchone()
            return row is not None and row[0] == 1

        return await self._run(read)

    async def take_seat(self, match_id: str, name: str) -> tuple[int, str] | None:
        """Hand out the first free invited seat of an open match to ``name``: one
        transaction holding the match's row lock, so a seat is handed out once however
        many processes ask at the same time.

        Returns the seat and its token, or None when no invited seat is free.

        Raises:
            DamagedMatch: the stored players are damaged.
        """
        async def write(connection: Connection) -> tuple[int, str] | None:
            async with connection.transaction():
                cursor = await connection.execute(
                    "SELECT players FROM matches WHERE id = %s FOR UPDATE", (match_id,))
                match_row = await cursor.fetchone()
                if match_row is None:
                    return None
                cursor = await connection.execute(
                    "SELECT seat, token FROM seats WHERE match_id = %s AND invited = 1 AND "
                    "claimed = 0 ORDER BY seat LIMIT 1", (match_id,))
                row = await cursor.fetchone()
                if row is None:
                    return None
                seat, token = row
                try:
                    renamed = players_of(match_row[0])
                    renamed[seat] = {**renamed[seat], "name": name}
                except (DamagedRow, IndexError, TypeError) as error:
                    raise damaged(match_id, f"its players: {error}") from None
                await connection.execute(
                    "UPDATE seats SET claimed = 1 WHERE match_id = %s AND seat = %s",
                    (match_id, seat))
                await connection.execute("UPDATE matches SET players = %s WHERE id = %s",
                                         (json.dumps(renamed), match_id))
            return int(seat), str(token)

        return await self._run(write)

    async def tables(self, limit: int, since: float) -> list[Table]:
        """The open, unfinished matches with a free invited seat created at ``since`` or
        later, newest first, at most ``limit``; a damaged row (or moves that are not
        numbered from 0 without a gap) is left out. One statement."""
        async def read(connection: Connection) -> list[Table]:
            cursor = await connection.execute(TABLES, (since, limit))
            tables = []
            for row in await cursor.fetchall():
                *match_row, created, seats, sound = row
                if not sound:
                    continue
                try:
                    match = decode(match_row, seats, [])
                except DamagedRow:
                    continue
                taken = {seat for seat, _, _, claimed in seats if claimed}
                tables.append(Table(match.id, match.game, match.options, match.players,
                                    float(created), match.invited - taken, match.invited))
            return tables

        return await self._run(read)


def session_options(url: str) -> str:
    """The ``options`` of the pool's connections: the address's own (if any), then the lock
    and statement timeouts (:data:`~.database.WAIT`, :data:`STATEMENT_TIMEOUT`)."""
    from psycopg.conninfo import conninfo_to_dict

    own = str(conninfo_to_dict(url).get("options") or "")
    ours = (f"-c lock_timeout={round(WAIT * 1000)} "
            f"-c statement_timeout={round(STATEMENT_TIMEOUT * 1000)}")
    return f"{own} {ours}".strip()


def _first_line(error: Exception) -> str:
    """The first line of a database error (psycopg's messages go on with hints)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
