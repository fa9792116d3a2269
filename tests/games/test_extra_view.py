"""EXTRA!'s web view and action hints on constructed positions (games/extra/view.py).

What the SVG board draws and where a tap picks a decision: sheets, crosses and scores, the
shared roll, the dice entry, the status of each player on the shared roll, and the cells each
decision writes in.
"""

from __future__ import annotations

import json
from typing import Any

import dicegames
from dicegames import State
from dicegames.core.registry import presenter_of
from dicegames.games.extra import Decision, ExtraData, ExtraRules, Roll, Sheet
from dicegames.games.extra.data import BOXES, SUMS

ExtraState = State[ExtraData, Decision, Roll]


def make(players: int = 1, **options: Any) -> ExtraRules:
    """A configured EXTRA! game."""
    game = dicegames.make("extra", players=players, **options)
    assert isinstance(game, ExtraRules)
    return game


def at(game: ExtraRules, sheets: tuple[Sheet, ...], roll: str | None = None) -> ExtraState:
    """A state with these sheets, then (when given) the dice showing ``roll``."""
    state = game.state_from(ExtraData(sheets, (), (None,) * len(sheets), 0, 5))
    return state.apply(roll) if roll is not None else state


def rows(**crosses: int) -> tuple[int, ...]:
    """Crosses per row from keywords ``s2=..``, ``s11=..`` (the others 0)."""
    return tuple(crosses.get(f"s{total}", 0) for total in SUMS)


def plain(value: Any) -> Any:
    """``value`` after a JSON round trip (it must come back equal)."""
    back = json.loads(json.dumps(value))
    assert back == value
    return back


def hint(game: ExtraRules, state: ExtraState, move: str, seat: int = 0) -> dict[str, Any]:
    """The hint of ``move`` for ``seat``."""
    found = [h for h in presenter_of(game).action_hints(state, seat) if h["move"] == move]
    assert len(found) == 1, move
    return found[0]


def test_the_start_is_a_roll_with_a_five_dice_picker_whose_choice_parses() -> None:
    game = make(2)
    state = game.new_state()
    view = plain(presenter_of(game).view(state))
    assert view["game"] == "extra"
    assert view["dice"] == []
    board = view["board"]
    assert board["phase"] == "roll"
    assert board["layout"]["columns"] == [10, 9, 8]
    assert board["layout"]["boxes"] == list(BOXES)
    assert [sheet["status"] for sheet in board["sheets"]] == ["playing", "playing"]
    assert len(view["seat_colours"]) == 2
    entry = view["dice_entry"]
    assert entry["count"] == 5
    assert [face["value"] for face in entry["faces"]] == ["1", "2", "3", "4", "5", "6"]
    picked = ["5", "2", "3", "2", "1"]
    assert game.parse(state, entry["join"].join(picked)) == Roll((1, 2, 2, 3, 5))


def test_the_shared_roll_shows_five_dice_none_spent_and_everyone_decides() -> None:
    game = make(2)
    state = game.new_state().apply("1 2 2 3 5")
    view = plain(presenter_of(game).view(state))
    assert view["dice"] == [{"value": face, "label": str(face)} for face in (1, 2, 2, 3, 5)]
    assert view["dice_entry"] is None
    assert view["board"]["phase"] == "decide"
    assert view["board"]["roll"] == [1, 2, 2, 3, 5]
    assert [sheet["status"] for sheet in view["board"]["sheets"]] == ["deciding", "deciding"]


def test_the_seeds_first_example_targets_rows_4_and_6_and_column_a() -> None:
    game = make(1)
    state = game.new_state().apply("1 2 2 3 5")
    hints = plain(presenter_of(game).action_hints(state, 0))
    assert [h["move"] for h in hints] == [str(d) for d in state.legal_actions(0)]
    assert len(hints) == 27
    first = hint(game, state, "2+2 1+5 x3a")
    assert first["label"] == "4 (2+2) and 6 (1+5), new EXTRA 3 in column A"
    assert first["targets"] == ["s0-r4-0", "s0-r6-0", "s0-xa"]
    assert hint(game, state, "2+2 1+5 x3c")["targets"] == ["s0-r4-0", "s0-r6-0", "s0-xc"]


def test_crosses_scores_and_the_next_cells_of_a_started_sheet() -> None:
    game = make(1)
    sheet = Sheet(rows(s4=10, s6=3, s11=7), (3, 0, 0), (2, 0, 0))
    state = at(game, (sheet,), "2 2 3 5 6")
    drawn = plain(presenter_of(game).view(state))["board"]["sheets"][0]
    by_sum = {row["sum"]: row for row in drawn["rows"]}
    assert drawn["score"] == 420 - 200 + 210
    assert (by_sum[4]["crosses"], by_sum[4]["score"], by_sum[4]["full"]) == (10, 420, True)
    assert by_sum[4]["cells"] == []
    assert by_sum[6]["cells"] == [{"id": "s0-r6-3", "box": 3}, {"id": "s0-r6-4", "box": 4}]
    assert (by_sum[11]["score"], by_sum[2]["crosses"]) == (210, 0)
    assert drawn["extras"][0] == {"id": "s0-xa", "name": "a", "number": 3, "marks": 2,
                                  "size": 10}
    assert drawn["extras"][1]["number"] is None
    # A repeat of the EXTRA number 3 crosses column a; a cross on the full row 4 is lost.
    repeat = hint(game, state, "2+2 5+6 x3")
    assert repeat["targets"] == ["s0-r4", "s0-r11-7", "s0-xa"]
    assert repeat["label"] == "4 (2+2) and 11 (5+6), EXTRA 3 (row 4 is full)"


def test_a_double_targets_two_boxes_of_one_row() -> None:
    game = make(1)
    state = at(game, (Sheet(rows(s8=2), (1, 0, 0), (1, 0, 0)),), "1 4 4 4 4")
    assert hint(game, state, "4+4 4+4 x1")["targets"] == ["s0-r8-2", "s0-r8-3", "s0-xa"]


def test_a_free_ride_targets_only_the_two_rows() -> None:
    game = make(1)
    state = at(game, (Sheet(numbers=(1, 3, 6), marks=(2, 2, 2)),), "2 4 5 5 5")
    hints = presenter_of(game).action_hints(state, 0)
    assert hints and all(h["move"].endswith(" free") for h in hints)
    ride = hint(game, state, "2+4 5+5 free")
    assert ride["label"] == "6 (2+4) and 10 (5+5), free ride (no EXTRA)"
    assert ride["targets"] == ["s0-r6-0", "s0-r10-0"]


def test_decided_players_are_shown_but_their_choice_stays_secret() -> None:
    game = make(3)
    state = game.new_state().apply("1 2 2 3 5").apply("2+2 1+5 x3a", seat=1)
    view = plain(presenter_of(game).view(state))
    assert [s["status"] for s in view["board"]["sheets"]] == ["deciding", "decided", "deciding"]
    assert "x3a" not in json.dumps(view)
    assert presenter_of(game).action_hints(state, 2)[0]["targets"][0].startswith("s2-")


def test_a_stopped_sheet_has_no_cells_and_the_end_names_the_winners() -> None:
    game = make(2, extra_columns="1,9,8")
    state = game.new_state().apply("1 2 2 3 5").apply("2+2 1+5 x3a", seat=0)
    state = state.apply("1+2 2+5 x3b", seat=1)
    assert state.is_terminal is False
    sheets = presenter_of(game).view(state)["board"]["sheets"]
    assert sheets[0]["status"] == "stopped" and "cells" not in sheets[0]["rows"][0]
    assert sheets[1]["status"] == "playing" and "cells" in sheets[1]["rows"][0]
    state = state.apply("6 6 6 6 6").apply("6+6 6+6 x6a", seat=1)
    board = plain(presenter_of(game).view(state))["board"]
    assert board["phase"] == "over"
    assert [s["score"] for s in board["sheets"]] == [-400, -600]
    assert board["winners"] == [0]  # the higher total wins, even below zero
    assert board["rolls_done"] == 2


def test_a_negative_solo_total_has_no_winner() -> None:
    game = make(1, extra_columns="1,9,8")
    state = game.new_state().apply("1 2 2 3 5").apply("2+2 1+5 x3a")
    board = plain(presenter_of(game).view(state))["board"]
    assert (board["solo"], board["phase"], board["winners"]) == (True, "over", [])


def test_childrens_rows_reading_notes_a_first_recording_on_the_row() -> None:
    game = make(2, child_seats="2", children_rule="rows")
    state = game.new_state().apply("1 2 2 3 5")
    assert hint(game, state, "2+2 1+5 x3a", seat=1)["targets"] == ["s1-r4", "s1-r6", "s1-xa"]
    assert hint(game, state, "2+2 1+5 x3a", seat=0)["targets"] == ["s0-r4-0", "s0-r6-0",
                                                                    "s0-xa"]
    # Two pairs of one sum: the first is noted, the second crosses the first box.
    double = at(game, (Sheet(), Sheet()), "1 4 4 4 4")
    assert hint(game, double, "4+4 4+4 x1a", seat=1)["targets"] == ["s1-r8", "s1-r8-0",
                                                                      "s1-xa"]
    state = state.apply("2+2 1+5 x3a", seat=0).apply("2+2 1+5 x3a", seat=1)
    sheets = presenter_of(game).view(state)["board"]["sheets"]
    assert sheets[1]["child"] is True and sheets[0]["child"] is False
    assert [row["noted"] for row in sheets[1]["rows"]][2] is True
