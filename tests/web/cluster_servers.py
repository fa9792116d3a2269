"""Several real ``dicegames serve`` processes on one PostgreSQL database, for the cluster
tests and the bench: :func:`start_servers` starts them (each on its own loopback port, as
behind a proxy) on a ``postgresql://`` address from the ``pg_dsn`` fixture
(tests/pgcluster.py); :func:`lease_holder` and :func:`stored_moves` read the database as
the tests check it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import psycopg

from web.server import Server


def start_servers(dsn: str, count: int, *, bot_delay: float = 0.0,
                  extra: tuple[str, ...] = (), limited: bool = False) -> list[Server]:
    """``count`` server processes on the database ``dsn`` (started one after the other:
    each has joined the cluster when its address line is printed)."""
    servers = []
    try:
        for _ in range(count):
            # Server takes a path; the command line takes the address as it is
            servers.append(Server(cast(Path, dsn), bot_delay, extra, limited).start())
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


@contextmanager
def servers_on(dsn: str, count: int, **kwargs: Any) -> Iterator[list[Server]]:
    """:func:`start_servers`, stopped at the end of the ``with`` block."""
    servers = start_servers(dsn, count, **kwargs)
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


def lease_holder(dsn: str, match_id: str) -> str | None:
    """The process name (``host:pid:random``) holding the match's lease, if any."""
    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT holder FROM leases WHERE match_id = %s "
                         "AND expires > clock_timestamp()", (match_id,)).fetchone()
    return None if row is None else str(row[0])


def stored_moves(dsn: str, match_id: str) -> list[tuple[int | None, str]]:
    """The match's stored moves, ``(seat, notation)`` in order."""
    with psycopg.connect(dsn) as db:
        rows = db.execute("SELECT seat, text FROM moves WHERE match_id = %s ORDER BY idx",
                          (match_id,)).fetchall()
    return [(seat, str(text)) for seat, text in rows]
