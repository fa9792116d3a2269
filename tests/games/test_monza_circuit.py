"""Monza circuits: the file format, the validating loader, the lane-change rule, the default.

Each loader error is provoked by a minimal bad file and must name the square and the problem;
a bad ``--option circuit=PATH`` must surface as an OptionError with that message. The
lane-change rule is checked on a hand-drawn test circuit (the one the rule scenarios use).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames import OptionError
from dicegames.games.monza.circuit import CircuitError, default_circuit, load, loads
from dicegames.games.monza.data import START

TEST_CIRCUIT: dict[str, Any] = {
    "name": "test circuit",
    "lanes": [
        {"name": "a", "squares": [[0, 3, "white"], [3, 6, "red"], [6, 9, "yellow"],
                                  [9, 12, "red"], [12, 15, "green"], [15, 18, "blue"],
                                  [18, 21, "purple"]]},
        {"name": "b", "squares": [[1, 4, "purple"], [4, 8, "purple"], [8, 11, "tyre"],
                                  [11, 14, "white"], [14, 17, "blue"], [17, 20, "red"]]},
        {"name": "c", "squares": [[2, 5, "blue"], [5, 9, "white"], [9, 13, "green"],
                                  [13, 16, "yellow"], [16, 19, "white"], [19, 22, "green"]]},
    ],
    "entries": ["a1", "c1"],
    "targets": ["a7", "c6"],
}
"""A small circuit for scenarios: three staggered lanes, one tyre (b3), targets a7 and c6."""


def circuit_with(changes: dict[str, Any] | None = None) -> dict[str, Any]:
    """A deep copy of :data:`TEST_CIRCUIT` with top-level keys replaced."""
    raw = copy.deepcopy(TEST_CIRCUIT)
    raw.update(changes or {})
    return raw


def error_of(raw: object) -> str:
    """The loader's message for a bad circuit."""
    with pytest.raises(CircuitError) as info:
        loads(json.dumps(raw))
    return str(info.value)


def names(circuit: Any, ids: tuple[int, ...]) -> set[str]:
    return {circuit.squares[i].name for i in ids}


# ----------------------------------------------------------------------- the move graph


def test_the_test_circuit_loads_with_names_colours_and_targets() -> None:
    circuit = loads(json.dumps(TEST_CIRCUIT))
    assert [circuit.squares[i].name for i in circuit.lanes[1]] == [
        "b1", "b2", "b3", "b4", "b5", "b6"]
    assert circuit.squares[circuit.by_name["b3"]].is_tyre
    assert names(circuit, circuit.entries) == {"a1", "c1"}
    assert names(circuit, tuple(circuit.targets)) == {"a7", "c6"}


@pytest.mark.parametrize("raw", [TEST_CIRCUIT, None], ids=["test-circuit", "default"])
def test_next_squares_are_exactly_the_far_end_rule(raw: dict[str, Any] | None) -> None:
    """Recompute every square's next squares from the rule's words and compare."""
    circuit = default_circuit() if raw is None else loads(json.dumps(raw))
    for i, here in enumerate(circuit.squares):
        expected: set[str] = set()
        if i not in circuit.targets:
            lane = circuit.lanes[here.lane]
            if here.index + 1 < len(lane):
                expected.add(circuit.squares[lane[here.index + 1]].name)
            expected |= {other.name for other in circuit.squares
                         if abs(other.lane - here.lane) == 1
                         and other.start < here.end and other.end > here.end}
            expected -= {s.name for s in circuit.squares if s.is_tyre}
        assert names(circuit, circuit.successors[i]) == expected, here.name


def test_lane_changes_on_concrete_squares() -> None:
    circuit = loads(json.dumps(TEST_CIRCUIT))

    def nxt(name: str) -> set[str]:
        return names(circuit, circuit.successors[circuit.by_name[name]])

    assert nxt("a1") == {"a2", "b1"}
    assert nxt("b1") == {"b2", "a2", "c1"}  # c1 (2-5) overlaps b1 (1-4), far end 5 > 4
    assert nxt("a3") == {"a4"}
    assert nxt("b2") == {"a3", "c2"}  # b3 is a tyre; a3 (6-9), c2 (5-9) end beyond 8
    assert nxt("a5") == {"a6", "b5"}  # b5 (14-17) ends beyond 15
    assert nxt("b6") == {"a7", "c6"}
    assert nxt("a7") == set() and nxt("c6") == set()
    assert names(circuit, circuit.next_squares(START)) == {"a1", "c1"}


def test_steps_to_finish_and_progress() -> None:
    circuit = loads(json.dumps(TEST_CIRCUIT))
    assert circuit.steps_to_finish(circuit.by_name["a6"]) == 1
    assert circuit.steps_to_finish(circuit.by_name["a7"]) == 0
    assert circuit.steps_to_finish(START) == 1 + min(
        circuit.distance[e] for e in circuit.entries)
    assert circuit.progress(START) == 0 and circuit.progress(circuit.by_name["b2"]) == 8


# ----------------------------------------------------------------------- loader errors


def lane_squares(raw: dict[str, Any], lane: int) -> list[list[Any]]:
    squares: list[list[Any]] = raw["lanes"][lane]["squares"]
    return squares


def test_unknown_colour_names_the_square() -> None:
    raw = circuit_with()
    lane_squares(raw, 1)[3][2] = "pink"
    message = error_of(raw)
    assert "square b4" in message and "unknown colour 'pink'" in message


def test_overlap_in_a_lane_names_both_squares() -> None:
    raw = circuit_with()
    lane_squares(raw, 0)[2] = [5, 9, "yellow"]
    message = error_of(raw)
    assert "square a3 overlaps square a2 in lane a" in message


def test_reversed_square_is_refused() -> None:
    raw = circuit_with()
    lane_squares(raw, 2)[0] = [5, 2, "blue"]
    assert "square c1: its end 2 is not after its start 5" in error_of(raw)


def test_boundaries_lining_up_across_neighbouring_lanes_are_refused() -> None:
    raw = circuit_with()
    lane_squares(raw, 1)[0] = [1, 3, "purple"]  # b1 would end at 3 where a1 ends
    lane_squares(raw, 1)[1] = [3, 8, "purple"]
    message = error_of(raw)
    assert "square b1" in message and "lines up" in message and "a1" in message


def test_unreachable_target_is_refused() -> None:
    raw = {"lanes": [{"name": "a", "squares": [[0, 4, "white"], [4, 8, "red"]]},
                     {"name": "b", "squares": [[10, 12, "red"]]}],
           "entries": ["a1"], "targets": ["a2", "b1"]}
    assert "target b1 cannot be reached from the start zone" in error_of(raw)


def test_square_with_no_way_forward_is_refused() -> None:
    raw = circuit_with()
    lane_squares(raw, 0)[5][2] = "tyre"  # a6: a5 (12-15) can still change to b5 (14-17)
    lane_squares(raw, 1)[4][2] = "tyre"  # b5 too: now a5 has no way forward
    message = error_of(raw)
    assert "square a5 has no way forward" in message


@pytest.mark.parametrize(("changes", "fragment"), [
    ({"entries": ["a9"]}, "entry a9: there is no such square"),
    ({"entries": ["b3"]}, "entry b3: the square is a tyre"),
    ({"targets": ["zz1"]}, "target zz1: there is no such square"),
    ({"targets": []}, "'targets' must be a non-empty list"),
    ({"lanes": []}, "'lanes' must be a list of 1 to 6 lanes"),
])
def test_bad_entries_targets_and_lanes(changes: dict[str, Any], fragment: str) -> None:
    assert fragment in error_of(circuit_with(changes))


def test_malformed_square_and_lane_name() -> None:
    raw = circuit_with()
    lane_squares(raw, 0)[0] = [0, "three", "white"]
    assert "square a1: expected [start, end, colour]" in error_of(raw)
    raw = circuit_with()
    raw["lanes"][0]["name"] = "A1"
    assert "lane 1 needs a name of lower-case letters" in error_of(raw)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CircuitError, match="not valid JSON"):
        loads("{lanes: ")
    with pytest.raises(CircuitError, match="cannot read circuit file"):
        load(tmp_path / "nowhere.json")


# ----------------------------------------------------------------------- the option


def test_circuit_option_plays_a_users_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(TEST_CIRCUIT), encoding="utf-8")
    game: Any = dicegames.make("monza", circuit=str(path))
    assert game.circuit.name == "test circuit"
    state = game.new_state().apply("wwwwww")
    assert [str(a) for a in state.legal_actions()] == ["white a1"]


def test_bad_circuit_option_is_an_option_error_naming_the_problem(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="neither a built-in circuit"):
        dicegames.make("monza", circuit=str(tmp_path / "missing.json"))
    bad = circuit_with()
    lane_squares(bad, 2)[1][2] = "orange"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(OptionError, match="square c2: unknown colour 'orange'"):
        dicegames.make("monza", circuit=str(path))


# ----------------------------------------------------------------------- the default circuit


def test_default_circuit_is_as_ruled() -> None:
    circuit = default_circuit()
    assert len(circuit.lanes) == 3
    assert all(22 <= len(lane) <= 28 for lane in circuit.lanes)
    assert sum(s.is_tyre for s in circuit.squares) == 7
    assert len(circuit.targets) == 2
    # The start zone leads only to the first blue and the first white square.
    entries = sorted((circuit.squares[e].colour or "", circuit.squares[e].start)
                     for e in circuit.entries)
    assert [colour for colour, _ in entries] == ["blue", "white"]
    for colour, start in entries:
        assert start == min(s.start for s in circuit.squares if s.colour == colour)
    # Every playable square leads on towards a target.
    assert all(circuit.distance[i] < len(circuit.squares)
               for i, s in enumerate(circuit.squares) if not s.is_tyre)
