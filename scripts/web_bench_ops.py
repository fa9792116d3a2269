"""What operating the server costs: the metrics' and request logs' share of a request.

Two figures (docs/performance.md, "Health, metrics and logs"):

1. in process, the work :class:`dicegames.web.ops.Observer` adds to every HTTP request
   (the route's template, the latency histogram, the log level's check), and a JSON request
   line formatted (:class:`dicegames.web.logs.JsonFormatter`), in microseconds;
2. real ``dicegames serve`` processes answering ``GET /api/matches/{id}?token=...`` (the
   cheapest request that reads a match) on one kept-alive connection, with plain logs (no
   request line) and with ``--log-format json`` (a line per request), started in turn,
   ``--rounds`` times; medians of requests per second and their ratio.

Usage: ``python scripts/web_bench_ops.py [--rounds 5] [--requests 2000]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import statistics
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

from starlette.routing import Route

from dicegames.web.logs import JsonFormatter
from dicegames.web.metrics import Metrics
from dicegames.web.ops import access_log, request_fields, route_template
from dicegames.web.server import ADDRESS

CONFIGS = {"plain": (), "json": ("--log-format", "json")}
PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def per_request_cost(count: int = 100_000) -> tuple[float, float]:
    """Microseconds the Observer adds to a request, and a JSON request line's formatting."""
    metrics = Metrics()
    route = Route("/api/matches/{match_id}", lambda request: None)
    scope = {"type": "http", "path": "/api/matches/abc", "method": "GET", "route": route,
             "query_string": b"token=abc", "client": ("127.0.0.1", 1)}

    def observe() -> None:
        template = route_template([], scope)
        metrics.observe_request("GET", template, 200, 0.001)
        access_log.isEnabledFor(logging.INFO)

    observed = timeit.timeit(observe, number=count) / count
    record = logging.LogRecord("dicegames.access", logging.INFO, __file__, 1, "%s %s %d",
                               ("GET", "/api/matches/{match_id}", 200), None)
    for key, value in request_fields(scope, "GET", "/api/matches/{match_id}", 200,
                                     0.001).items():
        setattr(record, key, value)
    formatter = JsonFormatter()
    formatted = timeit.timeit(lambda: formatter.format(record), number=count // 10) / (
        count // 10)
    return observed * 1e6, formatted * 1e6


def requests_per_second(extra: tuple[str, ...], requests: int) -> float:
    """One server with ``extra`` options: GETs of one match's state per second."""
    db = Path(tempfile.mkdtemp(prefix="dicegames-bench-ops-")) / "games.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "dicegames", "serve", "--port", "0", "--db", str(db),
         "--bot-delay", "0", "--no-rate-limits", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        found = ADDRESS.search(process.stdout.readline())
        assert found is not None, "the server did not start"
        port = int(found.group(1).rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/api/matches", json.dumps(
            {"game": "extra-meters", "players": PEOPLE}), {"content-type": "application/json"})
        match = json.loads(connection.getresponse().read())
        path = f"/api/matches/{match['id']}?token={match['seats'][0]['token']}"
        for _ in range(200):  # warm up
            connection.request("GET", path)
            connection.getresponse().read()
        began = timeit.default_timer()
        for _ in range(requests):
            connection.request("GET", path)
            connection.getresponse().read()
        return requests / (timeit.default_timer() - began)
    finally:
        process.terminate()
        process.wait(15)


def main() -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    observed, formatted = per_request_cost()
    print(f"in process: the observer adds {observed:.1f} us to a request; a JSON request "
          f"line takes {formatted:.1f} us to format")
    seen: dict[str, list[float]] = {name: [] for name in CONFIGS}
    for _ in range(args.rounds):
        for name, extra in CONFIGS.items():
            seen[name].append(requests_per_second(extra, args.requests))
    for name, rates in seen.items():
        print(f"{name:>6}: median {statistics.median(rates):.0f} GET/s  "
              f"({', '.join(f'{rate:.0f}' for rate in rates)})")
    ratio = statistics.median(seen["json"]) / statistics.median(seen["plain"])
    print(f"json / plain: {ratio:.2f}")


if __name__ == "__main__":
    main()
