"""Golden playthroughs: every game replays its checked-in game text exactly (OpenSpiel style).

Each ``tests/playthroughs/<game-id>.txt`` was written by ``scripts/regenerate_playthroughs.py``.
The test plays the same seeded game again in memory and compares it line by line, so a change
to rules, notation, probabilities, the random bots or the text people read cannot go unseen.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

import dicegames
from dicegames.core.registry import definition

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "regenerate_playthroughs.py"
PLAYTHROUGHS = ROOT / "tests" / "playthroughs"
REGENERATE = ".venv/bin/python scripts/regenerate_playthroughs.py"


def load_script() -> ModuleType:
    """The regeneration script, imported from its file (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("regenerate_playthroughs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


script = load_script()


@pytest.mark.parametrize("game_id", [spec.id for spec in dicegames.games()])
def test_playthrough_matches_the_golden_file(game_id: str) -> None:
    path = PLAYTHROUGHS / f"{game_id}.txt"
    if not path.exists():
        if definition(game_id).path.parent != ROOT / "src" / "dicegames" / "games":
            pytest.skip(f"{game_id} is not a game dicegames ships: it has no golden playthrough")
        pytest.fail(f"{path} is missing: run `{REGENERATE} {game_id}`")
    expected = path.read_text(encoding="utf-8")
    actual: str = script.playthrough(game_id)
    if actual != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                         f"{path.name} (golden)", f"{path.name} (now)",
                                         lineterm="", n=2))
        shown = "\n".join(diff[:60]) + ("\n..." if len(diff) > 60 else "")
        pytest.fail(f"the {game_id} playthrough changed. If the change is intended, run "
                    f"`{REGENERATE} {game_id}` and review the diff:\n{shown}", pytrace=False)


def test_all_games_have_playthroughs() -> None:
    # Every game dicegames ships (a test's toy game has none: see above).
    ids = {spec.id for spec in dicegames.games()
           if definition(spec.id).path.parent == ROOT / "src" / "dicegames" / "games"}
    assert len(ids) >= 5
    files = {path.stem for path in PLAYTHROUGHS.glob("*.txt")}
    assert ids <= files, f"games without a playthrough: {sorted(ids - files)}; run `{REGENERATE}`"
    assert files <= ids, f"playthroughs of no registered game: {sorted(files - ids)}"


def test_playthroughs_are_reproducible() -> None:
    game_id = dicegames.games()[0].id
    assert script.playthrough(game_id) == script.playthrough(game_id)
    assert script.playthrough(game_id, seed=1) != script.playthrough(game_id)
