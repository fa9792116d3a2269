"""The worked example of docs/rl.md (scripts/train_petits_chevaux_vector.py) at a tiny size:
training through the vectorised environment runs end to end and reports sound figures."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_petits_chevaux_vector.py"


def load_script() -> ModuleType:
    """The script, imported from its file (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("train_petits_chevaux_vector", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_tiny_training_run(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    assert script.main(["--steps", "40", "--envs", "16", "--games", "30", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "640 learner decisions (40 steps x 16 games" in out
    assert "learned linear policy: wins" in out and "uniform random policy: wins" in out
    report = script.run(steps=40, envs=16, games=30, seed=1)
    assert report.decisions == 640 and report.games == 30
    for share, (low, high) in ((report.win_rate, report.interval),
                               (report.random_rate, report.random_interval)):
        assert 0.0 <= low <= share <= high <= 1.0
