"""Invite links and seat presence on the match page (issue 14, defect 1), in Chromium.

A match with an invited seat opens its "Links to share" by itself before anyone has moved,
and every viewer sees each person's seat as connected, not yet joined, or away, live.
"""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect

from web.server import Server


def _two_people(server: Server) -> tuple[dict[str, object], str, str]:
    match = server.post("/api/matches", {"game": "extra-meters", "seed": 4, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    seats = match["seats"]
    return match, str(seats[0]["token"]), str(seats[1]["link"])


def test_invite_links_open_by_themselves_and_presence_is_live(server: Server,
                                                               browser: Browser) -> None:
    match, ann_token, ben_link = _two_people(server)
    ann_context, ben_context = browser.new_context(), browser.new_context()
    try:
        ann = ann_context.new_page()
        # As the set-up page leaves it: Ann plays here, Ben is invited by his link.
        ann.goto(server.url + "/")
        saved = {"tokens": [ann_token], "invites": [{"name": "Ben", "link": ben_link}]}
        ann.evaluate("([key, value]) => localStorage.setItem(key, value)",
                     [f"dicegames:{match['id']}", json.dumps(saved)])
        ann.goto(server.url + f"/m/{match['id']}")
        expect(ann.locator("#invites")).to_have_attribute("open", "")
        expect(ann.locator("#links")).to_contain_text("Ben's seat")
        ann_seat, ben_seat = ann.locator("#seats li").nth(0), ann.locator("#seats li").nth(1)
        expect(ann_seat).to_contain_text("connected")
        expect(ben_seat).to_contain_text("not yet joined")
        ben = ben_context.new_page()
        ben.goto(server.url + ben_link)
        expect(ben_seat).to_contain_text("connected")
        expect(ben.locator("#seats li").nth(0)).to_contain_text("connected")
        ben.close()
        expect(ben_seat).to_contain_text("away")
        # Presence names seats only: no token reaches another viewer.
        text = ann.locator("#seats").inner_text()
        assert ben_link.rsplit("=", 1)[-1] not in text
    finally:
        ann_context.close()
        ben_context.close()
