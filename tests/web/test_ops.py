"""Operating the app (:mod:`dicegames.web.ops`, :mod:`dicegames.web.metrics`): health,
readiness, the metrics and who may read them, in process behind the ASGI client.

The real process's side (the logs of a server that served seat tokens, several processes
summed by one scrape) is in ``test_ops_process.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from ipaddress import ip_network
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from prometheus_client.parser import text_string_to_metric_families

from dicegames.web.hub import Hub
from dicegames.web.metrics import Metrics, StoredCount
from dicegames.web.migrations import LATEST
from dicegames.web.ops import HubCounts, OpsOptions, may_read
from dicegames.web.pool import AnalysisPool, Busy
from polling import until
from web.client import AppClient

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
TWO_BOTS = [{"kind": "bot:easy"}, {"kind": "bot:easy"}]
OUTSIDE = ("203.0.113.5", 40000)
"""A client address that is not loopback (TEST-NET-3: no request ever leaves the test)."""


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[AppClient]:
    """The app in process over each store, with its default operating options."""
    target: Path | str = (tmp_path_factory.mktemp("ops") / "games.sqlite3"
                          if request.param == "sqlite"
                          else request.getfixturevalue("pg_module_dsn"))
    with AppClient(target) as running:
        yield running


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A fresh store of each kind: a SQLite file's path or a PostgreSQL address."""
    if request.param == "sqlite":
        return tmp_path / "games.sqlite3"
    dsn: str = request.getfixturevalue("pg_dsn")
    return dsn


def scrape(client: AppClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of one ``/metrics`` answer: (name, sorted labels) -> value."""
    answer = client.http.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text)
            for sample in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    """One sample's value (0 when absent)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_healthz_and_readyz_answer_when_the_store_is_ready(app: AppClient) -> None:
    assert app.call("GET", "/healthz") == (200, {"status": "ok"})
    assert app.call("GET", "/readyz") == (200, {"status": "ready"})


def newer_schema(db: Path | str) -> None:
    """Record in ``db`` a migration this code does not know, as a newer dicegames that
    migrated the database during a rolling upgrade would."""
    if isinstance(db, str):
        import psycopg
        with psycopg.connect(db, autocommit=True) as connection:
            connection.execute("INSERT INTO schema_version (version, name, applied) "
                               "VALUES (%s, %s, 0)", (LATEST + 1, "from a newer dicegames"))
        return
    with contextlib.closing(sqlite3.connect(db)) as other, other:
        other.execute("INSERT INTO schema_version (version, name, applied) VALUES (?, ?, 0)",
                      (LATEST + 1, "from a newer dicegames"))


def test_readyz_is_503_when_the_migrations_are_not_this_codes(target: Path | str,
                                                              tmp_path: Path) -> None:
    with AppClient(target) as running:
        assert running.call("GET", "/readyz")[0] == 200
        newer_schema(running.db)
        status, body = running.call("GET", "/readyz")
        assert status == 503 and body["status"] == "not_ready"
        assert f"version {LATEST + 1}" in body["reason"]
        assert running.call("GET", "/healthz")[0] == 200  # alive all the same
    with AppClient(tmp_path / "b.sqlite3", client=OUTSIDE) as outside:
        assert outside.call("GET", "/readyz") == (200, {"status": "ready"})
        newer_schema(outside.db)
        # the reason may name files or hosts: only for the clients that may read the metrics
        assert outside.call("GET", "/readyz") == (503, {"status": "not_ready"})


class _Matches:
    """A store's side of :class:`StoredCount`: ``rows`` matches stored, ``created`` of
    them through this process, ``counts`` times counted."""

    def __init__(self, rows: int) -> None:
        self.rows, self.created, self.counts = rows, 0, 0
        self.failing = False

    async def count_matches(self) -> int:
        self.counts += 1
        if self.failing:
            raise OSError("the database is away")
        return self.rows

    def create(self, elsewhere: bool = False) -> None:
        self.rows += 1
        self.created += 0 if elsewhere else 1


def test_the_stored_matches_are_counted_once_a_while_and_followed_between() -> None:
    now = [100.0]
    store = _Matches(5)
    stored = StoredCount(store, every=30.0, clock=lambda: now[0])
    assert asyncio.run(stored.value()) == 5
    store.create()
    store.create()
    store.create(elsewhere=True)  # another process's: seen at the next count
    assert [asyncio.run(stored.value()) for _ in range(20)] == [7] * 20
    assert store.counts == 1
    now[0] = 129.9
    assert asyncio.run(stored.value()) == 7 and store.counts == 1
    now[0] = 130.0
    assert asyncio.run(stored.value()) == 8 and store.counts == 2
    now[0], store.failing = 200.0, True
    with pytest.raises(OSError):
        asyncio.run(stored.value())
    store.failing = False  # a failed count is asked again at the next scrape
    assert asyncio.run(stored.value()) == 8 and store.counts == 4


def test_a_scrape_does_not_count_the_matches_table_each_time(
        target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    with AppClient(target) as running:
        store = running.hub.store
        counted = store.count_matches
        calls: list[int] = []

        async def counting() -> int:
            calls.append(1)
            return await counted()

        monkeypatch.setattr(store, "count_matches", counting)
        first = value(scrape(running), "dicegames_matches_stored")
        running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
        for _ in range(5):
            assert value(scrape(running), "dicegames_matches_stored") == first + 1
        assert len(calls) == 1


def test_the_store_errors_count_the_clusters_connections_too() -> None:
    hub = SimpleNamespace(store=SimpleNamespace(errors=2), cluster=SimpleNamespace(errors=3))
    assert HubCounts(cast(Hub, hub)).store_errors() == 5
    hub.cluster = None  # one process on its own
    assert HubCounts(cast(Hub, hub)).store_errors() == 2


def test_metrics_count_matches_moves_and_requests_by_route_template(app: AppClient) -> None:
    before = scrape(app)
    match = app.post("/api/matches", {"game": "extra-meters", "players": TWO_BOTS,
                                      "seed": 5})
    until(lambda: app.get(f"/api/matches/{match['id']}")["status"] == "finished",
          "the bots to finish", 30)
    person = app.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
    token = person["seats"][0]["token"]
    app.get(f"/api/matches/{person['id']}?token={token}")
    assert app.call("GET", "/no/such/page")[0] == 404
    after = scrape(app)
    moves = app.get(f"/api/matches/{match['id']}")["version"]
    assert value(after, "dicegames_moves_total") - value(before, "dicegames_moves_total") >= moves
    assert value(after, "dicegames_matches_stored") == value(
        before, "dicegames_matches_stored") + 2
    assert value(after, "dicegames_matches_live") >= 1
    route = {"method": "GET", "route": "/api/matches/{match_id}", "status": "200"}
    assert value(after, "dicegames_http_request_duration_seconds_count", **route) >= 2
    assert value(after, "dicegames_http_request_duration_seconds_count", method="GET",
                 route="unmatched", status="404") == 1
    assert value(after, "dicegames_http_request_duration_seconds_count", method="POST",
                 route="/api/matches", status="201") >= 2
    text = app.http.get("/metrics").text
    for secret in (token, person["id"], match["id"], "/no/such"):  # no id, token or raw path
        assert secret not in text


def test_metrics_count_the_open_websockets(app: AppClient) -> None:
    match = app.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
    base = value(scrape(app), "dicegames_websockets")
    with app.connect(f"/ws/matches/{match['id']}") as first, \
            app.connect(f"/ws/matches/{match['id']}") as second:
        first.recv_json()
        second.recv_json()
        assert value(scrape(app), "dicegames_websockets") == base + 2
    until(lambda: value(scrape(app), "dicegames_websockets") == base,
          "the closed websockets to be counted out", 10)


def test_metrics_count_store_errors(app: AppClient) -> None:
    if not isinstance(app.db, Path):
        pytest.skip("the lock another program holds is a SQLite file's")
    match = app.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE})
    address = f"/api/matches/{match['id']}?token={match['seats'][0]['token']}"
    # The opening roll is the server's (it may not be stored yet): wait for a decision.
    state = until(lambda: (found := app.get(address))["hints"].get("0") and found,
                  "the opening roll, and the first player's choices")
    before = value(scrape(app), "dicegames_store_errors_total")
    holder = sqlite3.connect(app.db, isolation_level=None, timeout=10)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
        status, body = app.call("POST", f"/api/matches/{match['id']}/actions",
                                {"token": match["seats"][0]["token"],
                                 "move": state["hints"]["0"][0]["move"]})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (status, body["error"]) == (503, "store_busy")
    assert value(scrape(app), "dicegames_store_errors_total") >= before + 1


def test_metrics_are_refused_outside_loopback_unless_allowed(tmp_path: Path) -> None:
    with AppClient(tmp_path / "a.sqlite3", client=OUTSIDE) as outside:
        status, body = outside.call("GET", "/metrics")
        assert (status, body["error"]) == (403, "forbidden")
        assert outside.call("GET", "/healthz")[0] == 200  # health stays open
    allowed = OpsOptions(metrics_allow=(ip_network("203.0.113.0/24"),))
    with AppClient(tmp_path / "b.sqlite3", client=OUTSIDE, ops=allowed) as inside:
        assert inside.http.get("/metrics").status_code == 200


def test_metrics_off_removes_the_route(tmp_path: Path) -> None:
    with AppClient(tmp_path / "games.sqlite3", ops=OpsOptions(metrics=False)) as off:
        assert off.call("GET", "/metrics")[0] == 404
        assert off.call("GET", "/healthz")[0] == 200


def test_who_may_read() -> None:
    allowed = OpsOptions.parse_networks("10.0.0.0/8, 192.168.1.7,fd00::/8")
    assert may_read("127.0.0.1", ()) and may_read("::1", ()) and may_read("127.9.9.9", ())
    assert not may_read("10.1.2.3", ()) and may_read("10.1.2.3", allowed)
    assert may_read("192.168.1.7", allowed) and not may_read("192.168.1.8", allowed)
    assert may_read("::ffff:10.0.0.1", allowed) and may_read("fd12::1", allowed)
    assert not may_read("testclient", allowed) and not may_read(None, allowed)
    with pytest.raises(ValueError, match="not an address"):
        OpsOptions.parse_networks("10.0.0.0/8,nowhere")


class FakeCounts:
    """Counts set by the test."""

    def __init__(self) -> None:
        self.live, self.moves, self.errors, self.waiting, self.reviews = 0, 0, 0, (0, 0), 0

    def live_matches(self) -> int:
        return self.live

    def moves_applied(self) -> int:
        return self.moves

    def store_errors(self) -> int:
        return self.errors

    def analysis_waiting(self) -> tuple[int, int]:
        return self.waiting

    def reviews_active(self) -> int:
        return self.reviews


def test_sampling_copies_the_counts_once() -> None:
    metrics, counts = Metrics(), FakeCounts()
    counts.live, counts.moves, counts.errors, counts.waiting, counts.reviews = 3, 7, 1, (2, 5), 1
    metrics.sample(counts)
    metrics.sample(counts)  # the same counts again: the counters do not grow
    text = metrics.render().decode()
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(text) for s in family.samples}
    assert value(samples, "dicegames_matches_live") == 3
    assert value(samples, "dicegames_moves_total") == 7
    assert value(samples, "dicegames_store_errors_total") == 1
    assert value(samples, "dicegames_analysis_waiting", kind="hint") == 2
    assert value(samples, "dicegames_analysis_waiting", kind="review") == 5
    assert value(samples, "dicegames_reviews_active") == 1


def test_the_pool_says_how_many_jobs_wait_for_a_worker() -> None:
    async def scenario() -> list[tuple[int, int]]:
        pool = AnalysisPool(workers=0)  # no worker: every job waits until its deadline
        seen = [pool.waiting()]
        deadline = time.monotonic() + 5
        jobs: list[asyncio.Task[Any]] = [
            asyncio.ensure_future(pool.run(print, deadline=deadline, urgent=urgent))
            for urgent in (True, False, False)]
        await asyncio.sleep(0.05)
        seen.append(pool.waiting())
        for job in jobs:
            job.cancel()
        for job in jobs:
            with contextlib.suppress(asyncio.CancelledError, Busy):
                await job
        seen.append(pool.waiting())
        pool.close()
        return seen

    assert asyncio.run(scenario()) == [(0, 0), (1, 2), (0, 0)]


def test_a_bad_metrics_allow_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from dicegames.cli import main
    assert main(["serve", "--port", "0", "--metrics-allow", "10.0.0.0/8,nowhere"]) == 2
    error = capsys.readouterr().err
    assert "--metrics-allow" in error and "'nowhere' is not an address" in error
    assert "Traceback" not in error
