"""The exact two-player solution of extra-meters: hand-derived values and play through the rules."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import dicegames
from dicegames.analysis.simulate import play_one
from dicegames.bots import bot_levels, make_bot
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.solver import Solution, _reach_probabilities, solve


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


def test_hard_is_exact_for_two_and_three_players_and_a_duel_with_the_leader_for_more(
) -> None:
    def levels(players: int, **options: object) -> dict[str, str]:
        game = dicegames.make("extra-meters", players=players, **options)
        return {level.name: level.doc for level in bot_levels(game)}

    two, three, four = levels(2), levels(3), levels(4)
    assert "perfectly" in two["hard"] and "optimal" in two
    assert "three-runner race" in three["hard"] and "leading opponent" in three["duel"]
    assert "exact solution of the race" in four["optimal"]  # the solved four-runner race
    assert "leading opponent" in four["hard"]
    assert "optimal" not in levels(5) and "optimal" not in levels(4, finish="same_round")
    assert "leading opponent" in levels(3, finish="same_round")["hard"]
    assert "leading opponent" in levels(3, track_length=120)["hard"]


def test_with_four_players_hard_duels_the_most_advanced_opponent() -> None:
    """Far behind the leader, hard keeps rolling where the threshold rule would stop."""
    game = dicegames.make("extra-meters", players=4, track_length=50)
    behind = ExtraMetersData(positions=(5, 10, 45, 0), player=0, phase=Phase.DECIDE,
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


# Values of the former turn-by-turn solution (one full turn table per pair of positions,
# O(N^4)), printed with repr(): the O(N^3) fill must give the same numbers.
FORMER = {
    (50, "first"): (0.5631044931521283, 0.5631044931521283, 0.4661536611822168,
                    0.676096754179696),
    (50, "same_round"): (0.49684416446142005, 0.6252647916478857, 0.321818495094475,
                         0.7378484030631189),
    (100, "first"): (0.5451066940363649, 0.5451066940363649, 0.44687922300070965,
                     0.6224671015287113),
}


@pytest.mark.parametrize(("length", "finish"), list(FORMER))
def test_values_equal_the_former_solution(length: int, finish: str) -> None:
    tables = solve(length, finish).tables
    found = (tables[0][0][0], tables[1][0][0], tables[0][30][40], tables[1][17][9])
    assert found == pytest.approx(FORMER[length, finish], abs=1e-12)


@pytest.mark.parametrize("finish", ["first", "same_round"])
def test_every_pair_agrees_with_its_own_turn_table(finish: str) -> None:
    """The fill's W(a, b) equals the turn solved the direct way from the later values."""
    solution = solve(25, finish)
    for seat in (0, 1):
        for a in range(26):
            for b in range(26):
                direct = sum(solution.turn_table(seat, a, b)[1][1:6]) / 5
                assert solution.tables[seat][a][b] == pytest.approx(direct, abs=1e-12)


@pytest.mark.parametrize("finish", ["first", "same_round"])
def test_plain_python_and_numpy_fills_are_identical(finish: str) -> None:
    pytest.importorskip("numpy")
    plain = Solution(30, finish == "same_round", vectorised=False)
    fast = Solution(30, finish == "same_round", vectorised=True)
    assert plain.tables == fast.tables
    assert plain.masks == fast.masks


@pytest.mark.slow
@pytest.mark.parametrize("finish", ["first", "same_round"])
def test_stored_decisions_match_the_exact_values(finish: str) -> None:
    """``rolls`` (a mask lookup) decides as comparing ``decision_values`` does, everywhere."""
    length = 14
    solution = solve(length, finish)
    checked = 0
    for seat in (0, 1):
        for a in range(length + 1):
            for b in range(length + 6 if finish == "same_round" and seat == 1 else length + 1):
                for count in range(1, length - a + 1):
                    for total in range(count, min(5 * count, length - a + 5) + 1):
                        dice = _dice_for(total, count)
                        positions = (a, b) if seat == 0 else (b, a)
                        data = ExtraMetersData(positions, seat, phase=Phase.DECIDE, dice=dice)
                        values = solution.decision_values(data)
                        expected = values[Decision.ROLL] > values[Decision.STOP] + 1e-12
                        assert solution.rolls(data) is expected, (data, values)
                        checked += 1
    assert checked > 10_000


def _dice_for(total: int, count: int) -> tuple[int, ...]:
    """Some ``count`` faces 1..5 summing to ``total``."""
    dice = [1] * count
    left = total - count
    for i in range(count):
        step = min(4, left)
        dice[i] += step
        left -= step
    return tuple(dice)


def test_track_200_is_solved_quickly_enough_to_use() -> None:
    """The largest track: its table fills (the speed is measured in make bench)."""
    solution = solve(200)
    assert 0.5 < solution.tables[0][0][0] < 0.56
