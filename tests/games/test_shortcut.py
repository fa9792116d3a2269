"""Shortcut: every rule and ruling with forced dice, the seed's examples, and properties.

Positions are set up with ``game.state_from`` (cars named by cell, e.g. ``a9``) and the dice
are forced by notation (``state.apply("5")``). The default board (``boards/default.txt``):
the start a13, road 1..12 down column a (road 4 is a9), 13..15 along the bottom, 16..27 up
column e (road 24 is e9, road 27 e12), the finish e13, and a grey field b5..d9.
Hypothesis then plays arbitrary dice and choices and checks the invariants RULINGS.md names.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

import dicegames
from dicegames import IllegalAction, Session, State
from dicegames.core.registry import presenter_of
from dicegames.games.shortcut import (
    Board,
    Cell,
    Declaration,
    Phase,
    Press,
    ShortcutData,
)
from dicegames.games.shortcut.board import Kind

SCState = State[ShortcutData, Any, int]


def make(players: int = 2, **options: object) -> Any:
    """A shortcut game (typed loosely: tests reach into its board and data)."""
    return dicegames.make("shortcut", players=players, **options)


def at(game: Any, cars: Sequence[str], player: int = 0, *, phase: Phase = Phase.DECLARE,
       rolls: Sequence[int] = (), turn: int = 1) -> SCState:
    """A position with the cars on the named cells."""
    board: Board = game.board
    data = ShortcutData(tuple(board.cell(name) for name in cars), player, turn, phase,
                        tuple(rolls))
    state: SCState = game.state_from(data)
    return state


def names(actions: Sequence[Any]) -> list[str]:
    """Actions as notation."""
    return [str(action) for action in actions]


def car(state: SCState, seat: int = 0) -> str:
    """The name of the cell a seat's car stands on."""
    board: Board = state.game.board  # type: ignore[attr-defined]
    return board.names[state.data.cars[seat]]


def play(state: SCState, moves: Sequence[str]) -> SCState:
    """Apply notation moves one after the other."""
    for move in moves:
        state = state.apply(move)
    return state


# ----------------------------------------------------------------------- declarations


def test_a_turn_opens_with_a_declaration_road_shortcut_or_push() -> None:
    state = make().new_state()
    assert not state.is_chance
    assert state.legal_actions() == (Declaration.ROAD, Declaration.SHORTCUT, Declaration.PUSH)
    assert names(state.legal_actions()) == ["road", "shortcut", "push"]
    assert state.turn == dicegames.TurnInfo(0, 1)


def test_no_road_from_a_grey_cell() -> None:
    state = at(make(), ["c7", "a13"])
    assert names(state.legal_actions()) == ["shortcut", "push"]
    with pytest.raises(IllegalAction, match="legal: shortcut, push"):
        state.apply("road")


def test_no_push_when_every_step_is_blocked_so_only_the_shortcut_is_left(
        tmp_path: Path) -> None:
    path = tmp_path / "box.txt"
    path.write_text(BOX_BOARD, encoding="utf-8")
    game = make(4, board=str(path))
    state = at(game, ["b3", "b4", "c3", "b2"])  # b3's grey neighbours all hold cars
    assert names(state.legal_actions()) == ["shortcut"]
    state = play(state, ["shortcut", "3"])
    assert names(state.legal_actions()) == ["press", "b3"]  # only staying put
    assert car(state.apply("b3")) == "b3"


def test_declaration_aliases() -> None:
    state = make().new_state()
    for text, action in (("r", Declaration.ROAD), ("S", Declaration.SHORTCUT),
                         ("short cut", Declaration.SHORTCUT), ("p", Declaration.PUSH)):
        assert state.game.parse(state, text) is action


# ----------------------------------------------------------------------- the road


def test_the_road_moves_exactly_the_roll_along_the_road() -> None:
    state = make().new_state().apply("road")
    assert state.is_chance
    assert state.chance_outcomes() == tuple((face, Fraction(1, 6)) for face in range(1, 7))
    state = state.apply("6")
    assert car(state) == "a7"  # road 6
    assert state.turn == dicegames.TurnInfo(1, 2)
    assert state.data.phase is Phase.DECLARE


def test_the_road_never_turns_onto_the_grey() -> None:
    state = play(at(make(), ["a9", "a13"]), ["road", "2"])  # road 4, next to the grey
    assert car(state) == "a7"  # road 6, straight on


def test_seed_example_4_from_the_finish_a_5_does_not_move() -> None:
    game = make()
    state = at(game, ["e9", "a13"])  # road 24: 4 road steps from the finish
    assert game.board.road_distance(state.data.cars[0]) == 4
    after = play(state, ["road", "5"])
    assert car(after) == "e9"
    assert not after.is_terminal
    assert after.turn.seat == 1
    assert car(play(state, ["road", "6"])) == "e9"


def test_the_finish_by_the_road_needs_the_exact_count_and_wins() -> None:
    state = at(make(), ["e9", "a13"])
    assert car(play(state, ["road", "3"])) == "e12"
    won = play(state, ["road", "4"])
    assert won.is_terminal
    assert car(won) == "e13"
    assert won.result.winners == (0,)


def test_road_cells_are_shared_and_cars_pass_each_other() -> None:
    state = at(make(3), ["a13", "a8", "a8"])
    state = play(state, ["road", "6"])  # seat 0 passes both cars on road 5 to road 6
    assert car(state) == "a7"
    state = play(state, ["road", "1"])  # seat 1 joins seat 0 on road 6
    assert state.data.cars[0] == state.data.cars[1]


# ----------------------------------------------------------------------- the shortcut


@pytest.mark.parametrize("roll", ["4", "5", "6"])
def test_shortcut_4_to_6_is_stuck_on_the_road_and_on_the_grey(roll: str) -> None:
    for cars in (["a9", "a13"], ["c7", "a13"]):
        state = play(at(make(), cars), ["shortcut", roll])
        assert car(state) == cars[0]
        assert state.turn.seat == 1
        assert state.data.phase is Phase.DECLARE


def test_seed_example_3_then_2_may_move_up_to_5() -> None:
    game = make()
    state = play(at(game, ["a9", "a13"]), ["shortcut", "3", "press", "2"])
    assert state.data.rolls == (3, 2)
    offered = {c.name for c in state.legal_actions() if isinstance(c, Cell)}
    assert offered == reference_reach(game.board, "a9", 5, [])
    assert {"a9", "e9", "e8", "a4"} <= offered  # stay, across in 4, or in 5, road 9
    assert "e11" not in offered  # road 26 would take 6 steps
    state = state.apply("e9")
    assert car(state) == "e9"
    assert state.turn.seat == 1


def test_seed_example_2_without_pressing_may_move_up_to_2() -> None:
    game = make()
    state = play(at(game, ["a9", "a13"]), ["shortcut", "2"])
    assert state.legal_actions()[0] is Press.PRESS
    assert names(state.legal_actions()[1:]) == ["a9", "b9", "c9", "a8", "b8", "a7"]
    assert car(state.apply("c9")) == "c9"


def test_seed_example_3_then_1_then_4_forfeits_the_turn() -> None:
    state = play(at(make(), ["a9", "a13"]), ["shortcut", "3", "press", "1", "press", "4"])
    assert car(state) == "a9"
    assert state.data.rolls == ()
    assert state.turn == dicegames.TurnInfo(1, 2)


def test_the_shortcut_also_works_along_the_road_forward_only() -> None:
    state = play(at(make(), ["a11", "a13"]), ["shortcut", "3"])  # road 2
    assert names(state.legal_actions()) == ["press", "a11", "a10", "a9", "b9", "a8"]


def test_the_finish_with_movement_left_over_on_a_shortcut_turn() -> None:
    state = play(at(make(), ["e11", "a13"]), ["shortcut", "3"])  # 2 from the finish
    assert "e13" in names(state.legal_actions())
    won = state.apply("finish")
    assert won.is_terminal
    assert won.result.winners == (0,)
    assert won.result.summary == "first on the finish in round 1"


def test_pressing_keeps_adding_until_stopped() -> None:
    state = play(at(make(), ["a12", "a13"]), ["shortcut", "1", "press", "1", "press", "3"])
    assert state.data.rolls == (1, 1, 3)
    assert "a7" in names(state.legal_actions())  # road 1 + 5 = road 6
    assert "a6" not in names(state.legal_actions())


def test_grey_cells_any_direction_and_grey_to_any_adjacent_road_cell() -> None:
    state = play(at(make(), ["c7", "a13"]), ["shortcut", "1"])
    assert names(state.legal_actions()) == ["press", "c8", "b7", "c7", "d7", "c6"]
    state = play(at(make(), ["b7", "a13"]), ["shortcut", "1"])
    assert "a7" in names(state.legal_actions())  # back onto road 6, sideways
    state = play(at(make(), ["b7", "a13"]), ["shortcut", "2"])
    assert {"a8", "a6"} <= set(names(state.legal_actions()))  # road 5 and 7 via the grey


def test_a_car_never_lands_on_or_passes_a_car_on_the_grey() -> None:
    game = make()
    blocked = ["a7", "c7"]  # seat 1 stands on c7, in the way across row 7
    state = play(at(game, blocked), ["shortcut", "3"])
    offered = set(names(state.legal_actions()[1:]))
    assert "c7" not in offered and "d7" not in offered  # d7 only through c7 in 3 steps
    assert offered == reference_reach(game.board, "a7", 3, ["c7"])
    state = play(at(game, blocked), ["shortcut", "3", "press", "2"])
    assert "d7" in names(state.legal_actions())  # round c7: b7 b8 c8 d8 d7
    assert "c7" not in names(state.legal_actions())


def test_a_car_on_the_road_does_not_block() -> None:
    state = play(at(make(), ["a9", "a8"]), ["shortcut", "2"])
    assert "a7" in names(state.legal_actions())


def test_staying_put_is_a_legal_stop() -> None:
    state = play(at(make(), ["c7", "a13"]), ["shortcut", "2"])
    after = state.apply("c7")
    assert car(after) == "c7"
    assert after.turn.seat == 1


def test_road_number_aliases_name_destinations() -> None:
    state = play(at(make(), ["a9", "a13"]), ["shortcut", "3", "press", "2"])
    assert state.game.parse(state, "r24") == state.game.parse(state, "e9")
    assert state.game.parse(state, "again") is Press.PRESS
    with pytest.raises(IllegalAction, match="legal: press, "):
        state.apply("r26")


# ----------------------------------------------------------------------- the push


def test_push_moves_one_step_at_once_when_there_is_one() -> None:
    state = at(make(), ["a11", "a13"]).apply("push")
    assert car(state) == "a10"
    assert state.turn.seat == 1


def test_push_onto_the_finish_from_one_step_away_wins() -> None:
    state = at(make(), ["e12", "a13"]).apply("push")
    assert state.is_terminal
    assert state.result.winners == (0,)
    assert state.result.ranks == (1, 2)


def test_push_with_several_steps_asks_where() -> None:
    state = at(make(), ["a9", "a13"]).apply("push")
    assert state.data.phase is Phase.PUSH_TO
    assert names(state.legal_actions()) == ["b9", "a8"]
    assert car(state.apply("b9")) == "b9"
    state = at(make(), ["d7", "c7"]).apply("push")
    assert names(state.legal_actions()) == ["d8", "e7", "d6"]  # c7 holds a car
    assert car(state.apply("r22")) == "e7"


# ----------------------------------------------------------------------- winning


def test_the_first_car_on_the_finish_wins_at_once() -> None:
    game = make(3)
    state = play(at(game, ["e12", "e12", "e12"], player=1, turn=5), ["push"])
    assert state.is_terminal
    result = state.result
    assert result.winners == (1,)
    assert result.ranks[1] == 1
    assert result.summary == "first on the finish in round 2"
    with pytest.raises(dicegames.GameOver):
        state.apply("push")


def test_scripted_game_through_the_match_runner() -> None:
    class Script:
        def __init__(self, decisions: Sequence[str]) -> None:
            self.decisions = iter(decisions)

        def choose(self, state: State[Any, Any, Any], seat: int) -> str:
            return next(self.decisions)

    game = make()
    session = Session(game)
    dice = dicegames.ScriptedDice(["4", "3", "1", "3", "5", "4"])
    agents = [Script(["road", "shortcut", "press", "e9", "road"]),
              Script(["road", "shortcut"])]
    result = dicegames.play(session, agents, dice)
    assert result is not None
    assert result.winners == (0,)
    assert dice.remaining == 0
    assert session.state.data.cars == (game.board.finish, game.board.cell("a10"))
    assert session.state.turn.number == 5


# ----------------------------------------------------------------------- boards

BOX_BOARD = """
# a small board: a 3 x 3 grey field inside a road of 11 squares
 S  1  2  3  4
 .  g  g  g  5
 .  g  g  g  6
 .  g  g  g  7
 F 11 10  9  8
"""


def reference_reach(board: Board, start: str, total: int, occupied: Sequence[str]) -> set[str]:
    """Cells reachable within ``total`` legal steps, straight from the rules' wording.

    Independent of ``Board.steps``/``Board.reachable``: adjacency comes from the grid, the
    step rule from RULINGS.md (start/road -> the next road place or a grey cell; grey ->
    grey or a road cell or the finish; never into a grey cell holding a car).
    """
    where = {board.grid[line][column]: (line, column)
             for line in range(board.height) for column in range(board.width)
             if board.grid[line][column] >= 0}
    blocked = {board.cell(name) for name in occupied}

    def legal(a: int, b: int) -> bool:
        (la, ca), (lb, cb) = where[a], where[b]
        if abs(la - lb) + abs(ca - cb) != 1 or b in blocked:
            return False
        kind_a, kind_b = board.kinds[a], board.kinds[b]
        if kind_a is Kind.FINISH or kind_b is Kind.START:
            return False
        if kind_a is Kind.GREY:
            return True
        return kind_b is Kind.GREY or board.road_pos[b] == board.road_pos[a] + 1

    seen = {board.cell(start)}
    frontier = set(seen)
    for _ in range(total):
        frontier = {b for a in frontier if a != board.finish for b in where if legal(a, b)}
        seen |= frontier
    return {board.names[c] for c in seen}


# ----------------------------------------------------------------------- properties


@st.composite
def positions(draw: st.DrawFn) -> SCState:
    """Any position at the start of a turn: 2-4 cars anywhere but the finish, never two on
    one grey cell, either player to move."""
    game = GAMES[draw(st.integers(2, 4))]
    board: Board = game.board
    cells = [c for c in range(len(board.kinds)) if c != board.finish]
    cars: list[int] = []
    for _ in range(game.players):
        free = [c for c in cells if not (board.is_grey(c) and c in cars)]
        cars.append(draw(st.sampled_from(free)))
    player = draw(st.integers(0, game.players - 1))
    state: SCState = game.state_from(ShortcutData(tuple(cars), player, 1 + player))
    return state


GAMES = {players: make(players) for players in (2, 3, 4)}


def check_step(before: SCState, move: Any, after: SCState) -> None:
    """The invariants of one move."""
    board: Board = before.game.board  # type: ignore[attr-defined]
    data, new = before.data, after.data
    mover = data.player
    greys = [c for c in new.cars if board.is_grey(c)]
    assert len(greys) == len(set(greys)), f"two cars on one grey cell: {new.cars}"
    for seat, (old_cell, new_cell) in enumerate(zip(data.cars, new.cars, strict=True)):
        if seat != mover:
            assert old_cell == new_cell, "only the car whose turn it is moves"
    here, there = data.cars[mover], new.cars[mover]
    if data.phase is Phase.ROAD_ROLL:
        assert not board.is_grey(there)
        assert board.road_pos[there] in (board.road_pos[here], board.road_pos[here] + move)
        assert board.road_pos[there] >= board.road_pos[here], "a road move went backwards"
        if board.road_pos[there] == board.road_pos[here]:
            assert move > board.road_distance(here)
    if data.phase is Phase.CHOOSE and move is Press.PRESS:
        assert new.cars == data.cars
    if data.phase is Phase.CHOOSE and isinstance(move, Cell):
        occupied = [board.names[c] for s, c in enumerate(data.cars)
                    if s != mover and board.is_grey(c)]
        assert board.names[there] in reference_reach(board, board.names[here],
                                                     sum(data.rolls), occupied)
    if data.phase is Phase.PUSH_TO or (move is Declaration.PUSH
                                       and new.phase is not Phase.PUSH_TO):
        assert there in board.steps[here], "a push is exactly one legal step"
    if move is Declaration.PUSH and new.phase is Phase.PUSH_TO:
        assert there == here
        assert len(after.legal_actions()) >= 2


@settings(max_examples=150, deadline=None)
@given(start=positions(), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=80))
def test_random_play_keeps_every_invariant(start: SCState, picks: list[int]) -> None:
    state = start
    for pick in picks:
        if state.is_terminal:
            assert state.data.cars[state.data.winner] == state.game.board.finish  # type: ignore[attr-defined]
            break
        if state.is_chance:
            outcomes = state.chance_outcomes()
            move = outcomes[pick % len(outcomes)][0]
        else:
            legal = state.legal_actions()
            move = legal[pick % len(legal)]
        after = state.apply(move)
        check_step(state, move, after)
        state = after


@settings(max_examples=150, deadline=None)
@given(start=positions(), dice=st.lists(st.integers(1, 3), min_size=1, max_size=6))
def test_shortcut_destinations_are_exactly_the_cells_reachable_round_other_cars(
        start: SCState, dice: list[int]) -> None:
    state = start.apply("shortcut")
    for index, roll in enumerate(dice):
        state = state.apply(str(roll))
        if index < len(dice) - 1:
            state = state.apply("press")
    data = state.data
    board: Board = state.game.board  # type: ignore[attr-defined]
    occupied = [board.names[c] for s, c in enumerate(data.cars)
                if s != data.player and board.is_grey(c)]
    offered = set(names(state.legal_actions()[1:]))
    assert offered == reference_reach(board, board.names[data.cars[data.player]], sum(dice),
                                      occupied)
    assert not offered & set(occupied)
    assert len(offered) == len(state.legal_actions()) - 1  # each cell offered once


@settings(max_examples=100, deadline=None)
@given(start=positions(), roll=st.integers(1, 6))
def test_road_moves_never_go_backwards_and_never_leave_the_road(start: SCState,
                                                                roll: int) -> None:
    if Declaration.ROAD not in start.legal_actions():
        assert start.game.board.is_grey(start.data.cars[start.data.player])  # type: ignore[attr-defined]
        return
    rolling = start.apply("road")
    check_step(rolling, roll, rolling.apply(str(roll)))


def test_random_games_end_with_one_winner_on_the_finish() -> None:
    for players in (2, 3, 4):
        game = make(players)
        for seed in range(20):
            rng = random.Random(seed)
            state: SCState = game.new_state()
            while not state.is_terminal:
                if state.is_chance:
                    state = state.apply(rng.choice(state.chance_outcomes())[0])
                else:
                    state = state.apply(rng.choice(state.legal_actions()))
            assert state.data.cars[state.result.winners[0]] == game.board.finish


# ----------------------------------------------------------------------- the picture


def test_the_picture_shows_labels_road_numbers_grey_cells_and_cars() -> None:
    state = at(make(), ["a9", "c7"])
    picture = Text.from_markup(str(state)).plain
    lines = picture.splitlines()
    assert lines[0].split() == ["a", "b", "c", "d", "e"]
    row9 = next(line for line in lines if line.split()[0] == "9")
    assert row9.split() == ["9", "A", "░░", "░░", "░░", "24", "9"]
    row7 = next(line for line in lines if line.split()[0] == "7")
    assert row7.split() == ["7", "6", "░░", "B", "░░", "22", "7"]
    assert "A Player 1 road square 4, 24 road steps from the finish" in picture
    assert "B Player 2 the grey square 2 steps from road square 6" in picture
    assert "declare road, shortcut or push" in picture


def test_the_picture_marks_the_destinations_when_choosing() -> None:
    state = play(at(make(), ["a9", "a13"]), ["shortcut", "1"])
    picture = Text.from_markup(str(state)).plain
    row9 = next(line for line in picture.splitlines() if line.split()[0] == "9")
    assert row9.startswith("  9 [ A  ][ ░░ ]  ░░    ░░    24 ")  # stay on a9, or b9
    assert "[ 5  ]" in picture  # a8, road 5
    assert picture.count("[") == 3 + 1  # three cells framed, and the hint
    assert "Shortcut dice: 1 = 1. Press on, or stop on a cell in [brackets]." in picture


def test_names_are_escaped_and_you_reads_right() -> None:
    game = make()
    state = at(game, ["a9", "a13"])
    picture = presenter_of(game).render(state, ["Ann [bold]x", "You"])
    assert "Ann [bold]x" in Text.from_markup(picture).plain
    rolled = state.apply("road")
    assert presenter_of(game).describe(rolled, 5, None, ["You", "Bob"]) == (
        "You roll 5 and drive to road square 9")
    far = at(game, ["e9", "a13"]).apply("road")
    assert presenter_of(game).describe(far, 5, None, ["Ann", "Bob"]) == (
        "Ann rolls 5: the finish is only 4 road steps away, so the car does not move")
    rolled = play(state, ["shortcut", "3", "press"])
    assert presenter_of(game).describe(rolled, 4, None, ["Ann", "Bob"]) == (
        "Ann rolls 4: stuck, the turn is over (3 is lost)")
    said = presenter_of(game).describe(state, Declaration.PUSH, 0, ["Ann", "Bob"])
    assert said == "Ann pushes the car"
