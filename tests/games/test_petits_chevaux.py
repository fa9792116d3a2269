"""Jeu des Petits Chevaux: the board, every rule and ruling with forced dice, and properties.

Positions are set up with ``game.state_from`` (horses given by their progress along their own
colour's path: 0 in the corner, 1 on the start square, 56 on the stable entrance, 57..62 on
stable squares 1..6) or reached by notation (``state.apply("6")``, ``state.apply("out")``).
Hypothesis then plays arbitrary dice and choices under every option and checks the
invariants of the issue after every move.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

import dicegames
from dicegames import PASS, IllegalAction, Session, State
from dicegames.core.registry import presenter_of
from dicegames.games.petits_chevaux import Action, ChevauxData, Colour, PetitsChevauxRules, Phase
from dicegames.games.petits_chevaux.board import (
    CENTRE,
    CORNER,
    ENTRANCE,
    ENTRANCE_SQUARE,
    FINAL,
    LAP,
    PATHS,
    SIZE,
    STABLE,
    START,
    TRACK,
    TRACK_LENGTH,
    cell_of,
)

PCState = State[Any, Any, Any]
RED, BLUE, YELLOW, GREEN = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN


def make(players: int = 2, **options: object) -> Any:
    """A petits-chevaux game (typed loosely: tests reach into its data)."""
    return dicegames.make("petits-chevaux", players=players, **options)


def on(colour: Colour, square: int) -> int:
    """The progress of a horse of ``colour`` standing on track square ``square``."""
    return (square - START[colour]) % TRACK_LENGTH + 1


def position(horses: Sequence[Sequence[int]], roll: int, player: int = 0, sixes: int = 0,
             **options: object) -> PCState:
    """A position where ``player`` has rolled ``roll`` and must decide."""
    game = make(len(horses), **options)
    sixes = sixes or (1 if roll == 6 else 0)
    data = ChevauxData(tuple(tuple(row) for row in horses), player, 7, Phase.MOVE, roll, sixes)
    state: PCState = game.state_from(data)
    return state


def legal(state: PCState) -> list[str]:
    """The legal actions as notation."""
    return [str(action) for action in state.legal_actions()]


# ----------------------------------------------------------------------- the board


def test_the_track_has_56_distinct_squares_each_next_to_the_following_one() -> None:
    assert len(TRACK) == TRACK_LENGTH == 56
    assert len(set(TRACK)) == 56
    for index, (row, col) in enumerate(TRACK):
        assert 0 <= row < SIZE and 0 <= col < SIZE
        nrow, ncol = TRACK[(index + 1) % 56]
        assert abs(row - nrow) + abs(col - ncol) == 1, index
        assert 6 <= row <= 8 or 6 <= col <= 8, "track squares lie on the cross"


def test_the_track_runs_clockwise() -> None:
    # Red starts at the top going down the right side of the top arm, i.e. clockwise.
    assert TRACK[0] == (0, 8)
    assert TRACK[1] == (1, 8)
    assert TRACK[START[BLUE]] == (8, 14)
    assert TRACK[START[YELLOW]] == (14, 6)
    assert TRACK[START[GREEN]] == (6, 0)


@pytest.mark.parametrize("colour", list(Colour))
def test_each_lap_is_55_steps_from_start_to_stable_entrance_then_stable_1_to_6(
        colour: Colour) -> None:
    path = PATHS[colour]
    assert path[0] == -1 and path[57] == -1
    assert path[1] == START[colour]
    assert path[ENTRANCE] == ENTRANCE_SQUARE[colour] == (START[colour] + LAP) % 56
    assert ENTRANCE - 1 == LAP == 55
    assert [path[p] for p in range(1, 57)] == [(START[colour] + k) % 56 for k in range(56)]
    # The entrance is the square just before the start square: the arm's tip.
    assert (ENTRANCE_SQUARE[colour] + 1) % 56 == START[colour]
    column = STABLE[colour]
    assert len(column) == 6
    assert cell_of(colour, ENTRANCE + 1) == column[0]
    assert cell_of(colour, FINAL) == column[5]
    chain = [TRACK[ENTRANCE_SQUARE[colour]], *column, CENTRE]
    for a, b in itertools.pairwise(chain):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    assert not set(column) & set(TRACK)


def test_corner_stables_sit_next_to_their_start_squares_and_off_the_cross() -> None:
    for colour in Colour:
        top, left, bottom, right = CORNER[colour]
        assert (bottom - top, right - left) == (5, 5)
        cells = {(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)}
        assert not cells & set(TRACK)
        row, col = TRACK[START[colour]]
        assert any(abs(row - r) + abs(col - c) == 1 for r, c in cells)


def test_two_players_sit_in_opposite_corners() -> None:
    assert make(2).colours == (RED, YELLOW)
    assert make(3).colours == (RED, BLUE, YELLOW)
    assert make(4).colours == (RED, BLUE, YELLOW, GREEN)
    assert (START[YELLOW] - START[RED]) % 56 == 28


# ----------------------------------------------------------------------- the start


def test_the_first_player_is_drawn_by_lot_then_play_goes_clockwise() -> None:
    start = make(4).new_state()
    assert start.chance_outcomes() == tuple(
        (name, Fraction(1, 4)) for name in ("red", "blue", "yellow", "green"))
    state = start.apply("yellow")
    assert state.turn == dicegames.TurnInfo(2, 1)
    assert state.is_chance
    state = state.apply("3")
    assert state.legal_actions() == (PASS,)
    state = state.apply("pass")
    assert state.turn == dicegames.TurnInfo(3, 2)
    state = state.apply("2").apply("pass")
    assert state.turn == dicegames.TurnInfo(0, 3)


def test_without_a_6_no_horse_comes_out_and_the_turn_passes() -> None:
    session = Session(make(2))
    session.apply("red")
    session.apply("5")
    assert session.state.legal_actions() == (PASS,)
    events = session.apply("pass")
    assert events[0].kind is dicegames.EventKind.PASS
    assert events[0].description == "Player 1 cannot move: the turn passes"
    assert session.moves[-1].to_record() == "pass"
    assert session.state.turn == dicegames.TurnInfo(1, 2)


def test_a_6_brings_a_horse_out_and_rolls_again_in_the_same_turn() -> None:
    state = make(2).new_state().apply("red").apply("6")
    assert legal(state) == ["out"]
    state = state.apply("out")
    assert state.data.horses[0] == (1, 0, 0, 0)
    assert state.is_chance
    assert state.turn == dicegames.TurnInfo(0, 1)
    state = state.apply("4")
    assert legal(state) == ["r1"]
    state = state.apply("r1")
    assert state.data.horses[0] == (5, 0, 0, 0)
    assert state.turn == dicegames.TurnInfo(1, 2)


def test_with_a_6_the_player_may_bring_out_or_move_any_horse_6() -> None:
    state = position([(5, 20, 0, 0), (0, 0, 0, 0)], 6)
    assert legal(state) == ["out", "r1", "r2"]
    assert state.apply("r2").data.horses[0] == (5, 26, 0, 0)
    assert state.apply("out").data.horses[0] == (5, 20, 1, 0)
    assert state.apply("r1").is_chance  # the 6 rolls again
    assert state.apply("r1").turn.seat == 0


def test_every_6_rolls_again_without_limit_by_default() -> None:
    state = make(2).new_state().apply("red")
    for _ in range(5):
        state = state.apply("6")
        state = state.apply(state.legal_actions()[0])
        assert state.turn == dicegames.TurnInfo(0, 1)
    # out, out (a barrage on the start square), r1 (no third horse may come out), out, r1
    assert state.data.horses[0] == (13, 1, 1, 0)
    assert state.data.sixes == 5


def test_three_sixes_penalty_ends_the_turn_on_the_third_6_without_moving() -> None:
    game = make(2, three_sixes_penalty=True)
    state = game.new_state().apply("red").apply("6").apply("out").apply("6").apply("r1")
    assert state.data.horses[0] == (7, 0, 0, 0)
    session = Session(game)
    for move in ("red", "6", "out", "6", "r1"):
        session.apply(move)
    events = session.apply("6")
    assert "third 6 in a row" in events[0].description
    assert session.state.turn == dicegames.TurnInfo(1, 2)
    assert session.state.data.horses[0] == (7, 0, 0, 0)
    # Without the option the third 6 is played like any other.
    state = make(2).new_state()
    for move in ("red", "6", "out", "6", "r1", "6"):
        state = state.apply(move)
    assert legal(state) == ["out", "r1"]


def test_a_non_6_after_sixes_resets_the_count() -> None:
    game = make(2, three_sixes_penalty=True)
    state = game.new_state()
    for move in ("red", "6", "out", "6", "r1", "2", "r1"):
        state = state.apply(move)
    assert state.turn == dicegames.TurnInfo(1, 2)
    assert state.data.sixes == 0
    for move in ("3", "pass", "6", "out", "6"):
        state = state.apply(move)
    assert state.turn == dicegames.TurnInfo(0, 3)
    assert state.data.sixes == 2  # the new turn counts afresh: a third 6 would end it
    moved_on = state.apply("r1")
    third = moved_on.apply("6")
    assert third.turn == dicegames.TurnInfo(1, 4)
    assert third.data.horses == moved_on.data.horses


# ----------------------------------------------------------------------- captures


def test_ending_on_a_single_opposing_horse_sends_it_home() -> None:
    square = 20
    state = position([(on(RED, square) - 4, 0, 0, 0), (on(YELLOW, square), 9, 0, 0)], 4)
    after = state.apply("r1")
    assert after.data.horses == ((on(RED, square), 0, 0, 0), (0, 9, 0, 0))


def test_passing_over_horses_is_free() -> None:
    state = position([(10, 0, 0, 0), (on(YELLOW, PATHS[RED][12]), 0, 0, 0)], 5)
    after = state.apply("r1")
    assert after.data.horses == ((15, 0, 0, 0), (on(YELLOW, PATHS[RED][12]), 0, 0, 0))


def test_coming_out_onto_a_single_opposing_horse_captures_it() -> None:
    state = position([(0, 0, 0, 0), (on(YELLOW, START[RED]), 0, 0, 0)], 6)
    assert legal(state) == ["out"]
    assert state.apply("out").data.horses == ((1, 0, 0, 0), (0, 0, 0, 0))


def test_describe_names_captures_and_barrages() -> None:
    names = ["Ann", "You"]
    state = position([(16, 0, 0, 0), (on(YELLOW, PATHS[RED][20]), 0, 0, 0)], 4)
    said = presenter_of(state.game).describe(state, Action.R1, 0, names)
    assert said == ("Ann moves R1 4 to square 20 of its lap, sending Y1 back to the corner "
                    "stable")
    state = position([(1, 0, 0, 0), (0, 0, 0, 0)], 6)
    assert presenter_of(state.game).describe(state, Action.OUT, 0, names) == (
        "Ann brings R2 out onto its start square, making a barrage")


# ----------------------------------------------------------------------- barrages


def test_coming_out_onto_your_own_horse_makes_a_barrage_but_never_three() -> None:
    state = position([(1, 0, 0, 0), (0, 0, 0, 0)], 6)
    assert legal(state) == ["out", "r1"]
    assert state.apply("out").data.horses[0] == (1, 1, 0, 0)
    state = position([(1, 1, 0, 0), (0, 0, 0, 0)], 6)
    assert legal(state) == ["r1", "r2"]


def test_coming_out_onto_an_opposing_barrage_is_illegal_unless_it_captures() -> None:
    barrage = [on(YELLOW, START[RED])] * 2
    state = position([(0, 0, 0, 0), (*barrage, 0, 0)], 6)
    assert state.legal_actions() == (PASS,)
    state = position([(0, 0, 0, 0), (*barrage, 0, 0)], 6, barrage_landing_captures=True)
    assert state.apply("out").data.horses == ((1, 0, 0, 0), (0, 0, 0, 0))


def test_nobody_may_pass_an_opposing_barrage() -> None:
    wall = on(YELLOW, PATHS[RED][12])
    state = position([(10, 0, 0, 0), (wall, wall, 0, 0)], 3)
    assert state.legal_actions() == (PASS,)
    assert legal(position([(10, 0, 0, 0), (wall, wall, 0, 0)], 1)) == ["r1"]
    for option in (True, False):
        assert position([(10, 0, 0, 0), (wall, wall, 0, 0)], 5,
                        barrage_blocks_own=option).legal_actions() == (PASS,)


def test_landing_on_an_opposing_barrage_is_illegal_by_default() -> None:
    wall = on(YELLOW, PATHS[RED][12])
    state = position([(10, 0, 0, 0), (wall, wall, 0, 0)], 2)
    assert state.legal_actions() == (PASS,)


def test_barrage_landing_captures_sends_both_horses_home() -> None:
    wall = on(YELLOW, PATHS[RED][12])
    state = position([(10, 0, 0, 0), (wall, wall, 30, 0)], 2, barrage_landing_captures=True)
    after = state.apply("r1")
    assert after.data.horses == ((12, 0, 0, 0), (0, 0, 30, 0))
    said = presenter_of(state.game).describe(state, Action.R1, 0, ["Ann", "Bob"])
    assert said.endswith("sending Y1 and Y2 back to the corner stable")
    # Passing it stays illegal.
    assert position([(10, 0, 0, 0), (wall, wall, 0, 0)], 3,
                    barrage_landing_captures=True).legal_actions() == (PASS,)


def test_your_own_barrage_blocks_you_too_by_default() -> None:
    state = position([(10, 12, 12, 0), (0, 0, 0, 0)], 4)
    assert legal(state) == ["r2", "r3"]
    state = position([(10, 12, 12, 0), (0, 0, 0, 0)], 4, barrage_blocks_own=False)
    assert legal(state) == ["r1", "r2", "r3"]
    assert state.apply("r1").data.horses[0] == (14, 12, 12, 0)


def test_you_can_never_land_on_your_own_barrage() -> None:
    for option in (True, False):
        state = position([(10, 12, 12, 0), (0, 0, 0, 0)], 2, barrage_blocks_own=option)
        assert legal(state) == ["r2", "r3"]


def test_a_barrage_on_the_stable_entrance_blocks_the_way_into_the_stable() -> None:
    wall = on(YELLOW, PATHS[RED][ENTRANCE])
    state = position([(54, 0, 0, 0), (wall, wall, 0, 0)], 4)
    assert state.legal_actions() == (PASS,)


def test_a_6_with_no_legal_move_still_rolls_again() -> None:
    wall = on(YELLOW, PATHS[RED][12])
    state = position([(10, FINAL, FINAL - 1, FINAL - 2), (wall, wall, 0, 0)], 6)
    assert state.legal_actions() == (PASS,)
    after = state.apply("pass")
    assert after.is_chance and after.turn.seat == 0
    assert presenter_of(state.game).describe(state, PASS, 0, ["Ann", "Bob"]) == (
        "Ann cannot move; the 6 rolls again")


# ----------------------------------------------------------------------- the stable


def test_seed_example_from_the_entrance_a_6_goes_straight_to_stable_square_6() -> None:
    state = position([(ENTRANCE, 0, 0, 0), (0, 0, 0, 0)], 6)
    assert state.apply("r1").data.horses[0] == (FINAL, 0, 0, 0)


def test_seed_example_a_4_enters_on_square_4_and_a_later_exact_2_finishes() -> None:
    state = position([(ENTRANCE, 0, 0, 0), (0, 0, 0, 0)], 4).apply("r1")
    assert state.data.horses[0] == (ENTRANCE + 4, 0, 0, 0)
    assert state.turn.seat == 1
    state = state.apply("1").apply("pass")  # yellow
    for roll in ("3", "4", "5"):  # too far: no overshooting square 6
        assert state.apply(roll).legal_actions() == (PASS,)
    state = state.apply("2").apply("r1")
    assert state.data.horses[0] == (FINAL, 0, 0, 0)


def test_counting_runs_straight_on_from_the_track_into_the_stable() -> None:
    state = position([(53, 0, 0, 0), (0, 0, 0, 0)], 5)
    assert state.apply("r1").data.horses[0] == (ENTRANCE + 2, 0, 0, 0)
    assert position([(52, 0, 0, 0), (0, 0, 0, 0)], 4).apply("r1").data.horses[0] == (
        ENTRANCE, 0, 0, 0)


def test_the_definitive_place_is_the_innermost_free_square_never_overshot() -> None:
    state = position([(ENTRANCE, FINAL, 0, 0), (0, 0, 0, 0)], 6)
    assert legal(state) == ["out"]  # r1 would overshoot its place, stable square 5
    state = position([(ENTRANCE, FINAL, 0, 0), (0, 0, 0, 0)], 5)
    assert state.apply("r1").data.horses[0] == (FINAL - 1, FINAL, 0, 0)
    state = position([(54, FINAL, FINAL - 1, 0), (0, 0, 0, 0)], 6)
    assert state.apply("r1").data.horses[0] == (FINAL - 2, FINAL, FINAL - 1, 0)


def test_a_horse_may_stop_short_but_no_horse_passes_another_in_the_stable() -> None:
    short = ENTRANCE + 2
    state = position([(ENTRANCE, short, 0, 0), (0, 0, 0, 0)], 3)
    assert legal(state) == ["r2"]  # r1 would pass r2
    state = position([(ENTRANCE, short, 0, 0), (0, 0, 0, 0)], 2)
    assert legal(state) == ["r2"]  # r1 would land on r2
    state = position([(ENTRANCE, short, 0, 0), (0, 0, 0, 0)], 1)
    assert legal(state) == ["r1", "r2"]
    assert state.apply("r1").data.horses[0] == (ENTRANCE + 1, short, 0, 0)


def test_horses_in_the_stable_are_safe() -> None:
    # A yellow horse can never reach red's stable squares: its own path ends in its own.
    state = position([(ENTRANCE + 1, 0, 0, 0), (on(YELLOW, PATHS[RED][ENTRANCE]) - 1, 0, 0, 0)],
                     2, player=1)
    after = state.apply("y1")
    assert after.data.horses[0] == (ENTRANCE + 1, 0, 0, 0)


def test_four_horses_on_stable_squares_3_to_6_win_at_once_even_on_a_6() -> None:
    state = position([(ENTRANCE, FINAL, FINAL - 1, FINAL - 2), (30, 0, 0, 0)], 3)
    after = state.apply("r1")
    assert after.is_terminal
    assert after.result.winners == (0,)
    assert after.result.scores == (4, 0)
    assert after.result.summary == "red fills its stable in turn 7"
    state = position([(ENTRANCE - 3, FINAL, FINAL - 1, FINAL - 2), (30, 0, 0, 0)], 6)
    after = state.apply("r1")
    assert after.is_terminal and after.result.winners == (0,)
    said = presenter_of(state.game).describe(state, Action.R1, 0, ["You", "Bob"])
    assert said == ("You move R1 6 to stable square 3: your stable is full and you win")


def test_four_horses_in_the_stable_are_not_yet_a_win_below_square_3() -> None:
    state = position([(ENTRANCE, FINAL, FINAL - 1, FINAL - 2), (30, 0, 0, 0)], 2)
    after = state.apply("r1")
    assert not after.is_terminal
    assert after.data.horses[0] == (ENTRANCE + 2, FINAL, FINAL - 1, FINAL - 2)


# ----------------------------------------------------------------------- options


def test_compulsory_move_false_lets_the_player_pass_instead_of_moving() -> None:
    state = position([(10, 0, 0, 0), (0, 0, 0, 0)], 3, compulsory_move=False)
    assert legal(state) == ["r1", "pass"]
    after = state.apply("pass")
    assert after.data.horses[0] == (10, 0, 0, 0)
    assert after.turn.seat == 1
    assert presenter_of(state.game).describe(state, PASS, 0, ["Ann", "Bob"]) == (
        "Ann passes (moving is optional): the turn passes")
    assert legal(position([(10, 0, 0, 0), (0, 0, 0, 0)], 3)) == ["r1"]


def test_options_are_declared_with_the_rulings_as_defaults() -> None:
    spec = make().spec
    assert {option.name: option.default for option in spec.options} == {
        "three_sixes_penalty": False, "compulsory_move": True,
        "barrage_blocks_own": True, "barrage_landing_captures": False}
    assert (spec.min_players, spec.max_players) == (2, 4)


# ----------------------------------------------------------------------- notation, picture


def test_notation_horse_numbers_and_aliases() -> None:
    state = position([(5, 20, 0, 0), (0, 0, 0, 0)], 6)
    game = state.game
    assert game.parse(state, "R2") is Action.R2
    assert game.parse(state, "2") is Action.R2
    assert game.parse(state, "o") is Action.OUT
    with pytest.raises(IllegalAction, match="legal: out, r1, r2"):
        state.apply("r3")
    with pytest.raises(IllegalAction):
        state.apply("y1")
    yellow = position([(0, 0, 0, 0), (5, 0, 0, 0)], 2, player=1)
    assert yellow.game.parse(yellow, "1") is Action.Y1


def test_the_board_picture_reads_without_colour() -> None:
    wall = on(YELLOW, PATHS[RED][12])
    state = position([(10, 0, ENTRANCE + 3, 1), (wall, wall, 0, 0)], 5)
    picture = Text.from_markup(presenter_of(state.game).render(state, ["Ann [x]", "Bob"])).plain
    lines = picture.splitlines()
    assert "R1" in picture and "Y12" in picture and "R2" in picture
    assert "▶RED" in picture and "YELLOW" in picture
    assert "Ann [x]" in lines[2] and "Bob" in lines[11]
    assert "Die: ⚄ 5" in picture
    assert lines[TRACK[START[RED]][0]][3 * 8: 3 * 9] == "R4 "
    assert len(lines[7]) == 45
    assert "Ann [x] (red): 1 waiting, 2 on the track, 1 in the stable" in picture


# ----------------------------------------------------------------------- properties


def check_invariants(game: Any, before: ChevauxData, after: ChevauxData,
                     mover: int | None) -> None:
    """The issue's invariants between two consecutive positions."""
    squares: dict[int, list[int]] = {}
    for seat, row in enumerate(after.horses):
        assert len(row) == 4
        colour = game.colours[seat]
        stable = [p for p in row if p > ENTRANCE]
        assert len(set(stable)) == len(stable), "one horse per stable square"
        for progress in row:
            assert 0 <= progress <= FINAL
            square = PATHS[colour][progress]
            if square >= 0:
                squares.setdefault(square, []).append(seat)
    for owners in squares.values():
        assert len(set(owners)) == 1, "two colours on one square"
        assert len(owners) <= 2, "more than two horses on one square"
    for seat, (old, new) in enumerate(zip(before.horses, after.horses, strict=True)):
        for p, q in zip(old, new, strict=True):
            if seat == mover:
                assert q >= p, "a horse went backwards"
            else:
                assert q in (p, 0), "only captures move other horses (home)"


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), options=st.fixed_dictionaries({
    "three_sixes_penalty": st.booleans(), "compulsory_move": st.booleans(),
    "barrage_blocks_own": st.booleans(), "barrage_landing_captures": st.booleans()}),
    data=st.data())
def test_invariants_hold_under_any_dice_and_choices(players: int, options: dict[str, bool],
                                                    data: st.DataObject) -> None:
    game = make(players, **options)
    state = game.new_state()
    for _ in range(400):
        if state.is_terminal:
            assert has_four_on_3_to_6(state.data.horses[state.data.winner])
            break
        if state.is_chance:
            outcomes = [o for o, _ in state.chance_outcomes()]
            move = data.draw(st.sampled_from(outcomes))
            after = state.apply(move)
            check_invariants(game, state.data, after.data, None)
        else:
            actions = state.legal_actions()
            move = data.draw(st.sampled_from(actions))
            after = state.apply(move)
            check_invariants(game, state.data, after.data, state.data.player)
            assert sum(map(sum, after.data.horses)) >= 0
        assert after.turn.number >= state.turn.number
        state = after


def has_four_on_3_to_6(row: tuple[int, ...]) -> bool:
    """True when the row is a winning one."""
    return sorted(row) == [FINAL - 3, FINAL - 2, FINAL - 1, FINAL]


def test_random_games_end_with_a_full_stable() -> None:
    import random

    for players in (2, 4):
        game = make(players)
        rng = random.Random(players)
        state = game.new_state()
        moves = 0
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
            moves += 1
            assert moves < 20_000
        winner = state.result.winners[0]
        assert has_four_on_3_to_6(state.data.horses[winner])


@pytest.mark.parametrize("options", [{}, {"barrage_landing_captures": True,
                                           "barrage_blocks_own": False}])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
@settings(max_examples=25, deadline=None)
def test_kept_occupancy_equals_the_board_rebuilt_from_the_horses(
        options: dict[str, Any], seed: int, players: int) -> None:
    """The occupancy the rules carry move by move is the board the horses describe."""
    import random

    from dicegames.core.chance import sample
    from dicegames.games.petits_chevaux.moves import Board

    game = dicegames.make("petits-chevaux", players=players, **options)
    assert isinstance(game, PetitsChevauxRules)
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
        else:
            state = state.apply_unchecked(rng.choice(state.legal_actions()))
        kept = state.data.occupancy
        if kept is not None:
            rebuilt = Board(game.colours, state.data.horses)
            assert (kept.owner, kept.count) == (rebuilt.owner, rebuilt.count)
