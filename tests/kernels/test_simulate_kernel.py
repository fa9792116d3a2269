"""simulate() and ``dicegames simulate`` on the kernel path: chosen automatically, said so,
reproducible, the same with numba or without it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import dicegames
from dicegames.analysis import simulate
from dicegames.analysis.fast import plan
from dicegames.analysis.simulate import SimulationReport
from dicegames.core import kernel


def figures(report: SimulationReport) -> dict[str, object]:
    data = report.to_json()
    del data["elapsed_s"], data["games_per_s"], data["engine"]
    return data


def test_the_kernel_plays_when_every_bot_has_a_kernel_policy() -> None:
    game = dicegames.make("petits-chevaux", players=3)
    report = simulate(game, ["medium", "easy", "bot:hard"], 300, seed=4, rotate=True)
    assert report.engine.startswith("compiled kernel" if kernel.HAVE_NUMBA else "kernel in")
    assert report.to_json()["engine"] == report.engine
    assert sum(p.wins for p in report.per_player) == 300
    assert figures(report) == figures(simulate(game, ["medium", "easy", "bot:hard"], 300, seed=4,
                                               rotate=True))


def test_a_bot_without_a_kernel_policy_falls_back_to_the_engine() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    assert plan(game, ["medium", "search-60"]).description == (
        "engine (bot 'search-60' has no kernel policy)")
    report = simulate(game, ["medium", "medium"], 5, seed=1, kernel=False)
    assert report.engine == "engine (kernel not asked for)"
    long_track = dicegames.make("extra-meters", track_length=200)
    assert plan(long_track, ["hard", "easy"]).policies is None
    assert plan(long_track, ["medium", "easy"]).policies == ("threshold", "random")


def test_blocks_and_jobs_do_not_change_the_kernel_report() -> None:
    game = dicegames.make("extra-meters", players=3, finish="same_round")
    players = ["bot:medium", "bot:easy", "bot:hard"]
    one = simulate(game, players, 3_001, seed=42, rotate=True)
    parallel = simulate(game, players, 3_001, seed=42, rotate=True, jobs=2)
    assert figures(one) == figures(parallel)
    assert figures(simulate(game, players, 3_001, seed=43, rotate=True)) != figures(one)
    # Rotation seats each entry first in a third of the games.
    assert abs(one.per_player[0].win_share - one.per_player[2].win_share) < 0.1


SCRIPT = """
import json, dicegames
from dicegames.analysis import simulate
out = {}
for game_id, players, bots in [("extra-meters", 2, ["medium", "easy"]),
                               ("petits-chevaux", 4, ["medium", "easy", "hard", "medium"])]:
    report = simulate(dicegames.make(game_id, players=players), bots, 200, seed=7,
                      rotate=True)
    out[game_id] = report.to_json()
print(json.dumps(out))
"""


@pytest.mark.process
@pytest.mark.slow
def test_the_same_seed_gives_the_same_figures_with_or_without_numba() -> None:
    def run(force_python: bool) -> dict[str, dict[str, object]]:
        env = dict(os.environ)
        env.pop("DICEGAMES_KERNEL", None)
        if force_python:
            env["DICEGAMES_KERNEL"] = "python"
        done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                              text=True, check=True, timeout=300)
        reports: dict[str, dict[str, object]] = json.loads(done.stdout)
        return reports

    plain, fast = run(True), run(False)
    for game_id, report in plain.items():
        assert str(report.pop("engine")).startswith("kernel in plain Python (DICEGAMES_KERNEL")
        other = fast[game_id]
        assert str(other.pop("engine")).startswith("compiled kernel" if kernel.HAVE_NUMBA
                                                   else "kernel in plain Python")
        for key in ("elapsed_s", "games_per_s"):
            del report[key], other[key]
        assert report == other


@pytest.mark.process
def test_the_command_line_says_which_path_played() -> None:
    def run(*extra: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "dicegames", "simulate", "extra-meters", "--players",
             "bot:easy,bot:medium", "--games", "500", "--seed", "3", "--json", *extra],
            capture_output=True, text=True, check=True, timeout=120)
        report: dict[str, object] = json.loads(done.stdout)
        return report

    assert str(run()["engine"]).endswith("kernel (numba)") or not kernel.HAVE_NUMBA
    assert run("--no-kernel")["engine"] == "engine (kernel not asked for)"
    table = subprocess.run(
        [sys.executable, "-m", "dicegames", "simulate", "petits-chevaux", "--players",
         "medium,search-60", "--games", "1", "--seed", "3"],
        capture_output=True, text=True, check=True, timeout=120)
    assert "played by the engine (bot 'search-60' has no kernel policy)" in table.stdout


@pytest.mark.parametrize(("game_id", "players"), [("shortcut", 3), ("monza", 2), ("extra", 2)])
def test_simulate_plays_hard_in_the_kernel(game_id: str, players: int) -> None:
    """``hard`` has a kernel policy in Shortcut, Monza and EXTRA!: simulate (and so the
    reports, ladders, reviews and hints that roll out through it) plays it there."""
    game = dicegames.make(game_id, players=players)
    assert plan(game, ["hard"] * players).policies == ("hard",) * players
    report = simulate(game, ["hard", "medium", "easy"][:players], 200, seed=5, rotate=True)
    assert report.engine.startswith("compiled kernel" if kernel.HAVE_NUMBA else "kernel in")
    assert sum(p.wins for p in report.per_player) <= 200
