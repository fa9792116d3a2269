"""Petits Chevaux bots: the capture chances they reason with, and the choices they make."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dicegames
from dicegames import State
from dicegames.bots import make_bot
from dicegames.games.petits_chevaux import Action, ChevauxData, Colour, PetitsChevaux, Phase
from dicegames.games.petits_chevaux.board import ENTRANCE, PATHS, START, TRACK_LENGTH
from dicegames.games.petits_chevaux.heuristics import (
    capture_chance,
    hard_policy,
    hard_scores,
    heuristic_policy,
    heuristic_scores,
)
from dicegames.games.petits_chevaux.moves import DEFAULT_BLOCKING, Blocking, Board

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


def game_of(players: int = 2) -> PetitsChevaux:
    """A petits-chevaux game with the default options."""
    game = dicegames.make("petits-chevaux", players=players)
    assert isinstance(game, PetitsChevaux)
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
