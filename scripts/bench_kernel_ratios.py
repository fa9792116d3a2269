"""Kernel against engine: games/s of play_one, the compiled kernel and its plain-Python path.

For each game with a kernel (or those named with ``--games``) and each policy pairing, every
round times, one after the other, ``play_one`` on the engine with the matching bots, the
kernel's playouts under numba, and the kernel's playouts on the plain-Python path (in a child
process with ``DICEGAMES_KERNEL=python``). Times are CPU seconds of the process doing the
work, so other load on a shared machine disturbs them less; the figures printed are medians
over the rounds of the rates and of the ratios within a round.

``--million`` then plays 10**6 games of each game (two players, medium against medium) with
the kernel on every core (one process per core, games split evenly) and prints the wall
time: the issue's aim is under 60 s on two cores.

    python scripts/bench_kernel_ratios.py [--games shortcut,monza,extra] [--rounds 3] [--million]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import dicegames
from dicegames.analysis.simulate import play_one
from dicegames.bots import make_bot
from dicegames.core.kernel import BACKEND, kernel_for
from dicegames.core.workers import die_with_parent

PAIRINGS = {"random": "easy", "medium": "medium", "hard": "hard"}
"""Kernel policy -> the engine bot that plays exactly like it."""

SIZES = {"hard": (10, 2_000, 10)}
"""Games per round (engine, numba, plain Python) of a policy slower than the default
(150, 20,000, 400): ``hard`` searches at every decision."""

CHILD = """
import json, sys, time
import dicegames
from dicegames.core.kernel import BACKEND, kernel_for
game_id, players, policy, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
game = dicegames.make(game_id, players=players)
kernel = kernel_for(game)
start = game.new_state().data
began = time.process_time()
kernel.playouts(start, [policy] * players, games, 1)
print(json.dumps({"backend": BACKEND, "rate": games / (time.process_time() - began)}))
"""


def engine_rate(game_id: str, players: int, bot: str, games: int, seed: int) -> float:
    """Engine games per CPU second with ``play_one``."""
    game = dicegames.make(game_id, players=players)
    rng = random.Random(seed)
    agents = [make_bot(game, bot, random.Random(rng.getrandbits(64))) for _ in range(players)]
    began = time.process_time()
    for _ in range(games):
        play_one(game, agents, rng)
    return games / (time.process_time() - began)


def kernel_rate(game_id: str, players: int, policy: str, games: int, seed: int) -> float:
    """Kernel games per CPU second on this process's path."""
    game = dicegames.make(game_id, players=players)
    kernel = kernel_for(game)
    assert kernel is not None
    start = game.new_state().data
    kernel.playouts(start, [policy] * players, 2, seed)  # compiled before timing
    began = time.process_time()
    kernel.playouts(start, [policy] * players, games, seed)
    return games / (time.process_time() - began)


def python_rate(game_id: str, players: int, policy: str, games: int) -> float:
    """Kernel games per CPU second on the plain-Python path (a child process)."""
    env = {**os.environ, "DICEGAMES_KERNEL": "python"}
    done = subprocess.run([sys.executable, "-c", CHILD, game_id, str(players), policy,
                           str(games)], env=env, capture_output=True, text=True, check=True)
    answer = json.loads(done.stdout)
    assert answer["backend"] == "python"
    return float(answer["rate"])


def _million_part(game_id: str, games: int, seed: int) -> int:
    game = dicegames.make(game_id, players=2)
    kernel = kernel_for(game)
    assert kernel is not None
    start = game.new_state().data
    done = 0
    while done < games:
        chunk = min(100_000, games - done)
        kernel.playouts(start, ["medium", "medium"], chunk, seed + done)
        done += chunk
    return done


def million(game_id: str, workers: int) -> float:
    """Wall seconds for 10**6 two-player medium games on ``workers`` processes."""
    _million_part(game_id, 10, 0)  # compile (and cache) before the clock starts
    share = 1_000_000 // workers
    began = time.perf_counter()
    with ProcessPoolExecutor(workers, initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        parts = [pool.submit(_million_part, game_id, share, i * share)
                 for i in range(workers)]
        total = sum(part.result() for part in parts)
    assert total == share * workers
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="shortcut,monza,extra")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--policies", default=",".join(PAIRINGS),
                        help="kernel policies to time (default: all of %(default)s)")
    parser.add_argument("--million", action="store_true")
    args = parser.parse_args()
    print(f"kernels on {BACKEND}; CPU-time rates, medians of {args.rounds} interleaved rounds")
    for game_id in args.games.split(","):
        for players in (2, 4 if game_id == "shortcut" else 6):
            for policy in args.policies.split(","):
                bot = PAIRINGS[policy]
                engine_n, fast_n, plain_n = SIZES.get(policy, (150, 20_000, 400))
                rows: list[tuple[float, float, float]] = []
                for round_ in range(args.rounds):
                    engine = engine_rate(game_id, players, bot, engine_n, round_)
                    fast = kernel_rate(game_id, players, policy, fast_n, round_)
                    plain = python_rate(game_id, players, policy, plain_n)
                    rows.append((engine, fast, plain))
                engine, fast, plain = (statistics.median(r[i] for r in rows) for i in range(3))
                ratio_fast = statistics.median(r[1] / r[0] for r in rows)
                ratio_plain = statistics.median(r[2] / r[0] for r in rows)
                print(f"{game_id:9} {players}p {policy:7} engine {engine:9,.0f}/s   "
                      f"numba {fast:10,.0f}/s ({ratio_fast:6.1f}x)   "
                      f"python {plain:8,.0f}/s ({ratio_plain:4.1f}x)")
    if args.million:
        workers = os.cpu_count() or 1
        for game_id in args.games.split(","):
            seconds = million(game_id, workers)
            print(f"{game_id:9} 10^6 two-player medium games on {workers} cores: "
                  f"{seconds:.1f} s wall")


if __name__ == "__main__":
    main()
