"""The design report of a game that brings nothing but rules, a presenter and an encoder
(the toy game of tests/toygame.py): through the library and through ``dicegames analyse``.

The report is generic: it plays the game's own bots when it has some and the generic
``random`` bot otherwise (then with no skill ladder), asks the game's definition for an
exact or learned estimator and a solved strategy, and falls back to rollouts and no strategy
chart. The games dicegames ships, which have every part, are reported on in test_report.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dicegames
from dicegames.analysis.report import build_report
from dicegames.core.registry import definition
from test_cli import env, run  # noqa: F401

BARE = [spec.id for spec in dicegames.games() if not definition(spec.id).has("bots")]
"""The registered games with no bots of their own (the toy game)."""


@pytest.mark.parametrize("game_id", BARE)
def test_the_report_measures_a_game_without_bots(game_id: str) -> None:
    game = dicegames.make(game_id)
    report = build_report(game, games=4, seed=2)
    assert report.ladder == () and "no skill ladder" in " ".join(report.notes)
    assert report.game == game_id and report.games == 4
    assert len(report.seats_best) == game.players
    assert report.turns.mean > 0
    assert (report.strategy is not None) <= definition(game_id).has("solver")
    assert json.loads(json.dumps(report.to_json()))["game"] == game_id


@pytest.mark.parametrize("game_id", BARE)
def test_analyse_writes_the_page_of_a_game_without_bots(env: dict[str, str],  # noqa: F811
                                                        tmp_path: Path, game_id: str) -> None:
    out = tmp_path / "report.html"
    done = run(env, "analyse", game_id, "--games", "6", "--seed", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "<h2>Seat advantage</h2>" in page
    assert dicegames.make(game_id).spec.name in page
