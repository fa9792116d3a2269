"""How long ``dicegames analyse GAME`` takes at its defaults, for every registered game.

Each round runs, for every game in turn (the order rotated from round to round, so a change
in the machine's load falls on every game alike), ``dicegames analyse GAME --json --seed S``
in a fresh process, the way a designer runs it: default options, 10,000 games a run through
the kernels, the default ladder, the traced sample. It prints, per game, the median wall
time, the median CPU time of the process (user + system, which the other jobs on a shared
machine do not inflate) and the ratio of the wall time to the aim, 60 s (below 1 meets it).
The kernels are compiled first (``scripts/compile_kernels.py``), so no round pays for it.
Nothing here asserts a speed.

    python scripts/bench_reports.py [--rounds 3] [--games 10000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import dicegames

AIM_S = 60.0
"""The issue's aim for a report at its defaults, on two cores."""


def run_once(game_id: str, games: int, seed: int) -> tuple[float, float]:
    """Wall and CPU seconds of one ``analyse`` run (the child's user + system time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "dicegames", "analyse", game_id, "--json",
                           "--seed", str(seed), "--games", str(games)],
                          capture_output=True, text=True, check=False, env=os.environ.copy())
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"analyse {game_id} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    compile_script = Path(__file__).with_name("compile_kernels.py")
    subprocess.run([sys.executable, str(compile_script)], check=True, capture_output=True)
    ids = [spec.id for spec in dicegames.games()]
    walls: dict[str, list[float]] = {game_id: [] for game_id in ids}
    cpus: dict[str, list[float]] = {game_id: [] for game_id in ids}
    for round_number in range(args.rounds):
        order = ids[round_number % len(ids):] + ids[:round_number % len(ids)]
        for game_id in order:
            wall, cpu = run_once(game_id, args.games, round_number + 1)
            walls[game_id].append(wall)
            cpus[game_id].append(cpu)
    figures = {game_id: {"wall_s": statistics.median(walls[game_id]),
                         "cpu_s": statistics.median(cpus[game_id]),
                         "wall_runs": walls[game_id],
                         "ratio_to_aim": statistics.median(walls[game_id]) / AIM_S}
               for game_id in ids}
    if args.json:
        print(json.dumps({"games": args.games, "rounds": args.rounds, "figures": figures},
                         indent=2))
        return
    print(f"dicegames analyse GAME at its defaults ({args.games:,} games a run), "
          f"{args.rounds} interleaved rounds, medians; load {os.getloadavg()[0]:.1f}")
    print(f"{'game':<16}{'wall s':>9}{'cpu s':>9}{'wall / 60 s':>13}")
    for game_id, figure in figures.items():
        print(f"{game_id:<16}{figure['wall_s']:>9.1f}{figure['cpu_s']:>9.1f}"
              f"{figure['ratio_to_aim']:>13.2f}")


if __name__ == "__main__":
    main()
