"""For a Few Extra Meters: every rule and ruling, with forced dice, plus properties.

Scenarios set the dice by notation (``state.apply("5")``) or with ``ScriptedDice``, or start
from a position built with ``game.state_from``; the seed's two worked examples are replayed
literally. Hypothesis then drives whole turns with arbitrary dice and decisions and checks
what must always hold: runners never move back, exactly one runner moves per turn and by
exactly what the rules say, probabilities sum to 1, and the same moves replay the same game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

import dicegames
from dicegames import IllegalAction, OptionError, Reroll, Session, State
from dicegames.bots import make_bot
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.heuristics import should_roll, threshold_policy

EMState = State[ExtraMetersData, Decision, int]


def make(players: int = 2, **options: object) -> Any:
    """An extra-meters game (typed loosely: tests reach into its data)."""
    return dicegames.make("extra-meters", players=players, **options)


def play_out(state: EMState, moves: Sequence[str]) -> EMState:
    """Apply notation moves one after the other (dice and decisions alike)."""
    for move in moves:
        state = state.apply(move)
    return state


def deciding(game: Any, positions: Sequence[int], dice: Sequence[int],
             player: int = 0, turn: int = 1) -> EMState:
    """A position where ``player`` has rolled ``dice`` this turn and decides."""
    data = ExtraMetersData(positions=tuple(positions), player=player, turn=turn,
                           phase=Phase.DECIDE, dice=tuple(dice))
    state: EMState = game.state_from(data)
    return state


# ----------------------------------------------------------------------- the seed's examples


def test_seed_example_1_sarah_stops_after_5_2_3_and_moves_10() -> None:
    state = play_out(make().new_state(), ["5", "roll", "2", "roll", "3", "stop"])
    assert state.data.positions == (10, 0)
    assert state.turn == dicegames.TurnInfo(1, 2)
    assert state.is_chance
    assert state.data.phase is Phase.OPENING
    assert state.data.dice == ()


def test_seed_example_2_louis_rerolls_the_opening_6_and_moves_4() -> None:
    game = make()
    start = game.new_state()
    attempts: list[Callable[[], object]] = [
        lambda: game.parse(start, "6"), lambda: start.apply("6"), lambda: start.apply(" 6 ")]
    for attempt in attempts:
        with pytest.raises(Reroll, match="rolled again"):
            attempt()
    assert start == game.new_state()
    problems: list[str | None] = []
    answers = iter(["6", "5"])

    def ask(state: State[Any, Any, Any], problem: str | None) -> str:
        problems.append(problem)
        return next(answers)

    opening = dicegames.ManualDice(ask).roll(start)
    assert opening == 5
    assert problems[0] is None
    assert problems[1] is not None
    assert "roll the die again" in problems[1]
    state = play_out(start.apply(opening), ["roll", "4", "roll", "3", "roll", "6"])
    assert state.data.positions == (4, 0)
    assert state.turn.seat == 1


def test_seed_examples_through_the_match_runner_with_scripted_dice() -> None:
    class Script:
        def __init__(self, decisions: Sequence[str]) -> None:
            self.decisions = iter(decisions)

        def choose(self, state: State[Any, Any, Any], seat: int) -> str:
            return next(self.decisions)

    game = make(track_length=10)
    session = Session(game)
    dice = dicegames.ScriptedDice(["5", "2", "3", "5", "4", "3", "6", "4"])
    agents = [Script(["roll", "roll", "stop", "stop"]), Script(["roll", "roll", "roll"])]
    result = dicegames.play(session, agents, dice)
    assert result is not None
    assert result.winners == (0,)
    assert session.state.data.positions == (14, 4)
    assert dice.remaining == 0


# ----------------------------------------------------------------------- the dice


def test_the_opening_roll_is_1_to_5_at_one_fifth_each() -> None:
    state = make().new_state()
    assert state.chance_outcomes() == tuple((face, Fraction(1, 5)) for face in range(1, 6))


def test_further_rolls_are_1_to_6_at_one_sixth_each() -> None:
    state = play_out(make().new_state(), ["2", "roll"])
    assert state.chance_outcomes() == tuple((face, Fraction(1, 6)) for face in range(1, 7))
    assert state.current_players == ()
    assert state.turn.seat == 0


def test_a_6_is_only_refused_on_the_opening_roll() -> None:
    state = play_out(make().new_state(), ["3", "roll"])
    assert state.game.parse(state, "6") == 6
    with pytest.raises(IllegalAction, match="possible: 1, 2, 3, 4, 5, 6"):
        state.apply("7")


def test_a_6_on_the_second_roll_moves_2() -> None:
    state = play_out(make().new_state(), ["3", "roll", "6"])
    assert state.data.positions == (2, 0)
    assert state.turn.seat == 1


def test_a_6_moves_one_square_per_die_however_high_the_sum() -> None:
    state = play_out(make().new_state(), ["5", "roll", "5", "roll", "5", "roll", "6"])
    assert state.data.positions == (4, 0)


def test_stop_moves_the_sum_of_the_dice() -> None:
    assert play_out(make().new_state(), ["4", "stop"]).data.positions == (4, 0)
    state = play_out(make(3).new_state(), ["1", "stop", "2", "roll", "4", "roll", "1", "stop"])
    assert state.data.positions == (1, 7, 0)
    assert state.turn == dicegames.TurnInfo(2, 3)


def test_only_roll_and_stop_are_legal_after_a_roll() -> None:
    state = make().new_state().apply("2")
    assert state.legal_actions() == (Decision.ROLL, Decision.STOP)
    assert [str(action) for action in state.legal_actions()] == ["roll", "stop"]
    with pytest.raises(IllegalAction, match="legal: roll, stop"):
        state.apply("jump")


@pytest.mark.parametrize(("text", "action"), [
    ("r", Decision.ROLL), ("R", Decision.ROLL), ("roll", Decision.ROLL),
    (" Roll  Again ", Decision.ROLL), ("again", Decision.ROLL), ("continue", Decision.ROLL),
    ("s", Decision.STOP), ("S", Decision.STOP), ("stop", Decision.STOP),
    ("move", Decision.STOP),
])
def test_decision_aliases_parse(text: str, action: Decision) -> None:
    state = make().new_state().apply("2")
    assert state.game.parse(state, text) is action
    assert state.apply(text) == state.apply(action)


# ----------------------------------------------------------------------- winning


def test_landing_exactly_on_the_last_square_does_not_win() -> None:
    state = deciding(make(track_length=10), (7, 0), (3,)).apply("stop")
    assert not state.is_terminal
    assert state.data.positions == (10, 0)
    assert state.turn.seat == 1


def test_passing_the_last_square_wins_at_once_under_finish_first() -> None:
    game = make(3, track_length=10)
    state = deciding(game, (7, 9, 9), (4,)).apply("stop")
    assert state.is_terminal
    assert state.data.positions == (11, 9, 9)
    result = state.result
    assert result.winners == (0,)
    assert result.ranks == (1, 2, 2)
    assert result.scores == (11, 9, 9)
    assert result.summary == "past square 10 in round 1"


def test_a_6_can_carry_a_runner_past_the_last_square() -> None:
    game = make(track_length=10)
    state = game.state_from(ExtraMetersData(positions=(3, 9), player=1, turn=6,
                                            phase=Phase.ROLLING, dice=(1,)))
    state = state.apply("6")
    assert state.is_terminal
    assert state.result.winners == (1,)
    assert state.result.summary == "past square 10 in round 3"


def test_same_round_lets_later_seats_finish_and_share_the_win() -> None:
    game = make(3, track_length=10, finish="same_round")
    state = deciding(game, (8, 5, 9), (4,)).apply("stop")
    assert not state.is_terminal, "the round goes on after seat 0 passes the end"
    assert state.turn.seat == 1
    state = play_out(state, ["1", "stop"])  # seat 1 reaches 6 only
    assert not state.is_terminal
    state = play_out(state, ["2", "stop"])  # seat 2 passes the end: the round is over
    assert state.is_terminal
    result = state.result
    assert result.winners == (0, 2)
    assert result.ranks == (1, 2, 1)
    session = Session(game)
    assert session.describe_result(result).startswith("Player 1 and Player 3 share the win")


def test_same_round_ends_at_once_when_the_last_seat_passes() -> None:
    game = make(3, track_length=10, finish="same_round")
    state = deciding(game, (2, 3, 8), (3,), player=2, turn=3).apply("stop")
    assert state.is_terminal
    assert state.result.winners == (2,)
    assert state.data.positions == (2, 3, 11)


def test_same_round_gives_the_win_to_a_middle_seat_alone_when_nobody_follows() -> None:
    game = make(3, track_length=10, finish="same_round")
    state = deciding(game, (2, 9, 3), (5,), player=1, turn=2).apply("stop")
    assert not state.is_terminal
    state = play_out(state, ["3", "stop"])
    assert state.is_terminal
    assert state.result.winners == (1,)


def test_runners_past_the_end_keep_playing_until_the_round_ends() -> None:
    game = make(2, track_length=10, finish="same_round")
    state = play_out(deciding(game, (9, 0), (5,)).apply("stop"), ["4", "roll", "6"])
    assert state.is_terminal
    assert state.result.winners == (0,)
    assert state.data.positions == (14, 2)


# ----------------------------------------------------------------------- options


@pytest.mark.parametrize("length", [9, 201, 0, -5])
def test_track_length_outside_10_to_200_is_refused(length: int) -> None:
    with pytest.raises(OptionError, match="track_length takes a whole number from 10 to 200"):
        make(track_length=length)


def test_options_accept_their_range_and_text() -> None:
    assert make(track_length=10).options["track_length"] == 10
    assert make(track_length="200").options["track_length"] == 200
    assert make(finish="SAME_ROUND").options["finish"] == "same_round"
    assert dict(make().options) == {"track_length": 50, "finish": "first"}


def test_an_unknown_finish_is_refused() -> None:
    with pytest.raises(OptionError, match="finish takes one of first, same_round"):
        make(finish="bogus")


@pytest.mark.parametrize("players", [1, 9, 0])
def test_player_counts_outside_2_to_8_are_refused(players: int) -> None:
    with pytest.raises(OptionError, match="extra-meters is for 2 to 8 players"):
        make(players)


def test_aliases_name_the_game() -> None:
    for alias in ("extrameters", "meters", "few-extra-meters", "Extra-Meters"):
        assert dicegames.make(alias).spec.id == "extra-meters"


# ----------------------------------------------------------------------- text for people


def test_render_shows_every_runner_and_the_dice() -> None:
    game = make(3)
    state = game.state_from(ExtraMetersData(positions=(10, 0, 52), player=1, turn=5,
                                            phase=Phase.DECIDE, dice=(5, 2)))
    picture = Text.from_markup(str(state)).plain
    lines = picture.splitlines()
    assert "pass square 50 to win" in lines[0]
    assert "A Player 1" in lines[1]
    assert lines[1].endswith("square 10")
    assert lines[2].startswith("▶ B Player 2")
    assert lines[2].endswith("start")
    assert "C Player 3" in lines[3]
    assert lines[3].endswith("past the end (52)")
    assert re.search(r"5\D+2\D+= 7 squares if you stop \(2 dice rolled\)", lines[4]), lines[4]
    assert "[bold red]A[/]" in str(state)  # colours come as rich markup


def test_render_marks_nobody_once_the_game_is_over() -> None:
    state = deciding(make(track_length=10), (9, 0), (4,)).apply("stop")
    assert "▶" not in str(state)


def test_describe_says_what_each_move_does() -> None:
    game = make(2)
    session = Session(game, [dicegames.PlayerInfo("Sarah"), dicegames.PlayerInfo("Louis")])
    sentences = []
    for move in ["5", "roll", "2", "roll", "3", "stop", "5", "roll", "4", "roll", "6"]:
        sentences.append(session.apply(move)[0].description)
    assert sentences[:6] == [
        "Sarah rolls 5",
        "Sarah rolls again",
        "Sarah rolls 2: 7 with 2 dice",
        "Sarah rolls again",
        "Sarah rolls 3: 10 with 3 dice",
        "Sarah stops and moves 5+2+3 = 10 squares to square 10",
    ]
    assert sentences[-1] == ("Louis rolls a 6: the turn ends and the runner moves 3 squares, "
                             "one per die, to square 3")


# ----------------------------------------------------------------------- the medium bot


@pytest.mark.parametrize(("dice", "rolls"), [
    ((1,), True), ((5, 5, 5), True), ((5, 5, 5, 4), True), ((5, 5, 5, 5), False),
    ((4, 4, 4, 4, 4), True), ((5, 5, 5, 5, 1), False), ((5, 5, 5, 2), True),
    ((5, 5, 5, 3), True), ((5, 5, 5, 4, 2), False),
])
def test_medium_rolls_while_the_sum_is_below_16_plus_the_dice(dice: tuple[int, ...],
                                                              rolls: bool) -> None:
    game = make(track_length=200)
    state = deciding(game, (0, 0), dice)
    bot = make_bot(game, "medium", random.Random(0))
    assert bot.choose(state, 0) is (Decision.ROLL if rolls else Decision.STOP)
    assert should_roll(state.data, 200) is rolls


def test_medium_stops_when_stopping_passes_the_last_square() -> None:
    game = make(track_length=50)
    bot = make_bot(game, "medium", random.Random(0))
    assert bot.choose(deciding(game, (45, 0), (3, 3)), 0) is Decision.STOP  # 51 passes
    assert bot.choose(deciding(game, (44, 0), (3, 3)), 0) is Decision.ROLL  # 50 does not
    assert bot.choose(deciding(game, (0, 49), (2,), player=1), 1) is Decision.STOP


@given(dice=st.lists(st.integers(1, 5), min_size=1, max_size=10))
def test_the_threshold_is_where_one_more_roll_stops_gaining(dice: list[int]) -> None:
    # One more roll, with the game's own dice, against stopping now: exact expectations.
    state = deciding(make(track_length=200), (0, 0), dice)
    total, count = sum(dice), len(dice)
    expected = sum(p * (total + face if face != 6 else count + 1)
                   for face, p in state.apply("roll").chance_outcomes())
    assert should_roll(state.data, 200) is (expected > total)


@given(position=st.integers(0, 60), dice=st.lists(st.integers(1, 5), min_size=1, max_size=8))
def test_medium_policy_matches_its_rule(position: int, dice: list[int]) -> None:
    state = deciding(make(track_length=50), (position, 0), dice)
    total = sum(dice)
    expected = position + total <= 50 and total < 16 + len(dice)
    action = threshold_policy(state, 0, random.Random(0))
    assert action is (Decision.ROLL if expected else Decision.STOP)


# ----------------------------------------------------------------------- properties


@st.composite
def games_in_play(draw: st.DrawFn) -> tuple[Any, list[tuple[str, int | None]]]:
    """A game and up to 150 moves of it, every die and decision drawn by Hypothesis."""
    game = make(draw(st.integers(2, 5)), track_length=draw(st.integers(10, 40)),
                finish=draw(st.sampled_from(["first", "same_round"])))
    state = game.new_state()
    moves: list[tuple[str, int | None]] = []
    for _ in range(draw(st.integers(0, 150))):
        if state.is_terminal:
            break
        if state.is_chance:
            move = draw(st.sampled_from([outcome for outcome, _ in state.chance_outcomes()]))
            moves.append((str(move), None))
        else:
            action = draw(st.sampled_from(state.legal_actions()))
            moves.append((str(action), state.current_players[0]))
        state = state.apply(*moves[-1])
    return game, moves


@given(games_in_play())
def test_runners_move_exactly_as_the_rules_say(
        case: tuple[Any, list[tuple[str, int | None]]]) -> None:
    game, moves = case
    state: EMState = game.new_state()
    turn_start = state.data.positions
    dice: list[int] = []
    for move, _seat in moves:
        if state.is_chance:
            assert sum(p for _, p in state.chance_outcomes()) == 1
        before = state
        state = state.apply(move)
        assert all(a >= b for a, b in zip(state.data.positions, before.data.positions,
                                          strict=True)), "a runner moved back"
        if before.is_chance and (move != "6" or before.data.phase is Phase.OPENING):
            dice.append(int(move))
        ended = state.is_terminal or state.turn.number != before.turn.number
        if not ended:
            assert state.data.positions == turn_start, "a runner moved before its turn ended"
            continue
        mover = before.turn.seat
        moved = [seat for seat, (a, b) in enumerate(zip(state.data.positions, turn_start,
                                                        strict=True)) if a != b]
        assert moved == [mover], "exactly the turn's runner moves, once per turn"
        distance = state.data.positions[mover] - turn_start[mover]
        assert distance == (sum(dice) if move == "stop" else len(dice) + 1)
        turn_start, dice = state.data.positions, []


@given(games_in_play())
def test_the_same_moves_replay_the_same_game(
        case: tuple[Any, list[tuple[str, int | None]]]) -> None:
    game, moves = case
    first, second = Session(game), Session(game)
    for move, seat in moves:
        first.apply(move, seat)
    for move, seat in moves:
        second.apply(move, seat)
    assert first.states == second.states
    assert dicegames.from_record(dicegames.to_record(first)).states == first.states


@given(games_in_play())
def test_turns_and_seats_advance_in_order(
        case: tuple[Any, list[tuple[str, int | None]]]) -> None:
    game, moves = case
    state: EMState = game.new_state()
    for move, _seat in moves:
        before = state
        state = state.apply(move)
        if not state.is_terminal and state.turn.number != before.turn.number:
            assert state.turn.number == before.turn.number + 1
            assert state.turn.seat == (before.turn.seat + 1) % game.players
            assert state.is_chance
            assert state.chance_outcomes() == tuple((f, Fraction(1, 5)) for f in range(1, 6))
