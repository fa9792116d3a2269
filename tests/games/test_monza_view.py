"""Monza's web view and action hints on the default circuit: the squares and cars where they
are, the dice with their used flags, the dice picker whose joined entry is a roll the game
parses, and the hints' labels and board targets (steps, the variant's advance and stay)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

import dicegames
from dicegames import State
from dicegames.core.chance import sample
from dicegames.core.registry import presenter_of
from dicegames.games.monza import MonzaData, Phase, Roll
from dicegames.games.monza.data import COLOURS, START
from dicegames.games.monza.view import SEAT_COLOURS
from dicegames.i18n import use

AnyState = State[Any, Any, Any]


def make(players: int = 2, **options: object) -> Any:
    """A monza game on the default circuit (typed loosely: tests reach into its data)."""
    return dicegames.make("monza", players=players, **options)


def sq(game: Any, name: str) -> int:
    return START if name == "start" else int(game.circuit.by_name[name])


def position(game: Any, cars: Sequence[str], **fields: Any) -> AnyState:
    """A position with the cars on the named squares (other fields as given)."""
    data = MonzaData(cars=tuple(sq(game, c) for c in cars),
                     round_used=(0,) * len(cars), **fields)
    state: AnyState = game.state_from(data)
    return state


def plain(value: object) -> object:
    return json.loads(json.dumps(value))


def squares(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for lane in view["board"]["lanes"] for s in lane["squares"]}


def test_the_start_shows_every_square_the_cars_in_the_start_zone_and_a_dice_picker() -> None:
    game = make(players=3)
    state = game.new_state()
    view = presenter_of(game).view(state)
    assert plain(view) == view
    board = view["board"]
    assert [lane["name"] for lane in board["lanes"]] == ["i", "m", "o"]
    assert [len(lane["squares"]) for lane in board["lanes"]] == [22, 23, 22]
    assert (board["first"], board["length"]) == (0, 93)
    by_id = squares(view)
    assert by_id["i1"] == {"id": "i1", "lane": 0, "start": 0, "end": 5, "colour": "white",
                           "letter": "W", "shape": "star", "target": False, "entry": True}
    assert by_id["m12"]["colour"] == "tyre"
    assert by_id["m12"]["letter"] == by_id["m12"]["shape"] == ""
    assert by_id["m2"]["letter"] == "R"
    assert {s for s, d in by_id.items() if d["target"]} == {"i22", "o22"}
    assert {s for s, d in by_id.items() if d["entry"]} == {"i1", "o1"}
    assert [(c["id"], c["at"], c["colour"], c["letter"]) for c in board["cars"]] == [
        ("car-0", "start", "red", "R"), ("car-1", "start", "yellow", "Y"),
        ("car-2", "start", "green", "G")]
    assert board["phase"] == "roll" and board["player"] == 0 and board["decider"] is None
    assert view["dice"] == []
    assert view["seat_colours"] == [SEAT_COLOURS["red"], SEAT_COLOURS["yellow"],
                                    SEAT_COLOURS["green"]]


def test_the_dice_entry_joins_into_a_roll_the_game_parses() -> None:
    game = make()
    state = game.new_state()
    entry = presenter_of(game).view(state)["dice_entry"]
    assert entry["count"] == 6
    assert [(f["value"], f["label"]) for f in entry["faces"]] == [
        ("r", "Red"), ("y", "Yellow"), ("g", "Green"), ("b", "Blue"), ("w", "White"),
        ("p", "Purple")]
    picked = ["g", "r", "y", "r", "y", "y"]  # six dice picked in any order
    roll = game.parse(state, entry["join"].join(picked))
    assert roll == Roll((2, 3, 1, 0, 0, 0)) and str(roll) == "rryyyg"
    after = state.apply(entry["join"].join(["w", "b", "b", "p", "p", "g"]))
    assert after.data.roll == (0, 0, 1, 2, 1, 2)
    assert presenter_of(game).view(after)["dice_entry"] is None


def test_dice_show_the_roll_with_the_spent_ones_marked_used() -> None:
    game = make()
    state = position(game, ["i1", "start"], phase=Phase.STEP, roll=(2, 1, 0, 0, 0, 3),
                     dice=(1, 1, 0, 0, 0, 1), used=3, last=5)
    dice = presenter_of(game).view(state)["dice"]
    red, yellow, purple = "#e53935", "#fbc02d", "#8e24aa"
    r, y, p = ({"mark": "R", "shape": "circle"}, {"mark": "Y", "shape": "triangle"},
               {"mark": "P", "shape": "cross"})
    assert dice == [
        {"value": "red", "label": "Red", "colour": red, **r, "used": True},
        {"value": "red", "label": "Red", "colour": red, **r},
        {"value": "yellow", "label": "Yellow", "colour": yellow, **y},
        {"value": "purple", "label": "Purple", "colour": purple, **p, "used": True},
        {"value": "purple", "label": "Purple", "colour": purple, **p, "used": True},
        {"value": "purple", "label": "Purple", "colour": purple, **p}]
    board = presenter_of(game).view(state)["board"]
    assert (board["phase"], board["decider"], board["last"], board["used"]) == (
        "step", 0, "purple", 3)


def test_step_hints_target_the_square_stepped_to_and_follow_the_compulsion() -> None:
    # From i1 with a red and a yellow die: i2 (yellow) uses one die, m2 (red) then i2 two.
    data = {"phase": Phase.STEP, "roll": (1, 1, 0, 0, 0, 0), "dice": (1, 1, 0, 0, 0, 0)}
    longest = make()
    state = position(longest, ["i1", "start"], **data)
    assert presenter_of(longest).action_hints(state, 0) == [
        {"move": "red m2", "label": "Red die: drive to m2", "targets": ["m2"]}]
    greedy = make(compulsion="greedy")
    state = position(greedy, ["i1", "start"], **data)
    hints = presenter_of(greedy).action_hints(state, 0)
    assert [h["move"] for h in hints] == [str(a) for a in state.legal_actions(0)]
    assert {h["move"]: h["targets"] for h in hints} == {"yellow i2": ["i2"], "red m2": ["m2"]}
    ids = set(squares(presenter_of(greedy).view(state)))
    assert all(set(h["targets"]) <= ids for h in hints)
    assert plain(hints) == hints


def test_a_step_onto_a_target_says_so_and_a_car_on_a_target_is_marked() -> None:
    game = make()
    # o21 is yellow, o22 green (a target): one green die.
    state = position(game, ["o21", "i22"], phase=Phase.STEP, roll=(0, 0, 1, 0, 0, 0),
                     dice=(0, 0, 1, 0, 0, 0))
    assert presenter_of(game).action_hints(state, 0) == [
        {"move": "green o22", "label": "Green die: drive to o22 — the finish!",
         "targets": ["o22"]}]
    cars = presenter_of(game).view(state)["board"]["cars"]
    assert cars[0]["at"] == "o21" and not cars[0]["target"] and cars[0]["to_go"] == 1
    assert cars[1]["at"] == "i22" and cars[1]["target"] and cars[1]["to_go"] == 0


def test_the_variant_step_is_clicked_on_its_square_and_stay_on_the_car() -> None:
    game = make(players=3, variant_last_colour=True)
    # Red (seat 0) moved with a yellow die last: yellow's owner (seat 1) may advance.
    state = position(game, ["m3", "i1", "start"], phase=Phase.VARIANT, roll=(1, 1, 0, 0, 0, 0),
                     dice=(0, 0, 0, 0, 0, 0), used=2, last=1)
    assert state.current_players == (1,)
    view = presenter_of(game).view(state)
    assert view["board"]["decider"] == 1 and view["board"]["player"] == 0
    assert view["board"]["phase"] == "variant" and view["board"]["last"] == "yellow"
    hints = presenter_of(game).action_hints(state, 1)
    assert [h["move"] for h in hints] == [str(a) for a in state.legal_actions(1)]
    assert hints[-1] == {"move": "stay", "label": "Keep your car where it is",
                         "targets": ["car-1"]}
    advances = {h["move"]: (h["label"], h["targets"]) for h in hints[:-1]}
    assert advances == {"advance i2": ("Free step: move your car to i2", ["i2"]),
                        "advance m2": ("Free step: move your car to m2", ["m2"])}
    cars = {c["id"] for c in view["board"]["cars"]}
    assert "car-1" in cars


def test_a_stuck_turn_passes_from_the_car() -> None:
    game = make()
    state = position(game, ["start", "start"], phase=Phase.STUCK, roll=(6, 0, 0, 0, 0, 0),
                     dice=(6, 0, 0, 0, 0, 0))
    assert presenter_of(game).action_hints(state, 0) == [
        {"move": "pass", "label": "No die fits: pass", "targets": ["car-0"]}]
    assert len(presenter_of(game).view(state)["dice"]) == 6


def test_the_end_names_the_winners() -> None:
    game = make()
    state = position(game, ["i22", "m20"], phase=Phase.OVER, finishing=True, winners=(0,))
    board = presenter_of(game).view(state)["board"]
    assert board["phase"] == "over" and board["winners"] == [0] and board["decider"] is None
    assert presenter_of(game).view(state)["dice_entry"] is None


@pytest.mark.parametrize("seed", [1, 2])
def test_views_and_hints_stay_plain_json_through_a_whole_game(seed: int) -> None:
    game = make(players=3, variant_last_colour=True)
    rng = random.Random(seed)
    state: AnyState = game.new_state()
    while not state.is_terminal:
        view = presenter_of(game).view(state)
        assert plain(view) == view
        ids = set(squares(view)) | {c["id"] for c in view["board"]["cars"]}
        if state.is_chance:
            state = state.apply(sample(state.chance_outcomes(), rng))
            continue
        seat = state.current_players[0]
        hints = presenter_of(game).action_hints(state, seat)
        assert [h["move"] for h in hints] == [str(a) for a in state.legal_actions(seat)]
        assert all(h["targets"] and set(h["targets"]) <= ids for h in hints)
        state = state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert presenter_of(game).view(state)["board"]["winners"]


@pytest.mark.parametrize("lang", ["en", "fr", "de", "it"])
def test_dice_squares_and_the_dice_entry_carry_the_same_marks_in_every_language(
        lang: str) -> None:
    # The squares' letters are the notation's (R Y G B W P); a die once showed its translated
    # colour's initial instead (French white "B", which is blue on the board).
    game = make()
    state = position(game, ["start", "start"], phase=Phase.STEP, roll=(1, 1, 1, 1, 1, 1),
                     dice=(1, 1, 1, 1, 1, 1), used=0, last=-1)
    with use(lang):
        view = presenter_of(game).view(state)
        entry = presenter_of(game).view(game.new_state())["dice_entry"]
    marks = {s["colour"]: (s["letter"], s["shape"]) for s in squares(view).values()
             if s["colour"] != "tyre"}
    assert {d["value"]: (d["mark"], d["shape"]) for d in view["dice"]} == marks
    faces = entry["faces"]
    assert {COLOURS[i].value: (f["mark"], f["shape"]) for i, f in enumerate(faces)} == marks
    assert len({letter for letter, _ in marks.values()}) == 6
    assert len({shape for _, shape in marks.values()}) == 6
