"""Shortcut on boards of 18 columns or more, through the app in process and a restart.

Such a board has a column ``r``, whose squares ``r1``, ``r2``... were also read as road
squares 1, 2... A bot's move to square ``r2`` was stored as ``r2``; after a restart the
finished match was rebuilt from its moves, read ``r2`` as road square 2 and answered
``409 unplayable_match``, and its own record was refused on upload. Now every stored move
reads back as the square it named.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from polling import until
from web.client import AppClient


def board_text(width: int) -> str:
    """The 3-row board of ``tests/games/test_shortcut_notation.py``: road along the top
    row from the start ``a3``, down the last column and back to the finish ``a1``, a grey
    middle row; column ``r`` holds ``r3``, ``r2`` and ``r1``."""
    top = ["S", *(str(n) for n in range(1, width))]
    middle = [*("g" * (width - 1)), str(width)]
    bottom = ["F", *(str(n) for n in range(2 * width - 1, width, -1))]
    return "\n".join(" ".join(row) for row in (top, middle, bottom)) + "\n"


def finished(client: AppClient, match_id: str) -> dict[str, Any]:
    """The match's state once its bots have played it to the end."""
    def ended() -> dict[str, Any] | None:
        state: dict[str, Any] = client.get(f"/api/matches/{match_id}")
        return state if state["status"] == "finished" else None

    return until(ended, f"match {match_id} to finish", 60)


def record_of(client: AppClient, match_id: str) -> dict[str, Any]:
    status, record = client.call("GET", f"/api/matches/{match_id}/record")
    assert status == 200, record
    assert isinstance(record, dict)
    return record


@pytest.mark.parametrize("width", [18, 26])
def test_a_finished_bot_match_on_a_wide_board_survives_a_restart(tmp_path: Path,
                                                                 width: int) -> None:
    client = AppClient(tmp_path / "games.sqlite3").start()
    try:
        ids = [client.post("/api/matches", {
            "game": "shortcut", "seed": seed, "options": {"board": board_text(width)},
            "players": [{"name": "Ann", "kind": "bot:easy"},
                        {"name": "Ben", "kind": "bot:easy"}]})["id"] for seed in range(8)]
        before = {match_id: (finished(client, match_id)["version"],
                             record_of(client, match_id)["moves"]) for match_id in ids}
        column_r = [m for _, moves in before.values() for m in moves
                    if re.fullmatch(r"(\d:)?r\d+", m)]
        assert column_r, "no bot stopped on a square of column r: pick other seeds"
        client.stop()
        client.start()  # every match is rebuilt from its stored moves
        for match_id, (version, moves) in before.items():
            state = finished(client, match_id)
            assert state["version"] == version
            record = record_of(client, match_id)
            assert record["moves"] == moves
            replay = client.post("/api/replays", record)  # its own record is taken
            assert replay["moves"] == version
        assert client.http.get(f"/api/matches/{ids[0]}/states/1").status_code == 200
    finally:
        client.stop()
