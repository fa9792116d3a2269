"""Per-client limits against a real server: rates with 429 and Retry-After, open websockets,
the command line's checks, and one client's burst that must not grow the server's memory.

A server here runs with its limits on (``Server(..., limited=True)``); the other web tests
run theirs off (they make bursts from one address on purpose).
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dicegames.cli import _serve_limits, build_parser, main
from dicegames.web.limits import (
    DEFAULT_RATES,
    SOCKETS_PER_CLIENT,
    ClientLimits,
    Rate,
    RateLimited,
    RateLimits,
)
from dicegames.web.resident import IDLE_EVICT, MATCHES_IN_MEMORY
from dicegames.web.sockets import PING_INTERVAL, PING_TIMEOUT
from web.server import Server
from web.test_fuzz_ws import BIG_BOARD  # the largest board allowed (26 x 99 cells)
from web.test_security import record_of

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]



@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose every limit is 2 requests per minute, and 2 open sockets."""
    rates = [arg for kind in DEFAULT_RATES for arg in ("--rate-limit", f"{kind}=2/60")]
    db = tmp_path_factory.mktemp("limits") / "games.sqlite3"
    running = Server(db, extra=(*rates, "--max-sockets", "2"), limited=True).start()
    yield running
    running.stop()


def request(url: str, method: str, path: str, body: object = None, source: str = "127.0.0.1"
            ) -> tuple[int, dict[str, str], Any]:
    """One request from the loopback address ``source``: status, headers, JSON."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30,
                                            source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data,
                           headers={"content-type": "application/json"})
        answer = connection.getresponse()
        headers = {name.lower(): value for name, value in answer.getheaders()}
        return answer.status, headers, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def new_match(server: Server, source: str, **body: Any) -> dict[str, Any]:
    """A new match of two people, created from the loopback address ``source``."""
    status, _, match = request(server.url, "POST", "/api/matches",
                               {"game": "extra-meters", "players": TWO_PEOPLE, **body}, source)
    assert status == 201, match
    assert isinstance(match, dict)
    return match


def _limited_requests(server: Server, match: dict[str, Any]) -> dict[str, tuple[str, str, Any]]:
    """One request of each limited kind (method, path, body)."""
    token = match["seats"][0]["token"]
    record = record_of("extra-meters", 6)
    return {"create": ("POST", "/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE}),
            "join": ("POST", f"/api/tables/{match['id']}/join", {"name": "Cy"}),
            "upload": ("POST", "/api/replays", record),
            "hint": ("GET", f"/api/matches/{match['id']}/hint?token={token}", None),
            "review": ("GET", f"/api/matches/{match['id']}/review", None)}


@pytest.mark.process
@pytest.mark.parametrize("kind", list(DEFAULT_RATES))
def test_each_limited_request_past_its_rate_gets_429_with_retry_after(
        limited: Server, kind: str) -> None:
    """Two requests of a kind pass (whatever their answer), the third is refused before it
    is read, with the limit in the message; another kind and another address still pass."""
    source = f"127.0.1.{list(DEFAULT_RATES).index(kind) + 1}"  # a fresh client per kind
    match = new_match(limited, f"127.0.2.{list(DEFAULT_RATES).index(kind) + 1}")
    method, path, body = _limited_requests(limited, match)[kind]
    for _ in range(2):
        status, _, answer = request(limited.url, method, path, body, source)
        assert status != 429, answer
    status, headers, answer = request(limited.url, method, path, body, source)
    assert status == 429, answer
    assert answer["error"] == "rate_limited"
    assert "at most 2 every 60 seconds" in answer["message"], answer
    assert headers["retry-after"].isdigit() and 1 <= int(headers["retry-after"]) <= 30
    # A request of another kind, and the same request from another address, pass.
    status, _, answer = request(limited.url, "GET", f"/api/matches/{match['id']}", None, source)
    assert status == 200, answer
    status, _, answer = request(limited.url, method, path, body, "127.0.3.1")
    assert status != 429, answer


@pytest.mark.process
def test_a_refusal_in_another_language_says_so_in_it(limited: Server) -> None:
    source = "127.0.4.1"
    for _ in range(2):
        request(limited.url, "GET", "/api/matches/nothing/review?lang=fr", None, source)
    status, _, answer = request(limited.url, "GET", "/api/matches/nothing/review?lang=fr",
                                None, source)
    assert status == 429 and answer["error"] == "rate_limited"
    assert "at most 2" in answer["detail"] and answer["message"] != answer["detail"]


@pytest.mark.process
def test_hints_over_a_websocket_count_too(limited: Server) -> None:
    match = new_match(limited, "127.0.5.1", dice="manual")
    limited.post(f"/api/matches/{match['id']}/dice", {"token": match["seats"][0]["token"],
                                                      "dice": "3"})
    token = match["seats"][0]["token"]
    url = f"{limited.ws_url}/ws/matches/{match['id']}?token={token}"
    answers = []
    with connect(url, open_timeout=10, source_address=("127.0.5.1", 0)) as sock:
        for ident in range(3):
            sock.send(json.dumps({"type": "hint", "id": ident}))
            while (message := json.loads(sock.recv(timeout=10)))["type"] == "state":
                pass
            answers.append(message)
    assert [answer["type"] for answer in answers[:2]] == ["hint", "hint"], answers
    refused = answers[2]
    assert (refused["type"], refused["status"], refused["error"]) == (
        "error", 429, "rate_limited"), refused
    assert isinstance(refused["retry_after"], int) and refused["retry_after"] >= 1


@pytest.mark.process
def test_one_client_holds_a_bounded_number_of_websockets(limited: Server) -> None:
    """The third open websocket of one address is closed with 4429; when one closes, a
    new one is taken again."""
    match = new_match(limited, "127.0.6.1")
    url = f"{limited.ws_url}/ws/matches/{match['id']}"

    def opened() -> ClientConnection:
        return connect(url, open_timeout=10, source_address=("127.0.6.1", 0))

    with opened() as first, opened():
        with connect(url, open_timeout=10) as elsewhere:  # another address: its own count
            assert json.loads(elsewhere.recv(timeout=10))["type"] == "state"
        with opened() as third:
            error = json.loads(third.recv(timeout=10))
            assert (error["status"], error["error"]) == (429, "rate_limited"), error
            with pytest.raises(ConnectionClosed) as closed:
                third.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        first.close()
        deadline = time.monotonic() + 10  # until the server has seen the close
        while True:
            with opened() as again:
                message = json.loads(again.recv(timeout=10))
            if message["type"] == "state" or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert message["type"] == "state", message


# ----------------------------------------------------------------- the buckets themselves


def test_a_bucket_refills_at_its_rate_and_says_how_long_to_wait() -> None:
    now = [0.0]
    limits = RateLimits(ClientLimits({"create": Rate(3, 30)}), clock=lambda: now[0])
    for _ in range(3):
        limits.check("create", "a")
    with pytest.raises(RateLimited) as refused:
        limits.check("create", "a")
    assert refused.value.retry_after == 10 and refused.value.status == 429
    now[0] = 9.0
    with pytest.raises(RateLimited) as refused:
        limits.check("create", "a")
    assert refused.value.retry_after == 1
    now[0] = 10.0
    limits.check("create", "a")  # one request back after 10 s
    limits.check("create", "b")  # another client has its own bucket
    limits.check("join", "a")  # an unlimited kind
    now[0] = 1000.0
    for _ in range(3):  # a full bucket again, never more
        limits.check("create", "a")
    with pytest.raises(RateLimited):
        limits.check("create", "a")


def test_the_buckets_kept_are_bounded() -> None:
    limits = RateLimits(ClientLimits({"hint": Rate(1, 60)}), max_clients=100)
    for client in range(1000):
        limits.check("hint", str(client))
    assert len(limits._buckets) == 100


def test_rates_are_parsed_and_checked() -> None:
    assert Rate.parse("30/300") == Rate(30, 300.0)
    assert str(Rate.parse("5/0.5")) == "5/0.5"
    for bad in ("30", "x/3", "0/10", "3/0", "3/nan", "3/inf", "-1/5"):
        with pytest.raises(ValueError, match="COUNT/SECONDS"):
            Rate.parse(bad)


@pytest.mark.parametrize(("arguments", "message"), [
    (("--rate-limit", "create=0/5"), "--rate-limit create: '0/5' is not COUNT/SECONDS"),
    (("--rate-limit", "chat=1/5"), "KIND one of create, join, upload, hint, review"),
    (("--idle-evict", "0"), "--idle-evict takes seconds"),
    (("--ping-timeout", "-1"), "--ping-timeout takes seconds"),
    (("--max-sockets", "-1"), "--max-sockets takes a count"),
])
def test_bad_limits_on_the_command_line_are_one_line(
        tmp_path: Path, arguments: tuple[str, ...], message: str,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def served(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the server started with {arguments}")

    monkeypatch.setattr("dicegames.web.server.serve", served)
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "g.sqlite3"),
                 *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and len(error.strip().splitlines()) == 1, error


@pytest.mark.process
def test_a_bad_limit_is_one_line_from_the_real_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "dicegames", "serve", "--port", "0", "--db",
                           str(tmp_path / "g.sqlite3"), "--max-sockets", "-1"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done
    assert "--max-sockets takes a count" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def test_the_command_lines_defaults_are_the_servers() -> None:
    """``dicegames serve`` states its defaults without importing the web app; they are the
    web app's constants."""
    chosen = _serve_limits(build_parser().parse_args(["serve"]))
    assert chosen == {"client_limits": ClientLimits(dict(DEFAULT_RATES), SOCKETS_PER_CLIENT),
                      "idle_evict": IDLE_EVICT, "matches_in_memory": MATCHES_IN_MEMORY,
                      "ping_interval": PING_INTERVAL, "ping_timeout": PING_TIMEOUT}
    off = _serve_limits(build_parser().parse_args(["serve", "--no-rate-limits"]))
    assert off["client_limits"] == ClientLimits.off()


# ----------------------------------------------------------------- memory


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.process
def test_one_clients_burst_of_big_matches_and_uploads_stays_under_200_mb(
        tmp_path: Path) -> None:
    """400 creations on the largest board, each looked at, and 60 uploads, as fast as one
    client can: the server's memory grows by less than 200 MB (it grew 1.4 GB for 900
    creations before: nothing limited them, and every match stayed in memory)."""
    running = Server(tmp_path / "games.sqlite3", limited=True).start()
    assert running.process is not None
    try:
        record = record_of("shortcut", 400, board=BIG_BOARD)
        running.call("POST", "/api/replays", record)  # the code these requests use, loaded
        before = _rss_mb(running.process.pid)  # (what a server holds for good)
        statuses: dict[int, int] = {}
        for number in range(400):
            status, match = running.call("POST", "/api/matches", {
                "game": "shortcut", "players": TWO_PEOPLE, "options": {"board": BIG_BOARD}})
            statuses[status] = statuses.get(status, 0) + 1
            if status == 201:
                running.get(f"/api/matches/{match['id']}")
            if number % 7 == 0:
                status, _ = running.call("POST", "/api/replays", record)
                statuses[status] = statuses.get(status, 0) + 1
        grown = _rss_mb(running.process.pid) - before
    finally:
        running.stop()
    assert grown < 200, (grown, statuses)
    assert statuses.get(429, 0) > 300, statuses


@pytest.mark.process
def test_the_limits_do_not_apply_to_other_requests(limited: Server) -> None:
    """Reading states and games is never limited (only the listed kinds are counted)."""
    match = new_match(limited, "127.0.7.1")
    for _ in range(50):
        limited.get(f"/api/matches/{match['id']}")
    assert limited.get("/api/games")["games"]
