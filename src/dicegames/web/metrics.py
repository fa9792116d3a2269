"""The server's Prometheus metrics, from ``prometheus_client`` (served by :mod:`.ops`).

What is measured, and where it comes from:

======================================  ==============================================
``dicegames_matches_live``              matches in this process's memory (the hub's
                                        :mod:`.resident` matches)
``dicegames_matches_stored``            matches in the store (:class:`StoredCount`: one
                                        ``COUNT`` per :data:`RECOUNT_EVERY` seconds)
``dicegames_moves_total``               moves committed (people's, bots', rolls)
``dicegames_websockets``                websockets open now
``dicegames_analysis_waiting{kind}``    analysis jobs waiting for a worker of the
                                        :mod:`.pool`: ``hint`` or ``review`` (slices)
``dicegames_reviews_active``            reviews queued or running (:mod:`.reviews`)
``dicegames_store_errors_total``        store calls that failed (each a 503
                                        ``store_busy``, or a driver's retry), and
                                        failures on the cluster's own connections
                                        (leases, heartbeat, listening: :mod:`.cluster`)
``dicegames_http_request_duration_``    HTTP requests by ``method``, ``route`` (the
``seconds{method,route,status}``        route's template, never a raw path: no match id
                                        or token in a label) and ``status``
======================================  ==============================================

The app's own parts keep plain counts (the hub's ``moves_applied``, the store's
``errors``); :meth:`Metrics.sample` copies them and the gauges into the metrics, at each
scrape and, with several processes, every :data:`SAMPLE_EVERY` seconds.

**Several processes** (``dicegames serve --workers N``, or separate ``serve`` processes
sharing a port): a scrape reaches one process, so each must write its values where the
others can read them. That is ``prometheus_client``'s multiprocess mode: when the
environment variable ``PROMETHEUS_MULTIPROC_DIR`` names a folder *before*
``prometheus_client`` is first imported, every process writes its metrics to files there,
and a scrape of any one sums them (counters and the histogram summed over every process
that ever ran; the gauges of the living processes summed; the stored count the newest).
``dicegames serve --workers N`` makes such a folder for its workers (spawned: they import
``prometheus_client`` afresh, after the variable is set); the process that scrapes clears
the gauges of processes that died without saying (``kill -9``). Separate servers on
separate ports need none of this: scrape each one.
"""

from __future__ import annotations

import glob
import os
import re
import time
from collections.abc import Callable
from typing import Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""The environment variable of ``prometheus_client``'s multiprocess mode."""

SAMPLE_EVERY = 1.0
"""Seconds between two samples of a process's gauges and counts, with several processes."""

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of the text format ``/metrics`` answers."""

RECOUNT_EVERY = 30.0
"""Seconds between two counts of the stored matches (:class:`StoredCount`)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0)
"""The request latency histogram's buckets (seconds): an API call takes a few ms; a hint
up to its budget (seconds)."""

_PID_FILE = re.compile(r"_(\d+)\.db$")


class Counts(Protocol):
    """What the metrics read from the app at each sample (see :class:`Metrics.sample`)."""

    def live_matches(self) -> int:
        """Matches in this process's memory."""
        ...

    def moves_applied(self) -> int:
        """Moves this process committed since it started."""
        ...

    def store_errors(self) -> int:
        """Store calls of this process that failed since it started."""
        ...

    def analysis_waiting(self) -> tuple[int, int]:
        """Hint jobs and review slices waiting for an analysis worker."""
        ...

    def reviews_active(self) -> int:
        """Reviews queued or running."""
        ...


class Countable(Protocol):
    """What :class:`StoredCount` needs of a store (both backends provide it)."""

    @property
    def created(self) -> int:
        """Matches stored through this store since it was opened."""
        ...

    async def count_matches(self) -> int:
        """How many matches are stored (a ``COUNT(*)``: the whole table is read)."""
        ...


class StoredCount:
    """``dicegames_matches_stored`` without a ``COUNT(*)`` at every scrape.

    A ``COUNT(*)`` reads the whole ``matches`` table (neither database keeps a row count),
    and a scraper asks every few seconds. Matches are never deleted from a store, so the
    count only grows, by the matches created: the store is counted once, then every
    :data:`RECOUNT_EVERY` seconds, and in between the matches this process created since
    (the store's ``created``) are added. With one process that is exact; with several, the
    others' matches appear at the next recount (or, with ``--workers``, at the next scrape
    that reaches their process). A match created while the count runs may be counted
    twice until the next recount.
    """

    def __init__(self, store: Countable, every: float = RECOUNT_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.every = every
        self.clock = clock
        self._counted: tuple[float, int, int] | None = None
        """When the store was last counted (``clock``), the count, and ``created`` then."""

    async def value(self) -> int:
        """The matches stored now (counts the store when the last count is too old).

        Raises:
            Exception: whatever the store's count raises (the next call asks again).
        """
        now = self.clock()
        if self._counted is None or now - self._counted[0] >= self.every:
            created = self.store.created
            self._counted = (now, await self.store.count_matches(), created)
        _at, count, created = self._counted
        return count + self.store.created - created


def multiprocess_mode() -> bool:
    """True when ``prometheus_client`` writes its values to files (``PROMETHEUS_MULTIPROC_DIR``
    was set when it was imported)."""
    return bool(getattr(values.ValueClass, "_multiprocess", False))


class Metrics:
    """The metrics of one app, in a registry of its own (so several apps in one process, as
    in the tests, do not collide; in multiprocess mode the values go to the shared files
    whatever the registry)."""

    def __init__(self) -> None:
        if os.environ.get(MULTIPROC_ENV) and not multiprocess_mode():
            raise RuntimeError(f"{MULTIPROC_ENV} was set after prometheus_client was "
                               "imported: set it before the server starts")
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.matches_live = Gauge("dicegames_matches_live", "Matches held in memory.",
                                  registry=registry, multiprocess_mode="livesum")
        self.matches_stored = Gauge("dicegames_matches_stored", "Matches in the store.",
                                    registry=registry, multiprocess_mode="mostrecent")
        self.moves = Counter("dicegames_moves", "Moves committed (people, bots, rolls).",
                             registry=registry)
        self.websockets = Gauge("dicegames_websockets", "Websockets open now.",
                                registry=registry, multiprocess_mode="livesum")
        self.analysis_waiting = Gauge("dicegames_analysis_waiting",
                                      "Analysis jobs waiting for a worker, by kind.", ["kind"],
                                      registry=registry, multiprocess_mode="livesum")
        self.reviews_active = Gauge("dicegames_reviews_active", "Reviews queued or running.",
                                    registry=registry, multiprocess_mode="livesum")
        self.store_errors = Counter("dicegames_store_errors",
                                    "Store calls that failed (503 store_busy or a retry).",
                                    registry=registry)
        self.request_seconds = Histogram(
            "dicegames_http_request_duration_seconds",
            "HTTP request latency by method, route template and status.",
            ["method", "route", "status"], buckets=LATENCY_BUCKETS, registry=registry)
        self._moves_seen = 0
        self._errors_seen = 0
        self.websockets.set(0)
        self.analysis_waiting.labels("hint").set(0)
        self.analysis_waiting.labels("review").set(0)

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one HTTP request in the latency histogram (``route``: its template)."""
        self.request_seconds.labels(method, route, str(status)).observe(seconds)

    def sample(self, counts: Counts) -> None:
        """Copy this process's gauges and counts into the metrics (the counters grow by
        what the app counted since the last sample)."""
        self.matches_live.set(counts.live_matches())
        moves, errors = counts.moves_applied(), counts.store_errors()
        if moves > self._moves_seen:
            self.moves.inc(moves - self._moves_seen)
        if errors > self._errors_seen:
            self.store_errors.inc(errors - self._errors_seen)
        self._moves_seen, self._errors_seen = max(moves, self._moves_seen), max(
            errors, self._errors_seen)
        hints, slices = counts.analysis_waiting()
        self.analysis_waiting.labels("hint").set(hints)
        self.analysis_waiting.labels("review").set(slices)
        self.reviews_active.set(counts.reviews_active())

    def render(self) -> bytes:
        """The text format of a scrape: this app's registry, or in multiprocess mode every
        process's files summed (after clearing the gauges of processes that are gone)."""
        if not multiprocess_mode():
            return generate_latest(self.registry)
        folder = os.environ[MULTIPROC_ENV]
        _forget_dead(folder)
        merged = CollectorRegistry()
        multiprocess.MultiProcessCollector(merged, path=folder)  # type: ignore[no-untyped-call]
        return generate_latest(merged)

    def close(self) -> None:
        """The process stops: its live gauges leave the shared files (multiprocess mode)."""
        if multiprocess_mode():
            multiprocess.mark_process_dead(  # type: ignore[no-untyped-call]
                os.getpid(), os.environ[MULTIPROC_ENV])


def _forget_dead(folder: str) -> None:
    """Remove the live gauges of the processes that wrote to ``folder`` and are gone (killed
    without their shutdown), so a scrape sums the living only."""
    pids = set()
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        found = _PID_FILE.search(path)
        if found:
            pids.add(int(found.group(1)))
    for pid in pids:
        if not _alive(pid):
            multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True
