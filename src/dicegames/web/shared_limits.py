"""The per-client limits held across server processes, in PostgreSQL.

With several server processes on one database (:mod:`.cluster`), a client spreading its
requests over them must meet the same limits as with one process, so the token buckets and
the open-websocket counts of :mod:`.limits` live in the database:

- a limited request calls ``dicegames_take(kind, client, count, seconds)`` (one statement:
  the bucket's row locked, refilled, taken from), which answers 0 or the seconds to wait;
- a websocket calls ``dicegames_open_socket(process, client, most, alive)`` as it opens
  (under an advisory lock per client: the sum over the live processes' rows, then one more
  on this process's row) and takes one off this process's row as it closes. A process that
  died stops counting once its heartbeat (``processes``, every
  :data:`~.cluster.SWEEP` seconds) is :data:`ALIVE` seconds old.

The SQL is in :mod:`.cluster_schema`. When the database cannot be asked, the process's own
in-memory limits apply meanwhile (:class:`~.limits.RateLimits`): a limit is never lifted
because the database is away.
"""

from __future__ import annotations

import logging
import math

from dicegames.web.cluster import Cluster
from dicegames.web.limits import Rate

ALIVE = 30.0
"""Seconds after its last heartbeat that a process's open websockets still count."""

log = logging.getLogger("dicegames.web")


class SharedLimits:
    """The shared buckets and socket counts, through the process's :class:`Cluster`."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    async def take(self, kind: str, client: str, rate: Rate) -> int:
        """Take one request from ``client``'s ``kind`` bucket: 0 when allowed, else the
        whole seconds to wait (at least 1).

        Raises:
            Exception: the database could not be asked (the caller falls back).
        """
        rows = await self.cluster.execute("SELECT dicegames_take(%s, %s, %s, %s)",
                                          (kind, client, float(rate.count), rate.seconds))
        wait = float(rows[0][0])
        return 0 if wait <= 0 else max(1, math.ceil(wait))

    async def open_socket(self, client: str, most: int) -> bool:
        """Count one more open websocket of ``client`` unless it holds ``most`` (0: no
        limit) across the live processes; False when refused.

        Raises:
            Exception: the database could not be asked (the caller falls back).
        """
        rows = await self.cluster.execute("SELECT dicegames_open_socket(%s, %s, %s, %s)",
                                          (self.cluster.name, client, most, ALIVE))
        return bool(rows[0][0])

    async def close_socket(self, client: str) -> None:
        """One websocket of ``client`` on this process closed (a row left at 0 is
        removed by the cluster's sweep)."""
        try:
            await self.cluster.execute(
                "UPDATE open_sockets SET n = n - 1 WHERE holder = %s AND client = %s",
                (self.cluster.name, client))
        except Exception as error:  # the count is forgotten with the process's heartbeat
            log.warning("cannot count a closed websocket in the database: %s", error)
