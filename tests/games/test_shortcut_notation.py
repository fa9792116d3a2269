"""Shortcut's move notation on boards of every allowed width (1 to 26 columns).

Squares are named like chess squares (column letter, row number), and ``r<n>`` was also
road square n. From 18 columns on a board has a column ``r``, so ``r1`` was both a square
and road square 1: a bot's move to square ``r1`` was written ``r1`` and read back as road
square 1, so the match could not be rebuilt and its record was refused. Now a square's name
always comes first, ``road<n>`` names road square n on every board, and ``r<n>`` does only
on boards without a column ``r`` (at most 17 columns), exactly as before.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dicegames.core.errors import IllegalAction
from dicegames.core.game import Game
from dicegames.core.record import from_record, to_record
from dicegames.core.registry import configure
from dicegames.core.session import PlayerInfo, Session
from dicegames.games.shortcut.board import MAX_COLUMNS, SHORT_ROAD_COLUMNS, parse_board
from dicegames.games.shortcut.data import Cell
from dicegames.games.shortcut.rules import ShortcutRules

WIDTHS = range(1, MAX_COLUMNS + 1)


def board_text(width: int) -> str:
    """A board ``width`` columns wide and 3 rows high: the road runs along the top row
    (start at ``a3``), down the last column and back along the bottom row to the finish at
    ``a1``; the middle row is grey but for its last cell. Column ``r`` (from 18 columns on)
    holds ``r3``, ``r2`` and ``r1``, whose names were also road squares 1 to 3."""
    top = ["S", *(str(n) for n in range(1, width))]
    middle = [*("g" * (width - 1)), str(width)]
    bottom = ["F", *(str(n) for n in range(2 * width - 1, width, -1))]
    return "\n".join(" ".join(row) for row in (top, middle, bottom)) + "\n"


def wide_game(width: int, players: int = 2) -> ShortcutRules:
    """Shortcut on :func:`board_text`'s board of ``width`` columns."""
    game = configure("shortcut", players, {"board": board_text(width)})
    assert isinstance(game, ShortcutRules)
    return game


def random_session(game: Game[Any, Any, Any], seed: int, limit: int = 400) -> Session:
    """A game between random players with random dice, up to ``limit`` moves; the
    shortcut is declared twice as often as the rest, so that squares get named."""
    rng = random.Random(seed)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], seed=seed)
    while not session.state.is_terminal and len(session.moves) < limit:
        state = session.state
        if state.is_chance:
            session.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        seat = state.current_players[0]
        legal = list(state.legal_actions(seat))
        legal += [a for a in legal if str(a) == "shortcut"]
        session.apply(rng.choice(legal), seat)
    return session


@pytest.mark.parametrize("width", WIDTHS)
def test_the_board_of_every_width_loads(width: int) -> None:
    board = parse_board(board_text(width))
    assert board.width == width and board.road_length == 2 * width - 1
    assert board.names[board.start] == "a3" and board.names[board.finish] == "a1"


@pytest.mark.parametrize("width", WIDTHS)
def test_every_move_reads_back_as_itself_and_every_record_replays(width: int) -> None:
    game = wide_game(width)
    named = 0
    for seed in range(8):
        session = random_session(game, seed)
        for index, entry in enumerate(session.moves):
            before = session.states[index]
            seat = entry.seat
            legal = before.legal_actions(seat) if seat is not None else ()
            for action in legal:  # move -> text -> move, for every legal move
                assert game.parse(before, str(action), seat) == action
                named += isinstance(action, Cell)
            assert str(game.parse(before, entry.text, seat)) == entry.text
        # record -> JSON -> replay: the same moves, the same states
        again = from_record(json.loads(json.dumps(to_record(session))))
        assert [e.text for e in again.moves] == [e.text for e in session.moves]
        assert [game.position(s) for s in again.states] == [
            game.position(s) for s in session.states]
    assert named > 0  # squares were named, not only declarations and dice


def _choosing(width: int, where: str, rolls: str = "1") -> tuple[ShortcutRules, Any]:
    """The state where seat 1's car on ``where`` chooses a destination within ``rolls``."""
    game = wide_game(width)
    return game, game.from_position(f"{where}/a3 1 choose {rolls} 1")


@pytest.mark.parametrize("width", WIDTHS)
def test_road_squares_have_one_name_on_every_width(width: int) -> None:
    game, state = _choosing(width, "a3", "3")
    board = game.board
    for place in range(1, min(3, board.road_length) + 1):
        cell = board.names[board.road[place]]
        assert str(game.parse(state, f"road{place}", 0)) == cell
        assert str(game.parse(state, f"Road {place}", 0)) == cell
        if width <= SHORT_ROAD_COLUMNS:  # the short name, as before
            assert str(game.parse(state, f"r{place}", 0)) == cell
        else:  # r<n> is column r's square, here out of reach
            with pytest.raises(IllegalAction, match="not a legal move"):
                game.parse(state, f"r{place}", 0)
    assert str(game.parse(state, "start", 0)) == "a3"


@pytest.mark.parametrize("width", [w for w in WIDTHS if w > SHORT_ROAD_COLUMNS])
def test_on_a_board_with_a_column_r_its_squares_keep_their_names(width: int) -> None:
    # The car on q3 (road 16) may stop within 2 steps: r3 (road 17) and r2 (grey, or road 18
    # on the 18-column board) are in reach; road squares 2 and 3 (c3, d3) are not.
    game, state = _choosing(width, "q3", "2")
    legal = {str(a) for a in state.legal_actions(0)}
    assert {"r3", "r2"} <= legal
    assert str(game.parse(state, "r3", 0)) == "r3"
    assert str(game.parse(state, "R2", 0)) == "r2"
    assert str(game.parse(state, "road17", 0)) == "r3"
    after = game.parse(state, "r2", 0)
    assert state.apply(after, 0).data.cars[0] == game.board.cell("r2")


def test_a_record_written_with_the_old_short_names_still_replays() -> None:
    # The default board (5 columns): ``r24`` is road square 24 (e9), as it always was.
    game = configure("shortcut", 2, {})
    session = Session(game, start=game.from_position("d9/a13 1 choose 1 5"))
    session.apply("r24", 0)
    assert session.moves[-1].text == "e9"
    record = to_record(session)
    record["moves"][-1] = "r24"  # as a person may have typed it into a record
    assert from_record(record).moves[-1].text == "e9"
