"""For a Few Extra Meters: the web view and action hints of constructed positions.

The SVG board draws what the view says, so these check the runners' places, the turn's dice
and sum, the ghost landing square (the ``stop`` target) and the big die (the ``roll``
target), the labels of the choice buttons, and that everything is plain JSON.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import dicegames
from dicegames import Reroll
from dicegames.core.registry import presenter_of
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.view import SEAT_COLOURS, columns


def make(players: int = 2, **options: object) -> Any:
    """An extra-meters game (typed loosely: tests reach into its data)."""
    return dicegames.make("extra-meters", players=players, **options)


def plain(value: Any) -> Any:
    """The value after a JSON round trip (must be equal: the view is plain JSON)."""
    decoded = json.loads(json.dumps(value))
    assert decoded == value
    return decoded


def test_the_start_has_every_runner_at_the_start_and_no_dice() -> None:
    game = make(3)
    view = plain(presenter_of(game).view(game.new_state()))
    assert view["game"] == "extra-meters"
    board = view["board"]
    assert board["track_length"] == 50
    assert board["columns"] == 10
    assert board["finish"] == "first"
    assert board["phase"] == "opening"
    assert board["round"] == 1
    assert [(r["letter"], r["position"], r["where"]) for r in board["runners"]] == [
        ("A", 0, "start"), ("B", 0, "start"), ("C", 0, "start")]
    assert [r["current"] for r in board["runners"]] == [True, False, False]
    assert board["turn"] is None and board["landing"] is None and board["roll"] is None
    assert view["dice"] == []
    assert view["dice_entry"] is None
    assert view["seat_colours"] == list(SEAT_COLOURS[:3])


def test_a_turn_in_progress_shows_the_dice_the_sum_and_the_ghost() -> None:
    game = make(2)
    state = game.state_from(ExtraMetersData(positions=(4, 12), player=1, turn=4,
                                            phase=Phase.DECIDE, dice=(5, 2, 3)))
    view = plain(presenter_of(game).view(state))
    board = view["board"]
    assert board["phase"] == "decide"
    assert board["round"] == 2
    assert [r["position"] for r in board["runners"]] == [4, 12]
    assert [r["current"] for r in board["runners"]] == [False, True]
    turn = board["turn"]
    assert turn["dice"] == [5, 2, 3] and turn["sum"] == 10 and turn["count"] == 3
    assert (turn["from"], turn["landing"], turn["crosses"]) == (12, 22, False)
    assert (turn["six_moves"], turn["six_position"]) == (4, 16)
    assert board["landing"] == {"id": "landing", "seat": 1, "position": 22}
    assert board["roll"] == {"id": "roll", "seat": 1, "count": 3}
    # The dice of the turn, in the order rolled; none is spent before the turn ends.
    assert view["dice"] == [{"value": 5, "label": "5"}, {"value": 2, "label": "2"},
                            {"value": 3, "label": "3"}]

    hints = plain(presenter_of(game).action_hints(state, 1))
    assert hints == [
        {"move": "roll", "label": "Roll again (a 6 moves you only 4)", "targets": ["roll"]},
        {"move": "stop", "label": "Stop: move 10 to square 22", "targets": ["landing"]},
    ]
    assert [hint["move"] for hint in hints] == [str(a) for a in state.legal_actions(1)]


def test_hints_act_as_their_moves() -> None:
    game = make(2)
    state = game.state_from(ExtraMetersData(positions=(0, 0), phase=Phase.DECIDE, dice=(4,)))
    by_move = {hint["move"]: hint for hint in presenter_of(game).action_hints(state, 0)}
    assert state.apply(by_move["stop"]["move"]).data.positions == (4, 0)
    assert state.apply(by_move["roll"]["move"]).data.phase is Phase.ROLLING


def test_stopping_past_the_end_says_so() -> None:
    game = make(2, track_length=20)
    state = game.state_from(ExtraMetersData(positions=(16, 9), phase=Phase.DECIDE,
                                            dice=(4, 1)))
    view = plain(presenter_of(game).view(state))
    assert view["board"]["turn"]["crosses"] is True
    assert view["board"]["turn"]["landing_where"] == "past the finish"
    assert view["board"]["landing"]["position"] == 21
    stop = presenter_of(game).action_hints(state, 0)[1]
    assert stop["label"] == "Stop: move 5 and cross the finish!"
    # Landing exactly on the last square is not a win: no "finish" in the label.
    exact = game.state_from(ExtraMetersData(positions=(16, 9), phase=Phase.DECIDE, dice=(4,)))
    assert presenter_of(game).action_hints(exact, 0)[1]["label"] == "Stop: move 4 to square 20"


def test_while_the_die_rolls_there_is_nothing_to_pick() -> None:
    game = make(2)
    state = game.state_from(ExtraMetersData(positions=(3, 0), phase=Phase.ROLLING,
                                            dice=(2, 2)))
    view = plain(presenter_of(game).view(state))
    assert view["board"]["phase"] == "rolling"
    assert view["board"]["turn"]["sum"] == 4
    assert view["board"]["landing"] is None and view["board"]["roll"] is None
    assert [die["value"] for die in view["dice"]] == [2, 2]


def test_the_end_marks_the_winner_and_clears_the_dice() -> None:
    game = make(2)
    end = game.state_from(ExtraMetersData(positions=(53, 40), player=0, turn=9,
                                          phase=Phase.OVER, winners=(0,)))
    view = plain(presenter_of(game).view(end))
    board = view["board"]
    assert board["phase"] == "over" and board["winners"] == [0]
    assert [(r["winner"], r["finished"], r["current"]) for r in board["runners"]] == [
        (True, True, False), (False, False, False)]
    assert board["runners"][0]["where"] == "past the finish"
    assert view["dice"] == [] and board["turn"] is None and board["roll"] is None


def test_same_round_shows_a_finished_runner_while_the_round_goes_on() -> None:
    game = make(3, finish="same_round")
    state = game.state_from(ExtraMetersData(positions=(48, 20, 30), player=0, turn=7,
                                            phase=Phase.DECIDE, dice=(5,)))
    state = state.apply("stop")
    assert not state.is_terminal
    board = plain(presenter_of(game).view(state))["board"]
    assert board["finish"] == "same_round"
    assert [r["finished"] for r in board["runners"]] == [True, False, False]
    assert board["winners"] == [] and board["player"] == 1


def test_long_tracks_use_wider_rows_and_many_runners_get_distinct_colours() -> None:
    assert [columns(n) for n in (10, 50, 100, 101, 150, 200)] == [10, 10, 10, 15, 15, 15]
    game = make(8, track_length=200)
    view = plain(presenter_of(game).view(game.new_state()))
    assert view["board"]["columns"] == 15
    assert len(set(view["seat_colours"])) == 8
    assert [r["letter"] for r in view["board"]["runners"]] == list("ABCDEFGH")


def test_physical_dice_are_offered_as_the_list_of_legal_faces() -> None:
    # dice_entry is None: the page lists the chance outcomes, one button per face, and each
    # is notation the game parses (the opening roll's 6 is rolled again).
    game = make(2)
    state = game.new_state()
    assert presenter_of(game).view(state)["dice_entry"] is None
    faces = [str(outcome) for outcome, _ in state.chance_outcomes()]
    assert faces == ["1", "2", "3", "4", "5"]
    with pytest.raises(Reroll):
        game.parse(state, "6")
    state = state.apply("3").apply(str(Decision.ROLL))
    assert [str(o) for o, _ in state.chance_outcomes()] == ["1", "2", "3", "4", "5", "6"]
    assert game.parse(state, "6") == 6
    assert state.apply("6").data.positions == (2, 0)


def test_a_six_that_ends_the_turn_is_still_shown_with_the_turns_dice() -> None:
    game = make(2)
    state = game.state_from(ExtraMetersData(positions=(4, 12), player=1, turn=4,
                                            phase=Phase.DECIDE, dice=(5, 2, 3)))
    rolling = state.apply("roll")
    # the position forgets the turn
    assert presenter_of(game).view(rolling.apply("6"))["dice"] == []
    assert plain(presenter_of(game).roll_dice(rolling, 6)) == [
        {"value": value, "label": str(value)} for value in (5, 2, 3, 6)]
    # A roll the turn goes on with is drawn as the view draws it.
    shown = presenter_of(game)
    assert shown.roll_dice(rolling, 4) == shown.view(rolling.apply("4"))["dice"]
