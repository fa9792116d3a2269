"""A match that cannot catch up with the store (a stored move its rules refuse, the
database away) is dropped from memory: its viewers' sockets are closed with
:data:`~dicegames.web.fanout.RELOAD_CLOSE` and a reason, so their pages connect again at
once and get the match as stored, instead of keeping a socket that nothing pushes to."""

from __future__ import annotations

import pytest

from dicegames.web.fanout import RELOAD_CLOSE, RELOAD_REASON
from polling import until
from web.client import AppClient, Closed
from web.stores import execute

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def test_viewers_of_a_match_that_cannot_catch_up_are_closed_with_a_reason(
        pg_dsn: str) -> None:
    with AppClient(pg_dsn) as running:
        cluster = running.hub.cluster
        assert cluster is not None
        until(cluster.listening.is_set, "the cluster to listen", 10)
        match = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                              "dice": "manual"})
        with running.connect(f"/ws/matches/{match['id']}") as viewer:
            assert viewer.recv_json()["state"]["version"] == 0
            # Another process (or another version of the rules) stored a move these rules
            # refuse: the notice arrives, catching up fails.
            execute(pg_dsn, "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                            "VALUES (?, 0, NULL, 'no such move', 0, 0)", (match["id"],))
            try:
                while True:  # presence pushes may come first
                    viewer.recv(timeout=10)
            except Closed as closed:
                assert (closed.code, closed.reason) == (RELOAD_CLOSE, RELOAD_REASON)
        assert running.run(_held(running, match["id"])) is False


async def _held(running: AppClient, match_id: str) -> bool:
    return running.hub.resident.peek(match_id) is not None


def test_a_match_taken_over_that_cannot_catch_up_is_given_up_too(
        pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same when a process takes over a match whose driver died (its lease expired):
    the copy it holds, played only part of the way to the store, is not kept."""
    with AppClient(pg_dsn) as running:
        hub = running.hub
        match = running.post("/api/matches", {"game": "extra-meters", "players": TWO_PEOPLE,
                                              "dice": "manual"})
        with running.connect(f"/ws/matches/{match['id']}") as viewer:
            assert viewer.recv_json()["state"]["version"] == 0
            monkeypatch.setattr(hub, "heard", lambda notice: None)  # the notice is missed
            execute(pg_dsn, "INSERT INTO moves (match_id, idx, seat, text, several, at) "
                            "VALUES (?, 0, NULL, 'no such move', 0, 0)", (match["id"],))
            running.run(hub.orphaned(match["id"]))
            with pytest.raises(Closed) as closed:
                while True:  # presence pushes may come first
                    viewer.recv(timeout=10)
            assert closed.value.code == RELOAD_CLOSE
        assert running.run(_held(running, match["id"])) is False
