"""make bench's comparison with the previous release: medians, ratios, the unpacked code."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_script() -> ModuleType:
    """scripts/bench_previous.py, imported from its file (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "bench_previous", ROOT / "scripts" / "bench_previous.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_previous = load_script()


def run(games_per_s: float, games: int, ms: float | None) -> dict[str, object]:
    return {"python": "3.11", "random_playouts": [
        {"game": "extra-meters", "players": 2, "games_per_s": games_per_s, "games": games}],
        "search": [{"game": "extra-meters", "bots": "hard", "ms_mean": ms}]}


def test_medians_per_figure_keep_names_and_whole_counts() -> None:
    merged = bench_previous.median_figures([run(100.0, 10, 1.0), run(300.0, 11, None),
                                            run(200.0, 30, 3.0)])
    row = merged["random_playouts"][0]
    assert (row["game"], row["players"], row["games_per_s"], row["games"]) == (
        "extra-meters", 2, 200.0, 11)
    assert merged["search"][0]["ms_mean"] == 2.0  # a missing figure is left out
    assert merged["python"] == "3.11"


def test_ratios_divide_matching_rows_only() -> None:
    now = run(300.0, 10, 1.0)
    before = run(100.0, 10, 4.0)
    before["search"] = [{"game": "monza", "bots": "hard", "ms_mean": 4.0}]
    ratios = bench_previous.ratios(now, before)
    assert ratios["random_playouts"][0]["games_per_s"] == 3.0
    assert ratios["search"] == [{}]  # no row of the same game and bot before


def has_commit(revision: str) -> str:
    """Why ``revision`` cannot be read from this checkout's history ("" when it can): a
    shallow clone (as CI makes) or a copy without ``.git`` lacks it."""
    try:
        found = subprocess.run(["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=ROOT,
                               check=False, capture_output=True, text=True)
    except OSError:
        return "git is not installed"
    if found.returncode == 0:
        return ""
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT,
                             check=False, capture_output=True, text=True).stdout.strip()
    where = "this shallow clone" if shallow == "true" else "this checkout's history"
    return (f"the previous release's commit {revision} is not in {where} "
            f"(git fetch --unshallow brings it)")


def test_the_previous_release_unpacks_as_importable_code(tmp_path: Path) -> None:
    missing = has_commit(bench_previous.PREVIOUS)
    if missing:
        pytest.skip(missing)
    source = bench_previous.unpack(bench_previous.PREVIOUS, tmp_path)
    assert (source / "dicegames" / "core" / "game.py").is_file()
    assert not (source / "dicegames" / "games" / "binding.py").exists()  # it predates it
