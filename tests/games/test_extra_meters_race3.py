"""The exact three-runner solution of extra-meters: a direct re-derivation and play."""

from __future__ import annotations

import random
from functools import cache

import pytest

import dicegames
from dicegames.analysis.simulate import play_one
from dicegames.bots import make_bot
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.race3 import solve_three
from dicegames.games.extra_meters.solver import MARGIN

pytest.importorskip("numpy")

Chances = tuple[float, float, float]


def direct_solution(n: int) -> dict[tuple[int, int, int], Chances]:
    """W(a; b, c) solved the plain way: each turn's (sum, dice) table on its own."""

    @cache
    def start(a: int, b: int, c: int) -> Chances:
        @cache
        def after(distance: int) -> Chances:
            if a + distance > n:
                return (1.0, 0.0, 0.0)
            following, last, mover = start(b, c, a + distance)
            return (mover, following, last)

        @cache
        def value(total: int, count: int) -> Chances:
            stop = after(total)
            if a + total > n:
                return stop
            futures = [after(count + 1)] + [value(total + f, count + 1) for f in range(1, 6)]
            roll = tuple(sum(v[i] for v in futures) / 6 for i in range(3))
            return (roll[0], roll[1], roll[2]) if roll[0] > stop[0] + MARGIN else stop

        opening = [value(face, 1) for face in range(1, 6)]
        return (sum(v[0] for v in opening) / 5, sum(v[1] for v in opening) / 5,
                sum(v[2] for v in opening) / 5)

    return {(a, b, c): start(a, b, c)
            for a in range(n + 1) for b in range(n + 1) for c in range(n + 1)}


def test_every_state_matches_the_direct_solution() -> None:
    n = 11
    solution = solve_three(n)
    for (a, b, c), expected in direct_solution(n).items():
        assert solution.chances(a, b, c) == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
def test_chances_are_a_distribution_and_the_first_runner_leads() -> None:
    solution = solve_three(50)
    first, second, third = solution.chances(0, 0, 0)
    assert first + second + third == pytest.approx(1.0, abs=1e-12)
    assert first > second > third > 0.25


def test_predicted_shares_match_play_through_the_real_rules() -> None:
    """Three hard bots through the engine win as often as the table says (4 sigma)."""
    game = dicegames.make("extra-meters", players=3, track_length=12)
    predicted = solve_three(12).chances(0, 0, 0)
    rng = random.Random(20261123)
    bots = [make_bot(game, "hard", rng) for _ in range(3)]
    games, shares = 3000, [0.0, 0.0, 0.0]
    for _ in range(games):
        for seat in play_one(game, bots, rng).winners:
            shares[seat] += 1
    for seat in range(3):
        sigma = (predicted[seat] * (1 - predicted[seat]) / games) ** 0.5
        assert abs(shares[seat] / games - predicted[seat]) < 4 * sigma


def test_hard_rolls_on_when_the_next_runner_would_win_anyway() -> None:
    """Far behind a runner about to win, the exact play keeps rolling where the threshold
    rule would stop."""
    game = dicegames.make("extra-meters", players=3)
    state = game.state_from(ExtraMetersData(positions=(20, 49, 10), player=0,
                                            phase=Phase.DECIDE, dice=(5, 5, 5, 5)))
    assert make_bot(game, "hard", random.Random(0)).choose(state, 0) is Decision.ROLL
    assert make_bot(game, "medium", random.Random(0)).choose(state, 0) is Decision.STOP
