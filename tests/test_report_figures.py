"""The design report's figures of issue 26: kernel runs, ties, skipped bots, Ctrl-C, metrics,
comparisons, sweeps, custom boards named short, exact values, chart ticks.

Each test holds one behaviour the report lacked before: the old report played its main runs
on the engine, counted a shared win as 1/k to each seat, rated one bot under two names,
printed a custom board's whole text in its title, and had no metrics, comparison table or
sweep.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.analysis.charts import length_chart
from dicegames.analysis.compare import compare, comparison, share_row
from dicegames.analysis.ladder import default_ladder, expected_seconds
from dicegames.analysis.metrics import DECISIVE, decisiveness, drama, entropy, uncertainty
from dicegames.analysis.naming import option_value_label, text_hash
from dicegames.analysis.report import build_report, report_name
from dicegames.analysis.sweep import parse_sweep, sweep
from dicegames.analysis.traced import GameTrace
from dicegames.core.errors import OptionError
from dicegames.core.registry import configure, definition
from dicegames.games.extra_meters.solver import solve
from dicegames.games.extra_meters.strategy import stop_thresholds
from polling import until
from test_cli import env, run  # noqa: F401

KERNEL_GAMES = [spec.id for spec in dicegames.games() if definition(spec.id).has("kernel")]


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_main_runs_go_through_the_kernel_and_the_ladder_only_holds_kernel_bots(
        game_id: str) -> None:
    game = dicegames.make(game_id)
    report = build_report(game, games=2000, seed=1, traced=5)
    assert "kernel" in report.main.engine and report.main.games == 2000
    assert report.randoms is not None and "kernel" in report.randoms.engine
    ladder = default_ladder(game)
    assert {skipped.bot for skipped in ladder.skipped}.isdisjoint(ladder.names)
    for skipped in ladder.skipped:
        assert "no kernel policy" in skipped.reason
        assert expected_seconds(game, [skipped.bot] * game.players, 10) is not None
    assert expected_seconds(game, [ladder.names[-1]] * game.players, 10) is None
    assert [r.name for r in report.ladder] == list(ladder.names)
    assert report.to_json()["skill"]["skipped"] == [s.to_json() for s in ladder.skipped]


def test_the_slow_petits_chevaux_bots_are_skipped_with_the_reason() -> None:
    ladder = default_ladder(dicegames.make("petits-chevaux"))
    assert ladder.names == ("random", "medium", "hard", "trained")
    assert {"expert", "search"} <= {skipped.bot for skipped in ladder.skipped}


def test_bots_without_a_kernel_policy_announce_the_expected_time() -> None:
    said: list[str] = []
    game = dicegames.make("petits-chevaux", players=2)  # expert has no kernel policy
    report = build_report(game, games=2, seed=1, bots=["random", "expert"], traced=0,
                          announce=said.append)
    assert len(said) == 1 and "expect" in said[0] and "the ladder about" in said[0]
    assert report.main.engine.startswith("engine")


def test_shared_wins_are_reported_as_such_and_seat_order_by_score() -> None:
    """Two identical EXTRA! bots see the same rolls and choose alike: every game is a
    shared win, and no seat "wins 50%"."""
    game = dicegames.make("extra")
    report = build_report(game, games=300, seed=2, bots=["random", "medium"], traced=5)
    data = report.to_json()
    out = data["outcomes"]["best"]
    assert out["shared"]["share"] == 1.0 and all(s["count"] == 0 for s in out["sole"])
    assert all(share.share == 0.0 for share in report.seats_best)
    assert data["metrics"]["first_move_advantage"] is None
    assert data["metrics"]["drawishness"]["shared"] == 1.0
    assert all(gap["mean"] == 0.0 for gap in out["score_difference"])
    assert out["ranks"][0][0] == 1.0  # every seat shares rank 1
    assert any("no game of the main run had a sole winner" in n for n in report.notes)


def test_interrupted_runs_keep_what_was_done() -> None:
    game = dicegames.make("extra-meters", track_length=20)
    games = 3000

    def progress(done: int, total: int) -> None:
        if done > games:  # in the random run, after its first block
            raise KeyboardInterrupt

    report = build_report(game, games=games, seed=1, progress=progress)
    assert report.interrupted and report.main.complete
    assert report.randoms is not None and 0 < report.randoms.games < games
    assert report.ladder == () and report.traced == 0
    assert any(note.startswith("interrupted") for note in report.notes)
    json.dumps(report.to_json())


def test_exact_values_stand_beside_the_sampled_ones() -> None:
    game = dicegames.make("extra-meters", track_length=20)
    report = build_report(game, games=10_000, seed=1, traced=5)
    assert report.exact is not None
    exact = report.exact["seat_advantage"]
    assert exact[0] == pytest.approx(float(solve(20).win_probability(0, 0, 0)))
    assert report.seats_best[0].low <= exact[0] <= report.seats_best[0].high
    default = build_report(dicegames.make("extra-meters"), games=10, seed=1, traced=0)
    assert default.exact is not None and round(100 * default.exact["seat_advantage"][0],
                                               1) == 56.3


# --------------------------------------------------------------------------- metrics


def _trace(winner: int, chances: list[tuple[float, float]]) -> GameTrace:
    leaders = tuple(0 if a > b else 1 if b > a else -1 for a, b in chances)
    return GameTrace((winner,), len(chances), 0, 0, 0, leaders, tuple(chances))


def test_metrics_known_answers() -> None:
    steady = _trace(0, [(0.5, 0.5), (0.7, 0.3), (0.95, 0.05), (0.99, 0.01)])
    comeback = _trace(1, [(0.5, 0.5), (0.8, 0.2), (0.4, 0.6), (0.3, 0.7)])
    found = decisiveness([steady, comeback])
    assert found is not None
    figure, reversals = found
    assert DECISIVE == 0.9
    assert figure.mean == pytest.approx((2 / 4 + 0 / 4) / 2)  # steady decided at turn 3
    assert reversals == 0.0
    drama_figure = drama([steady, comeback])
    assert drama_figure is not None  # steady: 0; comeback: behind by 0.6 at one turn
    assert drama_figure.mean == pytest.approx((0 + 0.6) / 2)
    assert entropy((0.5, 0.5)) == pytest.approx(1.0) and entropy((1.0, 0.0)) == 0.0
    flat = uncertainty([_trace(0, [(0.5, 0.5), (0.5, 0.5)])])
    assert flat is not None and flat.mean == pytest.approx(1.0)


def test_the_report_carries_every_ludii_metric() -> None:
    report = build_report(dicegames.make("extra-meters", track_length=20), games=500,
                          seed=3, traced=100)
    metrics = report.to_json()["metrics"]
    for key in ("decisiveness", "drawishness", "duration", "branching", "drama",
                "lead_changes", "uncertainty", "first_move_advantage"):
        assert metrics[key] is not None, key
    assert metrics["branching"]["all"] == 2.0
    assert metrics["duration"]["mean"] == pytest.approx(report.turns.mean)


# --------------------------------------------------------------------------- compare


def test_newcombe_difference_interval_known_answer() -> None:
    """Newcombe (1998), Table II, example (a): 56/70 against 48/80, method 10."""
    from dicegames.analysis.stats import wilson_interval

    def share(wins: int, games: int) -> dict[str, float]:
        low, high = wilson_interval(wins, games)
        return {"share": wins / games, "low": low, "high": high}
    row = share_row("x", "x", share(48, 80), share(56, 70))
    assert row.difference == pytest.approx(0.2, abs=1e-9)
    assert (round(row.low, 4), round(row.high, 4)) == (0.0524, 0.3339)
    assert row.significant


def test_compare_gives_one_table_and_answers_fairer_or_shorter() -> None:
    settings: dict[str, Any] = {"games": 3000, "seed": 1, "traced": 50}
    short = build_report(dicegames.make("extra-meters", track_length=20), **settings)
    long = build_report(dicegames.make("extra-meters", track_length=60), **settings)
    result = comparison(short.to_json(), long.to_json())
    rows = {row["key"]: row for row in result["rows"]}
    assert {"seat1", "seat2", "turns", "decisions", "drama"} <= set(rows)
    assert rows["turns"]["significant"] and rows["turns"]["difference"] > 0
    assert rows["turns"]["low"] <= rows["turns"]["difference"] <= rows["turns"]["high"]
    assert result["verdict"][-1].startswith("Longer")
    assert "seat 1 wins" in result["verdict"][0]
    same = compare(short.to_json(), short.to_json())
    assert not any(row.significant for row in same)


# --------------------------------------------------------------------------- sweep


def test_sweep_parses_its_range() -> None:
    assert parse_sweep("track_length=20..60:10").values == (20, 30, 40, 50, 60)
    assert parse_sweep("track_length = 5..7").values == (5, 6, 7)
    for bad in ("track_length=20", "track_length=9..3", "x=1..1000", "=1..2"):
        with pytest.raises(OptionError, match="--sweep"):
            parse_sweep(bad)


def test_sweep_measures_each_value_with_intervals() -> None:
    result = sweep(lambda options: configure("extra-meters", 2, options),
                   parse_sweep("track_length=10..30:20"), games=1000, seed=2)
    first, second = result["points"]
    assert (first["value"], second["value"]) == (10, 30)
    assert first["duration"]["high"] < second["duration"]["low"]
    assert first["seat1"]["low"] <= first["seat1"]["share"] <= first["seat1"]["high"]
    assert first["decisiveness"] is not None and not result["interrupted"]


# --------------------------------------------------------------------------- naming


def test_a_custom_board_is_named_by_its_comment_and_a_short_hash() -> None:
    base = configure("shortcut", 2, {}).spec.options
    spec = next(s for s in base if s.kind == "file")
    folder = Path(definition("shortcut").path) / "boards"
    text = (folder / "default.txt").read_text(encoding="utf-8").replace(
        "# Shortcut: the default board", "# Shortcut: my test board", 1)
    game = configure("shortcut", 2, {spec.name: text})
    label = option_value_label(game, spec.name, text)
    assert label.startswith("“Shortcut: my test board") and text_hash(text) in label
    name = report_name(game)
    assert "\n" not in name and len(name) < 150 and text_hash(text) in name
    assert option_value_label(game, spec.name, "default") == "default"


@pytest.mark.process
def test_simulate_names_a_custom_board_short(env: dict[str, str],  # noqa: F811
                                             tmp_path: Path) -> None:
    folder = Path(definition("shortcut").path) / "boards"
    board = tmp_path / "mine.txt"
    text = (folder / "default.txt").read_text(encoding="utf-8").replace(
        "# Shortcut: the default board", "# Shortcut: my test board", 1)
    board.write_text(text, encoding="utf-8")
    done = run(env, "simulate", "shortcut", "--players", "bot:medium,bot:medium", "--games",
               "20", "--option", f"board={board}")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("Options:"))
    assert "my test board" in line and text_hash(text) in line and "S " not in line


# --------------------------------------------------------------------------- charts


def test_chart_ticks_are_whole_numbers_where_they_count() -> None:
    report = build_report(dicegames.make("extra-meters", track_length=10), games=30,
                          seed=1, traced=30).to_json()
    figure = length_chart(report)
    figure.canvas.draw()
    for axis in figure.axes:
        for ticks in (axis.get_xticks(), axis.get_yticks()):
            assert all(float(t).is_integer() for t in ticks)


def test_the_strategy_chart_says_why_it_starts_at_3_dice() -> None:
    for dice in (1, 2):
        grid = stop_thresholds(30, "first", (dice,))[dice]
        assert all(threshold is None or a + threshold >= 30
                   for a, row in enumerate(grid) for threshold in row)
    report = build_report(dicegames.make("extra-meters", track_length=12), games=20,
                          seed=1, traced=5)
    assert report.strategy is not None and "starts at 3 dice" in report.strategy["note"]
    from dicegames.analysis.html import report_page

    assert "starts at 3 dice" in report_page([report.to_json()])


@pytest.mark.process
def test_ctrl_c_writes_the_report_of_what_was_done(env: dict[str, str],  # noqa: F811
                                                   tmp_path: Path) -> None:
    """Petits Chevaux' ``expert`` has no kernel policy: the run says its expected time first,
    and SIGINT (Ctrl-C) during its engine games still writes the page, exit code 130."""
    import signal
    import subprocess
    import sys

    out = tmp_path / "page.html"
    process = subprocess.Popen([sys.executable, "-m", "dicegames", "analyse", "petits-chevaux",
                                "--ladder", "random,expert", "--games", "2000", "--seed", "1",
                                "--out", str(out)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               # Ctrl-C's default action, even if this run's SIGINT is ignored
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    try:
        assert process.stderr is not None
        announced = process.stderr.readline()
        assert "expect" in announced and "no kernel policy" in announced
        tick = os.sysconf("SC_CLK_TCK")

        def cpu() -> float:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick
        start = cpu()
        # two seconds of work after the announcement: some engine games are played
        until(lambda: cpu() >= start + 2.0 or None, "the report's work", timeout=90)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    page = out.read_text(encoding="utf-8")
    assert "interrupted (Ctrl-C)" in page and "<h2>Seat advantage</h2>" in page
    assert "interrupted (Ctrl-C)" in stdout


def test_with_shared_wins_the_exact_value_is_held_against_the_split_share() -> None:
    """finish=same_round shares some wins: the exact chance counts such a win half, so the
    sampled share it stands beside splits shared wins too, and the verdict judges seat 1's
    edge by it (its sole wins alone would call the fairer variant less fair)."""
    first = build_report(dicegames.make("extra-meters", track_length=20), games=10_000,
                         seed=1, traced=20).to_json()
    same = build_report(dicegames.make("extra-meters", track_length=20, finish="same_round"),
                        games=10_000, seed=1, traced=20).to_json()
    out = same["outcomes"]["best"]
    assert out["shared"]["share"] > 0.05
    split, exact = out["split"][0], same["exact"]["seat_advantage"][0]
    assert split["low"] <= exact <= split["high"]
    assert not out["sole"][0]["low"] <= exact <= out["sole"][0]["high"]
    assert comparison(first, same)["verdict"][0].startswith("Fairer")
