"""How much checking big records costs everyone else, and what the server holds afterwards.

A real ``dicegames serve`` process (no bot pause, a temporary SQLite file) gets
:data:`UPLOADS` records of :data:`~dicegames.core.record.MAX_MOVES` moves uploaded at once
(each is replayed and checked in the server's checker thread), while a probe reads another
match's state every :data:`PROBE_EVERY` seconds and times it; then the server is restarted
and the same records are reopened at once (replayed from the database) under the same
probe. Figures per phase: the probe's p50 / p99 / max latency (how long the record checks
stall the event loop), the phase's wall time, and the server's resident memory (VmRSS)
after it. A third phase, ``churn``, uploads :data:`CHURN` such records one after another to
a server keeping :data:`KEPT` matches in memory (the others leave it, as idle matches do):
its memory afterwards shows whether matches that left memory are really freed.

``--compare SRC [SRC ...]`` runs the server of each source folder (a checkout's ``src``,
put first on the server's ``PYTHONPATH``) in turn, ``--rounds`` times interleaved, and
prints each figure's median over the rounds: e.g. the code before and after a change::

    .venv/bin/python scripts/web_bench_records.py --compare /tmp/old/src src --rounds 5

Every request goes to loopback only; the run stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import dicegames
from dicegames.core.chance import sample
from dicegames.core.record import MAX_MOVES, to_record
from dicegames.core.registry import games
from dicegames.core.session import Session
from dicegames.web.server import spawn

UPLOADS = 3
"""Records uploaded (and later reopened) at once."""

PROBE_EVERY = 0.01
"""Seconds between two probes."""

CHURN = 12
"""Records uploaded one after another in the ``churn`` phase."""

KEPT = 2
"""Matches the ``churn`` phase's server keeps in memory (``--matches-in-memory``)."""

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def long_record(moves: int = MAX_MOVES, seed: int = 3) -> dict[str, Any]:
    """The longest record a registered game makes within ``moves`` moves: dice sampled,
    each decision the last legal one (a game that never ends reaches ``moves``)."""
    best: dict[str, Any] = {}
    for spec in games():
        if spec.min_players > 2 or spec.max_players < 2:
            continue
        session = Session(dicegames.make(spec.id, players=2), None, seed)
        rng = random.Random(seed)
        while len(session.moves) < moves and not session.state.is_terminal:
            state = session.state
            if state.is_chance:
                session.apply(sample(state.chance_outcomes(), rng))
            else:
                seat = state.current_players[0]
                session.apply(state.legal_actions(seat)[-1], seat)
        if len(session.moves) > len(best.get("moves", ())):
            best = to_record(session)
        if len(session.moves) >= moves:
            break
    return best


def _call(url: str, method: str = "GET", body: object = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _probed(url: str, probe: str, action: Any) -> tuple[list[float], float]:
    """The probe's latencies while ``action()`` runs, and the action's wall time."""
    stop, latencies = threading.Event(), list[float]()

    def watch() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            _call(url + probe)
            latencies.append(time.perf_counter() - start)
            time.sleep(PROBE_EVERY)

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.2)
    start = time.perf_counter()
    try:
        action()
    finally:
        took = time.perf_counter() - start
        stop.set()
        watcher.join(60)
    return latencies, took


def _at_once(work: list[Any]) -> None:
    threads = [threading.Thread(target=one) for one in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)


def _figures(latencies: list[float], took: float, rss: int) -> dict[str, float]:
    ordered = sorted(latencies)
    return {"p50_ms": statistics.median(ordered) * 1000,
            "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
            "max_ms": ordered[-1] * 1000, "wall_s": took, "rss_mib": rss / 1024}


def run_once(src: str | None, record: dict[str, Any]) -> dict[str, dict[str, float]]:
    """One server (``src`` first on its path) through both phases."""
    env = os.environ.get("PYTHONPATH", "")
    if src is not None:
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(src).resolve()), env)
                                                   if p)
    try:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "games.sqlite3"
            process, url = spawn(db)
            try:
                other = _call(url + "/api/matches", "POST", {
                    "game": record["game"], "players": TWO_PEOPLE})["id"]
                ids: list[str] = []
                latencies, took = _probed(url, f"/api/matches/{other}", lambda: _at_once([
                    lambda: ids.append(_call(url + "/api/replays", "POST", record)["id"])
                    for _ in range(UPLOADS)]))
                upload = _figures(latencies, took, _rss_kib(process.pid))
            finally:
                process.terminate()
                process.wait(10)
            process, url = spawn(db)
            try:
                _call(url + f"/api/matches/{other}")
                latencies, took = _probed(url, f"/api/matches/{other}", lambda: _at_once([
                    lambda i=i: _call(url + f"/api/matches/{i}") for i in ids]))
                reopen = _figures(latencies, took, _rss_kib(process.pid))
            finally:
                process.terminate()
                process.wait(10)
            process, url = spawn(db, extra=["--matches-in-memory", str(KEPT),
                                            "--no-rate-limits"])
            try:
                _call(url + f"/api/matches/{other}")
                latencies, took = _probed(url, f"/api/matches/{other}", lambda: [
                    _call(url + "/api/replays", "POST", record) for _ in range(CHURN)])
                churn = _figures(latencies, took, _rss_kib(process.pid))
            finally:
                process.terminate()
                process.wait(10)
    finally:
        os.environ["PYTHONPATH"] = env
    return {"upload": upload, "reopen": reopen, "churn": churn}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", nargs="*", default=[None],
                        help="source folders to run the server from, in turn")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    record = long_record()
    print(f"{UPLOADS} records of {len(record['moves'])} moves of {record['game']}",
          file=sys.stderr)
    runs: dict[str, list[dict[str, dict[str, float]]]] = {str(s): [] for s in args.compare}
    for round_ in range(args.rounds):
        for src in args.compare:
            result = run_once(src, record)
            runs[str(src)].append(result)
            print(f"round {round_ + 1} {src}: {json.dumps(result)}", file=sys.stderr)
    for src, results in runs.items():
        for phase in ("upload", "reopen", "churn"):
            medians = {key: statistics.median(r[phase][key] for r in results)
                       for key in results[0][phase]}
            shown = "  ".join(f"{key} {value:.1f}" for key, value in medians.items())
            print(f"{src:>30} {phase:>7}: {shown}")


if __name__ == "__main__":
    main()
