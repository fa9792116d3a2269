"""The exact two-player solution of extra-meters: hand-derived values and play through the rules."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import dicegames
from dicegames.analysis.simulate import play_one
from dicegames.bots import make_bot
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.solver import _reach_probabilities, solve


def test_reach_probabilities_match_hand_derivations() -> None:
    reach = _reach_probabilities(3)
    # Every turn moves at least one square; two squares are certain too (after an opening 1,
    # rolling again moves 2 on a 6 and at least 2 otherwise).
    assert reach[1] == 1.0 and reach[2] == 1.0
    # Three squares: opening 3-5 (3/5); after an opening 1 or 2 one more roll fails only on
    # a 6 (which moves 2), and after 1,1 any roll reaches 3: 3/5 + 2/5 * 5/6 = 14/15.
    assert reach[3] == pytest.approx(float(Fraction(14, 15)), abs=1e-15)


def test_stopping_past_the_end_is_a_certain_win_under_first() -> None:
    solution = solve(10)
    data = ExtraMetersData(positions=(8, 0), phase=Phase.DECIDE, dice=(3,))
    values = solution.decision_values(data)
    assert values[Decision.STOP] == 1.0
    assert values[Decision.ROLL] < 1.0  # a 6 would move only 2 squares, to square 10


def test_values_are_probabilities_and_favour_the_leader() -> None:
    solution = solve(20)
    table = solution.tables[0]
    assert all(0.0 <= p <= 1.0 for row in table for p in row)
    assert table[15][0] > table[0][0] > table[0][15]


def test_same_round_gives_the_second_seat_the_edge_and_a_first_seat_pass_is_not_a_sure_win(
) -> None:
    first, same = solve(30, "first"), solve(30, "same_round")
    # Under `first` the starting player is favoured; under `same_round` seat 1 sees what
    # seat 0 did before its last turn, which turns the edge around.
    assert first.tables[0][0][0] > 0.5
    assert same.tables[0][0][0] < 0.5
    assert same.after(0, 28, 27, 5) < 1.0
    assert same.after(1, 28, 27, 5) == 1.0


@pytest.mark.parametrize("finish", ["first", "same_round"])
def test_predicted_win_rate_matches_play_through_the_real_rules(finish: str) -> None:
    """Optimal vs optimal through the engine wins as often as the table says (4 sigma)."""
    game = dicegames.make("extra-meters", track_length=12, finish=finish)
    predicted = solve(12, finish).tables[0][0][0]
    rng = random.Random(20261122)
    bots = [make_bot(game, "optimal", rng), make_bot(game, "optimal", rng)]
    games, seat0 = 3000, 0.0
    for _ in range(games):
        winners = play_one(game, bots, rng).winners
        seat0 += 1 / len(winners) if 0 in winners else 0.0
    sigma = (predicted * (1 - predicted) / games) ** 0.5
    assert abs(seat0 / games - predicted) < 4 * sigma


def test_hard_is_optimal_for_two_players_and_a_duel_with_the_leader_for_more() -> None:
    two = {level.name: level.doc for level in dicegames.make("extra-meters").bot_levels()}
    three = {level.name: level.doc
             for level in dicegames.make("extra-meters", players=3).bot_levels()}
    assert "perfectly" in two["hard"] and "optimal" in two
    assert "optimal" not in three and "leading opponent" in three["hard"]


def test_with_three_players_hard_duels_the_most_advanced_opponent() -> None:
    """Far behind the leader, hard keeps rolling where the threshold rule would stop."""
    game = dicegames.make("extra-meters", players=3, track_length=50)
    behind = ExtraMetersData(positions=(5, 10, 45), player=0, phase=Phase.DECIDE,
                             dice=(5, 5, 5, 5))
    state = game.state_from(behind)
    hard = make_bot(game, "hard", random.Random(0))
    medium = make_bot(game, "medium", random.Random(0))
    assert medium.choose(state, 0) is Decision.STOP  # 20 >= 16 + 4
    assert hard.choose(state, 0) is Decision.ROLL


def test_last_turn_after_seat_0_passed_under_same_round() -> None:
    """Seat 1's last turn: passing too shares the win (1/2), falling short loses."""
    solution = solve(20, "same_round")
    short = ExtraMetersData(positions=(22, 12), player=1, phase=Phase.DECIDE, dice=(4,))
    past = ExtraMetersData(positions=(22, 12), player=1, phase=Phase.DECIDE, dice=(5, 4))
    assert solution.decision_values(short)[Decision.STOP] == 0.0
    assert 0.0 < solution.decision_values(short)[Decision.ROLL] < 0.5
    assert solution.decision_values(past)[Decision.STOP] == 0.5
    assert solution.decision_values(past)[Decision.ROLL] < 0.5
