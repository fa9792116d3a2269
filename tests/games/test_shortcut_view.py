"""Shortcut's web view and action hints on constructed positions of the default board.

The default board: the start a13, road 1..12 down column a (road 4 is a9, next to the grey
field b5..d9), 13..15 along the bottom, 16..27 up column e, the finish e13.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import dicegames
from dicegames import State
from dicegames.core.registry import presenter_of
from dicegames.games.shortcut import ShortcutData
from dicegames.games.shortcut.data import Phase


def make(players: int = 2, **options: object) -> Any:
    """A shortcut game (typed loosely: tests reach into its board)."""
    return dicegames.make("shortcut", players=players, **options)


def at(game: Any, cars: Sequence[str], player: int = 0, *, phase: Phase = Phase.DECLARE,
       rolls: Sequence[int] = (), winner: int = -1) -> State[ShortcutData, Any, int]:
    """A position with the cars on the named cells."""
    data = ShortcutData(tuple(game.board.cell(name) for name in cars), player, 5, phase,
                        tuple(rolls), winner)
    state: State[ShortcutData, Any, int] = game.state_from(data)
    return state


def plain(value: Any) -> Any:
    """The value after a JSON round trip (it must not change)."""
    return json.loads(json.dumps(value))


def by_move(hints: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Hints keyed by their move."""
    return {hint["move"]: hint for hint in hints}


def test_the_grid_cars_and_turn_are_in_the_view() -> None:
    game = make(3)
    state = at(game, ["a13", "c7", "e10"], player=1)
    view = presenter_of(game).view(state)
    assert plain(view) == view
    board = view["board"]
    cells = {cell["name"]: cell for cell in board["cells"]}
    assert (board["width"], board["height"], board["road_length"]) == (5, 13, 27)
    assert len(cells) == 27 + 15 + 2
    assert cells["a13"] == {"id": "cell-a13", "name": "a13", "kind": "start", "col": 0, "row": 0,
                            "road": None, "text": "Start", "where": "the start"}
    assert cells["e13"]["kind"] == "finish"
    assert cells["a9"]["road"] == 4 and cells["a9"]["text"] == "4"
    assert cells["c7"]["kind"] == "grey" and cells["c7"]["road"] is None
    assert (cells["c7"]["col"], cells["c7"]["row"]) == (2, 6)
    cars = board["cars"]
    assert [(car["letter"], car["cell"]) for car in cars] == [
        ("A", "cell-a13"), ("B", "cell-c7"), ("C", "cell-e10")]
    assert [car["to_go"] for car in cars] == [28, None, 3]
    assert board["turn"] == {"seat": 1, "number": 5, "phase": "declare", "rolls": [], "total": 0}
    assert board["winner"] is None and board["destinations"] == []
    assert view["seat_colours"] == ["#d33", "#2a6fd6", "#e0a800"]
    assert view["dice"] == [] and view["dice_entry"] is None


def test_declarations_are_signs_where_they_lead() -> None:
    game = make()
    state = at(game, ["a10", "a13"])  # road 3: the grey field is one road step away
    hints = by_move(presenter_of(game).action_hints(state, 0))
    assert plain(list(hints.values())) == list(hints.values())
    assert list(hints) == ["road", "shortcut", "push"]
    assert hints["road"]["targets"] == ["sign-road"]
    assert hints["push"]["label"] == "Push one square to road square 4"
    signs = {sign["move"]: sign for sign in presenter_of(game).view(state)["board"]["signs"]}
    assert [hint["targets"] for hint in hints.values()] == [[signs[m]["id"]] for m in hints]
    # Road: on the next road square, previewing where each die value lands.
    assert signs["road"]["cell"] == "cell-a9"
    assert signs["road"]["preview"] == [{"cell": f"cell-a{9 - k}", "text": str(k + 1)}
                                        for k in range(6)]
    # Shortcut: on the entrance of the grey field, previewing what 1-3 steps reach.
    assert signs["shortcut"]["cell"] == "cell-b9"
    reach = {spot["cell"]: spot["text"] for spot in signs["shortcut"]["preview"]}
    assert reach["cell-a9"] == "1" and reach["cell-b9"] == "2" and reach["cell-c9"] == "3"
    assert "cell-c8" not in reach
    # Push: on the one square it moves to.
    assert signs["push"]["cell"] == "cell-a9"
    assert signs["push"]["preview"] == [{"cell": "cell-a9", "text": "1"}]


def test_on_grey_there_is_no_road_and_push_offers_its_squares() -> None:
    game = make()
    state = at(game, ["c7", "c6"])  # seat 1's car blocks c6
    hints = by_move(presenter_of(game).action_hints(state, 0))
    assert list(hints) == ["shortcut", "push"]
    assert hints["push"]["label"] == "Push one square"
    signs = {sign["move"]: sign for sign in presenter_of(game).view(state)["board"]["signs"]}
    assert signs["push"]["cell"] == "cell-c7"  # several squares: chosen next
    assert {spot["cell"] for spot in signs["push"]["preview"]} == {
        "cell-b7", "cell-c8", "cell-d7"}
    pushed = state.apply("push")
    assert pushed.data.phase is Phase.PUSH_TO
    push_hints = presenter_of(game).action_hints(pushed, 0)
    assert [(h["move"], h["targets"]) for h in push_hints] == [
        (name, [f"cell-{name}"]) for name in ("c8", "b7", "d7")]
    assert push_hints[0]["label"] == "Push to the grey square 2 steps from road square 5"
    destinations = presenter_of(game).view(pushed)["board"]["destinations"]
    assert destinations == ["cell-c8", "cell-b7", "cell-d7"]


def test_shortcut_choice_dice_destinations_and_press() -> None:
    game = make()
    state = at(game, ["a9", "a13"], phase=Phase.CHOOSE, rolls=(1, 1))
    view = presenter_of(game).view(state)
    assert view["dice"] == [{"value": 1, "label": "1"}, {"value": 1, "label": "1"}]
    assert view["dice_entry"] is None
    board = view["board"]
    assert board["turn"]["phase"] == "choose" and board["turn"]["total"] == 2
    hints = presenter_of(game).action_hints(state, 0)
    assert hints[0] == {"move": "press", "label": "Roll again (2 so far; 4-6 loses it)",
                        "targets": ["sign-press"]}
    assert board["signs"] == [{"id": "sign-press", "move": "press", "text": "Roll again",
                               "cell": None, "preview": []}]
    cells = {hint["move"]: hint for hint in hints[1:]}
    assert set(cells) == {"a9", "a8", "a7", "b9", "b8", "c9"}
    assert cells["a9"]["label"] == "Stay on road square 4"
    assert cells["b8"]["label"] == "Move to the grey square beside road square 5"
    assert cells["a7"]["targets"] == ["cell-a7"]
    assert sorted(board["destinations"]) == sorted(f"cell-{m}" for m in cells)
    finishing = at(game, ["e12", "a13"], phase=Phase.CHOOSE, rolls=(3,))
    labels = {h["move"]: h["label"] for h in presenter_of(game).action_hints(finishing, 0)}
    assert labels["e13"] == "Drive to the finish!"


def test_dice_entry_faces_join_into_a_roll_the_game_parses() -> None:
    game = make()
    state = at(game, ["a13", "a13"], phase=Phase.SHORTCUT_ROLL, rolls=(2,))
    view = presenter_of(game).view(state)
    entry = view["dice_entry"]
    assert entry["count"] == 1
    assert [face["value"] for face in entry["faces"]] == ["1", "2", "3", "4", "5", "6"]
    assert view["dice"] == [{"value": 2, "label": "2"}]
    assert state.is_chance
    for face in entry["faces"]:
        notation = entry["join"].join([face["value"]])
        assert game.parse(state, notation) == int(face["value"])
    after = state.apply(entry["join"].join(["3"]))
    assert after.data.phase is Phase.CHOOSE and after.data.rolls == (2, 3)


def test_the_end_names_the_winner_and_offers_nothing() -> None:
    game = make()
    state = at(game, ["e13", "e12"], phase=Phase.OVER, winner=0)
    view = presenter_of(game).view(state)
    assert view["board"]["winner"] == 0
    assert view["board"]["signs"] == [] and view["board"]["destinations"] == []
    assert view["board"]["cars"][0]["to_go"] == 0


def test_a_board_file_of_its_own_is_drawn_from_its_data(tmp_path: Path) -> None:
    path = tmp_path / "tiny.txt"
    path.write_text("S 1 2 3\n. g g 4\nF 7 6 5\n", encoding="utf-8")
    game = make(board=str(path))
    state = game.new_state()
    board = presenter_of(game).view(state)["board"]
    assert (board["width"], board["height"]) == (4, 3)
    kinds = {cell["name"]: cell["kind"] for cell in board["cells"]}
    assert kinds == {"a3": "start", "b3": "road", "c3": "road", "d3": "road", "b2": "grey",
                     "c2": "grey", "d2": "road", "a1": "finish", "b1": "road", "c1": "road",
                     "d1": "road"}
    signs = {sign["move"]: sign["cell"] for sign in board["signs"]}
    assert signs == {"road": "cell-b3", "shortcut": "cell-b2", "push": "cell-b3"}
    ids = {cell["id"] for cell in board["cells"]} | {sign["id"] for sign in board["signs"]}
    for hint in presenter_of(game).action_hints(state, 0):
        assert set(hint["targets"]) <= ids


def test_a_road_roll_is_shown_although_the_turn_ends_with_it() -> None:
    game = dicegames.make("shortcut", players=2)
    rolling = game.new_state().apply("road")
    assert presenter_of(game).view(rolling.apply("5"))["dice"] == []
    assert presenter_of(game).roll_dice(rolling, 5) == [{"value": 5, "label": "5"}]
