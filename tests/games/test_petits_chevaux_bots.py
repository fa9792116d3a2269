"""Petits Chevaux bots: the capture chances they reason with, and the choices they make."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dicegames
from dicegames import State
from dicegames.bots import make_bot
from dicegames.bots.rollout import RolloutBot
from dicegames.games.petits_chevaux import Action, ChevauxData, Colour, PetitsChevauxRules, Phase
from dicegames.games.petits_chevaux.board import ENTRANCE, PATHS, START, TRACK_LENGTH
from dicegames.games.petits_chevaux.heuristics import (
    capture_chance,
    hard_policy,
    hard_scores,
    heuristic_policy,
    heuristic_scores,
)
from dicegames.games.petits_chevaux.moves import DEFAULT_BLOCKING, Blocking, Board
from dicegames.games.petits_chevaux.search import (
    evaluation,
    search_bot,
    value_evaluation,
    value_search_bot,
)

RED, BLUE, YELLOW = Colour.RED, Colour.BLUE, Colour.YELLOW
COLOURS = (RED, YELLOW)


def on(colour: Colour, square: int) -> int:
    """The progress of a horse of ``colour`` standing on track square ``square``."""
    return (square - START[colour]) % TRACK_LENGTH + 1


def chance(horses: tuple[tuple[int, ...], ...], square: int,
           blocking: Blocking = DEFAULT_BLOCKING) -> float:
    """Red's lone horse on ``square``: its chance of being captured (two players)."""
    return capture_chance(COLOURS, horses, Board(COLOURS, horses), 0, square, blocking=blocking)


def position(horses: list[tuple[int, ...]], roll: int, player: int = 0) -> State[Any, Any, Any]:
    """A two-player position where ``player`` rolled ``roll``."""
    data = ChevauxData(tuple(horses), player, 3, Phase.MOVE, roll, 1 if roll == 6 else 0)
    state: State[Any, Any, Any] = game_of(len(horses)).state_from(data)
    return state


def game_of(players: int = 2) -> PetitsChevauxRules:
    """A petits-chevaux game with the default options."""
    game = dicegames.make("petits-chevaux", players=players)
    assert isinstance(game, PetitsChevauxRules)
    return game


def test_a_horse_out_of_reach_is_safe() -> None:
    square = PATHS[RED][20]
    assert chance(((20, 0, 0, 0), (on(YELLOW, square) + 1, 0, 0, 0)), square) == 0.0
    assert chance(((20, 0, 0, 0), (0, 0, 0, 0)), square) == 0.0


def test_a_horse_3_squares_ahead_of_an_opponent_is_hit_by_a_3_or_a_6_then_a_3() -> None:
    square = PATHS[RED][20]
    horses = ((20, 0, 0, 0), (on(YELLOW, square) - 3, 0, 0, 0))
    assert chance(horses, square) == pytest.approx(1 / 6 + 1 / 36)


def test_a_horse_6_ahead_is_hit_by_any_6_and_9_ahead_by_a_6_then_a_3() -> None:
    square = PATHS[RED][20]
    assert chance(((20, 0, 0, 0), (on(YELLOW, square) - 6, 0, 0, 0)), square) == (
        pytest.approx(1 / 6))
    assert chance(((20, 0, 0, 0), (on(YELLOW, square) - 9, 0, 0, 0)), square) == (
        pytest.approx(1 / 36))


def test_a_horse_on_an_opponents_start_square_fears_their_6() -> None:
    square = START[YELLOW]
    assert chance(((on(RED, square), 0, 0, 0), (5, 0, 0, 0)), square) == pytest.approx(1 / 6)
    assert chance(((on(RED, square), 0, 0, 0), (5, 9, 12, 20)), square) == 0.0


def test_a_barrage_in_between_protects() -> None:
    square = PATHS[RED][20]
    wall = 18
    horses = ((20, wall, wall, 0), (on(YELLOW, square) - 3, 0, 0, 0))
    assert chance(horses, square) == 0.0
    assert chance(horses, square, Blocking(blocks_own=False)) == 0.0  # opponents still blocked


def test_opponents_never_reach_past_their_own_entrance() -> None:
    near_home = ENTRANCE - 1  # yellow's horse 1 is one step before its entrance
    square = (PATHS[YELLOW][near_home] + 3) % TRACK_LENGTH  # 3 steps on, past the entrance
    horses = ((on(RED, square), 0, 0, 0), (near_home, ENTRANCE + 1, ENTRANCE + 2, ENTRANCE + 3))
    assert chance(horses, square) == 0.0
    before = (PATHS[YELLOW][near_home] + 1) % TRACK_LENGTH  # its entrance square: in reach
    horses = ((on(RED, before), 0, 0, 0), (near_home, ENTRANCE + 1, ENTRANCE + 2, ENTRANCE + 3))
    assert chance(horses, before) == pytest.approx(1 / 6 + 1 / 36)


def test_medium_captures_when_it_can() -> None:
    target = PATHS[RED][14]
    state = position([(10, 30, 0, 0), (on(YELLOW, target), 0, 0, 0)], 4)
    assert heuristic_policy(state, 0, random.Random(0)) == "r1"
    scores = heuristic_scores(game_of(), state.data)
    assert scores[Action.R1] > 100


def test_medium_brings_a_horse_out_on_a_6() -> None:
    state = position([(10, 0, 0, 0), (0, 0, 0, 0)], 6)
    assert heuristic_policy(state, 0, random.Random(0)) == "out"


def test_medium_keeps_out_of_reach() -> None:
    # r1 moving 2 would stop 1 square ahead of a yellow horse's reach; r2 is safe either way.
    danger = PATHS[RED][22]
    state = position([(20, 40, 0, 0), (on(YELLOW, danger) - 2, 0, 0, 0)], 2)
    assert heuristic_policy(state, 0, random.Random(0)) == "r2"


def test_hard_captures_and_runs_its_leading_horse() -> None:
    target = PATHS[RED][14]
    state = position([(10, 30, 0, 0), (on(YELLOW, target), 50, 50, 0)], 4)
    assert hard_policy(state, 0, random.Random(0)) == "r1"
    state = position([(20, 40, 0, 0), (0, 0, 0, 0)], 3)
    scores = hard_scores(game_of(), state.data)
    assert max(scores, key=scores.__getitem__) == "r2"


def test_hard_counts_what_breaking_a_barrage_exposes() -> None:
    # Red's barrage on 20 has a yellow horse 2 behind: moving one of its horses leaves the
    # other alone within reach, and the hard bot prefers to move its free horse instead.
    wall = PATHS[RED][20]
    state = position([(20, 20, 5, 0), (on(YELLOW, wall) - 2, 0, 0, 0)], 3)
    scores = hard_scores(game_of(), state.data)
    assert max(scores, key=scores.__getitem__) == "r3"
    assert scores[Action.R1] < scores[Action.R3] - 5


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_a_whole_four_player_game(level: str) -> None:
    game = dicegames.make("petits-chevaux", players=4)
    rng = random.Random(7)
    agents = [make_bot(game, level, rng) for _ in range(4)]
    session = dicegames.Session(game, seed=7)
    result = dicegames.play(session, agents, dicegames.RandomDice(rng))
    assert result is not None and len(result.winners) == 1


def test_the_pass_of_a_bot_is_only_chosen_when_forced() -> None:
    game = dicegames.make("petits-chevaux", players=2, compulsory_move=False)
    data = ChevauxData(((10, 0, 0, 0), (0, 0, 0, 0)), 0, 3, Phase.MOVE, 3, 0)
    state = game.state_from(data)
    assert heuristic_policy(state, 0, random.Random(0)) == "r1"
    assert hard_policy(state, 0, random.Random(0)) == "r1"


def test_hard_flees_with_a_threatened_horse_rather_than_run_its_leader() -> None:
    # Yellow stands 2 behind red's horse 1 (progress 20): a 5 takes it 7 ahead, where only a
    # 6 then a 1 reaches it; advancing the safe leader instead would leave it exposed.
    threatened = PATHS[RED][20]
    state = position([(20, 35, 0, 0), (on(YELLOW, threatened) - 2, 0, 0, 0)], 5)
    assert hard_policy(state, 0, random.Random(0)) == "r1"
    scores = hard_scores(game_of(), state.data)
    assert scores[Action.R1] > scores[Action.R2] + 2


def test_hard_captures_the_horse_that_threatens_it_rather_than_flee() -> None:
    # Yellow's horse is 2 behind red's horse 2 (progress 30) and 2 ahead of red's horse 1:
    # a 2 either captures it with horse 1 (removing the threat) or moves horse 2 to 32,
    # still within its reach.
    yellow = PATHS[RED][28]
    state = position([(26, 30, 0, 0), (on(YELLOW, yellow), 0, 0, 0)], 2)
    assert hard_policy(state, 0, random.Random(0)) == "r1"
    after = state.apply("r1")
    assert after.data.horses[1] == (0, 0, 0, 0)


def test_hard_brings_its_horse_home_into_the_stable_out_of_reach() -> None:
    # Red's horse 1 stands 3 before its stable entrance with yellow 1 behind it; a 4 takes
    # it into the stable, where it cannot be captured, which beats taking horse 2 from
    # stable square 2 to its definitive place (square 6).
    near_home = ENTRANCE - 3
    square = PATHS[RED][near_home]
    state = position([(near_home, ENTRANCE + 2, 0, 0), (on(YELLOW, square) - 1, 0, 0, 0)], 4)
    assert state.legal_actions(0) == ("r1", "r2")
    assert hard_policy(state, 0, random.Random(0)) == "r1"


def test_hard_brings_a_horse_out_on_a_6() -> None:
    state = position([(30, 0, 0, 0), (0, 0, 0, 0)], 6)
    assert hard_policy(state, 0, random.Random(0)) == "out"


# ----------------------------------------------------------------------- the search bot


def search(seed: int = 0, rollouts: int = 120, horizon: int = 0) -> RolloutBot:
    """The pure rollout search (no pruning, no deference to ``hard``) with a small budget
    and no time limit, so that its choices are reproducible."""
    return search_bot(random.Random(seed), rollouts=rollouts, horizon=horizon, prune=False,
                      confidence=None)


def play_checked(bot: Any, seed: int) -> None:
    """A whole 2-player game of ``bot`` against ``medium``: every choice must be legal."""
    game = game_of(2)
    made: list[object] = []

    class Checked:
        def choose(self, state: State[Any, Any, Any], seat: int) -> object:
            choice = bot.choose(state, seat)
            assert choice in state.legal_actions(seat)
            made.append(choice)
            return choice

    session = dicegames.Session(game, seed=seed)
    result = dicegames.play(session, [Checked(), make_bot(game, "medium", random.Random(1))],
                            dicegames.RandomDice(random.Random(seed)))
    assert result is not None and made


def test_search_plays_legal_moves_through_a_whole_game() -> None:
    play_checked(search(3, rollouts=8), 3)


def test_search_answers_a_forced_move_without_simulating() -> None:
    # Only horse 1 can move a 3 (the others wait for a 6): no continuation is played.
    calls: list[int] = []

    def counting(state: State[Any, Any, Any], seat: int) -> float:
        calls.append(seat)
        return 0.0

    state = position([(10, 0, 0, 0), (0, 0, 0, 0)], 3)
    assert state.legal_actions(0) == ("r1",)
    bot = RolloutBot(random.Random(0), policy=hard_policy, evaluator=counting, rollouts=500)
    assert bot.choose(state, 0) == "r1"
    assert bot.last_rollouts == 0 and calls == []


def test_search_is_deterministic_for_a_seed_and_a_budget() -> None:
    states = [position([(20, 40, 5, 0), (on(YELLOW, PATHS[RED][24]) - 1, 30, 0, 0)], roll)
              for roll in range(1, 7)]
    first = [search(11, rollouts=40, horizon=1).choose(state, 0) for state in states]
    again = [search(11, rollouts=40, horizon=1).choose(state, 0) for state in states]
    assert first == again


def test_search_spends_its_budget_and_no_more() -> None:
    state = position([(20, 40, 5, 0), (0, 0, 0, 0)], 3)  # three horses can move
    for rollouts in (9, 30, 61):
        bot = search(2, rollouts=rollouts)
        bot.choose(state, 0)
        assert rollouts - 3 <= bot.last_rollouts <= rollouts


def test_search_captures_the_horse_that_threatens_it() -> None:
    yellow = PATHS[RED][28]
    state = position([(26, 30, 0, 0), (on(YELLOW, yellow), 0, 0, 0)], 2)
    assert search().choose(state, 0) == "r1"


def test_search_flees_with_a_threatened_horse() -> None:
    threatened = PATHS[RED][20]
    state = position([(20, 35, 0, 0), (on(YELLOW, threatened) - 2, 0, 0, 0)], 5)
    assert search().choose(state, 0) == "r1"


def test_search_brings_its_horse_into_the_stable_out_of_reach() -> None:
    near_home = ENTRANCE - 3
    square = PATHS[RED][near_home]
    state = position([(near_home, ENTRANCE + 2, 0, 0), (on(YELLOW, square) - 1, 0, 0, 0)], 4)
    assert search().choose(state, 0) == "r1"


@pytest.mark.parametrize("horizon", [0, 1])
def test_search_captures_rather_than_run_its_leader(horizon: int) -> None:
    target = PATHS[RED][14]
    state = position([(10, 30, 0, 0), (on(YELLOW, target), 50, 50, 0)], 4)
    assert search(5, rollouts=60, horizon=horizon).choose(state, 0) == "r1"


def test_the_search_level_keeps_hards_move_unless_clearly_beaten() -> None:
    # A default policy that never captures is overruled on a capture worth 50 squares;
    # between two quiet moves (no opponent on the board) it is followed.
    def timid(state: State[Any, Any, Any], seat: int, rng: random.Random) -> object:
        legal = state.legal_actions(seat)
        return legal[-1]

    target = PATHS[RED][14]
    capture = position([(10, 30, 0, 0), (on(YELLOW, target), 50, 50, 0)], 4)
    assert capture.legal_actions(0) == ("r1", "r2")
    bot = RolloutBot(random.Random(1), policy=hard_policy, opponent_policy=heuristic_policy,
                     evaluator=evaluation, rollouts=80, horizon=0, default=timid)
    assert bot.choose(capture, 0) == "r1"
    # A 1 moves horse 1 (20 to 21) or horse 3 (stable square 2 to 3): both gain one square.
    calm = position([(20, 57, 58, 0), (0, 0, 0, 0)], 1)
    assert bot.choose(calm, 0) == calm.legal_actions(0)[-1]


def test_the_search_level_prunes_moves_hard_rules_out() -> None:
    # With a capture on offer, hard's other moves score far lower: nothing is simulated.
    target = PATHS[RED][14]
    state = position([(10, 30, 0, 0), (on(YELLOW, target), 50, 50, 0)], 4)
    bot = search_bot(random.Random(0), rollouts=50)
    assert bot.choose(state, 0) == "r1" and bot.last_rollouts == 0
    assert make_bot(game_of(), "search", random.Random(0)).choose(state, 0) == "r1"


def test_search_scores_a_won_game_above_any_lead() -> None:
    game = game_of(2)
    won = game.state_from(ChevauxData(((59, 60, 61, 62), (0, 0, 0, 0)), 0, 9, Phase.OVER,
                                      winner=0))
    ahead = game.state_from(ChevauxData(((56, 56, 55, 55), (0, 0, 0, 0)), 1, 9, Phase.ROLL))
    assert evaluation(won, 0) > evaluation(ahead, 0) > 0 > evaluation(won, 1)


# ------------------------------------------------------- the search built on expert's knowledge


def test_value_search_plays_legal_moves_through_a_whole_game() -> None:
    play_checked(value_search_bot(random.Random(4), rollouts=6), 4)


def test_value_search_prunes_moves_expert_rules_out() -> None:
    # With a capture on offer, expert's other moves score far lower: nothing is simulated.
    target = PATHS[RED][14]
    state = position([(10, 30, 0, 0), (on(YELLOW, target), 50, 50, 0)], 4)
    bot = value_search_bot(random.Random(0), rollouts=50)
    assert bot.choose(state, 0) == "r1" and bot.last_rollouts == 0


def test_value_search_is_deterministic_for_a_seed_and_a_budget() -> None:
    states = [position([(20, 40, 5, 0), (on(YELLOW, PATHS[RED][24]) - 1, 30, 0, 0)], roll)
              for roll in range(1, 7)]
    first = [value_search_bot(random.Random(7), rollouts=30).choose(s, 0) for s in states]
    again = [value_search_bot(random.Random(7), rollouts=30).choose(s, 0) for s in states]
    assert first == again


def test_value_evaluation_is_the_win_chance_and_a_finished_game_counts_one_or_zero() -> None:
    game = game_of(2)
    won = game.state_from(ChevauxData(((59, 60, 61, 62), (0, 0, 0, 0)), 0, 9, Phase.OVER,
                                      winner=0))
    assert value_evaluation(won, 0) == 1.0 and value_evaluation(won, 1) == 0.0
    ahead = game.state_from(ChevauxData(((56, 56, 55, 55), (0, 0, 0, 0)), 1, 9, Phase.ROLL))
    mine, theirs = value_evaluation(ahead, 0), value_evaluation(ahead, 1)
    assert 0.5 < mine < 1.0 and mine + theirs == pytest.approx(1.0)
