"""The previous release beside this checkout, for ``make bench``: interleaved runs, medians.

:func:`compare` unpacks the previous release's ``src/`` (``git archive`` of a revision: the
last release tag, else :data:`PREVIOUS`) into a temporary folder, then runs
``scripts/bench.py --json`` alternately on this checkout's code and on that one (the same
bench script; ``PYTHONPATH`` picks the code), ``rounds`` times each, so both meet the same
machine load. Each figure is the median of its runs; :func:`ratios` divides this checkout's
figures by the previous release's.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PREVIOUS = "f9466ea"
"""The previous release when the repository has no release tag: main before issue 16."""

KEYS = ("game", "players", "bots", "pace")
"""The fields that name a row (the rest are figures)."""


def previous_revision() -> str:
    """The last release tag reachable from HEAD, else :data:`PREVIOUS`."""
    try:
        found = subprocess.run(["git", "describe", "--tags", "--abbrev=0"], cwd=ROOT,
                               check=False, capture_output=True, text=True)
    except OSError:  # no git at all
        return PREVIOUS
    tag = found.stdout.strip()
    return tag if found.returncode == 0 and tag else PREVIOUS


def unpack(revision: str, folder: Path) -> Path:
    """``src/`` of ``revision`` unpacked below ``folder``; returns that ``src`` folder."""
    archive = subprocess.run(["git", "archive", revision, "src"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def one_run(source: Path, seconds: float) -> dict[str, Any]:
    """``scripts/bench.py --json`` on the code in ``source``."""
    env = dict(os.environ, PYTHONPATH=str(source))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--json",
                           "--alone", "--seconds", str(seconds)],
                          env=env, capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def median_figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs' figures with every number replaced by its median over the runs."""
    merged = dict(runs[0])
    for section, rows in runs[0].items():
        if not isinstance(rows, list):
            continue
        merged_rows = []
        for index, row in enumerate(rows):
            out = dict(row)
            for key, value in row.items():
                if key in KEYS or not isinstance(value, int | float) or isinstance(value, bool):
                    continue
                values = [run[section][index][key] for run in runs
                          if index < len(run[section]) and run[section][index].get(key)
                          is not None]
                middle = statistics.median(values) if values else None
                # Counts stay whole numbers (the median of two counts may fall between).
                out[key] = (round(middle) if middle is not None and all(
                    isinstance(v, int) for v in values) else middle)
            merged_rows.append(out)
        merged[section] = merged_rows
    return merged


def compare(rounds: int, seconds: float, note: Any) -> tuple[dict[str, Any], dict[str, Any],
                                                             str]:
    """Median figures of this checkout and of the previous release, and that revision."""
    revision = previous_revision()
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="dicegames-previous-") as folder:
        previous_src = unpack(revision, Path(folder))
        for round_number in range(rounds):
            note(f"round {round_number + 1}/{rounds}: this checkout")
            ours.append(one_run(ROOT / "src", seconds))
            note(f"round {round_number + 1}/{rounds}: previous release ({revision})")
            theirs.append(one_run(previous_src, seconds))
    return median_figures(ours), median_figures(theirs), revision


def ratios(current: dict[str, Any], previous: dict[str, Any]) -> dict[str, Any]:
    """Per section and row (matched by their naming fields), current / previous figures."""
    result: dict[str, Any] = {}
    for section, rows in current.items():
        if not isinstance(rows, list):
            continue
        index = {tuple(row.get(k) for k in KEYS): row for row in previous.get(section, [])}
        section_ratios = []
        for row in rows:
            old = index.get(tuple(row.get(k) for k in KEYS), {})
            section_ratios.append({
                key: value / old[key] for key, value in row.items()
                if key not in KEYS and isinstance(value, int | float)
                and not isinstance(value, bool) and isinstance(old.get(key), int | float)
                and old[key]})
        result[section] = section_ratios
    return result
