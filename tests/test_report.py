"""The design report: figures against known answers, reproducibility, the command."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicegames
from dicegames.analysis.ratings import bradley_terry
from dicegames.analysis.report import DesignReport, Lengths, build_report, drama
from dicegames.analysis.traced import GameTrace
from dicegames.core.errors import OptionError
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.solver import solve
from dicegames.games.extra_meters.strategy import stop_thresholds
from test_cli import assert_one_line_error, env, run  # noqa: F401

SHORT = 20
"""A short Extra Meters track keeps the runs quick."""


@pytest.fixture(scope="module")
def report() -> DesignReport:
    game = dicegames.make("extra-meters", track_length=SHORT)
    return build_report(game, games=2000, seed=5, bots=["random", "easy", "optimal"])


def test_first_seat_advantage_under_optimal_play_is_the_exact_value(
        report: DesignReport) -> None:
    exact = solve(SHORT).win_probability(0, 0, 0)
    first = report.seats_best[0]
    assert first.low <= exact <= first.high
    assert report.bots == ("optimal", "optimal")
    assert sum(seat.share for seat in report.seats_best) == pytest.approx(1.0)


def test_ladder_orders_the_bots_and_random_rarely_beats_the_best(
        report: DesignReport) -> None:
    ratings = {rating.name: rating for rating in report.ladder}
    assert ratings["random"].elo == 0.0
    assert ratings["optimal"].low > ratings["random"].high
    assert report.random_vs_best is not None
    assert report.random_vs_best.result.share < 0.25
    assert report.best_vs_weakest is None  # easy is random: one bot besides the reference


def test_the_ladder_counts_one_bot_once(report: DesignReport) -> None:
    """easy is random in Extra Meters, hard is optimal: each bot is rated once."""
    assert [rating.name for rating in report.ladder] == ["random", "optimal"]
    assert report.same_as == {"random": ("easy",)}
    default = build_report(dicegames.make("extra-meters", track_length=SHORT), games=50,
                           seed=1, traced=5)
    assert [rating.name for rating in default.ladder] == ["random", "medium", "hard"]
    assert default.same_as == {"random": ("easy",), "hard": ("optimal",)}
    with pytest.raises(OptionError, match="the same bot"):
        build_report(dicegames.make("extra-meters"), games=5, bots=["hard", "optimal"])


def test_length_choices_and_drama_are_consistent(report: DesignReport) -> None:
    assert report.turns.shortest <= report.turns.median <= report.turns.longest
    assert sum(report.turns.histogram.values()) == report.games
    assert report.branching == 2.0  # roll or stop
    assert report.drama is not None
    assert report.drama.estimate == "exact"
    assert report.drama.games == report.traced <= report.games
    assert 0.0 <= report.drama.winner_settles <= 1.0
    assert report.strategy is not None


def test_the_same_seed_gives_the_same_report() -> None:
    game = dicegames.make("shortcut", players=3)  # unsolved: its drama is by rollouts
    settings: dict[str, Any] = {"games": 12, "seed": 9, "bots": ["random", "medium"]}
    first = build_report(game, **settings).to_json()
    assert build_report(game, **settings).to_json() == first
    assert build_report(game, **{**settings, "seed": 10}).to_json() != first
    assert first["drama"]["estimate"] == "rollouts"


def test_drama_counts_lead_changes_and_comebacks() -> None:
    traces = [GameTrace((1,), 4, 0, 0, 0, (0, 0, 1, 1)),  # one change, behind at half wins
              GameTrace((0,), 4, 0, 0, 0, (0, 0, 1, 0)),  # two changes, leader at half wins
              GameTrace((0,), 2, 0, 0, 0, ())]  # not measured
    figures = drama(traces, "exact")
    assert figures is not None
    assert figures.games == 2
    assert figures.lead_changes.mean == 1.5
    assert figures.winner_settles == pytest.approx((2 / 4 + 3 / 4) / 2)
    assert figures.behind_at_half_wins is not None
    assert figures.behind_at_half_wins.share == 0.5


def test_lengths_and_ratings_known_answers() -> None:
    lengths = Lengths.of([1, 2, 2, 3, 10])
    assert (lengths.mean, lengths.median, lengths.shortest, lengths.longest) == (3.6, 2, 1, 10)
    level = bradley_terry(["a", "b"], [[0, 50], [50, 0]])
    assert level[1].elo == pytest.approx(0.0, abs=1e-6)
    assert level[1].low < 0 < level[1].high
    three = bradley_terry(["a", "b", "c"], [[0, 20, 10], [80, 0, 30], [90, 70, 0]])
    assert three[0].elo < three[1].elo < three[2].elo
    # b beats a 80.5 to 20.5 (with the prior) in the pairwise fit alone: about 4 to 1.
    assert three[1].elo == pytest.approx(400 * math.log10(4), abs=60)


@given(st.integers(0, 500), st.integers(0, 500))
def test_two_player_ladder_is_the_log_odds(wins: int, losses: int) -> None:
    """With two bots the fit is closed-form: 400·log10 of the odds (with the prior)."""
    ladder = bradley_terry(["a", "b"], [[0, losses], [wins, 0]])
    assert ladder[1].elo == pytest.approx(400 * math.log10((wins + 0.5) / (losses + 0.5)),
                                          abs=1e-6)
    assert ladder[1].low < ladder[1].elo < ladder[1].high


def test_strategy_thresholds_agree_with_the_solver() -> None:
    grids = stop_thresholds(SHORT, "first", (3, 4))
    solution = solve(SHORT)
    for dice in (3, 4):
        for a, b in ((0, 0), (5, 12), (10, 3), (14, 14)):
            threshold = grids[dice][a][b]
            for total in range(dice, 5 * dice + 1):
                faces = [1] * dice
                rest, i = total - dice, 0
                while rest:
                    faces[i] += min(4, rest)
                    rest -= min(4, rest)
                    i += 1
                data = ExtraMetersData((a, b), 0, 1, Phase.DECIDE, tuple(faces))
                values = solution.decision_values(data)
                stops = values[Decision.STOP] >= values[Decision.ROLL]
                if threshold is None or total < threshold:
                    assert not stops, (dice, a, b, total)
                elif total == threshold:
                    assert stops


def test_bad_ladder_is_refused() -> None:
    game = dicegames.make("extra-meters")
    with pytest.raises(OptionError, match="at least two different bots"):
        build_report(game, games=5, bots=["optimal", "optimal"])
    with pytest.raises(OptionError, match="the report needs bots only, and 'wizard'"):
        build_report(game, games=5, bots=["random", "wizard"])


@pytest.mark.process
def test_analyse_command_writes_the_page_and_charts(env: dict[str, str],  # noqa: F811
                                                    tmp_path: Path) -> None:
    out = tmp_path / "em.html"
    done = run(env, "analyse", "extra-meters", "--games", "20", "--seed", "3", "--option",
               "track_length=15", "--compare", "finish=same_round", "--ladder",
               "random,optimal", "--out", str(out), "--charts", "png")
    assert done.returncode == 0, done.stderr
    assert f"Report written to {out}" in done.stdout.replace("\n", "")
    page = out.read_text(encoding="utf-8")
    assert page.count("<h2>Seat advantage</h2>") == 2 and "same_round" in page
    assert (tmp_path / "em-1-seats.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "em-2-strategy.png").exists()
    done = run(env, "analyse", "extra-meters", "--games", "10", "--seed", "3", "--ladder",
               "random,optimal", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["skill"]["ladder"][0]["name"] == "random"


@pytest.mark.process
def test_analyse_command_errors_are_one_line(env: dict[str, str]) -> None:  # noqa: F811
    assert_one_line_error(run(env, "analyse", "extra-meters", "--ladder", "random,wizard",
                              "--json"), 2, "'wizard' is not a bot")
    assert_one_line_error(run(env, "analyse", "nogame"), 2, "nogame")
