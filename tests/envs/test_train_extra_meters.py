"""The worked example of docs/rl.md (scripts/train_extra_meters.py) at a tiny size."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from dicegames.games.extra_meters.solver import solve

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_extra_meters.py"


def load_script() -> ModuleType:
    """The script, imported from its file (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("train_extra_meters", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_tiny_training_run(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    assert script.main(["--episodes", "300", "--games", "60", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "300 self-play episodes" in out
    assert "the first player wins 71.39% when both play optimally" in out
    report = script.run(track_length=10, episodes=300, games=60, seed=1)
    assert report.optimal_first_player == pytest.approx(solve(10).win_probability(0, 0, 0))
    assert 0.0 <= report.score_interval[0] <= report.score <= report.score_interval[1] <= 1.0
    assert report.decisions > 0
    assert report.agreement > 0.6  # 300 games already beat coin-flipping (about 50%)
