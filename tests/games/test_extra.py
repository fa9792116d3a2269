"""EXTRA!: every rule of RULINGS.md and every worked example of the seed, with forced dice."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

import dicegames
import dicegames.bots
from dicegames import IllegalAction, NotYourTurn, OptionError, State
from dicegames.core.registry import presenter_of
from dicegames.games.extra import ROLLS, Decision, ExtraData, ExtraRules, Roll, Sheet
from dicegames.games.extra.data import (
    BOXES,
    K_FIVE_NINE,
    NEGATIVE_BOXES,
    ROW_VALUES,
    SUMS,
    row_score,
)
from dicegames.games.extra.sheet import (
    LOST,
    NOTED,
    legal_decisions,
    pairings,
    record,
    row_crosses,
)

ExtraState = State[ExtraData, Decision, Roll]


def make(players: int = 1, **options: Any) -> ExtraRules:
    """A configured EXTRA! game."""
    game = dicegames.make("extra", players=players, **options)
    assert isinstance(game, ExtraRules)
    return game


def at(game: ExtraRules, sheets: tuple[Sheet, ...], roll: str | None = None,
       roller: int = 0, turn: int = 1) -> ExtraState:
    """A state with these sheets, then (when given) the dice showing ``roll``."""
    state = game.state_from(ExtraData(sheets, (), (None,) * len(sheets), roller, turn))
    return state.apply(roll) if roll is not None else state


def rows(**crosses: int) -> tuple[int, ...]:
    """Crosses per row from keywords ``s2=..``, ``s11=..`` (the others 0)."""
    return tuple(crosses.get(f"s{total}", 0) for total in SUMS)


SET_136 = Sheet(numbers=(1, 3, 6), marks=(2, 2, 2))
"""A sheet whose three EXTRA numbers are 1, 3 and 6 (the seed's free-ride example)."""


# ----------------------------------------------------------------------- the score sheet


def test_the_sheet_is_the_rulings_table() -> None:
    assert ROW_VALUES == (100, 70, 60, 50, 40, 30, 40, 50, 60, 70, 100)
    assert NEGATIVE_BOXES == (3, 3, 4, K_FIVE_NINE, 7, 7, 7, K_FIVE_NINE, 4, 3, 3)
    assert K_FIVE_NINE in (5, 6)
    assert tuple(k + 6 for k in NEGATIVE_BOXES) == BOXES


@pytest.mark.parametrize("index", range(11))
def test_row_score_zones(index: int) -> None:
    k, value = NEGATIVE_BOXES[index], ROW_VALUES[index]
    assert row_score(index, 0) == 0
    assert all(row_score(index, c) == -200 for c in range(1, k + 1))
    assert row_score(index, k + 1) == 0
    assert [row_score(index, k + 2 + i) for i in range(5)] == [value * f for f in (1, 2, 3, 5, 7)]


def test_row_eleven_crossed_seven_times_scores_210() -> None:
    assert row_score(SUMS.index(11), 7) == 70 * 3 == 210


def test_the_seed_sample_sheet_totals_plus_210() -> None:
    # Crosses reconstructed from the seed's garbled table and its score column.
    sample = rows(s2=1, s4=10, s5=4, s6=10, s7=8, s10=4, s11=7, s12=5)
    expected = {2: -200, 3: 0, 4: 420, 5: -200, 6: 80, 7: 0, 8: 0, 9: 0, 10: -200, 11: 210,
                12: 100}
    scores = {total: row_score(i, c) for i, (total, c) in enumerate(zip(SUMS, sample, strict=True))}
    assert scores == expected
    assert sum(s for s in scores.values() if s > 0) == 810
    assert sum(s for s in scores.values() if s < 0) == -600
    assert Sheet(rows=sample).score == 210


def test_a_cross_on_a_full_row_is_lost() -> None:
    full = rows(s12=BOXES[10])
    after = record(Sheet(rows=full), Decision(((6, 6), (6, 6)), 1, 0), (10, 9, 8))
    assert after.rows == full
    assert after.marks == (1, 0, 0)
    legal = legal_decisions((1, 6, 6, 6, 6), (0, 0, 0))
    assert Decision(((6, 6), (6, 6)), 1, 0) in legal  # choosing the full row is allowed


def test_row_crosses_names_each_pairs_box_a_double_takes_two() -> None:
    sheet = Sheet(rows=rows(s4=2, s12=BOXES[10]))
    after, noted, boxes = row_crosses(sheet, Decision(((2, 2), (1, 3)), 5, 0))
    assert (after, noted, boxes) == (rows(s4=4, s12=BOXES[10]), 0, (2, 3))  # boxes 3 and 4 of row 4
    assert row_crosses(sheet, Decision(((6, 6), (1, 3)), 5, 0))[2] == (LOST, 2)


def test_row_crosses_under_the_children_rows_reading_notes_first() -> None:
    after, noted, boxes = row_crosses(Sheet(), Decision(((2, 2), (1, 3)), 5, 0),
                                      child_rows=True)
    assert (after, noted, boxes) == (rows(s4=1), 1 << 2, (NOTED, 0))  # noted, then crossed


# ----------------------------------------------------------------------- decisions


def test_the_seed_example_1_2_2_3_5_recorded_as_4_6_and_extra_3() -> None:
    game = make(1)
    state = game.new_state().apply("1 2 2 3 5")
    decision = Decision(((2, 2), (1, 5)), 3, 0)
    assert str(decision) == "2+2 1+5 x3a"
    assert decision in state.legal_actions()
    assert game.parse(state, "4 6 x3a") == decision
    assert game.parse(state, "4,6 3a") == decision
    after = state.apply("2+2 1+5 x3a")
    sheet = after.data.sheets[0]
    assert sheet.rows == rows(s4=1, s6=1)
    assert (sheet.numbers, sheet.marks) == ((3, 0, 0), (1, 0, 0))
    assert after.is_chance


def test_each_distinct_decision_is_offered_once() -> None:
    state = make(1).new_state().apply("1 1 1 1 1")
    assert [str(a) for a in state.legal_actions()] == ["1+1 1+1 x1a", "1+1 1+1 x1b",
                                                       "1+1 1+1 x1c"]
    assert pairings((2, 2, 2, 5)) == (((2, 2), (2, 5)),)
    for faces, _ in ROLLS:
        for numbers in ((0, 0, 0), (3, 0, 0), (1, 3, 6)):
            legal = legal_decisions(faces, numbers)
            assert len(set(legal)) == len(legal)
            effects = {(tuple(sorted(d.sums)), d.extra, d.column) for d in legal}
            assert len(effects) == len(legal), (faces, numbers)


def test_pairs_in_the_notation_are_in_canonical_order() -> None:
    for faces, _ in ROLLS[::7]:
        for decision in legal_decisions(faces, (0, 0, 0)):
            (a, b), (c, d) = decision.pairs
            assert a <= b and c <= d
            assert (a + b, a) <= (c + d, c)
            dice = sorted((a, b, c, d, decision.extra))
            assert tuple(dice) == faces


def test_before_three_numbers_any_die_may_be_the_fifth() -> None:
    sheet = Sheet(numbers=(4, 0, 0), marks=(1, 0, 0))
    legal = legal_decisions((1, 2, 4, 5, 6), sheet.numbers)
    assert {d.extra for d in legal} == {1, 2, 4, 5, 6}
    assert {d.column for d in legal if d.extra == 4} == {-1}  # a repeat: its own column
    assert {d.column for d in legal if d.extra == 2} == {1, 2}  # new: any free column
    after = record(sheet, next(d for d in legal if d.extra == 4), (10, 9, 8))
    assert after.marks == (2, 0, 0)


def test_with_three_numbers_a_single_one_rolled_is_forced() -> None:
    legal = legal_decisions((1, 2, 4, 5, 5), SET_136.numbers)
    assert {d.extra for d in legal} == {1}
    assert all(d.column == -1 for d in legal)


def test_with_three_numbers_several_rolled_are_a_choice() -> None:
    legal = legal_decisions((1, 3, 4, 5, 5), SET_136.numbers)
    assert {d.extra for d in legal} == {1, 3}


def test_the_seed_free_ride_1_3_6_and_roll_2_4_5_5_5() -> None:
    game = make(1)
    state = at(game, (SET_136,), "2 4 5 5 5")
    legal = state.legal_actions()
    assert all(d.is_free_ride for d in legal)
    assert {str(d) for d in legal} == {"2+4 5+5 free", "2+5 4+5 free", "2+5 5+5 free",
                                       "4+5 5+5 free"}
    after = state.apply("2+4 5+5 free").data.sheets[0]
    assert after.marks == SET_136.marks
    assert after.rows == rows(s6=1, s10=1)
    assert game.parse(state, "6 10") == Decision(((2, 4), (5, 5)))


def test_a_free_ride_needs_all_three_numbers() -> None:
    legal = legal_decisions((2, 4, 5, 5, 5), (1, 3, 0))
    assert not any(d.is_free_ride for d in legal)
    assert {d.column for d in legal} == {2}


# ----------------------------------------------------------------------- the shared roll


def test_every_playing_seat_decides_on_the_same_roll_and_the_roller_rotates() -> None:
    game = make(3)
    state = game.new_state()
    assert state.is_chance and state.turn == dicegames.TurnInfo(0, 1)
    state = state.apply("6 5 4 3 2")
    assert state.current_players == (0, 1, 2)
    with pytest.raises(NotYourTurn):
        state.legal_actions()
    state = state.apply("2+3 4+5 x6a", seat=2)
    assert state.current_players == (0, 1)
    assert state.data.sheets[2] == Sheet()  # recorded only when everyone has decided
    with pytest.raises(NotYourTurn):
        state.apply("2+3 4+5 x6b", seat=2)
    state = state.apply("2+6 3+5 x4a", seat=0).apply("2+5 3+4 x6c", seat=1)
    assert state.is_chance
    assert state.turn == dicegames.TurnInfo(1, 2)
    assert state.data.sheets[2].numbers == (6, 0, 0)
    assert state.data.sheets[1].numbers == (0, 0, 6)


def test_the_order_of_the_decisions_leaves_no_trace() -> None:
    game = make(3)
    start = game.new_state().apply("1 2 3 4 6")
    choices = {0: "1+2 3+4 x6a", 1: "2+4 1+6 x3b", 2: "1+3 2+4 x6c"}
    finals = set()
    for order in itertools.permutations(range(3)):
        state = start
        for seat in order:
            state = state.apply(choices[seat], seat=seat)
        finals.add(state)
    assert len(finals) == 1


def test_filling_an_extra_column_records_the_roll_then_stops_the_player() -> None:
    game = make(2)
    almost = Sheet(rows=rows(s7=3), numbers=(2, 3, 4), marks=(9, 1, 1))
    other = Sheet(numbers=(2, 5, 6), marks=(1, 1, 1))
    state = at(game, (almost, other), "2 3 4 4 5", roller=1, turn=7)
    state = state.apply("3+4 4+5 x2", seat=0).apply("2+3 4+4 x5", seat=1)
    stopped = state.data.sheets[0]
    assert stopped.done and stopped.marks == (10, 1, 1)
    assert stopped.rows == rows(s7=4, s9=1)  # the whole roll is recorded
    assert not state.is_terminal
    assert state.turn == dicegames.TurnInfo(1, 8)  # seat 0 stopped: seat 1 rolls again
    state = state.apply("1 1 2 2 3")
    assert state.current_players == (1,)
    assert state.data.sheets[0] == stopped
    state = state.apply("1+1 2+3 x2")
    assert state.data.sheets[0] == stopped


FULL_7_12 = rows(s7=13, s12=9)
"""Rows 7 and 12 full: 210 + 700 points, and any further 7 or 12 is lost."""


def last_roll_sheet(numbers: tuple[int, int, int], sheet_rows: tuple[int, ...]) -> Sheet:
    """A sheet one cross from the end of column a."""
    return Sheet(rows=sheet_rows, numbers=numbers, marks=(9, 1, 1))


def test_when_all_have_stopped_the_highest_total_wins() -> None:
    game = make(2)
    a = last_roll_sheet((6, 3, 4), FULL_7_12)
    b = last_roll_sheet((6, 2, 5), rows(s7=13))
    state = at(game, (a, b), "1 6 6 6 6")
    assert state.legal_actions(0) == (Decision(((1, 6), (6, 6)), 6),)  # forced: only 6
    state = state.apply("1+6 6+6 x6", seat=0).apply("1+6 6+6 x6", seat=1)
    assert state.is_terminal
    result = state.result
    assert result.scores == (910, 10)  # b's first 12 is a -200 row
    assert result.winners == (0,)


def test_equal_totals_share_the_win() -> None:
    game = make(2)
    a = last_roll_sheet((6, 3, 4), FULL_7_12)
    state = at(game, (a, a), "1 6 6 6 6").apply("1+6 6+6 x6", seat=0)
    state = state.apply("1+6 6+6 x6", seat=1)
    assert state.result.winners == (0, 1)
    assert state.result.scores == (910, 910)
    drawn = Text.from_markup(presenter_of(game).render(state)).plain
    assert drawn.endswith("Game over after 1 roll")


def test_solo_a_negative_total_loses_and_a_positive_one_wins() -> None:
    game = make(1)
    lost = at(game, (last_roll_sheet((2, 3, 4), rows(s2=1)),), "2 3 3 5 6").apply("3+3 5+6 x2")
    assert lost.is_terminal
    assert lost.result.winners == ()
    assert lost.result.scores == (-600,)
    assert "negative total loses" in lost.result.summary
    won = at(game, (last_roll_sheet((6, 3, 4), FULL_7_12),), "1 6 6 6 6").apply("1+6 6+6 x6")
    assert won.result.winners == (0,)
    assert won.result.scores == (910,)
    zero = at(game, (Sheet(rows=rows(s7=8), numbers=(6, 3, 4), marks=(10, 1, 1), done=True),))
    assert zero.is_terminal
    assert zero.result.scores == (0,)
    assert zero.result.winners == (0,)  # 0 is not negative


# ----------------------------------------------------------------------- options


def test_extra_columns_option_sets_the_column_sizes() -> None:
    game = make(1, extra_columns="1, 2,3")
    assert game.columns == (1, 2, 3)
    state = game.new_state().apply("1 2 3 4 5").apply("1+4 2+3 x5a")
    assert state.is_terminal  # a one-box column is full after its first cross


@pytest.mark.parametrize(("value", "problem"), [
    ("10,9", "exactly three"), ("10,9,8,7", "exactly three"), ("10,nine,8", "'nine'"),
    ("10,0,8", "'0'"), ("10,-1,8", "'-1'"), ("10,31,8", "'31'"), ("", "exactly three"),
])
def test_bad_extra_columns_are_an_option_error_naming_the_problem(value: str,
                                                                  problem: str) -> None:
    with pytest.raises(OptionError, match="extra_columns") as info:
        make(1, extra_columns=value)
    assert problem in str(info.value)


def test_children_new_extra_numbers_get_their_first_cross_the_second_time() -> None:
    game = make(1, children=True)
    state = game.new_state().apply("1 2 2 3 5").apply("2+2 1+5 x3a")
    sheet = state.data.sheets[0]
    assert (sheet.numbers, sheet.marks) == ((3, 0, 0), (0, 0, 0))
    assert sheet.rows == rows(s4=1, s6=1)
    sheet = state.apply("3 4 4 5 6").apply("4+4 5+6 x3").data.sheets[0]
    assert sheet.marks == (1, 0, 0)


def test_children_rows_reading_delays_each_rows_first_cross() -> None:
    game = make(1, children=True, children_rule="rows")
    state = game.new_state().apply("1 2 2 3 5").apply("2+2 1+5 x3a")
    sheet = state.data.sheets[0]
    assert sheet.rows == rows()
    assert sheet.marks == (1, 0, 0)
    assert sheet.noted == (1 << 2) | (1 << 4)
    sheet = state.apply("1 1 3 4 6").apply("1+3 1+6 x4b").data.sheets[0]
    assert sheet.rows == rows(s4=1)  # 4 a second time: its first cross; 7 only noted


def test_child_seats_apply_the_variant_to_those_players_only() -> None:
    game = make(3, child_seats="2")
    assert game.child_seats == frozenset({1})
    state = game.new_state().apply("1 2 2 3 5")
    for seat in (0, 1, 2):
        state = state.apply("2+2 1+5 x3a", seat=seat)
    assert [s.marks[0] for s in state.data.sheets] == [1, 0, 1]
    assert make(3, children=True).child_seats == frozenset({0, 1, 2})


@pytest.mark.parametrize("value", ["4", "0", "1,x", "-1"])
def test_bad_child_seats_are_an_option_error(value: str) -> None:
    with pytest.raises(OptionError, match="child_seats"):
        make(3, child_seats=value)


# ----------------------------------------------------------------------- notation


def test_roll_notation_and_typed_rolls() -> None:
    game = make(1)
    state = game.new_state()
    assert str(ROLLS[0][0]) == "1 1 1 1 1"
    assert len(ROLLS) == 252
    assert sum(p for _, p in ROLLS) == 1
    for typed in ("5 3 2 2 1", "53221", "1,2,2,3,5"):
        assert game.parse(state, typed) == Roll((1, 2, 2, 3, 5))
    for bad in ("1 2 3 4", "1 2 3 4 7", "six"):
        with pytest.raises(IllegalAction, match="five dice"):
            game.parse(state, bad)


def test_short_decisions_that_could_mean_several_are_refused() -> None:
    game = make(1)
    state = game.new_state().apply("1 2 2 3 5")
    with pytest.raises(IllegalAction, match="say which"):
        game.parse(state, "4 6")
    with pytest.raises(IllegalAction, match="not a legal move"):
        game.parse(state, "4 6 x5a")


def test_every_decision_parses_back() -> None:
    game = make(1)
    for roll in ("1 2 2 3 5", "2 4 5 5 5", "6 6 6 6 6"):
        for sheet in (Sheet(), SET_136):
            state = at(game, (sheet,), roll)
            for action in state.legal_actions():
                assert game.parse(state, str(action)) == action
                assert game.parse(state, str(action).upper()) == action


# ----------------------------------------------------------------------- text


def test_render_shows_the_sheet_like_the_paper_one() -> None:
    game = make(2)
    sheet = Sheet(rows=rows(s2=1, s11=7), numbers=(6, 3, 1), marks=(5, 2, 1))
    state = at(game, (sheet, Sheet()), "1 2 2 3 5")
    picture = Text.from_markup(presenter_of(game).render(state, ["Maria [x]", "Bob"])).plain
    assert "Maria [x]: 10 points" in picture
    assert "-200" in picture and "x1 x2 x3 x5 x7" in picture
    line_11 = next(line for line in picture.splitlines() if line.startswith("   11 |"))
    assert line_11.count("X") == 7 and line_11.endswith("+210")
    assert "EXTRA a [6] X X X X X . . . . .] 5/10" in picture
    assert "deciding: Maria [x], Bob" in picture


def test_describe_says_what_each_player_records() -> None:
    game = make(2)
    state = game.new_state()
    assert presenter_of(game).describe(state, Roll((1, 2, 2, 3, 5)), None, ["Ann", "You"]) == (
        "Ann rolls 1 2 2 3 5")
    state = state.apply("1 2 2 3 5")
    text = presenter_of(game).describe(state, Decision(((2, 2), (1, 5)), 3, 0), 1, ["Ann", "You"])
    assert text == "You record 4 and 6 (2+2, 1+5) and the new EXTRA number 3 in column A"
    ride = at(game, (SET_136, SET_136), "2 4 5 5 5")
    assert "free ride" in presenter_of(game).describe(ride, Decision(((2, 4), (5, 5))), 0,
                                                      ["Ann", "Bob"])


# ----------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6),
       children=st.booleans(), rule=st.sampled_from(["extra", "rows"]))
def test_crosses_only_increase_and_a_finished_player_never_changes(
        players: int, seed: int, children: bool, rule: str) -> None:
    game = make(players, children=children, children_rule=rule)
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal:
        before = state.data.sheets
        if state.is_chance:
            state = state.apply(rng.choice(ROLLS)[0])
            continue
        seat = rng.choice(state.current_players)
        state = state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        for old, new in zip(before, state.data.sheets, strict=True):
            if old.done:
                assert new == old
            assert all(n >= o for o, n in zip(old.rows, new.rows, strict=True))
            assert all(n >= o for o, n in zip(old.marks, new.marks, strict=True))
            assert all(o in (0, n) for o, n in zip(old.numbers, new.numbers, strict=True))
            assert new.noted & old.noted == old.noted
            numbers = [n for n in new.numbers if n]
            assert len(numbers) == len(set(numbers)) <= 3
            assert all(c <= b for c, b in zip(new.rows, BOXES, strict=True))


# ----------------------------------------------------------------------- bots


def test_rolls_left_is_exact_at_the_end() -> None:
    from fractions import Fraction

    from dicegames.games.extra.heuristics import rolls_left
    last = ((True, 1), (True, 1), (True, 1))
    # Every roll showing one of the three numbers ends the game; 1/32 of rolls show none.
    assert rolls_left(last) == pytest.approx(float(Fraction(32, 31)))
    assert rolls_left(((True, 0), (True, 5), (False, 8))) == 0.0
    fresh = rolls_left(((False, 10), (False, 9), (False, 8)))
    assert 20 < fresh < 30
    assert rolls_left(((False, 10), (False, 9), (False, 8)), new_cross=0) > fresh


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_bots_keep_the_game_going_when_they_can(level: str) -> None:
    game = make(1)
    sheet = Sheet(rows=rows(s7=5, s8=5), numbers=(1, 3, 6), marks=(9, 2, 2))
    state = at(game, (sheet,), "1 3 3 4 4")
    bot = dicegames.bots.make_bot(game, level, random.Random(1))
    choice = bot.choose(state, 0)
    assert choice in state.legal_actions()
    assert isinstance(choice, Decision) and choice.extra == 3  # not the 1 that ends it


def test_the_hard_bot_pushes_started_rows_late_in_the_game() -> None:
    game = make(1)
    sheet = Sheet(rows=rows(s7=9, s8=9), numbers=(1, 2, 6), marks=(8, 7, 6))
    state = at(game, (sheet,), "1 3 4 4 5")
    choice = dicegames.bots.make_bot(game, "hard", random.Random(1)).choose(state, 0)
    assert isinstance(choice, Decision)
    # With a few rolls left, 3+5 and 4+4 (row 8 to x3) beat 3+4 and 4+5 (row 7 to x2 but a
    # new row 9 in the -200 zone).
    assert choice == Decision(((3, 5), (4, 4)), 1)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "trained"])
def test_each_level_plays_solo_and_multiplayer_games_to_the_end(level: str) -> None:
    for players in (1, 3):
        game = make(players, child_seats="1")
        session = dicegames.Session(game)
        rng = random.Random(players)
        agents = [dicegames.bots.make_bot(game, level, rng) for _ in range(players)]
        result = dicegames.play(session, agents, dicegames.RandomDice(rng))
        assert result is not None and session.state.is_terminal


def test_describe_and_render_say_when_a_player_stops() -> None:
    game = make(2, child_seats="2")
    sheet = last_roll_sheet((6, 3, 4), FULL_7_12)
    state = at(game, (sheet, Sheet()), "1 6 6 6 6")
    text = presenter_of(game).describe(state, Decision(((1, 6), (6, 6)), 6), 0, ["Ann", "Bob"])
    assert text.endswith("an EXTRA column is full: this is the last roll for Ann")
    after = state.apply("1+6 6+6 x6", seat=0).apply("1+6 6+6 x6a", seat=1)
    picture = Text.from_markup(presenter_of(game).render(after, ["Ann", "Bob"])).plain
    assert "Ann: 910 points (stopped)" in picture
    assert "Bob (children's variant): -400 points" in picture
    assert picture.endswith("Roll 2: Bob rolls the five dice")
