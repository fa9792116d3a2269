"""Play again (``POST /api/matches/{id}/again``, :mod:`dicegames.web.rematch`): any person
of a finished match, on any device, lands in the same new match with their own seat, and
whoever watches is told where it is."""

from __future__ import annotations

import asyncio
from typing import Any

from dicegames.web.commands import Again
from dicegames.web.rematch import Rematch, play_again
from polling import until
from web.client import AppClient

NEAR_THE_END = "e12/a12 1 declare - 1"
"""A Shortcut position: Ann's car one step before the finish, her turn to declare (a push
wins)."""


def near_the_end(client: AppClient) -> dict[str, Any]:
    """A new match of two people Ann wins with one push; its links."""
    match: dict[str, Any] = client.post("/api/matches", {
        "game": "shortcut", "seed": 1, "position": NEAR_THE_END,
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    return match


SOON_OVER = ("push", "stop")
"""The moves that end a game soonest (Shortcut's push, Extra Meters' stop)."""


def play_to_the_end(client: AppClient, match: dict[str, Any]) -> None:
    """Every person takes the choice that ends the game soonest until it is over."""
    mid = match["id"]
    tokens = ",".join(seat["token"] for seat in match["seats"] if seat["token"])

    def over() -> bool:
        state = client.get(f"/api/matches/{mid}?token={tokens}")
        if state["status"] == "finished":
            return True
        for seat in state["node"]["deciding"]:
            hints = state["hints"].get(str(seat))
            token = match["seats"][seat]["token"]
            if hints and token:
                moves = [hint["move"] for hint in hints]
                move = next((m for m in SOON_OVER if m in moves), moves[0])
                client.call("POST", f"/api/matches/{mid}/actions",
                            {"token": token, "move": move})
        return False

    until(over, f"match {mid} to finish")


def again(client: AppClient, match_id: str, body: object) -> tuple[int, Any]:
    return client.call("POST", f"/api/matches/{match_id}/again", body)


def test_every_device_lands_in_the_same_new_match_with_its_own_seat(
        client: AppClient) -> None:
    match = near_the_end(client)
    mid = match["id"]
    ann, ben = (seat["token"] for seat in match["seats"])
    play_to_the_end(client, match)
    assert client.get(f"/api/matches/{mid}")["rematch"] is None
    # The phone that joined by Ben's link asks first: the rematch is created for everyone.
    status, first = again(client, mid, {"token": ben})
    assert status == 201, first
    assert [(seat["seat"], seat["name"]) for seat in first["seats"]] == [(1, "Ben")]
    new = first["id"]
    assert new != mid and first["seats"][0]["link"] == f"/m/{new}?seat={first['seats'][0]['token']}"
    # The device that set the game up asks next: the same match, its own seat only.
    status, second = again(client, mid, {"tokens": [ann]})
    assert status == 200 and second["id"] == new, second
    assert [seat["seat"] for seat in second["seats"]] == [0]
    assert second["seats"][0]["token"] != first["seats"][0]["token"]
    # Asking again changes nothing; both seats at once get both tokens.
    status, both = again(client, mid, {"tokens": [ben, ann]})
    assert status == 200 and both["id"] == new
    assert {seat["seat"]: seat["token"] for seat in both["seats"]} == {
        0: second["seats"][0]["token"], 1: first["seats"][0]["token"]}
    # Each new token holds its own seat in the new match: same players, options, dice.
    old = client.get(f"/api/matches/{mid}")
    state = client.get(f"/api/matches/{new}?token={first['seats'][0]['token']}")
    assert state["you"] == [1] and state["status"] == "playing"
    assert state["players"] == old["players"]
    assert state["options"] == old["options"]
    assert state["dice_mode"] == old["dice_mode"]
    assert state["fair"]["seeded_by"] != "creator"  # fresh dice, not the same rolls again
    # Whoever watches the finished match is told where the next one is.
    assert old["rematch"] == new
    assert client.get(f"/api/matches/{mid}?token={ann}")["rematch"] == new


def test_options_and_bot_levels_are_kept_and_the_rematch_survives_a_restart(
        client: AppClient) -> None:
    match = client.post("/api/matches", {
        "game": "extra-meters", "options": {"track_length": 15},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
    play_to_the_end(client, match)
    status, first = again(client, match["id"], {"token": match["seats"][0]["token"]})
    assert status == 201 and [seat["seat"] for seat in first["seats"]] == [0]
    state = client.get(f"/api/matches/{first['id']}")
    assert [p["kind"] for p in state["players"]] == ["human", "bot:easy"]
    assert state["options"]["track_length"] == 15
    client.stop()
    client.start()
    status, later = again(client, match["id"], {"token": match["seats"][0]["token"]})
    assert status == 200 and later["id"] == first["id"]
    assert later["seats"] == first["seats"]
    assert client.get(f"/api/matches/{match['id']}")["rematch"] == first["id"]


def test_two_devices_at_the_same_moment_get_one_rematch(client: AppClient) -> None:
    match = near_the_end(client)
    play_to_the_end(client, match)
    hub = client.hub
    tokens = [seat["token"] for seat in match["seats"]]

    async def both() -> list[Rematch]:
        found = await hub.get(match["id"])
        return list(await asyncio.gather(*(play_again(hub, found, Again((token,)))
                                           for token in tokens)))

    first, second = client.run(both())
    assert first.match.id == second.match.id
    assert [first.created, second.created].count(True) == 1
    assert (list(first.seats), list(second.seats)) == ([0], [1])


def test_bad_requests_are_refused_with_a_code_never_a_server_error(
        client: AppClient) -> None:
    playing = near_the_end(client)
    finished = near_the_end(client)
    play_to_the_end(client, finished)
    other = playing["seats"][1]["token"]
    cases: list[tuple[str, object, int, str]] = [
        (finished["id"], {}, 403, "bad_token"),
        (finished["id"], {"token": ""}, 403, "bad_token"),
        (finished["id"], {"token": 7}, 403, "bad_token"),
        (finished["id"], {"token": other}, 403, "bad_token"),  # another match's seat
        (finished["id"], {"tokens": [finished["seats"][0]["token"], other]}, 403, "bad_token"),
        (finished["id"], {"tokens": "abc"}, 400, "bad_request"),
        (finished["id"], {"tokens": []}, 400, "bad_request"),
        (finished["id"], {"tokens": ["x"] * 17}, 400, "bad_request"),
        (finished["id"], [1], 400, "bad_json"),
        (playing["id"], {"token": playing["seats"][0]["token"]}, 409, "not_over"),
        ("no-such-match", {"token": "x"}, 404, "unknown_match"),
    ]
    for match_id, body, status, code in cases:
        answer = again(client, match_id, body)
        assert answer[0] == status and answer[1]["error"] == code, (body, answer)
    # None of them made a rematch.
    assert client.get(f"/api/matches/{finished['id']}")["rematch"] is None
    assert client.get(f"/api/matches/{playing['id']}")["rematch"] is None
    # A replayed record has nobody to play again.
    record = client.get(f"/api/matches/{finished['id']}/record")
    upload = client.post("/api/replays", record)
    status, refused = again(client, upload["id"], {"token": finished["seats"][0]["token"]})
    assert (status, refused["error"]) == (403, "bad_token")
