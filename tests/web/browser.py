"""Shared pieces of the browser tests: the system Chromium, where screenshots go, and
helpers that start a game from the home page and click through it.

The fixtures ``browser`` and ``page`` live in ``conftest.py``; a game's own board tests
(``test_board_<game>.py``) use these helpers.
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Page, expect

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "test-output"
READY = """() => document.querySelector('#end')?.open ||
    document.querySelector('#choices button.choice:not([disabled])') !== null"""


def start_against_bots(page: Page, base_url: str, game: str, name: str = "Ann",
                       level: str = "easy") -> None:
    """From the home page: ``name`` in the first seat, bots of ``level`` in the others."""
    page.goto(base_url + f"/?game={game}")
    expect(page.locator("#setup-title")).not_to_be_empty()
    rows = page.locator("#players .kind")
    for row in range(1, rows.count()):
        rows.nth(row).select_option(f"bot:{level}")
    page.locator("#players .name").first.fill(name)
    page.click("#start")
    page.wait_for_url("**/m/**")
    expect(page.locator("#status")).to_contain_text(name)


def play_to_the_end(page: Page, rng: random.Random, limit: int = 1500) -> int:
    """Click one of the offered choices until the end screen shows; returns the clicks."""
    for clicks in range(limit):
        page.wait_for_function(READY, timeout=20_000)
        if page.locator("#end").evaluate("dialog => dialog.open"):
            return clicks
        buttons = page.locator("#choices button.choice:not([disabled])")
        count = buttons.count()
        if count == 0:
            continue
        buttons.nth(rng.randrange(count)).click()
    raise AssertionError(f"the game did not end after {limit} clicks")
