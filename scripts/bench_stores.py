"""What one store call costs on each store: SQLite beside PostgreSQL, the same calls.

Each round opens a fresh store of each kind (a temporary SQLite file; a fresh database on a
PostgreSQL server) and times, one after the other on one event loop as the server makes
them, :data:`CALLS` of each call the hub makes on a move's path: ``create`` (a match with
its seats), ``add_move``, ``claim`` (a seat's token used), ``load`` (a match read back to be
replayed). The stores alternate round by round (interleaved); the figures are medians over
the rounds, in milliseconds per call, with PostgreSQL's ratio to SQLite's.

The PostgreSQL server is ``--db postgresql://...`` (its user may create databases: each
round makes and drops its own), or else a throwaway cluster started for the run with
``tests/pgcluster.py`` (``initdb``/``pg_ctl`` on a free loopback port). Loopback only;
the run stops by itself::

    .venv/bin/python scripts/bench_stores.py --rounds 7
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from dicegames.web.stored import StoredMatch
from dicegames.web.stores import MatchStore, open_store

CALLS = 200
"""Calls of each kind per round."""

PLAYERS = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
KINDS = ("create", "add_move", "claim", "load")


def stored(match_id: str) -> StoredMatch:
    """A new two-seat match as the hub stores it (no move yet)."""
    return StoredMatch(match_id, "extra-meters", {"track_length": 50}, PLAYERS, None, "auto",
                       {0: f"{match_id}-a", 1: f"{match_id}-b"}, [],
                       fair={"secret": "0" * 64, "commitment": "1" * 64})


async def one_round(target: Path | str) -> dict[str, float]:
    """Milliseconds per call of each kind on a fresh store."""
    store: MatchStore = open_store(target)
    await store.open()
    figures: dict[str, float] = {}
    try:
        ids = [f"m{n}" for n in range(CALLS)]
        calls: dict[str, Callable[[str], Awaitable[object]]] = {
            "create": lambda mid: store.create(stored(mid)),
            "add_move": lambda mid: store.add_move(mid, 0, None, "roll", False),
            "claim": lambda mid: store.claim(mid, (0,)),
            "load": store.load,
        }
        for kind in KINDS:
            started = time.perf_counter()
            for mid in ids:
                await calls[kind](mid)
            figures[kind] = (time.perf_counter() - started) / CALLS * 1000
    finally:
        await store.aclose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", metavar="URL", help="a PostgreSQL server to use (its user "
                        "may create databases); default: a throwaway cluster")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from pgcluster import PgServer, open_server

    server: PgServer = PgServer(args.db) if args.db else open_server({})
    results: dict[str, dict[str, list[float]]] = {"sqlite": {}, "postgres": {}}
    try:
        with tempfile.TemporaryDirectory(prefix="bench-stores-") as folder:
            for number in range(args.rounds):
                for backend in ("sqlite", "postgres") if number % 2 == 0 else (
                        "postgres", "sqlite"):
                    if backend == "sqlite":
                        target: Path | str = Path(folder) / f"round{number}.sqlite3"
                    else:
                        target = server.create_database()
                    figures = asyncio.run(one_round(target))
                    if backend == "postgres":
                        server.drop_database(str(target))
                    for kind, value in figures.items():
                        results[backend].setdefault(kind, []).append(value)
    finally:
        server.close()
    print(f"ms per call, medians of {args.rounds} interleaved rounds of {CALLS} calls")
    print(f"{'call':10} {'SQLite':>8} {'PostgreSQL':>11} {'ratio':>6}")
    for kind in KINDS:
        lite = statistics.median(results["sqlite"][kind])
        pg = statistics.median(results["postgres"][kind])
        print(f"{kind:10} {lite:8.3f} {pg:11.3f} {pg / lite:6.2f}")


if __name__ == "__main__":
    main()
