"""Play again from every device, in a real headless Chromium (issue 25, defect 8): the
device that set the game up and a phone that joined by its seat link both press "Play
again" on the end screen and land in the same new match, each in their own seat; a person
watching gets a link to the next game."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from polling import until
from web.server import Server

NEAR_THE_END = "e12/a12 1 declare - 1"
"""A Shortcut position: Ann's car one step before the finish, her turn to declare (a push
wins)."""


def finish(server: Server, match: dict[str, Any]) -> None:
    """Ann pushes, then whoever decides takes their first choice, until the game is over."""
    mid = match["id"]
    seats = [seat["token"] for seat in match["seats"]]
    server.post(f"/api/matches/{mid}/actions", {"token": seats[0], "move": "push"})

    def over() -> bool:
        state = server.get(f"/api/matches/{mid}?token={','.join(seats)}")
        for seat in state["node"]["deciding"] if state["status"] == "playing" else []:
            hints = state["hints"].get(str(seat))
            if hints:
                server.call("POST", f"/api/matches/{mid}/actions",
                            {"token": seats[seat], "move": hints[0]["move"]})
        return bool(state["status"] == "finished")

    until(over, f"match {mid} to finish")


def test_the_host_and_a_phone_that_joined_by_link_play_again_together(
        server: Server, page: Page, phone: Page, browser: Browser) -> None:
    match = server.post("/api/matches", {
        "game": "shortcut", "seed": 1, "position": NEAR_THE_END,
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    mid = match["id"]
    ann, ben = match["seats"]
    # The host's device keeps its own seat as the set-up page does; Ben was sent his link.
    kept = {"tokens": [ann["token"]],
            "invites": [{"seat": 1, "name": "Ben", "link": ben["link"]}]}
    page.add_init_script(f"localStorage.setItem({json.dumps('dicegames:' + mid)}, "
                         f"{json.dumps(json.dumps(kept))})")
    page.goto(f"{server.url}/m/{mid}")
    phone.goto(server.url + ben["link"])
    watching = browser.new_context(viewport={"width": 1000, "height": 900})
    watcher = watching.new_page()
    watcher.goto(f"{server.url}/m/{mid}")
    expect(page.locator("#choices button[data-move=push]")).to_be_enabled()
    finish(server, match)
    for device in (page, phone, watcher):
        expect(device.locator("#end")).to_be_visible()
    expect(watcher.locator("#again")).to_be_hidden()
    expect(watcher.locator("#next-game")).to_be_hidden()
    # The phone asks first, then the host: both land in the same new match.
    phone.locator("#again").click()
    phone.wait_for_url(re.compile(r"/m/[^/?]+\?seat="))
    page.locator("#again").click()
    page.wait_for_url(lambda url: f"/m/{mid}" not in url and "/m/" in url)
    new = page.url.rsplit("/", 1)[1]
    assert phone.url.split("/m/")[1].split("?")[0] == new and new != mid
    # Each in their own seat: the host holds Ann's, the phone Ben's.
    host_tokens = json.loads(page.evaluate(f"localStorage.getItem('dicegames:{new}')"))["tokens"]
    phone_token = phone.url.split("seat=")[1]
    assert server.get(f"/api/matches/{new}?token={host_tokens[0]}")["you"] == [0]
    assert server.get(f"/api/matches/{new}?token={phone_token}")["you"] == [1]
    assert phone_token not in host_tokens
    expect(page.locator("#seats")).to_contain_text("Ann")
    expect(page.locator("#choices button.choice:not([disabled])").first).to_be_visible()
    expect(phone.locator("#status")).not_to_be_empty()
    # Whoever watched the finished game is shown the way to the next one.
    link = watcher.locator("#next-game")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", f"/m/{new}")
    watching.close()
