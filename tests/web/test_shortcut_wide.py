"""Shortcut on boards of 18 columns or more, through a real server and a restart.

Such a board has a column ``r``, whose squares ``r1``, ``r2``... were also read as road
squares 1, 2... A bot's move to square ``r2`` was stored as ``r2``; after a restart the
finished match was rebuilt from its moves, read ``r2`` as road square 2 and answered
``409 unplayable_match``, and its own record was refused on upload. Now every stored move
reads back as the square it named.
"""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from web.server import Server


def board_text(width: int) -> str:
    """The 3-row board of ``tests/games/test_shortcut_notation.py``: road along the top
    row from the start ``a3``, down the last column and back to the finish ``a1``, a grey
    middle row; column ``r`` holds ``r3``, ``r2`` and ``r1``."""
    top = ["S", *(str(n) for n in range(1, width))]
    middle = [*("g" * (width - 1)), str(width)]
    bottom = ["F", *(str(n) for n in range(2 * width - 1, width, -1))]
    return "\n".join(" ".join(row) for row in (top, middle, bottom)) + "\n"


def finished(server: Server, match_id: str) -> dict[str, Any]:
    """The match's state once its bots have played it to the end."""
    for _ in range(1500):
        state: dict[str, Any] = server.get(f"/api/matches/{match_id}")
        if state["status"] == "finished":
            return state
        time.sleep(0.02)
    raise AssertionError(f"match {match_id} did not finish")


def record_of(server: Server, match_id: str) -> dict[str, Any]:
    status, record = server.call("GET", f"/api/matches/{match_id}/record")
    assert status == 200, record
    assert isinstance(record, dict)
    return record


@pytest.mark.parametrize("width", [18, 26])
def test_a_finished_bot_match_on_a_wide_board_survives_a_restart(tmp_path: Path,
                                                                 width: int) -> None:
    server = Server(tmp_path / "games.sqlite3").start()
    try:
        ids = [server.post("/api/matches", {
            "game": "shortcut", "seed": seed, "options": {"board": board_text(width)},
            "players": [{"name": "Ann", "kind": "bot:easy"},
                        {"name": "Ben", "kind": "bot:easy"}]})["id"] for seed in range(8)]
        before = {match_id: (finished(server, match_id)["version"],
                             record_of(server, match_id)["moves"]) for match_id in ids}
        column_r = [m for _, moves in before.values() for m in moves
                    if re.fullmatch(r"(\d:)?r\d+", m)]
        assert column_r, "no bot stopped on a square of column r: pick other seeds"
        server.stop()
        server.start()  # every match is rebuilt from its stored moves
        for match_id, (version, moves) in before.items():
            state = finished(server, match_id)
            assert state["version"] == version
            record = record_of(server, match_id)
            assert record["moves"] == moves
            replay = server.post("/api/replays", record)  # its own record is taken
            assert replay["moves"] == version
        with urllib.request.urlopen(f"{server.url}/api/matches/{ids[0]}/states/1",
                                    timeout=30) as answer:
            assert answer.status == 200
    finally:
        server.stop()
