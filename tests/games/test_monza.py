"""Monza: every rule and ruling with forced dice, the seed's worked example, and properties.

Scenarios run on the small hand-drawn test circuit of ``test_monza_circuit.py`` (lanes a, b,
c; tyre b3; targets a7 and c6; entries a1 white and c1 blue), loaded through the ``circuit``
option, with the dice set by notation (``state.apply("rryyyg")``) or positions built with
``game.state_from``. Hypothesis then plays whole games with arbitrary dice and choices and
checks what must always hold: cars only move forward unless pushed back, never two cars on a
square outside the start zone and the targets (but for the moving car during its move), never
a car on a tyre, never a car pushed off a target.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text
from test_monza_circuit import TEST_CIRCUIT

import dicegames
from dicegames import PASS, IllegalAction, State
from dicegames.bots import make_bot, own_levels
from dicegames.core.chance import sample
from dicegames.core.registry import presenter_of
from dicegames.games.monza import ROLLS, MonzaData, Phase, Roll
from dicegames.games.monza.data import START, Advance, Step
from dicegames.games.monza.heuristics import medium_policy

AnyState = State[Any, Any, Any]


@pytest.fixture(scope="module")
def circuit_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The test circuit written to a file, as a user's ``--option circuit=PATH``."""
    path = tmp_path_factory.mktemp("circuits") / "test.json"
    path.write_text(json.dumps(TEST_CIRCUIT), encoding="utf-8")
    return str(path)


def make(path: str, players: int = 2, **options: object) -> Any:
    """A monza game on the test circuit (typed loosely: tests reach into its data)."""
    return dicegames.make("monza", players=players, circuit=path, **options)


def sq(game: Any, name: str) -> int:
    """A square's id by name (``start`` for the start zone)."""
    return START if name == "start" else int(game.circuit.by_name[name])


def at(game: Any, cars: Sequence[str], player: int = 0, **fields: Any) -> AnyState:
    """A position before ``player``'s roll, the cars on the named squares."""
    data = MonzaData(cars=tuple(sq(game, c) for c in cars), player=player,
                     round_used=(0,) * len(cars), **fields)
    state: AnyState = game.state_from(data)
    return state


def where(game: Any, state: AnyState) -> list[str]:
    """The cars' squares by name."""
    return [game.circuit.square_name(c) for c in state.data.cars]


def legal(state: AnyState, seat: int | None = None) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def play(state: AnyState, moves: Sequence[str]) -> AnyState:
    for move in moves:
        state = state.apply(move)
    return state


# ----------------------------------------------------------------------- the dice


def test_the_roll_is_the_462_multisets_of_six_colour_dice_with_exact_chances() -> None:
    game: Any = dicegames.make("monza")
    outcomes = game.new_state().chance_outcomes()
    assert outcomes is ROLLS and len(outcomes) == 462
    assert sum(p for _, p in outcomes) == 1
    assert len({roll for roll, _ in outcomes}) == 462
    chances = {str(roll): p for roll, p in outcomes}
    assert chances["rrrrrr"] == Fraction(1, 6 ** 6)
    assert chances["rygbwp"] == Fraction(720, 6 ** 6)
    assert chances["rryyyg"] == Fraction(60, 6 ** 6)  # 6! / (2! 3! 1!)


def test_a_roll_is_typed_as_letters_or_words_in_any_order() -> None:
    game: Any = dicegames.make("monza")
    state = game.new_state()
    expected = Roll((2, 3, 1, 0, 0, 0))
    for text in ("rryyyg", "GYRYRY", "red, red, yellow, yellow, yellow, green",
                 "y g r y r y"):
        assert game.parse(state, text) == expected
    for bad in ("rryyy", "rryyyx", "red red", "7"):
        with pytest.raises(IllegalAction, match="not a roll"):
            game.parse(state, bad)


# ----------------------------------------------------------------------- the seed's example


def test_seed_example_jan_uses_red_yellow_red_green_and_nina_may_step(circuit_path: str) -> None:
    """Jan (red car, seat 0) rolls red, red, yellow, yellow, yellow, green; the only way
    to use the most dice is red, yellow, red, green; the two other yellows cannot be used.
    The last colour is green, so Nina (green car, seat 2) may move her car one square."""
    game = make(circuit_path, players=3, variant_last_colour=True)
    state = at(game, ["a1", "start", "start"]).apply("rryyyg")
    path = []
    while state.data.phase is Phase.STEP and state.current_players == (0,):
        [step] = state.legal_actions()  # one legal step at a time: the path is forced
        path.append(str(step))
        state = state.apply(step)
    assert path == ["red a2", "yellow a3", "red a4", "green a5"]
    assert str(Roll(state.data.dice)) == "yy"  # the two remaining yellows
    assert where(game, state)[0] == "a5"
    assert state.current_players == (2,)  # Nina decides
    assert legal(state) == ["advance a1", "advance c1", "stay"]
    state = state.apply("advance c1", seat=2)
    assert where(game, state) == ["a5", "start", "c1"]
    assert state.is_chance and state.turn.seat == 1


def test_without_the_variant_the_turn_passes_at_once(circuit_path: str) -> None:
    game = make(circuit_path, players=3)
    state = play(at(game, ["a1", "start", "start"]).apply("rryyyg"),
                 ["red a2", "yellow a3", "red a4", "green a5"])
    assert state.is_chance and state.turn.seat == 1 and where(game, state)[0] == "a5"


# ----------------------------------------------------------------------- start zone, tyres


def test_from_the_start_zone_only_the_entries_can_be_entered(circuit_path: str) -> None:
    game = make(circuit_path)
    state = game.new_state()
    assert legal(state.apply("rrgggp")) == ["pass"]  # no white, no blue: no move
    assert legal(state.apply("rrbggp")) == ["blue c1"]
    assert legal(state.apply("wrrrrr")) == ["white a1"]
    greedy = make(circuit_path, compulsion="greedy")
    assert legal(greedy.new_state().apply("wbpppp")) == ["white a1", "blue c1"]


def test_a_pass_moves_nothing_and_hands_over(circuit_path: str) -> None:
    game = make(circuit_path)
    state = game.new_state().apply("rrgggp")
    assert state.legal_actions() == (PASS,)
    state = state.apply("pass")
    assert state.is_chance and state.turn.seat == 1 and state.turn.number == 2
    assert where(game, state) == ["start", "start"]


def test_tyres_are_never_entered(circuit_path: str) -> None:
    game = make(circuit_path, compulsion="greedy")
    circuit = game.circuit
    assert sq(game, "b3") not in circuit.successors[sq(game, "b2")]  # next in lane: a tyre
    state = at(game, ["b2", "start"]).apply("rygbwp")  # every colour, still no b3
    assert legal(state) == ["yellow a3", "white c2"]


# ----------------------------------------------------------------------- compulsion


def test_longest_allows_only_steps_that_keep_a_longest_sequence(circuit_path: str) -> None:
    """From a1 with red, yellow and four purples, four dice is the most: purple b1 then
    either purple b2, yellow a3, red a4 or red a2, purple b2, yellow a3. Starting with red
    a2 allows at most three, so it is not legal; after b1 the choice is free."""
    game = make(circuit_path)
    state = at(game, ["a1", "start"]).apply("rypppp")
    path = []
    while not state.is_chance:
        path.append(legal(state))
        state = state.apply(state.legal_actions()[0])
    assert path == [["purple b1"], ["purple b2", "red a2"], ["yellow a3"], ["red a4"]]
    assert where(game, state)[0] == "a4" and state.data.round_used[0] == 4


def test_greedy_allows_any_matching_step_but_forbids_stopping(circuit_path: str) -> None:
    greedy = make(circuit_path, compulsion="greedy")
    state = at(greedy, ["a1", "start"]).apply("rypppp")
    assert legal(state) == ["red a2", "purple b1"]
    state = state.apply("red a2")
    assert legal(state) == ["yellow a3", "purple b2"]  # no "stop": the car must go on
    state = state.apply("yellow a3")  # four purples left, but no purple square ahead
    assert state.is_chance and where(greedy, state)[0] == "a3"
    assert state.data.round_used[0] == 2


def test_a_step_may_be_typed_as_the_square_or_with_a_colour_letter(circuit_path: str) -> None:
    game = make(circuit_path, compulsion="greedy")
    state = at(game, ["a1", "start"]).apply("rypppp")
    assert game.parse(state, "b1") == game.parse(state, "p b1") == game.parse(state,
                                                                              "purple b1")
    with pytest.raises(IllegalAction):
        state.apply("c3")


# ----------------------------------------------------------------------- pushing


def test_passing_is_free_and_only_the_end_of_a_move_pushes(circuit_path: str) -> None:
    game = make(circuit_path, players=3)
    state = at(game, ["a1", "a2", "a4"]).apply("rryyyg")
    state = play(state, ["red a2", "yellow a3", "red a4"])  # over a2 without pushing
    assert where(game, state) == ["a4", "a2", "a4"]  # a4 shared mid-move
    state = state.apply("green a5")
    assert where(game, state) == ["a5", "a2", "a4"]


def test_ending_on_a_car_pushes_it_to_the_nearest_free_square_behind(circuit_path: str) -> None:
    game = make(circuit_path, players=4)
    # Red ends on a3: yellow goes back to a2, which red has just left.
    state = at(game, ["a2", "a3", "start", "start"]).apply("ywwwww").apply("yellow a3")
    assert where(game, state) == ["a3", "a2", "start", "start"]
    # Red passes green on a2 and ends on a3: yellow goes back over a2 to a1.
    state = play(at(game, ["b1", "a3", "a2", "start"]).apply("ryyyyy"),
                 ["red a2", "yellow a3"])
    assert where(game, state) == ["a3", "a1", "a2", "start"]
    # Nothing free behind a3: yellow goes back to the start zone.
    state = play(at(game, ["b1", "a3", "a2", "a1"]).apply("ryyyyy"),
                 ["red a2", "yellow a3"])
    assert where(game, state) == ["a3", "start", "a2", "a1"]


def test_push_back_skips_tyres_and_occupied_squares(circuit_path: str) -> None:
    game = make(circuit_path, players=4)
    cars = tuple(sq(game, n) for n in ("b4", "b4", "b2", "start"))
    assert [game.circuit.square_name(c) for c in game.push_back(cars, 0)] == [
        "b4", "b1", "b2", "start"]  # b3 is a tyre, b2 is taken: b1
    cars = tuple(sq(game, n) for n in ("b4", "b4", "b2", "b1"))
    assert [game.circuit.square_name(c) for c in game.push_back(cars, 0)] == [
        "b4", "start", "b2", "b1"]  # nothing free behind: the start zone
    cars = tuple(sq(game, n) for n in ("start", "start", "b2", "b1"))
    assert game.push_back(cars, 0) == cars  # cars in the start zone are never pushed


# ----------------------------------------------------------------------- the end


def test_reaching_a_target_completes_the_round_then_the_lone_car_wins(circuit_path: str) -> None:
    game = make(circuit_path)
    state = play(at(game, ["a6", "a3"]).apply("pppppp"), ["purple a7"])
    assert state.data.finishing and state.is_chance and state.turn.seat == 1
    state = play(state, ["rrrrrr", "red a4"])
    assert state.is_terminal
    assert state.result.winners == (0,)
    assert state.result.summary == "the red car on a7, 1 die in the last round"


def test_several_cars_on_targets_fewest_dice_in_the_last_round_wins(circuit_path: str) -> None:
    """Under longest, red on a6 with red and purple must go b6 then a7 (two dice); yellow on
    c5 steps onto the target c6 with one green die and wins the tie-break."""
    game = make(circuit_path)
    state = at(game, ["a6", "c5"]).apply("rpyyyy")
    assert legal(state) == ["red b6"]  # purple a7 at once would use fewer dice than possible
    state = play(state, ["red b6", "purple a7"])
    state = play(state, ["gyyyyy", "green c6"])
    assert state.is_terminal and state.result.winners == (1,)
    assert state.data.round_used == (2, 1)


def test_equal_dice_share_the_win(circuit_path: str) -> None:
    game = make(circuit_path)
    state = play(at(game, ["a6", "c5"]).apply("pyyyyy"), ["purple a7"])
    state = play(state, ["gyyyyy", "green c6"])
    assert state.is_terminal and state.result.winners == (0, 1)
    assert state.result.summary == (
        "the red and yellow cars on a7 and c6, 1 die each in the last round")


def test_the_last_seat_reaching_a_target_ends_the_game_at_once(circuit_path: str) -> None:
    game = make(circuit_path)
    state = play(at(game, ["a3", "c5"], player=1).apply("gggggg"), ["green c6"])
    assert state.is_terminal and state.result.winners == (1,)


def test_variant_step_onto_a_target_and_the_finished_car_waits(circuit_path: str) -> None:
    game = make(circuit_path, players=3, variant_last_colour=True)
    state = at(game, ["a2", "a6", "start"]).apply("ywwwww")  # red steps a3 with yellow
    state = state.apply("yellow a3")
    assert state.current_players == (1,)  # the yellow car's owner decides
    assert legal(state) == ["advance a7", "advance b6", "stay"]
    state = state.apply("advance a7", seat=1)
    assert game.free_next(state.data.cars, 1) == ()  # a car on a target moves no more
    assert state.data.finishing and state.turn.seat == 1
    assert state.legal_actions() == (PASS,) and not state.is_chance  # no roll, no move
    state = state.apply("pass")
    state = play(state, ["rrrrrr", "pass"])  # green (seat 2) cannot move either
    assert state.is_terminal and state.result.winners == (1,)


SMALL_CIRCUIT = {
    "name": "three-square circuit",
    "lanes": [
        {"name": "a", "squares": [[0, 3, "white"], [3, 6, "red"], [6, 9, "yellow"]]},
        {"name": "b", "squares": [[1, 4, "green"], [4, 8, "green"]]},
        {"name": "c", "squares": [[2, 5, "blue"], [5, 9, "white"]]},
    ],
    "entries": ["a1", "c1"],
    "targets": ["a3", "c2"],
}
"""The issue's reproduction circuit: lane a is white, red, yellow, and a3 is a target."""


def test_a_car_on_a_target_is_never_pushed_and_the_target_holds_both(
        tmp_path: Any) -> None:
    """Both cars drive white a1, red a2, yellow a3 on the same roll: the second ends on the
    occupied target a3 and pushes nobody (it used to push red back to a2, and yellow won)."""
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CIRCUIT), encoding="utf-8")
    game = make(str(path))
    moves = ["rywppp", "white a1", "red a2", "yellow a3"]
    state = play(game.new_state(), moves)
    assert where(game, state) == ["a3", "start"] and state.data.finishing
    before = state.apply("rywppp").apply("white a1").apply("red a2")
    assert presenter_of(game).describe(before, before.legal_actions()[0], 1, ["Ann", "Ben"]) == (
        "Ben steps to square 3 of lane a with a yellow die; the car is on a target")  # no push
    state = play(state, moves)
    assert where(game, state) == ["a3", "a3"]
    assert state.is_terminal and state.result.winners == (0, 1)
    assert state.data.round_used == (3, 3)
    # The position notation accepts two cars on one target (and only there).
    assert game.from_position(game.position(state)) == state


def test_push_back_never_moves_a_car_off_a_target(circuit_path: str) -> None:
    game = make(circuit_path, players=3)
    cars = tuple(sq(game, n) for n in ("a7", "a7", "c6"))
    assert game.push_back(cars, 0) == cars
    assert game.push_back(cars, 1) == cars


# ----------------------------------------------------------------------- the variant


def test_variant_own_colour_and_absent_colour(circuit_path: str) -> None:
    game = make(circuit_path, variant_last_colour=True)
    state = at(game, ["a1", "start"]).apply("rrrrrr").apply("red a2")
    assert state.current_players == (0,) and legal(state) == ["advance a3", "advance b2",
                                                              "stay"]
    state = state.apply("stay")
    assert state.is_chance and where(game, state)[0] == "a2"
    # Two players: no green car is in play, so a green last die gives no step.
    state = at(game, ["a4", "start"]).apply("gggggg").apply("green a5")
    assert state.is_chance and state.turn.seat == 1


def test_variant_step_only_to_a_free_square(circuit_path: str) -> None:
    game = make(circuit_path, players=2, variant_last_colour=True)
    state = at(game, ["a1", "a3"]).apply("rrrrrr")
    assert legal(state) == ["red a2"]
    state = state.apply("red a2")  # last die red: red's own car; a3 is taken
    assert legal(state) == ["advance b2", "stay"]


# ----------------------------------------------------------------------- notation and text


def test_notation_of_steps_rolls_and_the_rendering(circuit_path: str) -> None:
    game = make(circuit_path, players=3)
    state = at(game, ["a1", "a3", "start"]).apply("rryyyg")
    step = state.legal_actions()[0]
    assert isinstance(step, Step) and str(step) == "red a2"
    assert str(Advance(3, "a4")) == "advance a4"
    picture = Text.from_markup(presenter_of(game).render(state, ["Jan", "You [x]", "Nina"])).plain
    for needle in ("|W1", "|R2", "|Y3", "|###", "|P7*", "|G6*", "@1", "@2",
                   "Jan (red car) on a1", "You [x] (yellow car) on a3",
                   "Nina (green car) in the start zone", "Roll: rryyyg"):
        assert needle in picture, needle
    sentence = presenter_of(game).describe(state, step, 0, ["Jan", "Ann", "Nina"])
    assert sentence == "Jan steps to square 2 of lane a with a red die"


def test_describe_names_a_push(circuit_path: str) -> None:
    game = make(circuit_path)
    state = at(game, ["a2", "a3"]).apply("ywwwww")
    assert presenter_of(game).describe(state, state.legal_actions()[0], 0, ["You", "Ann"]) == (
        "You step to square 3 of lane a with a yellow die; Ann's car is pushed back to "
        "square 2 of lane a")


# ----------------------------------------------------------------------- bots


def test_medium_prefers_the_end_that_pushes(circuit_path: str) -> None:
    """From a2 with yellow, purple and whites (greedy), the move can end on a3 or on c2,
    both four steps from a target and as far along; yellow's car stands on c2."""
    game = make(circuit_path, compulsion="greedy")
    state = at(game, ["a2", "c2"]).apply("ypwwww")
    assert legal(state) == ["yellow a3", "purple b2"]
    assert str(medium_policy(state, 0, random.Random(1))) == "purple b2"
    state = state.apply("purple b2")
    assert str(medium_policy(state, 0, random.Random(1))) == "white c2"
    state = state.apply("white c2")
    assert where(game, state) == ["c2", "c1"]


@pytest.mark.parametrize("options", [{}, {"compulsion": "greedy"},
                                     {"variant_last_colour": True}])
def test_every_bot_level_plays_whole_games(options: dict[str, object]) -> None:
    game: Any = dicegames.make("monza", players=3, **options)
    rng = random.Random(4)
    bots = [make_bot(game, level, random.Random(i))
            for i, level in enumerate(("easy", "medium", "hard"))]
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(sample(state.chance_outcomes(), rng))
        else:
            seat = state.current_players[0]
            state = state.apply(bots[seat].choose(state, seat), seat)
    assert state.result.winners
    assert [lvl.name for lvl in own_levels(game) if lvl.listed] == ["easy", "medium", "hard"]


# ----------------------------------------------------------------------- properties


def on_square(car: int) -> bool:
    return car != START


@st.composite
def games(draw: st.DrawFn) -> tuple[Any, int]:
    players = draw(st.integers(2, 6))
    compulsion = draw(st.sampled_from(["longest", "greedy"]))
    variant = draw(st.booleans())
    seed = draw(st.integers(0, 2 ** 32 - 1))
    return dicegames.make("monza", players=players, compulsion=compulsion,
                          variant_last_colour=variant), seed


@given(games())
def test_cars_move_forward_never_share_a_square_and_never_stand_on_tyres(
        case: tuple[Any, int]) -> None:
    game, seed = case
    circuit = game.circuit
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            move: Any = sample(state.chance_outcomes(), rng)
            after = state.apply(move)
            assert after.data.cars == state.data.cars
        else:
            seat = state.current_players[0]
            move = rng.choice(state.legal_actions(seat))
            after = state.apply(move, seat)
            before_cars, after_cars = state.data.cars, after.data.cars
            movers = {seat}
            for s, (old, new) in enumerate(zip(before_cars, after_cars, strict=True)):
                if old == new:
                    continue
                if s in movers and isinstance(move, Step | Advance):
                    assert new == move.square
                    assert circuit.progress(new) > circuit.progress(old)  # only forward
                    continue
                # Pushed back: it stood where the move ended, and goes back in its lane.
                assert old == move.square and isinstance(move, Step)
                assert old not in circuit.targets  # a car on a target is never pushed
                assert new == START or (
                    circuit.squares[new].lane == circuit.squares[old].lane
                    and circuit.squares[new].index < circuit.squares[old].index)
        cars = after.data.cars
        assert not any(on_square(c) and circuit.squares[c].is_tyre for c in cars)
        shared = [c for c in cars if on_square(c) and c not in circuit.targets
                  and cars.count(c) > 1]
        if after.data.phase is Phase.STEP and not after.is_terminal:
            assert set(shared) <= {cars[after.data.player]}  # the mover, mid-move
        else:
            assert not shared
        state = after
