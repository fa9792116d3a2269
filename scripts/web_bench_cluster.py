"""The web app on one or several processes: SQLite alone, PostgreSQL alone, two processes on
PostgreSQL (``make bench``, or ``python scripts/web_bench_cluster.py``).

Each set-up serves :data:`GAMES` matches at once, played flat out by two people each over a
websocket (as :mod:`web_bench` plays them). The matches are spread over the processes as a
proxy would (match ``k`` on process ``k mod n``), and every :data:`WATCH_EVERY`-th match is
also watched by a spectator on the *next* process (on the same one when there is one
process), so its moves are pushed across processes. Measured per set-up:

- acknowledged moves per second;
- move to push: from sending a move to the player's socket receiving the state at its
  version (p50, p99);
- cross-process push: from the player's client reading the ack to the spectator's socket
  (on the other process) receiving that version (p50, p99); on one process, the same
  spectator on the same process;
- what a move costs, whatever else runs on the machine: CPU milliseconds per acknowledged
  move of the server processes, of PostgreSQL's backends serving the database, and of this
  load generator (``/proc``), and the database's transactions per acknowledged move
  (``pg_stat_database``: each statement of the store is one). On a machine shared with
  other work the moves per second follow the CPU share the scheduler gives these
  processes; the costs per move do not.

The set-ups run interleaved, :data:`ROUNDS` rounds of the three in turn (the order rotating),
each :data:`SECONDS` seconds on fresh processes and a fresh database; the figures are the
medians over the rounds, with the ratios the issue asks for (two processes against one on
PostgreSQL; PostgreSQL against SQLite on one process). PostgreSQL is a throwaway cluster
(tests/pgcluster.py), or ``DICEGAMES_TEST_PG``'s server. Every request goes to loopback and
the runs stop by themselves.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import dicegames
from dicegames.web.server import spawn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pgcluster import PgServer, Unavailable, session_server

GAMES = 60
SECONDS = 8.0
ROUNDS = 3
SETUPS = (("sqlite", 1), ("postgres", 1), ("postgres", 2))
WATCH_EVERY = 4
"""One match in this many has a spectator on another process (a process that shows a
match builds its states: a spectator on every match would double the work per move)."""


def _create(url: str, game_id: str, seed: int) -> dict[str, Any]:
    import urllib.request
    body = json.dumps({"game": game_id, "seed": seed, "players": [
        {"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]}).encode()
    request = urllib.request.Request(url + "/api/matches", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        created: dict[str, Any] = json.loads(answer.read())
    return created


def _ws(url: str) -> str:
    return "ws" + url.removeprefix("http")


async def _watch(socket: ClientConnection, acked: dict[int, float],
                 crossed: list[float]) -> None:
    """A spectator: the time each version arrives, against its ack's time (until its
    socket closes)."""
    seen = 0
    async for text in socket:
        message = json.loads(text)
        if message["type"] != "state":
            continue
        version = message["state"]["version"]
        now = time.perf_counter()
        if version > seen:
            seen = version
            if version in acked:
                crossed.append(now - acked.pop(version))


async def _play(socket: ClientConnection, rng: random.Random, deadline: float,
                tally: dict[str, Any], acked: dict[int, float]) -> bool:
    """Play one match flat out until it ends (True) or the deadline passes (False)."""
    state: dict[str, Any] = {}
    ident = 0
    version = -1
    while time.perf_counter() < deadline:
        if state and state.get("status") != "playing":
            return True
        choices = [(int(seat), hints) for seat, hints in state.get("hints", {}).items()
                   if hints]
        if not choices or state["version"] <= version:
            message = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if message["type"] == "state":
                state = message["state"]
            continue
        seat, hints = rng.choice(choices)
        version = state["version"]  # acted on: the next move waits for a newer state
        ident += 1
        sent = time.perf_counter()
        await socket.send(json.dumps({"type": "act", "seat": seat, "id": ident,
                                      "move": rng.choice(hints)["move"]}))
        answer: dict[str, Any] | None = None
        pushed = False
        while answer is None or not pushed:
            got = json.loads(await socket.recv())
            if got["type"] == "state":
                state = got["state"]
                if answer is not None and state["version"] >= answer["version"]:
                    pushed = True
            elif got.get("id") == ident:
                answer = got
                if answer["type"] != "ack":
                    raise RuntimeError(f"the server refused a legal move: {answer}")
                acked[answer["version"]] = time.perf_counter()
                pushed = state.get("version", -1) >= answer["version"]
        tally["push"].append(time.perf_counter() - sent)
    return False


async def _client(urls: list[str], number: int, deadline: float,
                  tally: dict[str, Any]) -> None:
    specs = dicegames.games()
    rng = random.Random(number)
    mine, watcher = urls[number % len(urls)], urls[(number + 1) % len(urls)]
    rounds = 0
    while time.perf_counter() < deadline:
        spec = specs[(number + rounds) % len(specs)]
        rounds += 1
        match = await asyncio.to_thread(_create, mine, spec.id, number * 1000 + rounds)
        tokens = ",".join(seat["token"] for seat in match["seats"])
        acked: dict[int, float] = {}
        async with connect(f"{_ws(mine)}/ws/matches/{match['id']}?token={tokens}",
                           max_size=2**22) as socket:
            if number % WATCH_EVERY:
                finished = await _play(socket, rng, deadline, tally, {})
            else:
                async with connect(f"{_ws(watcher)}/ws/matches/{match['id']}",
                                   max_size=2**22) as spectator:
                    watching = asyncio.ensure_future(_watch(spectator, acked,
                                                            tally["cross"]))
                    finished = await _play(socket, rng, deadline, tally, acked)
                    await asyncio.sleep(0.05)  # the last push on its way
                    await spectator.close()
                    await watching
        tally["finished"] += finished


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _backends(database: str) -> dict[int, float]:
    """PostgreSQL's processes serving ``database`` (their titles name it): their CPU."""
    found: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                title = cmdline.read().decode(errors="replace")
        except OSError:
            continue
        if title.startswith("postgres: ") and f" {database} " in title:
            found[int(entry)] = _cpu(int(entry))
    return found


def _commits(pg: PgServer, database: str) -> int:
    """Transactions committed in ``database`` so far (the statistics lag a little)."""
    import psycopg
    with psycopg.connect(pg.admin_dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_stat_clear_snapshot()")
        row = admin.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = %s",
                            (database,)).fetchone()
    return int(row[0]) if row is not None else 0


def _percentile(values: list[float], share: float) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _load(urls: list[str], games: int, seconds: float) -> dict[str, Any]:
    tally: dict[str, Any] = {"push": [], "cross": [], "finished": 0}
    start = time.perf_counter()
    await asyncio.gather(*(_client(urls, n, start + seconds, tally) for n in range(games)))
    elapsed = time.perf_counter() - start
    return {"moves": len(tally["push"]), "moves_per_s": len(tally["push"]) / elapsed,
            "push_p50_ms": _percentile(tally["push"], 0.5),
            "push_p99_ms": _percentile(tally["push"], 0.99),
            "cross_p50_ms": _percentile(tally["cross"], 0.5),
            "cross_p99_ms": _percentile(tally["cross"], 0.99)}


def run_setup(store: str, processes: int, pg: PgServer | None, games: int = GAMES,
              seconds: float = SECONDS) -> dict[str, Any]:
    """One set-up on fresh processes and a fresh database: its figures."""
    with tempfile.TemporaryDirectory(prefix="dicegames-bench-") as folder:
        dsn = None
        if store == "postgres":
            assert pg is not None
            dsn = pg.create_database()
        db: Any = dsn if dsn is not None else Path(folder) / "bench.sqlite3"
        started = []
        database = "" if dsn is None else dsn.rsplit("/", 1)[-1].split("?")[0]
        try:
            for _ in range(processes):
                started.append(spawn(db, bot_delay=0.0, extra=("--no-rate-limits",)))
            servers = [process.pid for process, _ in started]
            before = sum(_cpu(pid) for pid in servers)
            backends = _backends(database) if database else {}
            commits = _commits(pg, database) if pg is not None and database else 0
            mine = os.times()
            figures = asyncio.run(_load([url for _, url in started], games, seconds))
            moves = max(1, figures["moves"])
            used = os.times()
            figures["server_ms_per_move"] = (
                1000 * (sum(_cpu(pid) for pid in servers) - before) / moves)
            figures["client_ms_per_move"] = 1000 * (used.user + used.system - mine.user
                                                    - mine.system) / moves
            if database and pg is not None:
                now = _backends(database)
                figures["postgres_ms_per_move"] = 1000 * sum(
                    cpu - backends.get(pid, 0.0) for pid, cpu in now.items()) / moves
                time.sleep(0.6)  # the statistics are sent every 500 ms
                figures["statements_per_move"] = (_commits(pg, database) - commits) / moves
            figures["load"] = os.getloadavg()[0]
        finally:
            for process, _ in started:
                process.terminate()
                process.wait(10)
            if dsn is not None and pg is not None:
                pg.drop_database(dsn)
    return {"store": store, "processes": processes, **figures}


def cluster_figures(rounds: int = ROUNDS, games: int = GAMES,
                    seconds: float = SECONDS) -> dict[str, Any]:
    """Every set-up, ``rounds`` interleaved rounds: the medians and the ratios."""
    with session_server() as pg:
        if isinstance(pg, Unavailable):
            return {"skipped": f"PostgreSQL can't be had: {pg}"}
        runs: dict[tuple[str, int], list[dict[str, Any]]] = {setup: [] for setup in SETUPS}
        for number in range(rounds):
            order = SETUPS[number % len(SETUPS):] + SETUPS[:number % len(SETUPS)]
            for store, processes in order:
                runs[(store, processes)].append(run_setup(store, processes, pg, games,
                                                          seconds))
    medians = []
    for (store, processes), figures in runs.items():
        row: dict[str, Any] = {"store": store, "processes": processes}
        for key in ("moves_per_s", "push_p50_ms", "push_p99_ms", "cross_p50_ms",
                    "cross_p99_ms", "server_ms_per_move", "postgres_ms_per_move",
                    "client_ms_per_move", "statements_per_move", "load"):
            values = [run[key] for run in figures if run.get(key) is not None]
            row[key] = statistics.median(values) if values else None
        medians.append(row)
    by = {(row["store"], row["processes"]): row for row in medians}
    sqlite, pg1, pg2 = by[("sqlite", 1)], by[("postgres", 1)], by[("postgres", 2)]
    return {"games": games, "seconds": seconds, "rounds": rounds, "medians": medians,
            "two_vs_one_postgres": pg2["moves_per_s"] / pg1["moves_per_s"],
            "postgres_vs_sqlite": pg1["moves_per_s"] / sqlite["moves_per_s"],
            "runs": {f"{store}x{processes}": figures
                     for (store, processes), figures in runs.items()}}


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON (``--quick``: one short round of 10 games, to try it)."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one round of 10 games, 3 s each set-up (a smoke run)")
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"interleaved rounds of the three set-ups ({ROUNDS})")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    print(json.dumps(cluster_figures(rounds=1 if args.quick else args.rounds,
                                     games=10 if args.quick else GAMES,
                                     seconds=3.0 if args.quick else SECONDS), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
