"""Operating real ``dicegames serve`` processes: their logs never hold a seat token, and one
scrape sums the metrics of several processes (``PROMETHEUS_MULTIPROC_DIR``).

Each server's output (standard output and error) is read back after it stops: every line
of it is searched for the tokens the test used, in the query (``?token=``, ``?seat=``), a
``Referer``, a JSON body and a websocket's address.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from dicegames.web.server import spawn
from polling import until

pytestmark = pytest.mark.process

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
TWO_BOTS = [{"kind": "bot:easy"}, {"kind": "bot:easy"}]


class Running:
    """A server process started by :func:`served`: its URL, and its output once stopped."""

    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.url = url
        self.output = ""

    def call(self, method: str, path: str, body: object = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """One request: its status and JSON answer (or text)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"content-type": "application/json",
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, raw.decode()

    def metrics(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        """One scrape's samples: (name, sorted labels without ``pid``) -> value."""
        status, text = self.call("GET", "/metrics")
        assert status == 200, text
        return {(s.name, tuple(sorted((k, v) for k, v in s.labels.items() if k != "pid"))):
                s.value for family in text_string_to_metric_families(text)
                for s in family.samples}


@contextmanager
def served(db: Path, *extra: str, env: dict[str, str] | None = None) -> Iterator[Running]:
    """A ``dicegames serve`` process over ``db`` with ``extra`` options (and ``env`` added to
    its environment), stopped (SIGTERM) at the end, its whole output then kept."""
    saved = {key: os.environ.get(key) for key in env or {}}
    os.environ.update(env or {})
    try:
        process, url = spawn(db, 0.0, ("--no-rate-limits", *extra))
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
    running = Running(process, url)
    try:
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            out, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            out, _ = process.communicate(timeout=15)
        running.output = out


def use_tokens(server: Running) -> list[str]:
    """Make requests that carry seat tokens every way a client does; the tokens."""
    match = server.call("POST", "/api/matches", {"game": "extra-meters",
                                                 "players": TWO_PEOPLE})[1]
    ann, ben = (seat["token"] for seat in match["seats"])
    path = f"/api/matches/{match['id']}"
    state = server.call("GET", f"{path}?token={ann}")[1]
    assert server.call("GET", f"/m/{match['id']}?seat={ann}")[0] == 200
    assert server.call("GET", f"{path}/qr?token={ben}")[0] == 200
    # a page opened by a seat link sends its address as the Referer of its requests
    server.call("GET", f"{path}?token={ann},{ben}",
                headers={"referer": f"{server.url}/m/{match['id']}?seat={ann}"})
    move = state["hints"]["0"][0]["move"]
    assert server.call("POST", f"{path}/actions", {"token": ann, "move": move})[0] == 200
    server.call("POST", f"{path}/actions", {"token": ben, "move": move})  # accepted or not
    assert server.call("GET", f"{path}?token=not-{ann}")[0] == 403
    ws = "ws" + server.url.removeprefix("http")
    with connect(f"{ws}/ws/matches/{match['id']}?token={ann}") as socket:
        assert json.loads(socket.recv(timeout=10))["type"] == "state"
    return [ann, ben]


def test_json_logs_have_a_line_per_request_and_never_a_token(tmp_path: Path) -> None:
    with served(tmp_path / "games.sqlite3", "--log-format", "json") as server:
        tokens = use_tokens(server)
        server.call("GET", "/healthz")
    lines = [line for line in server.output.splitlines()[1:] if line.strip()]  # after the address
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    for token in tokens:
        assert token not in server.output
    requests = [entry for entry in entries if entry["logger"] == "dicegames.access"]
    routes = {(entry["method"], entry["route"], entry["status"]) for entry in requests}
    assert ("GET", "/api/matches/{match_id}", 200) in routes
    assert ("GET", "/api/matches/{match_id}", 403) in routes
    assert ("POST", "/api/matches/{match_id}/actions", 200) in routes
    assert ("GET", "/m/{match_id}", 200) in routes
    assert ("WS", "/ws/matches/{match_id}", 101) in routes
    assert ("GET", "/healthz", 200) in routes
    for entry in requests:
        assert {"time", "level", "logger", "message", "method", "route", "path", "status",
                "duration_ms", "client"} <= set(entry)
        assert entry["level"] == "INFO" and entry["time"].endswith("Z")
    assert any(entry["query"] == "token=[redacted]" for entry in requests)
    assert any(entry["query"] == "seat=[redacted]" for entry in requests)


def test_plain_logs_never_hold_a_token_either(tmp_path: Path) -> None:
    with served(tmp_path / "games.sqlite3", "--log-level", "info") as server:
        tokens = use_tokens(server)
    for token in tokens:
        assert token not in server.output
    assert "dicegames.access: GET /api/matches/{match_id} 200" in server.output
    assert "query=token=[redacted]" in server.output


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scraped_when(server: Running, check: Callable[[Samples], bool]) -> Samples | None:
    """``server``'s scrape when ``check`` holds for it, else None."""
    samples = server.metrics()
    return samples if check(samples) else None


def test_one_scrape_sums_the_processes_and_forgets_a_killed_one(tmp_path: Path) -> None:
    """Two servers on one database share a metrics folder: a scrape of either sums both
    (moves of each, websockets of each); once one is killed with -9, its websockets and
    matches in memory leave the sum, its moves stay counted."""
    db = tmp_path / "games.sqlite3"
    folder = tmp_path / "metrics"
    folder.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(folder)}
    with served(db, env=env) as first, served(db, env=env) as second:
        played = []
        for server in (first, second):
            match = server.call("POST", "/api/matches", {"game": "extra-meters",
                                                         "players": TWO_BOTS, "seed": 3})[1]
            until(lambda s=server, m=match: s.call(  # type: ignore[misc]
                "GET", f"/api/matches/{m['id']}")[1]["status"] == "finished",
                "the bots to finish", 30)
            played.append(server.call("GET", f"/api/matches/{match['id']}")[1]["version"])
        watched = second.call("POST", "/api/matches", {"game": "extra-meters",
                                                       "players": TWO_PEOPLE})[1]
        ws = "ws" + second.url.removeprefix("http")
        with connect(f"{ws}/ws/matches/{watched['id']}") as socket:
            socket.recv(timeout=10)
            both = until(lambda: scraped_when(first, lambda m: m.get(
                ("dicegames_moves_total", ()), 0) >= sum(played) and m.get(
                ("dicegames_websockets", ())) == 1),
                "the first server's scrape to sum both processes", 15)
            assert both[("dicegames_matches_live", ())] >= 3
            second.process.send_signal(signal.SIGKILL)
            second.process.wait(10)
        after = until(lambda: scraped_when(first, lambda m: m.get(
            ("dicegames_websockets", ())) == 0),
            "the killed process's websocket to leave the sum", 15)
        assert after[("dicegames_moves_total", ())] >= sum(played)  # counted for good
        assert after[("dicegames_matches_live", ())] <= both[("dicegames_matches_live", ())] - 2
    # the first stopped cleanly, the second was forgotten: no live gauge is left behind
    assert not list(folder.glob("gauge_live*_*.db"))


def test_behind_a_proxy_an_outside_client_is_not_taken_for_loopback(tmp_path: Path) -> None:
    """The proxy on the same machine names the client in ``X-Forwarded-For`` (deploy/): the
    server believes it from loopback, so /metrics refuses an outside visitor that came
    through the proxy, and a network allowed with --metrics-allow is let in."""
    outside = {"x-forwarded-for": "203.0.113.9"}
    with served(tmp_path / "a.sqlite3") as server:
        assert server.call("GET", "/metrics")[0] == 200
        status, body = server.call("GET", "/metrics", headers=outside)
        assert (status, body["error"]) == (403, "forbidden")
        assert server.call("GET", "/readyz", headers=outside) == (200, {"status": "ready"})
    with served(tmp_path / "b.sqlite3", "--metrics-allow", "203.0.113.0/24") as server:
        assert server.call("GET", "/metrics", headers=outside)[0] == 200
    with served(tmp_path / "c.sqlite3", "--metrics", "off") as server:
        assert server.call("GET", "/metrics")[0] == 404
        assert server.call("GET", "/healthz") == (200, {"status": "ok"})
