"""Several server processes on one PostgreSQL database: pushes, leases and orphans.

One :class:`Cluster` per server process, given the database's ``postgresql://`` address,
does three things with PostgreSQL itself (no other coordination service):

- **Listens** on one connection to the moves' channel (:data:`~.cluster_schema.CHANNEL`):
  every move stored by any process is announced when its transaction commits, and the hub
  plays it into its copy of the match and pushes it to its viewers (:mod:`.fanout`). When
  the listening connection is lost it connects again and has every match in memory checked
  against the store (notices may have been missed meanwhile).
- **Leases.** Exactly one process drives a match's automatic steps (dice, bots, forced
  passes): the one holding its row in ``leases`` (holder, expiry by the database's clock).
  A driver renews its lease before a step once less than half of :data:`LEASE` is left; when
  nothing is due it just stops (no statement: the lease runs out, and whichever process a
  person acts on next takes it); a process that finds the lease held by another lets that
  one drive. The leases of the matches driven since the last sweep (steps that found their
  lease held, so asked nothing) are renewed by the sweep, all in the statement that records
  the process as alive: a busy process renews its leases in one statement every
  :data:`SWEEP` seconds instead of one per match every ``LEASE / 2``. Moves are refused
  at a stale version by the store anyway (:mod:`.cluster_schema`), so even two drivers at
  once could never both play a step.
- **Orphans.** Every :data:`SWEEP` seconds each process looks for leases past their
  expiry whose holder is dead (no heartbeat for :data:`DEAD` seconds: ``kill -9``, a crash,
  a stall, or a clean stop) and takes the match over: loads it if needed and starts its
  driver, which takes the lease (one process wins); a match with nothing due has its lease
  removed. A bots-only
  match nobody watches is thus carried on within about ``LEASE + SWEEP`` seconds. The same
  loop records the process as alive (``processes``: the shared websocket counts of
  :mod:`.shared_limits` only count live processes).

The hub's side is :class:`ClusterHub`. A process stopping cleanly marks its leases expired,
so the others take its matches over at their next sweep.

Every failure on the cluster's own connections (a statement of the leases, the heartbeat,
the sweep, a notice or the shared limits of :mod:`.shared_limits`; the listening
connection lost or refused) is counted in
:attr:`Cluster.errors`, which the metrics add to the store's
(``dicegames_store_errors_total``): the process goes on (it retries, or leaves the work to
another process), but an operator should see the database failing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from typing import Any, Protocol

from dicegames.web.cluster_schema import CHANNEL
from dicegames.web.fanout import Notice, StoredMove

LEASE = 3.0
"""Seconds a driver's lease lasts; renewed before a step once less than half is left."""

SWEEP = 0.5
"""Seconds between two looks for expired leases (and heartbeats of the process)."""

RECONNECT_MOST = 2.0
"""The longest wait (seconds) between two tries to connect the listener again."""

ORPHANS = 16
"""Expired leases taken over at most per sweep and process."""

DEAD = 2.0
"""Seconds without a heartbeat after which a process counts as dead: its expired leases
are taken over (a live process's expired lease only means its match had nothing due)."""

PRUNE = 60.0
"""Seconds between two clean-ups of the shared tables (dead processes' rows, websocket
counts at 0, token buckets full again for a day)."""

_PRUNE_SQL = (
    "DELETE FROM open_sockets AS s WHERE n <= 0 OR NOT EXISTS (SELECT 1 FROM processes AS p "
    "WHERE p.holder = s.holder AND p.seen > clock_timestamp() - interval '10 minutes')",
    "DELETE FROM processes WHERE seen < clock_timestamp() - interval '10 minutes'",
    "DELETE FROM rate_buckets WHERE at < clock_timestamp() - interval '1 day'",
)

log = logging.getLogger("dicegames.web")

_LEAD = """
WITH taken AS (
    INSERT INTO leases AS l (match_id, holder, expires)
    VALUES (%(m)s, %(h)s, clock_timestamp() + %(s)s * interval '1 second')
    ON CONFLICT (match_id) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires
    WHERE l.holder = EXCLUDED.holder OR l.expires < clock_timestamp()
    RETURNING holder, expires)
SELECT holder, extract(epoch FROM expires - clock_timestamp())::float8 FROM taken
UNION ALL
SELECT holder, extract(epoch FROM expires - clock_timestamp())::float8 FROM leases
    WHERE match_id = %(m)s AND NOT EXISTS (SELECT 1 FROM taken)
"""


_BEAT = """
WITH beat AS (
    INSERT INTO processes (holder, seen) VALUES (%(h)s, clock_timestamp())
    ON CONFLICT (holder) DO UPDATE SET seen = EXCLUDED.seen)
UPDATE leases SET expires = clock_timestamp() + %(s)s * interval '1 second'
WHERE holder = %(h)s AND match_id = ANY(%(m)s)
RETURNING match_id, extract(epoch FROM expires - clock_timestamp())::float8
"""
"""The heartbeat, and the renewal of this process's leases of the matches in ``m``."""


_ORPHANS = """
SELECT l.match_id FROM leases AS l LEFT JOIN processes AS p ON p.holder = l.holder
WHERE l.expires < clock_timestamp() AND l.holder <> %s
    AND (p.seen IS NULL OR p.seen < clock_timestamp() - %s * interval '1 second')
ORDER BY l.expires LIMIT %s
"""


def process_name() -> str:
    """A name for this process that no other process of the cluster has (host, pid and a
    random part: a pid may be reused after a restart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class ClusterHub(Protocol):
    """What the cluster calls on the hub (:class:`~dicegames.web.hub.Hub`)."""

    def heard(self, notice: Notice) -> None:
        """A move was stored or taken back (by any process, this one included)."""

    async def orphaned(self, match_id: str) -> None:
        """The match's lease expired: drive it here if anything is due."""

    def resync(self) -> None:
        """Notices may have been missed: check every match in memory against the store."""


class Cluster:
    """This process's part in a cluster of servers on one PostgreSQL database (see the
    module docstring)."""

    def __init__(self, dsn: str, *, lease: float = LEASE, sweep: float = SWEEP) -> None:
        self.dsn = dsn
        self.lease = lease
        self.sweep = sweep
        self.name = process_name()
        """This process's holder name in ``leases``, ``processes`` and ``open_sockets``."""
        self._pool: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._held: dict[str, tuple[bool, float]] = {}
        """Per match: whether this process holds the lease, and until when (monotonic)."""
        self._driven: set[str] = set()
        """The matches whose lease a step found held here since the last sweep (renewed by
        the sweep: :data:`_BEAT`)."""
        self.listening = asyncio.Event()
        """Set while the listening connection is up (tests wait for it)."""
        self.errors = 0
        """Failures on the cluster's connections so far (see the module docstring)."""

    async def start(self, hub: ClusterHub) -> None:
        """Connect (the shared tables are the store's migration 2,
        :mod:`.cluster_schema`), start listening and sweeping."""
        from psycopg_pool import AsyncConnectionPool

        self._pool = AsyncConnectionPool(self.dsn, min_size=1, max_size=4, open=False,
                                         kwargs={"autocommit": True})
        await self._pool.open(wait=True)
        await self.heartbeat()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(hub)),
                       loop.create_task(self._sweep(hub))]

    async def close(self) -> None:
        """Stop listening and sweeping; hand this process's leases over (marked expired)
        and forget its websocket counts."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._pool is None:
            return
        with contextlib.suppress(Exception):
            async with self._pool.connection() as db:
                await db.execute("UPDATE leases SET expires = clock_timestamp() "
                                 "WHERE holder = %s", (self.name,))
                await db.execute("DELETE FROM open_sockets WHERE holder = %s", (self.name,))
                await db.execute("DELETE FROM processes WHERE holder = %s", (self.name,))
        await self._pool.close()
        self._pool = None

    async def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
                      ) -> list[tuple[Any, ...]]:
        """Run one statement on the cluster's pool (autocommit); its rows. A failure is
        counted in :attr:`errors`, then raised."""
        try:
            async with self._pool.connection() as db:
                cursor = await db.execute(sql, params)
                if cursor.description is None:
                    return []
                rows: list[tuple[Any, ...]] = await cursor.fetchall()
                return rows
        except asyncio.CancelledError:
            raise
        except Exception:
            self.errors += 1
            raise

    # ------------------------------------------------------------------ leases

    async def lead(self, match_id: str) -> bool:
        """True when this process may drive the match now: it holds the lease (taken or
        renewed here when needed); False when another live process holds it."""
        now = time.monotonic()
        held = self._held.get(match_id)
        if held is not None:
            mine, until = held
            if mine and until - now > self.lease / 2:
                self._driven.add(match_id)
                return True
            if not mine and until > now:
                return False
        try:
            rows = await self.execute(_LEAD, {"m": match_id, "h": self.name,
                                              "s": self.lease})
        except Exception as error:  # the database is away: drive only on a lease held
            log.warning("cannot take the lease of match %s: %s", match_id, error)
            return held is not None and held[0] and held[1] > now
        if not rows:  # the row was deleted meanwhile: try once more at the next step
            self._held.pop(match_id, None)
            return False
        holder, left = rows[0]
        mine = bool(holder == self.name)
        self._held[match_id] = (mine, now + float(left))
        return mine

    def forget(self, match_id: str) -> None:
        """Forget who was seen holding the match's lease (a change made here: the lease
        may have been given up since, so ask the database at the next step)."""
        held = self._held.get(match_id)
        if held is not None and not held[0]:
            del self._held[match_id]

    async def release(self, match_id: str) -> None:
        """Nothing is due in the match: give up its lease (or clear an expired one)."""
        self._held.pop(match_id, None)
        self._driven.discard(match_id)
        with contextlib.suppress(Exception):
            await self.execute("DELETE FROM leases WHERE match_id = %s AND "
                               "(holder = %s OR expires < clock_timestamp())",
                               (match_id, self.name))

    # ------------------------------------------------------------------ moves

    async def moves_from(self, match_id: str, start: int) -> list[StoredMove] | None:
        """The stored moves of a match from index ``start`` on (None: no such match)."""
        rows = await self.execute(
            "SELECT idx, seat, text, several FROM moves WHERE match_id = %s AND idx >= %s "
            "ORDER BY idx", (match_id, start))
        if not rows:
            exists = await self.execute("SELECT 1 FROM matches WHERE id = %s", (match_id,))
            return [] if exists else None
        return [(seat, str(text), bool(several)) for _idx, seat, text, several in rows]

    async def announce(self, notice: Notice) -> None:
        """Send ``notice`` on the channel (every process hears it, this one too); a
        failure is logged (the other processes see the change on their next load)."""
        try:
            await self.execute("SELECT pg_notify(%s, %s)", (CHANNEL, notice.payload()))
        except Exception as error:
            log.warning("cannot tell the other processes of match %s's %s: %s",
                        notice.match_id, notice.op, error)

    # ------------------------------------------------------------------ the loops

    async def _listen(self, hub: ClusterHub) -> None:
        """Hand every notice to the hub; connect again when the connection is lost."""
        import psycopg

        wait, first = 0.1, True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.dsn, autocommit=True) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        hub.resync()
                    first, wait = False, 0.1
                    async for notify in db.notifies():
                        notice = Notice.parse(notify.payload)
                        if notice is not None:
                            hub.heard(notice)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.errors += 1
                log.warning("the cluster's listening connection was lost (%s); connecting "
                            "again", error)
            self.listening.clear()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_MOST)

    async def heartbeat(self) -> None:
        """Record this process as alive now (``processes``), and renew the leases of the
        matches driven here since the last heartbeat (one statement)."""
        driven = [match_id for match_id in self._driven
                  if self._held.get(match_id, (False, 0.0))[0]]
        self._driven.clear()
        asked = time.monotonic()
        rows = await self.execute(_BEAT, {"h": self.name, "s": self.lease, "m": driven})
        renewed = {str(match_id): float(left) for match_id, left in rows}
        for match_id in driven:
            held = self._held.get(match_id)
            if held is None or not held[0]:
                continue  # given up meanwhile
            if match_id in renewed:
                self._held[match_id] = (True, asked + renewed[match_id])
            elif held[1] <= time.monotonic():
                del self._held[match_id]  # expired and taken: ask at the next step

    async def _sweep(self, hub: ClusterHub) -> None:
        """Heartbeat, take over the matches whose lease expired, now and then prune."""
        pruned = time.monotonic()
        while True:
            try:
                await self.heartbeat()
                if time.monotonic() - pruned > PRUNE:
                    pruned = time.monotonic()
                    for sql in _PRUNE_SQL:
                        await self.execute(sql)
                rows = await self.execute(_ORPHANS, (self.name, DEAD, ORPHANS))
                for (match_id,) in rows:
                    self._held.pop(match_id, None)
                    await hub.orphaned(match_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("the cluster's sweep failed: %s", error)
            now = time.monotonic()
            for match_id, (_mine, until) in list(self._held.items()):
                if until < now - self.lease:
                    del self._held[match_id]
            await asyncio.sleep(self.sweep)
