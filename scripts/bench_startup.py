"""Start-up time: ``import dicegames`` and ``dicegames --help``, each in a fresh interpreter.

``make bench`` shows these figures (``scripts/bench.py`` calls :func:`startup_figures`);
``python scripts/bench_startup.py`` measures them alone, against another revision with
``--against REV`` (its ``src/`` unpacked by ``git archive``), interleaved. Nothing here
asserts a speed.

Each figure is the wall time of a whole subprocess (interpreter start included), as the
person typing the command waits for it: ``python -c 'import dicegames'`` and
``python -m dicegames --help``. The runs are interleaved (one of each command, for each code
measured, per round), so all of them meet the same machine load, and the medians are shown.
The aim (issue 24) is ``dicegames --help`` under 0.3 s: numba and numpy load only when a
kernel first runs, and each command imports its own modules only when it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {"import dicegames": ["-c", "import dicegames"],
            "dicegames --help": ["-m", "dicegames", "--help"]}
"""What is timed: a name and the interpreter's arguments."""

ROUNDS = 15
"""Runs of each command (for each code measured); the median is reported."""


def one_run(arguments: list[str], source: Path | None) -> tuple[float, float]:
    """Wall and CPU seconds one fresh interpreter takes to run ``arguments`` on the code in
    ``source`` (None: whatever this interpreter's ``PYTHONPATH`` finds). The CPU time (user
    and system, from ``getrusage``) is the steadier figure on a loaded machine."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run([sys.executable, *arguments], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(sources: Sequence[Path | None], rounds: int = ROUNDS) -> list[list[dict[str, Any]]]:
    """For each of ``sources``, one row per command: its median, lowest and highest wall
    times and its median CPU time, in milliseconds, over ``rounds`` interleaved runs."""
    times: list[dict[str, list[tuple[float, float]]]] = [{name: [] for name in COMMANDS}
                                                          for _ in sources]
    for round_number in range(rounds + 1):
        for index, source in enumerate(sources):
            for name, arguments in COMMANDS.items():
                measured = one_run(arguments, source)
                if round_number:  # the first round only warms the disk cache (and .pyc files)
                    times[index][name].append(measured)
    rows: list[list[dict[str, Any]]] = []
    for per_source in times:
        rows.append([])
        for name, runs in per_source.items():
            walls = [wall for wall, _ in runs]
            rows[-1].append({"what": name, "runs": rounds,
                             "ms_median": 1000 * statistics.median(walls),
                             "ms_min": 1000 * min(walls), "ms_max": 1000 * max(walls),
                             "cpu_ms_median": 1000 * statistics.median(c for _, c in runs)})
    return rows


def startup_figures(rounds: int = ROUNDS) -> list[dict[str, Any]]:
    """This interpreter's code (its ``PYTHONPATH``): a row per command (``make bench``)."""
    return measure([None], rounds)[0]


def show(rows: list[dict[str, Any]], label: str = "") -> None:
    """Print the rows as lines of text."""
    for row in rows:
        print(f"  {label}{row['what']}: median {row['ms_median']:.0f} ms (lowest "
              f"{row['ms_min']:.0f}, highest {row['ms_max']:.0f}; {row['runs']} runs), CPU "
              f"{row['cpu_ms_median']:.0f} ms")


def unpack(revision: str, folder: Path) -> Path:
    """``src/`` of ``revision`` unpacked below ``folder`` (see ``bench_previous.unpack``)."""
    import bench_previous  # scripts/bench_previous.py, beside this file

    return bench_previous.unpack(revision, folder)


def main(argv: list[str] | None = None) -> int:
    """Measure this checkout's start-up, alone or interleaved with another revision's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV",
                        help="also measure this git revision's code, interleaved")
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"runs of each command (default {ROUNDS})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    with tempfile.TemporaryDirectory(prefix="dicegames-startup-") as folder:
        sources: list[Path | None] = [ROOT / "src"]
        if args.against:
            sources.append(unpack(args.against, Path(folder)))
        figures = measure(sources, args.rounds)
    labels = ["this checkout", args.against or ""]
    if args.json:
        print(json.dumps({label: rows for label, rows in zip(labels, figures, strict=False)},
                         indent=2))
        return 0
    print(f"Start-up, wall time of a fresh interpreter, medians of {args.rounds} interleaved "
          "runs:")
    for label, rows in zip(labels, figures, strict=False):
        show(rows, f"{label}: ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
