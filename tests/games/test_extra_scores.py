"""Best solo scores (``dicegames.scores``) and the terminal's report after a solo game.

Every test points the user data folder at a temporary one (``XDG_DATA_HOME``/``HOME``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicegames.core.options import OptionValue
from dicegames.scores import load_scores, record_score, score_key, scores_path


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary user data folder for this process."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    return home


def test_the_file_lives_in_the_user_data_folder(data_home: Path) -> None:
    assert scores_path().is_relative_to(data_home)
    assert scores_path().name == "scores.json"


def test_the_best_score_is_kept_per_game_and_options(data_home: Path) -> None:
    options: dict[str, OptionValue] = {"extra_columns": "10,9,8", "children": False}
    first = record_score("extra", options, 120)
    assert (first.best, first.previous, first.games, first.is_new_best) == (120, None, 1, True)
    worse = record_score("extra", options, -40)
    assert (worse.best, worse.previous, worse.games, worse.is_new_best) == (120, 120, 2, False)
    better = record_score("extra", options, 300)
    assert (better.best, better.is_new_best, better.games) == (300, True, 3)
    other = record_score("extra", {**options, "children": True}, 10)
    assert (other.best, other.games) == (10, 1)
    records, warning = load_scores()
    assert warning is None
    assert records[score_key("extra", options)] == {"best": 300, "games": 3}
    assert score_key("extra", options) == "extra children=False extra_columns=10,9,8"


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"format": "other"}',
                                     '{"format": "dicegames-scores", "records": {"x": 1}}'])
def test_a_corrupt_file_is_kept_aside_and_a_new_one_started(data_home: Path,
                                                            content: str) -> None:
    path = scores_path()
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    result = record_score("extra", {}, 50)
    assert result.warning is not None and "could not be read" in result.warning
    assert (result.best, result.games) == (50, 1)
    kept = path.with_name("scores.json.corrupt")
    assert kept.read_text(encoding="utf-8") == content  # never lost
    assert json.loads(path.read_text(encoding="utf-8"))["records"]["extra"]["best"] == 50
    path.write_text(content, encoding="utf-8")
    record_score("extra", {}, 60)
    assert path.with_name("scores.json.corrupt2").read_text(encoding="utf-8") == content


def test_an_unwritable_folder_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = record_score("extra", {}, 5, path=blocker / "scores.json")
    assert result.warning is not None and "could not save" in result.warning
    assert result.best == 5


def test_a_write_leaves_no_temporary_file(data_home: Path) -> None:
    record_score("extra", {}, 1)
    assert sorted(p.name for p in scores_path().parent.iterdir()) == ["scores.json"]


def _play_solo(home: Path) -> subprocess.CompletedProcess[str]:
    """A one-roll solo game (one-box EXTRA columns) at the real command line."""
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"), PYTHONUTF8="1",
               COLUMNS="100")
    command = [sys.executable, "-m", "dicegames", "play", "extra", "--players", "you",
               "--seed", "3", "--option", "extra_columns=1,1,1"]
    return subprocess.run(command, input="1\n", capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_a_solo_game_at_the_terminal_stores_and_shows_the_best(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = _play_solo(home)
    assert first.returncode == 0, first.stderr
    assert "Your first recorded score here" in first.stdout
    stored = json.loads((home / "data" / "dicegames" / "scores.json").read_text("utf-8"))
    (key,) = stored["records"]
    assert key.startswith("extra ") and "extra_columns=1,1,1" in key
    second = _play_solo(home)
    assert "Your best score here" in second.stdout
    assert stored["records"][key]["games"] == 1
    again = json.loads((home / "data" / "dicegames" / "scores.json").read_text("utf-8"))
    assert again["records"][key]["games"] == 2
