"""Petits Chevaux for the web: the board view and the action hints of constructed positions.

Horses are given by their progress along their own colour's path (0 in the corner stable,
1 on the start square, 56 on the stable entrance, 57..62 on stable squares 1..6).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import dicegames
from dicegames.core.registry import presenter_of
from dicegames.games.petits_chevaux import ChevauxData, Colour, Phase
from dicegames.games.petits_chevaux.board import STABLE, START, TRACK, TRACK_LENGTH
from dicegames.games.petits_chevaux.view import COLOURS

RED, BLUE, YELLOW = Colour.RED, Colour.BLUE, Colour.YELLOW


def on(colour: Colour, square: int) -> int:
    """The progress of a horse of ``colour`` standing on track square ``square``."""
    return (square - START[colour]) % TRACK_LENGTH + 1


def position(horses: Sequence[Sequence[int]], roll: int = 0, player: int = 0,
             phase: Phase = Phase.MOVE) -> Any:
    """A state where ``player`` has rolled ``roll`` (or, with ``phase``, some other moment)."""
    game = dicegames.make("petits-chevaux", players=len(horses))
    data = ChevauxData(tuple(tuple(row) for row in horses), player, 7, phase, roll,
                       1 if roll == 6 else 0)
    return game.state_from(data)


def view(state: Any) -> dict[str, Any]:
    found: dict[str, Any] = presenter_of(state.game).view(state)
    assert json.loads(json.dumps(found)) == found, "plain JSON"
    return found


def hints(state: Any) -> dict[str, dict[str, Any]]:
    found = presenter_of(state.game).action_hints(state, state.turn.seat)
    assert json.loads(json.dumps(found)) == found, "plain JSON"
    return {hint["move"]: hint for hint in found}


def horses_of(board: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {horse["id"]: horse for horse in board["horses"]}


def all_ids(value: object) -> set[str]:
    if isinstance(value, dict):
        own = {value["id"]} if isinstance(value.get("id"), str) else set()
        return own.union(*(all_ids(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(all_ids(item) for item in value))
    return set()


def test_the_board_has_every_square_stable_and_horse_with_an_id() -> None:
    state = position([[0, 0, 0, 0], [0, 0, 0, 0]], roll=6)
    board = view(state)["board"]
    assert [square["cell"] for square in board["track"]] == [list(cell) for cell in TRACK]
    assert [square["id"] for square in board["track"]] == [f"t{i}" for i in range(56)]
    starts = {square["start"]: square["id"] for square in board["track"] if "start" in square}
    assert starts == {"red": "t0", "blue": "t14", "yellow": "t28", "green": "t42"}
    entrances = {s["entrance"]: s["id"] for s in board["track"] if "entrance" in s}
    assert entrances == {"red": "t55", "blue": "t13", "yellow": "t27", "green": "t41"}
    stables = {stable["colour"]: stable for stable in board["stables"]}
    assert list(stables) == ["red", "blue", "yellow", "green"]
    assert [stables[c]["seat"] for c in stables] == [0, None, 1, None]
    assert [s["cell"] for s in stables["blue"]["column"]] == [list(c) for c in STABLE[BLUE]]
    assert [s["id"] for s in stables["red"]["column"]] == [f"s-r{n}" for n in range(1, 7)]
    assert [s["winning"] for s in stables["red"]["column"]] == [False] * 2 + [True] * 4
    assert stables["red"]["waiting"] == [1, 2, 3, 4] and stables["blue"]["waiting"] == []
    # Only the colours in play have horses; ids are unique across the whole board.
    assert sorted(horses_of(board)) == sorted(f"h-{c}{n}" for c in "ry" for n in range(1, 5))
    ids = [square["id"] for square in board["track"]]
    ids += [s["id"] for stable in board["stables"] for s in stable["column"]]
    ids += [stable["id"] for stable in board["stables"]] + list(horses_of(board))
    assert len(ids) == len(set(ids)) == 56 + 24 + 4 + 8
    assert board["centre"] == [7, 7] and board["size"] == 15


def test_horses_stand_on_their_squares_and_a_barrage_is_marked() -> None:
    red = [0, on(RED, 20), on(RED, 20), 59]  # R2 and R3 together; R4 on stable square 3
    yellow = [1, 0, 56, 0]  # Y1 on its start square, Y3 on its stable entrance
    board = view(position([red, yellow], roll=3))["board"]
    horses = horses_of(board)
    assert horses["h-r1"]["place"] == "home" and horses["h-r1"]["cell"] is None
    assert horses["h-r2"]["square"] == horses["h-r3"]["square"] == "t20"
    assert horses["h-r2"]["cell"] == list(TRACK[20])
    assert horses["h-r2"]["barrage"] == 3 and horses["h-r3"]["barrage"] == 2
    assert horses["h-r4"]["place"] == "stable" and horses["h-r4"]["square"] == "s-r3"
    assert horses["h-r4"]["barrage"] is None
    assert horses["h-y1"]["square"] == "t28" and horses["h-y3"]["square"] == "t27"
    assert horses["h-y1"]["label"] == "Y1" and horses["h-y1"]["css"] == COLOURS[YELLOW]
    stables = {stable["colour"]: stable for stable in board["stables"]}
    assert stables["red"]["waiting"] == [1] and stables["yellow"]["waiting"] == [2, 4]
    assert stables["red"]["home"] == 1
    assert (board["phase"], board["player"], board["colour"], board["roll"]) == (
        "move", 0, "red", 3)


def test_hints_name_the_horse_and_where_it_lands() -> None:
    red = [0, on(RED, 20), on(RED, 30), 55]
    yellow = [on(YELLOW, 26), on(YELLOW, 40), 0, 0]
    found = hints(position([red, yellow], roll=6))
    assert list(found) == ["out", "r2", "r3", "r4"]
    assert found["out"] == {"move": "out", "label": "Bring R1 out",
                            "targets": ["home-r", "h-r1", "t0"]}
    assert found["r2"] == {"move": "r2", "label": "Move R2 6 squares: send Y1 home",
                           "targets": ["h-r2", "t26"]}
    assert found["r3"]["label"] == "Move R3 6 squares" and found["r3"]["targets"] == [
        "h-r3", "t36"]
    assert found["r4"] == {"move": "r4", "label": "Move R4 into the stable, square 5",
                           "targets": ["h-r4", "s-r5"]}


def test_hints_for_a_barrage_the_stable_door_and_one_square() -> None:
    red = [on(RED, 10), on(RED, 11), on(RED, 54), 0]
    found = hints(position([red, [0, 0, 0, 0]], roll=1))
    assert found["r1"]["label"] == "Move R1 1 square: barrage with R2"
    assert found["r1"]["targets"] == ["h-r1", "t11"]
    assert found["r3"]["label"] == "Move R3 1 square to the stable entrance"
    assert found["r3"]["targets"] == ["h-r3", "t55"]


def test_a_pass_has_a_label_and_no_target() -> None:
    state = position([[0, 0, 0, 0], [0, 0, 0, 0]], roll=3)
    assert presenter_of(state.game).action_hints(state, 0) == [
        {"move": "pass", "label": "Pass (no move)", "targets": []}]


def test_the_die_shows_while_the_player_decides() -> None:
    shown = view(position([[1, 0, 0, 0], [0, 0, 0, 0]], roll=4))
    assert shown["dice"] == [{"value": 4, "label": "4"}]
    assert shown["dice_entry"] is None
    assert shown["seat_colours"] == [COLOURS[RED], COLOURS[YELLOW]]
    # After the move the die is spent and the next roll is due: nothing to show.
    state = position([[1, 0, 0, 0], [0, 0, 0, 0]], roll=4).apply("r1")
    assert view(state)["dice"] == []


def test_real_dice_are_entered_with_a_picker_whose_choice_the_game_parses() -> None:
    state = position([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], phase=Phase.ROLL, player=2)
    shown = view(state)
    entry = shown["dice_entry"]
    assert entry["count"] == 1
    assert [face["value"] for face in entry["faces"]] == ["1", "2", "3", "4", "5", "6"]
    for face in entry["faces"]:
        text = entry["join"].join([face["value"]])
        rolled = state.apply(text)
        assert rolled.data.roll == int(face["value"]) or rolled.data.player != 2
    assert shown["seat_colours"] == [COLOURS[RED], COLOURS[BLUE], COLOURS[YELLOW]]
    assert shown["board"]["colour"] == "yellow" and shown["board"]["player"] == 2
    # The draw for the first player is a colour: a plain list, not a die picker.
    game = state.game
    assert view(game.new_state())["dice_entry"] is None


def test_the_end_names_the_winner_and_no_one_to_play() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    state = game.state_from(ChevauxData(((59, 60, 61, 62), (1, 0, 0, 0)), 0, 40, Phase.OVER,
                                        winner=0))
    assert state.is_terminal
    board = view(state)["board"]
    assert board["winner"] == 0 and board["player"] is None and board["phase"] == "over"
    assert view(state)["dice"] == [] and view(state)["dice_entry"] is None
    assert all_ids(board) >= {"s-r3", "s-r6", "h-r4"}


def test_a_third_six_that_ends_the_turn_is_still_shown() -> None:
    game = dicegames.make("petits-chevaux", players=2, three_sixes_penalty=True)
    rolling = game.new_state().apply("red").apply("6").apply("out").apply("6").apply("out")
    # the penalty ends the turn at once
    assert presenter_of(game).view(rolling.apply("6"))["dice"] == []
    assert presenter_of(game).roll_dice(rolling, 6) == [{"value": 6, "label": "6"}]
    first = game.new_state()
    assert presenter_of(game).roll_dice(first, first.chance_outcomes()[0][0]) == []
