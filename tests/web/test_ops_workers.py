"""``dicegames serve --workers 2`` on PostgreSQL: one scrape, whichever worker answers it,
sums both workers' metrics (``prometheus_client``'s multiprocess mode, in a folder named by
``PROMETHEUS_MULTIPROC_DIR``), and the workers write JSON request lines (their logging is
set up in each worker, which starts afresh)."""

from __future__ import annotations

import json
import os
import re
import signal
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from dicegames.web.server import spawn
from polling import until

pytestmark = pytest.mark.process

TWO_BOTS = [{"kind": "bot:easy"}, {"kind": "bot:easy"}]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:  # a new connection each time
        return str(answer.read().decode())


def _post(url: str, body: object) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


def _moves(url: str) -> float:
    text = _get(url + "/metrics")
    samples = {s.name: s.value for family in text_string_to_metric_families(text)
               for s in family.samples if not s.labels}
    return samples.get("dicegames_moves_total", 0.0)


def _finished(url: str) -> dict[str, Any] | None:
    """The match's state once its game is over, else None."""
    state: dict[str, Any] = json.loads(_get(url))
    return state if state["status"] == "finished" else None


def test_one_scrape_sums_the_workers(pg_dsn: str, tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    try:
        process, url = spawn(pg_dsn, 0.0, ("--workers", "2", "--no-rate-limits",
                                           "--log-format", "json"))
    finally:
        del os.environ["PROMETHEUS_MULTIPROC_DIR"]
    try:
        ids = [str(_post(url + "/api/matches", {"game": "extra-meters", "players": TWO_BOTS,
                                               "seed": seed})["id"]) for seed in range(8)]
        played = 0
        for match_id in ids:
            state = until(lambda m=match_id: _finished(f"{url}/api/matches/{m}"),  # type: ignore[misc]
                          "the bots to finish", 60)
            played += int(state["version"])
        writers = {re.search(r"_(\d+)\.db$", p.name).group(1)  # type: ignore[union-attr]
                   for p in folder.glob("counter_*.db")}
        until(lambda: all(_moves(url) >= played for _ in range(6)),
              "every scrape, whichever worker answers, to count every worker's moves", 15)
        assert len(writers) >= 2, writers  # both workers counted moves
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=20)
    lines = [json.loads(line) for line in out.splitlines()[1:] if line.startswith("{")]
    assert any(line.get("route") == "/api/matches/{match_id}" for line in lines)
