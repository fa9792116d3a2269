"""Shared pieces of the browser tests: finding a Chromium, where screenshots go, and
helpers that start a game from the home page and click through it.

The fixtures ``browser`` and ``page`` live in ``conftest.py``; a game's own board tests
(``test_board_<game>.py``) use these helpers. Playwright never downloads a browser here: the
tests drive an installed Chromium (``make browser`` installs Debian's where apt-get can), or
the one ``DICEGAMES_CHROMIUM`` names. Where none can be had they are skipped with a message,
except in CI (``CI`` set, as ``.ci/run`` has it), where a missing browser fails the run.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from playwright.sync_api import Page, expect

CHROMIUM_ENV = "DICEGAMES_CHROMIUM"
"""An environment variable naming the Chromium (or Chrome) executable to use."""
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
"""Executables looked for on PATH, in this order, after /usr/bin/chromium."""
CHROMIUM_PATHS = (Path("/usr/bin/chromium"),
                  Path("/Applications/Chromium.app/Contents/MacOS/Chromium"),
                  Path("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"))
LAUNCH_TIMEOUT_MS = 60_000
"""How long a browser may take to start before the tests give up on it (never a hang)."""
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "test-output"
READY = """() => document.querySelector('#end')?.open ||
    document.querySelector('#choices button.choice:not([disabled])') !== null"""


def in_ci(environ: dict[str, str] | None = None) -> bool:
    """True in continuous integration (``CI`` set to anything but empty, 0 or false), where
    browser tests must run: a missing Chromium fails them instead of skipping them."""
    value = (os.environ if environ is None else environ).get("CI", "")
    return value.strip().lower() not in ("", "0", "false", "no")


def find_chromium(environ: dict[str, str] | None = None,
                  paths: tuple[Path, ...] = CHROMIUM_PATHS) -> tuple[Path | None, str]:
    """The Chromium to drive, or None and a sentence saying what was looked for.

    ``DICEGAMES_CHROMIUM`` wins when set (and must be an executable file); then the first of
    ``paths`` (/usr/bin/chromium), the usual names on PATH, and the other ``paths`` (the
    macOS applications).
    """
    env = os.environ if environ is None else environ
    named = env.get(CHROMIUM_ENV, "").strip()
    if named:
        path = Path(named)
        if path.is_file() and os.access(path, os.X_OK):
            return path, ""
        return None, f"{CHROMIUM_ENV}={named} is not an executable file"
    for path in paths[:1]:
        if path.is_file() and os.access(path, os.X_OK):
            return path, ""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name, path=env.get("PATH"))
        if found is not None:
            return Path(found), ""
    for path in paths[1:]:
        if path.is_file() and os.access(path, os.X_OK):
            return path, ""
    looked = ", ".join([*map(str, paths[:1]), *CHROMIUM_NAMES])
    return None, (f"no Chromium found (looked for {looked} on PATH and the macOS "
                  f"applications); install one (Debian/Ubuntu: `make browser`, or "
                  f"`sudo apt-get install chromium`) or set {CHROMIUM_ENV}=/path/to/chromium")


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


TEXT_PROBLEMS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    const wide = document.documentElement.scrollWidth;
    problems.push(`the page is wider than the screen: ${wide} > ${width}`);
  }
  for (const node of document.querySelectorAll('button, select, .choice, a.button')) {
    const box = node.getBoundingClientRect();
    if (!node.getClientRects().length || box.width === 0) continue;  // not shown
    if (node.scrollWidth > node.clientWidth + 1) {
      const words = node.textContent.trim();
      const sizes = `${node.scrollWidth} > ${node.clientWidth}`;
      problems.push(`text runs out of a button: "${words}" (${sizes})`);
    }
    let scroller = node.parentElement;  // a list that scrolls may hold buttons out of view
    while (scroller && !/(auto|scroll|hidden)/.test(getComputedStyle(scroller).overflow)) {
      scroller = scroller.parentElement;
    }
    if (!scroller && (box.right > width + 1 || box.left < -1)) {
      problems.push(`a button leaves the screen: "${node.textContent.trim()}"`);
    }
  }
  for (const board of document.querySelectorAll('#board svg')) {
    if (board.parentElement.closest('#board svg')) continue;  // a picture inside the board
    const edge = board.getBoundingClientRect();
    if (!edge.width) continue;
    for (const text of board.querySelectorAll('text')) {
      const words = text.textContent.trim();
      const box = text.getBoundingClientRect();
      if (!words || !box.width) continue;
      if (box.left < edge.left - 1 || box.right > edge.right + 1 || box.top < edge.top - 1
          || box.bottom > edge.bottom + 1) {
        problems.push(`board words clipped: "${words}"`);
      }
    }
  }
  return problems;
}"""
"""Where words don't fit (run in the page): the page wider than the screen, a button's text
running out of it or a button off the screen, a board's words clipped by its edge."""


def text_problems(page: Page) -> list[str]:
    """Every place on the page as it stands where words don't fit (:data:`TEXT_PROBLEMS`)."""
    found: list[str] = page.evaluate(TEXT_PROBLEMS)
    return found
