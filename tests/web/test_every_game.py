"""Every registered game is played to its end through the web app (a real server process).

The registry drives the app: a game registered anywhere (the toy game of tests/toygame.py
reaches the server through ``DICEGAMES_GAMES``) is listed, described, created, drawn and
played with no other change. A person plays one seat by the hints the server offers; the
generic ``random`` bot, which every game has, plays the others.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import dicegames
from dicegames.core.record import from_record
from dicegames.core.registry import definition
from dicegames.docs import rules_page
from web.server import Server

GAME_IDS = [spec.id for spec in dicegames.games()]


def players_of(game_id: str) -> list[dict[str, str]]:
    """Ann, then the generic random bot in every other seat of the game's usual count."""
    count = dicegames.make(game_id).players
    return [{"name": "Ann", "kind": "human"},
            *({"name": f"Bot {seat}", "kind": "bot:random"} for seat in range(1, count))]


def next_choice(server: Server, match_id: str, token: str) -> dict[str, Any]:
    """The match's state once Ann has choices or the game is over (the server rolls and the
    bots move in their own task, so a state read just after a move may not be there yet)."""
    deadline = time.monotonic() + 30
    while True:
        state: dict[str, Any] = server.get(f"/api/matches/{match_id}?token={token}")
        if state["status"] != "playing" or state["hints"].get("0"):
            return state
        assert time.monotonic() < deadline, f"Ann never decides: {state['node']}"
        time.sleep(0.01)


def test_the_app_lists_every_registered_game(server: Server) -> None:
    listed = [game["id"] for game in server.get("/api/games")["games"]]
    assert listed == GAME_IDS


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_is_described_created_and_played_to_the_end(server: Server,
                                                               game_id: str) -> None:
    detail = server.get(f"/api/games/{game_id}")
    assert detail["rules_markdown"] == rules_page(game_id)
    match = server.post("/api/matches", {"game": game_id, "players": players_of(game_id),
                                         "seed": 11})
    token = match["seats"][0]["token"]
    state = match["state"]
    # A game is drawn by its board module, or else as its presenter's text.
    assert state["view"]["game"] == game_id
    has_board = (definition(game_id).path / "board.js").is_file()
    assert (state["text"] is None) == has_board and (has_board or state["text"].strip())
    for _ in range(3000):
        state = next_choice(server, match["id"], token)
        if state["status"] != "playing":
            break
        hints = state["hints"]["0"]
        assert all({"move", "label", "targets"} <= set(hint) for hint in hints)
        server.post(f"/api/matches/{match['id']}/actions",
                    {"token": token, "move": hints[0]["move"]})
    assert state["status"] == "finished" and state["result"]["winners"]
    record = server.get(f"/api/matches/{match['id']}/record")
    assert record["game"] == game_id
    assert from_record(record).state.is_terminal
