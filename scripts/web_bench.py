"""The web app's load figure for ``make bench``: concurrent games over the websocket API.

A real ``dicegames serve`` process (no bot pause, a temporary SQLite file) serves
:data:`GAMES` matches at once, cycling through every registered game, two people per match.
One asyncio client per match holds both seats' tokens on one websocket and answers each
state with a random legal move from the hints; a finished match is replaced by a new one,
so the load stays constant. Measured: acknowledged moves per second, and the latency of
each move from send to acknowledgement (the move is committed to SQLite before the ack),
as p50 / p99 / max. Every request goes to loopback only; the run stops by itself.

Two paces: ``people`` answers after a think time of :data:`THINK` seconds (quick players
on 100 tables), ``flat out`` answers at once, which measures the server's capacity: there
the latency is mostly queueing (100 moves always waiting), about games / throughput.

The largest boards (:func:`big_boards`): :data:`BIG_GAMES` bot matches at once on the
largest board the limits allow (a 26 x 99 Shortcut grid, a Monza circuit of six lanes of
200 squares: :mod:`dicegames.games.largest`), at the server's default bot pace, each watched
by two spectators' websockets, one reading English and one French; meanwhile a probe sends
a simple GET (:data:`PROBE`) every :data:`PROBE_EVERY` seconds on a new connection and
times it. The figure is that GET's p50 and p99: how much the matches' moves and pushes
delay everyone else.

Several processes on one PostgreSQL database (``--cluster``): :mod:`web_bench_cluster`.
"""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import dicegames
from dicegames.web.server import spawn

GAMES = 100
SECONDS = 10.0
THINK = (0.2, 1.0)

BIG_GAMES = 16
"""Matches played at once on the largest boards."""

BIG_SECONDS = 10.0
"""Seconds the probe runs while they play."""

BOT_PACE = 0.7
"""The bots' pause before a move, as ``dicegames serve`` has it by default (seconds)."""

WATCHED_IN = ("en", "fr")
"""Each big match is watched by one spectator per language here (the server builds each
language's state apart)."""

PROBE = "/api/games"
"""The simple GET whose latency is measured beside the big matches."""

PROBE_EVERY = 0.02
"""Seconds between two probes."""

LARGEST = Path(__file__).resolve().parent.parent / "src" / "dicegames" / "games" / "largest.py"
"""This checkout's largest boards (loaded by path: an older release's server is measured
on the same boards)."""


def _create(url: str, game_id: str, seed: int) -> dict[str, Any]:
    body = json.dumps({"game": game_id, "seed": seed, "players": [
        {"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]}).encode()
    request = urllib.request.Request(url + "/api/matches", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        created: dict[str, Any] = json.loads(answer.read())
    return created


async def _play(socket: ClientConnection, rng: random.Random, deadline: float,
                think: tuple[float, float], latencies: list[float]) -> bool:
    """Play one match until it ends (True) or the deadline passes (False)."""
    state: dict[str, Any] = {}
    acked = 0
    ident = 0
    while time.perf_counter() < deadline:
        message = json.loads(await socket.recv())
        if message["type"] == "state":
            state = message["state"]
        if state.get("status") != "playing" and state:
            return True
        choices = [(int(seat), hints) for seat, hints in state.get("hints", {}).items() if hints]
        if message["type"] != "state" or not choices or state["version"] < acked:
            continue
        seat, hints = rng.choice(choices)
        if think[1] > 0:
            await asyncio.sleep(rng.uniform(*think))
        ident += 1
        sent = time.perf_counter()
        await socket.send(json.dumps({"type": "act", "seat": seat, "id": ident,
                                      "move": rng.choice(hints)["move"]}))
        while True:
            answer = json.loads(await socket.recv())
            if answer["type"] == "state":
                state = answer["state"]
            elif answer["id"] == ident:
                break
        if answer["type"] != "ack":
            raise RuntimeError(f"the server refused a legal move: {answer}")
        latencies.append(time.perf_counter() - sent)
        acked = answer["version"]
    return False


async def _client(url: str, number: int, deadline: float, think: tuple[float, float],
                  tally: dict[str, Any]) -> None:
    specs = dicegames.games()
    rng = random.Random(number)
    round_number = 0
    while time.perf_counter() < deadline:
        spec = specs[(number + round_number) % len(specs)]
        round_number += 1
        match = await asyncio.to_thread(_create, url, spec.id, number * 1000 + round_number)
        tokens = ",".join(seat["token"] for seat in match["seats"])
        ws_url = "ws" + url.removeprefix("http") + f"/ws/matches/{match['id']}?token={tokens}"
        async with connect(ws_url, max_size=2**22) as socket:
            if await _play(socket, rng, deadline, think, tally["latencies"]):
                tally["finished"] += 1


async def _load(url: str, games: int, seconds: float,
                think: tuple[float, float]) -> dict[str, Any]:
    tally: dict[str, Any] = {"latencies": [], "finished": 0}
    start = time.perf_counter()
    deadline = start + seconds
    await asyncio.gather(*(_client(url, n, deadline, think, tally) for n in range(games)))
    elapsed = time.perf_counter() - start
    ordered = sorted(tally["latencies"])
    return {
        "pace": f"people ({think[0]}-{think[1]} s)" if think[1] > 0 else "flat out",
        "games": games, "seconds": round(elapsed, 2), "moves": len(ordered),
        "finished_games": tally["finished"],
        "moves_per_s": len(ordered) / elapsed,
        "p50_ms": 1000 * statistics.median(ordered) if ordered else None,
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        if ordered else None,
        "max_ms": 1000 * ordered[-1] if ordered else None,
    }


def web_load(games: int = GAMES, seconds: float = SECONDS) -> list[dict[str, Any]]:
    """Run both paces against a fresh server process each and return their figures."""
    return [_run(games, seconds, THINK), _run(games, seconds, (0.0, 0.0))]


def _run(games: int, seconds: float, think: tuple[float, float]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="dicegames-bench-") as folder:
        process, url = spawn(Path(folder) / "bench.sqlite3", bot_delay=0.0,
                             extra=("--no-rate-limits",))
        try:
            return asyncio.run(_load(url, games, seconds, think))
        finally:
            process.terminate()
            process.wait(10)


def largest() -> ModuleType:
    """:mod:`dicegames.games.largest` of this checkout, whichever dicegames is imported."""
    spec = importlib.util.spec_from_file_location("dicegames_largest", LARGEST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def big_match_body(game_id: str, bots: int = 2) -> dict[str, Any]:
    """The request that creates a bot match on ``game_id``'s largest board."""
    boards = largest()
    options = ({"board": boards.shortcut_board()} if game_id == "shortcut"
               else {"circuit": boards.monza_circuit()})
    return {"game": game_id, "options": options,
            "players": [{"name": f"Bot {n + 1}", "kind": "bot:easy"} for n in range(bots)]}


def probe(url: str, path: str = PROBE) -> float:
    """Seconds one GET of ``path`` takes on a new connection (the answer read whole)."""
    host, port = url.removeprefix("http://").split(":")
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"GET {path} answered {answer.status}")
    finally:
        connection.close()
    return time.perf_counter() - started


def probe_for(url: str, seconds: float, every: float = PROBE_EVERY) -> list[float]:
    """:func:`probe` every ``every`` seconds for ``seconds``; the times, in seconds."""
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        times.append(probe(url))
        time.sleep(every)
    return times


async def _watch(url: str, match_id: str, lang: str, stop: asyncio.Event,
                 tally: dict[str, int]) -> None:
    """A spectator reading every push of a match in ``lang`` until ``stop``."""
    ws_url = "ws" + url.removeprefix("http") + f"/ws/matches/{match_id}?lang={lang}"
    async with connect(ws_url, max_size=2**23) as socket:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(socket.recv(), 0.5)
            except TimeoutError:
                continue
            tally["pushes"] += 1
            tally["bytes"] += len(message)


async def _big_load(url: str, game_id: str, games: int, seconds: float) -> dict[str, Any]:
    body = big_match_body(game_id)
    ids = [(await asyncio.to_thread(_post, url, body))["id"] for _ in range(games)]
    tally = {"pushes": 0, "bytes": 0}
    stop = asyncio.Event()
    watchers = [asyncio.ensure_future(_watch(url, match_id, lang, stop, tally))
                for match_id in ids for lang in WATCHED_IN]
    await asyncio.sleep(1.0)  # every match under way, every spectator served its first state
    before = sum(_version(url, match_id) for match_id in ids)
    times = await asyncio.to_thread(probe_for, url, seconds)
    moves = sum(_version(url, match_id) for match_id in ids) - before
    stop.set()
    await asyncio.gather(*watchers)
    ordered = sorted(times)
    return {"game": game_id, "games": games, "moves_per_s": moves / seconds,
            "push_kb": tally["bytes"] / max(1, tally["pushes"]) / 1024,
            "get_p50_ms": 1000 * statistics.median(ordered),
            "get_p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            "get_max_ms": 1000 * ordered[-1]}


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url + "/api/matches", data=json.dumps(body).encode(),
                                     method="POST", headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        created: dict[str, Any] = json.loads(answer.read())
    return created


def _version(url: str, match_id: str) -> int:
    with urllib.request.urlopen(f"{url}/api/matches/{match_id}", timeout=60) as answer:
        version: int = json.loads(answer.read())["version"]
    return version


def big_boards(games: int = BIG_GAMES, seconds: float = BIG_SECONDS) -> list[dict[str, Any]]:
    """The simple GET's latency beside ``games`` bot matches on the largest Shortcut board,
    then on the largest Monza circuit (a fresh server process each)."""
    rows = []
    for game_id in ("shortcut", "monza"):
        with tempfile.TemporaryDirectory(prefix="dicegames-bench-") as folder:
            process, url = spawn(Path(folder) / "bench.sqlite3", bot_delay=BOT_PACE)
            try:
                rows.append(asyncio.run(_big_load(url, game_id, games, seconds)))
            except urllib.error.HTTPError as error:  # a release that refuses such a board
                rows.append({"game": game_id, "games": games, "refused": error.code})
            finally:
                process.terminate()
                process.wait(10)
    return rows


if __name__ == "__main__":
    sys.setswitchinterval(0.001)  # the probe thread gets the GIL back quickly
    if sys.argv[1:] == ["--big"]:
        print(json.dumps(big_boards(), indent=2))
    elif sys.argv[1:] == ["--cluster"]:  # one or two processes, SQLite and PostgreSQL
        import web_bench_cluster
        print(json.dumps(web_bench_cluster.cluster_figures(), indent=2))
    else:
        print(json.dumps(web_load(), indent=2))
