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
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import dicegames
from dicegames.web.server import spawn

GAMES = 100
SECONDS = 10.0
THINK = (0.2, 1.0)


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


if __name__ == "__main__":
    print(json.dumps(web_load(), indent=2))
