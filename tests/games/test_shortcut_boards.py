"""Shortcut boards: the text format, the loader's errors (naming the bad cell), the option.

Every check the loader makes has a broken board here, and each error must name the cell at
fault; a bad ``board`` option must be an ``OptionError`` with the loader's message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import dicegames
from dicegames.games.shortcut import BoardError, board_for, parse_board
from dicegames.games.shortcut.board import Kind, built_in

SMALL = """
# a small board: a 3 x 3 grey field inside a road of 11 squares
 S  1  2  3  4
 .  g  g  g  5
 .  g  g  g  6
 .  g  g  g  7
 F 11 10  9  8
"""


def test_the_default_board_is_a_u_round_one_grey_field() -> None:
    board = built_in("default")
    assert board.road_length == 27
    assert board.names[board.start] == "a13"
    assert board.names[board.finish] == "e13"
    greys = [board.names[c] for c, kind in enumerate(board.kinds) if kind is Kind.GREY]
    assert sorted(greys) == sorted(f"{col}{row}" for col in "bcd" for row in range(5, 10))
    # Crossing the field takes 4 steps and skips 11 to 19 road squares.
    for row in range(5, 10):
        west, east = board.cell(f"a{row}"), board.cell(f"e{row}")
        assert board.reachable(west, 4, ())[east] == 4
        skipped = board.road_pos[east] - board.road_pos[west] - 1
        assert 10 <= skipped <= 20


def test_cells_are_named_like_chess_squares_from_the_bottom_left() -> None:
    board = parse_board(SMALL)
    assert board.names[board.start] == "a5"
    assert board.names[board.finish] == "a1"
    assert board.road_pos[board.cell("e1")] == 8
    assert board.cell(" B3 ") == board.cell("b3")
    with pytest.raises(KeyError, match="z9"):
        board.cell("z9")


def test_the_steps_follow_the_movement_rules() -> None:
    board = parse_board(SMALL)

    def steps(name: str) -> list[str]:
        return sorted(board.names[c] for c in board.steps[board.cell(name)])

    assert steps("a5") == ["b5"]  # the start: road 1 only
    assert steps("c5") == ["c4", "d5"]  # road 2: road 3 or sideways onto the grey
    assert steps("b4") == ["b3", "b5", "c4"]  # grey: any direction, back onto road 1 too
    assert steps("b2") == ["b1", "b3", "c2"]  # grey next to road 11
    assert steps("b1") == ["a1", "b2"]  # road 11: the finish, or the grey
    assert steps("a1") == []  # the finish: nothing further


def test_a_board_option_loads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text(SMALL, encoding="utf-8")
    game = dicegames.make("shortcut", board=str(path))
    assert game.board.road_length == 11  # type: ignore[attr-defined]
    state = game.new_state()
    assert state.legal_actions() == game.new_state().legal_actions()
    assert board_for("default") is built_in("default")
    assert board_for(" Default ") is built_in("default")
    assert game.options["board"] == SMALL + ("" if SMALL.endswith("\n") else "\n")


BROKEN = [
    ("", "no cells"),
    (" S 1 F\n . g", "line 2 has 2 cells but the first row has 3"),
    (" S 1 x F", "cell c1 (line 1) is 'x', which is not a cell"),
    (" S 1 0 F", "cell c1 (line 1) is '0', which is not a cell"),
    (" 1 2 F", "there is no start cell"),
    (" S 1 2", "there is no finish cell"),
    (" S 1 F\n S 2 .", "cell a1 is a second start (the first is at a2)"),
    (" S 1 F\n . 2 F", "cell c1 is a second finish (the first is at c2)"),
    (" S 1 2 F\n . g 2 .", "cell c1 repeats road number 2 (already at c2)"),
    (" S 1 3 F", "cell c1 is road 3 but there is no road 2"),
    (" S g F", "there are no road cells"),
    (" S . 1 F", "road 1 at c1 is not next to the start a1"),
    (" S 1 . 2 F", "road 2 at d1 is not next to road 1 at b1"),
    (" S 1 2 . F", "the finish e1 is not next to road 2 at c1"),
    (" S 1 2\n . F .", "the finish b1 is not next to road 2 at c2"),
]


@pytest.mark.parametrize(("text", "message"), BROKEN)
def test_the_loader_names_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_board(text, "test.txt")
    assert message in str(info.value)
    assert str(info.value).startswith("board test.txt: ")
    assert isinstance(info.value, dicegames.OptionError)


def test_a_broken_road_says_the_finish_cannot_be_reached() -> None:
    with pytest.raises(BoardError, match="the finish cannot be reached"):
        parse_board(" S 1 2 . F")


def test_a_board_too_big_to_name_is_refused() -> None:
    wide = " S " + " ".join(str(n) for n in range(1, 26)) + " F"
    with pytest.raises(BoardError, match="at most 26 columns"):
        parse_board(wide)


def test_a_bad_board_option_is_an_option_error_with_the_loaders_message(
        tmp_path: Path) -> None:
    with pytest.raises(dicegames.OptionError, match="neither a built-in board"):
        dicegames.make("shortcut", board=str(tmp_path / "missing.txt"))
    with pytest.raises(dicegames.OptionError, match="neither a built-in board"):
        dicegames.make("shortcut", board=str(tmp_path))  # a directory
    broken = tmp_path / "broken.txt"
    broken.write_text(" S 1 3 F\n", encoding="utf-8")
    with pytest.raises(dicegames.OptionError, match="cell c1 is road 3 but there is no road 2"):
        dicegames.make("shortcut", board=str(broken))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(dicegames.OptionError, match="neither a built-in board"):
        dicegames.make("shortcut", board=str(binary))


def test_the_command_line_reports_a_bad_board_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dicegames.cli import main

    code = main(["simulate", "shortcut", "--players", "bot:easy,bot:easy", "--games", "1",
                 "--option", f"board={tmp_path / 'nope.txt'}"])
    assert code != 0
    captured = capsys.readouterr()
    assert "neither a built-in board" in captured.err + captured.out
    assert "Traceback" not in captured.err + captured.out


def test_a_user_board_plays_to_the_end_with_every_bot(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text(SMALL, encoding="utf-8")
    game = dicegames.make("shortcut", players=3, board=str(path))
    import random

    from dicegames.analysis import play_one
    from dicegames.bots import make_bot

    for seed in range(5):
        rng = random.Random(seed)
        agents = [make_bot(game, level, rng) for level in ("easy", "medium", "hard")]
        outcome = play_one(game, agents, rng)
        assert len(outcome.winners) == 1


CORNERS = """
 S  g  g  F
 1  g  g  6
 2  3  4  5
"""


def test_grey_next_to_the_start_and_the_finish(tmp_path: Path) -> None:
    path = tmp_path / "corners.txt"
    path.write_text(CORNERS, encoding="utf-8")
    game = dicegames.make("shortcut", board=str(path))
    board = game.board  # type: ignore[attr-defined]
    assert sorted(board.names[c] for c in board.steps[board.start]) == ["a2", "b3"]
    assert board.start not in board.steps[board.cell("b3")]  # never back onto the start
    assert board.finish in board.steps[board.cell("c3")]  # grey onto the finish
    state = game.new_state().apply("shortcut").apply("3")
    assert [str(a) for a in state.legal_actions()] == [
        "press", "a3", "b3", "c3", "d3", "a2", "b2", "c2", "a1", "b1"]
    won = state.apply("finish")
    assert won.is_terminal and won.result.winners == (0,)
