"""The undo grace period (:mod:`dicegames.web.grace`): after a person's last decision of a
turn the driver holds the next automatic step, so the undo button stays usable, and every
viewer is told how long; a table of bots never waits."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from polling import until
from web.client import AppClient

LONG = 60.0
"""A grace period no test outlasts: what it holds stays held while the test looks."""

ANN_AND_BOT = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:medium"}]


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppClient]:
    """The app in process with a grace period longer than any test."""
    with AppClient(tmp_path_factory.mktemp("grace") / "games.sqlite3",
                   undo_grace=LONG) as running:
        yield running


def create(client: AppClient, players: list[dict[str, str]], **body: Any) -> dict[str, Any]:
    request = {"game": "extra-meters", "players": players, "seed": 7, **body}
    answer: dict[str, Any] = client.post("/api/matches", request)
    return answer


def state_of(client: AppClient, match_id: str, token: str = "") -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/matches/{match_id}?token={token}")
    return answer


def ann_decides(client: AppClient, match_id: str, token: str) -> dict[str, Any]:
    """The state once Ann (seat 0) has choices (the server rolls her die first)."""
    def check() -> dict[str, Any] | None:
        state = state_of(client, match_id, token)
        return state if state["hints"].get("0") else None
    return until(check, "Ann's choices")


def test_the_turns_last_decision_holds_the_game_and_can_be_taken_back(
        held: AppClient) -> None:
    match = create(held, ANN_AND_BOT)
    mid, ann = match["id"], match["seats"][0]["token"]
    ann_decides(held, mid, ann)
    # A decision inside the turn: the roll follows at once, with no grace.
    version = held.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "roll"})["version"]
    state = until(lambda: (s := state_of(held, mid, ann))["version"] > version and s,
                  "the roll after 'roll'")
    assert state["undo_grace"] is None
    state = ann_decides(held, mid, ann)
    if state["status"] != "playing":
        pytest.skip("the seed's roll ended the turn")
    # The turn's last decision: the bot's roll waits, and Ann is told for how long.
    version = held.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "stop"})["version"]
    state = state_of(held, mid, ann)
    assert state["can_undo"] and 0 < state["undo_grace"] <= LONG
    assert state_of(held, mid)["undo_grace"] is None  # a spectator cannot undo it
    time.sleep(0.3)  # what the driver would have played meanwhile (it must not)
    assert state_of(held, mid, ann)["version"] == version
    # Taking it back ends the wait; it is Ann's decision again.
    held.post(f"/api/matches/{mid}/undo", {"token": ann})
    state = state_of(held, mid, ann)
    assert state["version"] == version - 1 and state["undo_grace"] is None
    assert "stop" in [hint["move"] for hint in state["hints"]["0"]]


def test_the_game_goes_on_when_the_grace_period_ends(tmp_path: Path) -> None:
    with AppClient(tmp_path / "games.sqlite3", undo_grace=0.2) as client:
        match = create(client, ANN_AND_BOT)
        mid, ann = match["id"], match["seats"][0]["token"]
        ann_decides(client, mid, ann)
        version = client.post(f"/api/matches/{mid}/actions",
                              {"token": ann, "move": "stop"})["version"]
        state = until(lambda: (s := state_of(client, mid, ann))["version"] > version + 1 and s,
                      "the bot's turn after the grace period")
        assert not state["can_undo"] and state["undo_grace"] is None


def test_bots_alone_never_wait(held: AppClient) -> None:
    bots = [{"name": "A", "kind": "bot:easy"}, {"name": "B", "kind": "bot:easy"}]
    mid = create(held, bots, options={"track_length": 10})["id"]
    state = until(lambda: (s := state_of(held, mid))["status"] == "finished" and s,
                  "a bots-only game to finish", timeout=LONG / 2)
    assert state["undo_grace"] is None


def test_no_wait_when_a_person_decides_next(held: AppClient) -> None:
    """When the next step is a person's (dice typed in by hand), nothing is automatic: no
    countdown, and the undo stays until that person acts."""
    people = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    match = create(held, people, dice="manual")
    mid = match["id"]
    ann, ben = (seat["token"] for seat in match["seats"])
    held.post(f"/api/matches/{mid}/dice", {"token": ben, "dice": "2"})
    held.post(f"/api/matches/{mid}/actions", {"token": ann, "move": "stop"})
    state = state_of(held, mid, ann)
    assert state["can_undo"] and state["undo_grace"] is None
    held.post(f"/api/matches/{mid}/dice", {"token": ben, "dice": "3"})
    assert not state_of(held, mid, ann)["can_undo"]


@pytest.mark.parametrize("seconds", ["-1", "61"])
def test_serve_refuses_a_grace_period_out_of_range(seconds: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from dicegames.cli import main
    assert main(["serve", "--undo-grace", seconds, "--port", "0"]) == 2
    assert "--undo-grace takes seconds from 0 to 60" in capsys.readouterr().err
