"""Speed of the compiled bulk kernels (``make bench`` shows these; ``make bench-kernels`` adds
the million-game runs). Nothing here asserts a speed.

* Extra Meters random playouts (2 players, 50 squares): the kernel against a C loop of the
  same rules and the same generator (``scripts/extra_meters_loop.c``, compiled here with
  ``cc -O2`` when a C compiler is present). Rounds alternate kernel and C on the same seeds;
  each round's ratio is the kernel's games per CPU second over C's, and the median ratio is
  reported. The C loop plays exactly the kernel's games, which the run checks.
* Petits Chevaux 4-player random playouts: kernel games per CPU second (median of rounds),
  against OpenSpiel's maedn C++ figure measured on this machine (``make bench-peers``
  measures it side by side).
* The ``medium`` bots in the kernel (and Extra Meters ``hard``), games per CPU second.
* ``--projected``: each of the five games at its largest table with the same bot in every
  seat (``medium``, Petits Chevaux' ``hard``, ``random``), 10^5 kernel games in this
  process: CPU seconds per 10^6 games, **projected** (measured CPU per game x 10^6; half of
  it is the wall time on two idle cores).
* ``--million``: the same eleven configurations, 10^6 games each through
  ``simulate(..., jobs=2)`` (two worker processes, start-up included): measured wall-clock
  seconds and CPU seconds (this process and its workers), with the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import dicegames
from dicegames.analysis import simulate
from dicegames.core.kernel import BACKEND, kernel_for, to_list

C_SOURCE = Path(__file__).with_name("extra_meters_loop.c")

MAEDN_CPP_GAMES_PER_S = 4_457.0
"""OpenSpiel maedn (Ludo) C++ random games a second, measured on this machine (issue 16)."""

ROUNDS = 5


def compile_c_loop(folder: Path) -> Path | None:
    """The compiled C loop, or None without a C compiler (or when compiling fails)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    binary = folder / "extra_meters_loop"
    done = subprocess.run([compiler, "-O2", "-o", str(binary), str(C_SOURCE)],
                          capture_output=True, text=True, check=False)
    return binary if done.returncode == 0 else None


def kernel_rate(game_id: str, players: int, policies: list[str], games: int,
                seed: int) -> tuple[float, Any]:
    """Games per CPU second of one kernel run, and its playouts."""
    game = dicegames.make(game_id, players=players)
    kernel = kernel_for(game)
    assert kernel is not None
    start = game.new_state().data
    kernel.playouts(start, policies, 5, seed)  # compiled (or loaded) before timing
    began = time.process_time()
    result = kernel.playouts(start, policies, games, seed)
    return games / max(time.process_time() - began, 1e-9), result


def extra_meters_vs_c(binary: Path | None, games: int) -> dict[str, Any]:
    """Interleaved rounds of the kernel and the C loop on the same seeds."""
    kernel_rates: list[float] = []
    c_rates: list[float] = []
    ratios: list[float] = []
    same = True
    for round_index in range(ROUNDS):
        seed = 1000 + round_index
        rate, result = kernel_rate("extra-meters", 2, ["random", "random"], games, seed)
        kernel_rates.append(rate)
        if binary is None:
            continue
        done = subprocess.run([str(binary), str(games), str(seed)], capture_output=True,
                              text=True, check=True)
        c = json.loads(done.stdout)
        c_rate = games / max(c["seconds"], 1e-9)
        c_rates.append(c_rate)
        ratios.append(rate / c_rate)
        same = same and c["wins0"] == sum(to_list(result.winners)[0::2]) and c["moves"] == sum(
            to_list(result.moves))
    return {
        "work": "Extra Meters random playouts, 2 players", "games_per_round": games,
        "kernel_games_per_s": statistics.median(kernel_rates),
        "c_games_per_s": statistics.median(c_rates) if c_rates else None,
        "ratio_to_c": statistics.median(ratios) if ratios else None,
        "same_games_as_c": same if binary is not None else None,
    }


def rounds(game_id: str, players: int, policies: list[str], games: int) -> float:
    """The median kernel games per CPU second over :data:`ROUNDS` rounds."""
    return statistics.median(kernel_rate(game_id, players, policies, games, 2000 + r)[0]
                             for r in range(ROUNDS))


LARGEST = [("extra-meters", 8, ("medium", "random")), ("shortcut", 4, ("medium", "random")),
           ("petits-chevaux", 4, ("medium", "hard", "random")),
           ("monza", 6, ("medium", "random")), ("extra", 6, ("medium", "random"))]
"""Each game at its most players with the bots its kernel plays (the same in every seat):
``medium`` and ``random`` everywhere, and Petits Chevaux' ``hard``, its heaviest."""


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished (waited-for) child processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def million(game_id: str, players: int, bot: str) -> dict[str, Any]:
    """10^6 games through simulate() on two processes: wall and CPU seconds, load before."""
    game = dicegames.make(game_id, players=players)
    load = os.getloadavg()[0]
    began, cpu = time.perf_counter(), _cpu_seconds()
    report = simulate(game, [bot] * players, 1_000_000, seed=1, jobs=2)
    wall = time.perf_counter() - began
    return {"game": game_id, "players": players, "bot": bot, "seconds": wall,
            "cpu_seconds": _cpu_seconds() - cpu, "load_before": load, "engine": report.engine,
            "games_per_s": 1_000_000 / wall}


def projected(game_id: str, players: int, bot: str, games: int) -> dict[str, Any]:
    """CPU seconds per 10^6 games projected from ``games`` kernel games in this process."""
    game = dicegames.make(game_id, players=players)
    kernel = kernel_for(game)
    assert kernel is not None
    policy = kernel.policy_of(bot)
    assert policy is not None
    rate, _ = kernel_rate(game_id, players, [policy] * players, games, 3000)
    return {"game": game_id, "players": players, "bot": bot, "games": games,
            "cpu_seconds_per_million": 1_000_000 / rate}


def kernel_figures(with_million: bool = False, scale: float = 1.0,
                   with_projected: bool = False) -> dict[str, Any]:
    """Every kernel figure; ``scale`` shrinks the rounds (for a quick look)."""
    with tempfile.TemporaryDirectory() as folder:
        binary = compile_c_loop(Path(folder))
        figures: dict[str, Any] = {
            "backend": BACKEND,
            "extra_meters_vs_c": extra_meters_vs_c(binary, int(400_000 * scale)),
        }
    pc = rounds("petits-chevaux", 4, ["random"] * 4, int(8_000 * scale))
    figures["petits_chevaux_random_4p"] = {
        "kernel_games_per_s": pc, "maedn_cpp_games_per_s": MAEDN_CPP_GAMES_PER_S,
        "ratio_to_maedn_cpp": pc / MAEDN_CPP_GAMES_PER_S}
    figures["bots"] = [
        {"game": "extra-meters", "players": 2, "policies": "threshold vs exact",
         "games_per_s": rounds("extra-meters", 2, ["threshold", "exact"], int(200_000 * scale))},
        {"game": "petits-chevaux", "players": 4, "policies": "medium x 4",
         "games_per_s": rounds("petits-chevaux", 4, ["medium"] * 4, int(2_000 * scale))},
    ]
    if with_projected:
        figures["projected"] = [projected(game_id, players, bot, int(100_000 * scale))
                                for game_id, players, bots in LARGEST for bot in bots]
    if with_million:
        figures["million"] = [million(game_id, players, bot)
                              for game_id, players, bots in LARGEST for bot in bots]
    return figures


def show(figures: dict[str, Any]) -> None:
    """Print the kernel figures as lines of text."""
    em = figures["extra_meters_vs_c"]
    print(f"Bulk kernels ({figures['backend']}), games per CPU second, medians of "
          f"{ROUNDS} interleaved rounds:")
    line = f"  Extra Meters random, 2 players: kernel {em['kernel_games_per_s']:,.0f}"
    if em["c_games_per_s"] is not None:
        line += (f", C loop {em['c_games_per_s']:,.0f}, ratio {em['ratio_to_c']:.2f} "
                 f"(same games as C: {'yes' if em['same_games_as_c'] else 'NO'})")
    else:
        line += " (no C compiler: no C loop)"
    print(line)
    pc = figures["petits_chevaux_random_4p"]
    print(f"  Petits Chevaux random, 4 players: kernel {pc['kernel_games_per_s']:,.0f}, "
          f"{pc['ratio_to_maedn_cpp']:.2f}x OpenSpiel maedn C++ "
          f"({pc['maedn_cpp_games_per_s']:,.0f}, measured earlier)")
    for row in figures["bots"]:
        print(f"  {row['game']} {row['players']} players, {row['policies']}: "
              f"{row['games_per_s']:,.0f}")
    if figures.get("projected"):
        print("10^6 games PROJECTED from 10^5 kernel games in one process (CPU s per 10^6; "
              "wall on two idle cores is about half):")
    for row in figures.get("projected", []):
        print(f"  {row['game']}, {row['players']} players, {row['bot']} in every seat: "
              f"{row['cpu_seconds_per_million']:.1f} CPU s (projected)")
    if figures.get("million"):
        print("10^6 games MEASURED through simulate(jobs=2), two worker processes:")
    for row in figures.get("million", []):
        print(f"  {row['game']}, {row['players']} players, {row['bot']} in every seat: "
              f"{row['seconds']:.1f} s wall, {row['cpu_seconds']:.1f} CPU s "
              f"(load average before {row['load_before']:.1f}; {row['engine']})")


def main(argv: list[str] | None = None) -> int:
    """Measure and print (``--json`` for JSON)."""
    parser = argparse.ArgumentParser(description="Speed of the compiled bulk kernels.")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--projected", action="store_true",
                        help="also project 10^6 games of each game from 10^5 in one process")
    parser.add_argument("--million", action="store_true",
                        help="also play 10^6 games of each game on two processes")
    args = parser.parse_args(argv)
    figures = kernel_figures(with_million=args.million, with_projected=args.projected)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        show(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
