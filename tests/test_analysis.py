"""The analysis library: Wilson intervals, histograms, and bot-versus-bot simulation.

Most simulation checks run on a tiny scripted game defined here (``Toy``), whose outcome is
known in advance, so that seat rotation, shared wins, forced passes and runaway games are
checked exactly rather than statistically. The statistical checks use extra-meters with
fixed seeds and margins of many standard deviations.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicegames
from dicegames import OptionError
from dicegames.analysis import (
    SimulationError,
    SimulationReport,
    game_seed,
    histogram_mean,
    histogram_median,
    play_one,
    simulate,
    wilson_interval,
)
from dicegames.bots import RandomBot
from dicegames.core import registry
from dicegames.core.chance import uniform
from dicegames.core.definition import GameDefinition
from dicegames.core.game import Game, State
from dicegames.core.model import (
    CHANCE,
    PASS,
    TERMINAL,
    BotLevel,
    GameSpec,
    Node,
    Result,
    Seat,
    TurnInfo,
)
from dicegames.core.options import OptionSpec

# --------------------------------------------------------------------------- Wilson interval


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
        # Small-sample classics: 0, 5 and 10 of 10.
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_interval_matches_published_values(
    successes: int, n: int, low: float, high: float
) -> None:
    got_low, got_high = wilson_interval(successes, n)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_at_zero_successes_has_the_closed_form_upper_bound() -> None:
    z = 1.959963984540054
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(z * z / (10 + z * z))


def test_wilson_interval_narrows_with_z_and_with_more_trials() -> None:
    wide = wilson_interval(30, 100)
    narrow = wilson_interval(30, 100, z=1.0)
    more = wilson_interval(300, 1000)
    assert wide[0] < narrow[0] < 0.3 < narrow[1] < wide[1]
    assert wide[1] - wide[0] > more[1] - more[0]


@given(st.integers(min_value=1, max_value=10_000), st.floats(min_value=0, max_value=1))
def test_wilson_interval_contains_the_estimate_and_stays_in_unit_range(
    n: int, fraction: float
) -> None:
    successes = fraction * n
    low, high = wilson_interval(successes, n)
    assert 0.0 <= low <= successes / n + 1e-12
    assert successes / n - 1e-12 <= high <= 1.0


@pytest.mark.parametrize(("successes", "n", "z"),
                         [(1, 0, 1.96), (-1, 10, 1.96), (11, 10, 1.96), (5, 10, 0.0)])
def test_wilson_interval_rejects_impossible_input(successes: int, n: int, z: float) -> None:
    with pytest.raises(ValueError, match=r"trials|successes|z must"):
        wilson_interval(successes, n, z)


# --------------------------------------------------------------------------- histograms


@given(st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=60))
def test_histogram_mean_and_median_agree_with_statistics(values: list[int]) -> None:
    histogram = Counter(values)
    assert histogram_mean(histogram) == pytest.approx(statistics.mean(values))
    assert histogram_median(histogram) == statistics.median(values)


def test_histogram_helpers_reject_an_empty_histogram() -> None:
    with pytest.raises(ValueError, match="empty"):
        histogram_mean({})
    with pytest.raises(ValueError, match="empty"):
        histogram_median({})


# --------------------------------------------------------------------------- a scripted game


class Toy(Game[tuple[int, int], Hashable, int]):
    """A known-outcome game: a coin toss, then each seat decides once, in seat order.

    Data is (decisions taken, coin). Options pick the outcome: ``first`` (seat 0 wins),
    ``all`` (every seat shares the win), ``nobody``, ``coin`` (seat 0 wins on heads, else
    seat 1), ``forever`` (never ends). Seat 0 must ``pass`` (its only action); the others
    choose ``a`` or ``b``.
    """

    spec = GameSpec(
        id="toy", name="Toy", pitch="A test game.", min_players=1, max_players=6,
        default_players=3,
        options=(OptionSpec("mode", "choice", "first", "who wins",
                            choices=("first", "all", "nobody", "coin", "forever")),),
    )

    def _initial(self) -> tuple[int, int]:
        return (0, -1)

    def _node(self, data: tuple[int, int]) -> Node:
        taken, coin = data
        if coin < 0:
            return CHANCE
        if self.options["mode"] != "forever" and taken >= self.players:
            return TERMINAL
        return Node.decision(taken % self.players)

    def _turn(self, data: tuple[int, int]) -> TurnInfo:
        return TurnInfo(data[0] % self.players, data[0] + 1)

    def _legal_actions(self, data: tuple[int, int], seat: Seat) -> tuple[Hashable, ...]:
        return (PASS,) if seat == 0 else ("a", "b")

    def _apply_action(self, data: tuple[int, int], seat: Seat, action: Hashable) -> tuple[int, int]:
        return (data[0] + 1, data[1])

    def _chance_outcomes(self, data: tuple[int, int]) -> tuple[tuple[int, Fraction], ...]:
        return uniform((0, 1))

    def _apply_outcome(self, data: tuple[int, int], outcome: int) -> tuple[int, int]:
        return (data[0], outcome)

    def _result(self, data: tuple[int, int]) -> Result:
        mode = self.options["mode"]
        seats = range(self.players)
        winners = {"first": [0], "all": list(seats), "nobody": [],
                   "coin": [0 if data[1] == 1 else 1]}[str(mode)]
        return Result.from_scores(winners, [float(s) for s in seats])



class Steady:
    """Always ``a``; fails loudly if asked about a forced pass."""

    def choose(self, state: State[tuple[int, int], Hashable, int], seat: Seat) -> Hashable:
        assert state.legal_actions(seat) != (PASS,), "a forced pass must not reach a bot"
        return "a"


class Cheat:
    """Plays a move that is never legal."""

    def choose(self, state: State[tuple[int, int], Hashable, int], seat: Seat) -> Hashable:
        return "z"


def toy_bots(game: object) -> tuple[BotLevel, ...]:
    """The toy's own bots (the ``bots`` part of its definition)."""
    return (BotLevel("steady", "always a", lambda g, rng: Steady()),
            BotLevel("cheat", "plays an illegal move", lambda g, rng: Cheat()))


@pytest.fixture(autouse=True)
def toy_has_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's definition, known by its class for this module's tests (the registry's
    list of games stays as it is)."""
    known: dict[Any, GameDefinition] = dict(registry._BY_CLASS)
    known[Toy] = GameDefinition(rules=Toy, bots=toy_bots)
    monkeypatch.setattr(registry, "_BY_CLASS", known)


def toy(players: int = 3, mode: str = "first") -> Toy:
    return Toy(players, {"mode": mode})


# --------------------------------------------------------------------------- simulate: exact


def test_without_rotation_each_entry_keeps_its_seat() -> None:
    report = simulate(toy(), ["bot:steady", "steady", "bot:random"], 7, seed=1)
    assert [s.wins for s in report.per_player] == [7.0, 0.0, 0.0]
    assert [s.label for s in report.per_player] == ["bot:steady", "steady", "bot:random"]
    assert report.per_player[0].win_share == 1.0
    assert report.per_player[0].ci_low == pytest.approx(wilson_interval(7, 7)[0])
    assert [s.mean_score for s in report.per_player] == [0.0, 1.0, 2.0]
    assert report.players == ("bot:steady", "steady", "bot:random")
    assert (report.mean_turns, report.median_turns) == (4.0, 4.0)


def test_rotation_seats_entry_j_in_seat_j_plus_i() -> None:
    # Game i puts entry (0 - i) % 3 in seat 0, the winning seat: entries 0, 2, 1, 0, 2.
    report = simulate(toy(), ["bot:steady"] * 3, 5, seed=1, rotate=True)
    assert [s.wins for s in report.per_player] == [2.0, 1.0, 2.0]
    # Seat s scores s, so entry j averages its seats over the five games.
    seats = [[(j + i) % 3 for i in range(5)] for j in range(3)]
    assert [s.mean_score for s in report.per_player] == [sum(x) / 5 for x in seats]
    assert all(s.games == 5 for s in report.per_player)


def test_a_shared_win_counts_one_kth_and_a_game_without_winner_counts_none() -> None:
    shared = simulate(toy(4, "all"), ["steady"] * 4, 10, seed=3)
    assert [s.wins for s in shared.per_player] == [2.5] * 4
    assert [s.win_share for s in shared.per_player] == [0.25] * 4
    assert shared.no_winner == 0
    nobody = simulate(toy(2, "nobody"), ["steady"] * 2, 6, seed=3)
    assert [s.wins for s in nobody.per_player] == [0.0, 0.0]
    assert nobody.no_winner == 6


def test_dice_follow_the_seed_and_differ_between_games() -> None:
    first = simulate(toy(2, "coin"), ["steady"] * 2, 400, seed=11)
    again = simulate(toy(2, "coin"), ["steady"] * 2, 400, seed=11)
    other = simulate(toy(2, "coin"), ["steady"] * 2, 400, seed=12)
    assert first.per_player == again.per_player
    assert first.per_player != other.per_player
    # A fair coin: 400 tosses land within 100 of 200 heads (10 standard deviations).
    assert 100 < first.per_player[0].wins < 300


def test_game_seeds_are_distinct_across_games_and_runs() -> None:
    seeds = {game_seed(seed, index) for seed in range(20) for index in range(500)}
    assert len(seeds) == 20 * 500
    assert game_seed(5, 3) == game_seed(5, 3)


def test_a_bot_that_plays_an_illegal_move_stops_the_run() -> None:
    with pytest.raises(SimulationError, match=r"seat 1 .*chose z.*legal: a, b"):
        simulate(toy(2), ["steady", "cheat"], 3, seed=1)


def test_a_game_that_never_ends_stops_the_run() -> None:
    with pytest.raises(SimulationError, match="did not end within 50 moves"):
        simulate(toy(2, "forever"), ["steady", "steady"], 1, seed=1, max_moves=50)


def test_play_one_counts_every_applied_state() -> None:
    agents = [RandomBot(random.Random(1))] * 3
    outcome = play_one(toy(), agents, random.Random(2))
    assert (outcome.winners, outcome.turns, outcome.moves) == ((0,), 4, 4)  # toss + 3 moves


def test_progress_reports_growing_counts_ending_at_the_total() -> None:
    seen: list[int] = []
    simulate(toy(), ["steady"] * 3, 1234, seed=1, progress=seen.append)
    assert seen == sorted(seen)
    assert len(set(seen)) == len(seen)
    assert seen[-1] == 1234
    assert 10 <= len(seen) <= 101


# --------------------------------------------------------------------------- simulate: errors


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        (["human", "bot:medium"], 10, r"needs bots only.*'human'.*bots of extra-meters: easy"),
        (["bot:medium", "Ann"], 10, r"needs bots only.*'Ann'"),
        (["bot:medium"], 10, r"2 players, but 1 player spec was given"),
        (["bot:medium"] * 3, 10, r"2 players, but 3 player specs were given"),
        (["bot:medium", "bot:genius"], 10, r"no bot 'genius'; the bots are: easy, medium"),
        (["bot:medium", "bot:easy"], 0, r"number of games .* at least 1, not 0"),
    ],
)
def test_bad_requests_raise_option_errors_that_say_what_is_allowed(
    players: list[str], games: int, message: str
) -> None:
    game = dicegames.make("extra-meters")
    with pytest.raises(OptionError, match=message):
        simulate(game, players, games, seed=1)


def test_several_jobs_need_a_game_the_workers_can_rebuild() -> None:
    with pytest.raises(OptionError, match=r"jobs > 1 needs a registered game.*unknown game 'toy'"):
        simulate(toy(), ["steady"] * 3, 5, seed=1, jobs=2)


def test_negative_jobs_are_refused() -> None:
    with pytest.raises(OptionError, match="jobs"):
        simulate(dicegames.make("extra-meters"), ["easy", "easy"], 5, seed=1, jobs=-1)


# --------------------------------------------------------------------------- simulate: reports


@pytest.mark.slow
def test_same_seed_same_report_and_jobs_do_not_change_it() -> None:
    game = dicegames.make("extra-meters", players=3, finish="same_round")
    players = ["bot:medium", "bot:easy", "bot:random"]
    one = simulate(game, players, 300, seed=42, rotate=True)
    again = simulate(game, players, 300, seed=42, rotate=True)
    parallel = simulate(game, players, 300, seed=42, rotate=True, jobs=2)

    def figures(report: SimulationReport) -> dict[str, object]:
        data = report.to_json()
        del data["elapsed_s"], data["games_per_s"]
        return data

    assert figures(one) == figures(again) == figures(parallel)
    assert figures(simulate(game, players, 300, seed=43, rotate=True)) != figures(one)


def test_to_json_is_plain_json_with_every_figure() -> None:
    report = simulate(dicegames.make("extra-meters"), ["bot:medium", "easy"], 20, seed=5)
    data = json.loads(json.dumps(report.to_json(), allow_nan=False))
    assert data["game"] == "extra-meters"
    assert data["options"] == {"track_length": 50, "finish": "first"}
    assert data["players"] == ["bot:medium", "easy"]
    assert (data["games"], data["seed"], data["rotate"]) == (20, 5, False)
    assert [p["label"] for p in data["per_player"]] == ["bot:medium", "easy"]
    assert sum(p["wins"] for p in data["per_player"]) + data["no_winner"] == 20
    for key in ("mean_turns", "elapsed_s", "games_per_s"):
        assert isinstance(data[key], float) and math.isfinite(data[key])
    # Whole counts are integers (57156, not 57156.0); a median between two games is x.5.
    assert all(isinstance(p["wins"], int) for p in data["per_player"])
    assert isinstance(data["no_winner"], int)
    assert isinstance(data["median_turns"], int) or data["median_turns"] % 1 == 0.5


def test_identical_bots_with_rotation_share_the_wins_evenly() -> None:
    # medium plays deterministically, so only the dice and the seats differ: with rotation
    # each entry starts half of the games. 400 games: one standard deviation is 0.025.
    game = dicegames.make("extra-meters")
    report = simulate(game, ["bot:medium", "bot:medium"], 400, seed=9, rotate=True)
    assert len(report.per_player) == 2
    shares = [s.win_share for s in report.per_player]
    assert sum(shares) == pytest.approx(1.0)
    assert abs(shares[0] - 0.5) < 0.1


def test_medium_beats_random_by_a_wide_margin() -> None:
    # Measured over 20,000 games: medium wins about 96% against easy (random). Over 400
    # rotated games one standard deviation is about 0.01, so 80% is a margin of 16 of them.
    game = dicegames.make("extra-meters")
    report = simulate(game, ["bot:medium", "bot:easy"], 400, seed=2024, rotate=True)
    medium, easy = report.per_player
    assert medium.win_share > 0.8
    assert medium.ci_low > easy.ci_high
    assert medium.mean_score > easy.mean_score
