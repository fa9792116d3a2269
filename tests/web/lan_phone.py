"""A second device plays through ``dicegames serve --lan``: run inside a fresh network
namespace (``unshare -n python tests/web/lan_phone.py FOLDER``, as ``test_lan`` does).

The namespace gets one network, made here: a veth pair with the documentation address
:data:`ADDRESS` (TEST-NET-1, RFC 5737) and a default route through it, so the server's
address detection finds a real non-loopback address of "this machine". Nothing in it is
connected to any other network: no packet can leave the machine.

Then, as a family would: the server starts with ``--lan`` (and prints that address), the
laptop opens the home page at ``localhost`` (which shows the address to open on a phone and
its QR code), starts a game with an invited seat, and shares the seat's link; the link and
its QR code carry the network address, not ``localhost``. The phone (a phone-sized page in
its own browser context) opens the link at the network address, and the two play the game
to its end. A foreign ``Host`` is still refused. Prints one JSON line on success; any
failure raises (non-zero exit, the reason on stderr).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from dicegames.web.qr import link_svg
from dicegames.web.server import spawn
from web.browser import ARGS, LAUNCH_TIMEOUT_MS, find_chromium

ADDRESS = "192.0.2.10"
"""The namespace's own network address (TEST-NET-1: documentation only, routed nowhere)."""

NETWORK = (
    ("link", "set", "lo", "up"),
    ("link", "add", "lan0", "type", "veth", "peer", "name", "lan1"),
    # No IPv6 link-local addresses: their duplicate-address detection ends a second or two
    # after the link is up, and Chromium takes that late change of addresses for a network
    # change, failing the requests in flight (net::ERR_NETWORK_CHANGED: seen in CI, where
    # the laptop's page lost its scripts).
    ("link", "set", "lan0", "addrgenmode", "none"),
    ("link", "set", "lan1", "addrgenmode", "none"),
    ("addr", "add", f"{ADDRESS}/24", "dev", "lan0"),
    ("link", "set", "lan1", "up"),
    ("link", "set", "lan0", "up"),
    ("route", "add", "default", "dev", "lan0"),
)
"""The ``ip`` commands that give the fresh namespace its one network."""

SETTLE_S = 10.0
"""How long the namespace's links may take to come up (carrier on both ends, no address
still tentative) before the browser starts."""


def make_network() -> None:
    """Give this (fresh) network namespace its network; refuse to touch any other one."""
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True,
                           check=True).stdout.strip().splitlines()
    if len(links) != 1 or ": lo:" not in links[0]:
        raise SystemExit("not in a fresh network namespace (run under unshare -n): "
                         "this script only changes a namespace it owns")
    for command in NETWORK:
        subprocess.run(["ip", *command], check=True)
    settle()


def settle() -> None:
    """Wait until the network is done changing: both ends of the pair up with a carrier
    (``LOWER_UP``) and no address tentative, so no change reaches the browser later."""
    deadline = time.monotonic() + SETTLE_S
    while True:
        links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True,
                               check=True).stdout
        addresses = subprocess.run(["ip", "-o", "addr"], capture_output=True, text=True,
                                   check=True).stdout
        pair = [line for line in links.splitlines() if ": lan0" in line or ": lan1" in line]
        if (len(pair) == 2 and all("LOWER_UP" in line for line in pair)
                and "tentative" not in addresses):
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"the namespace's network did not settle in {SETTLE_S:g} s:\n"
                             f"{links}{addresses}")
        time.sleep(0.05)


def fetch(url: str, host: str | None = None) -> tuple[int, bytes]:
    """GET ``url`` (with another ``Host`` header when given): status and body."""
    request = urllib.request.Request(url, headers={"host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def play_together(pages: list[Page], rng: random.Random, limit: int = 3000) -> int:
    """Click one offered choice on whichever page offers some, until both show the end
    screen; returns the clicks."""
    clicks = 0
    for _ in range(limit):
        if all(page.locator("#end").evaluate("dialog => dialog.open") for page in pages):
            return clicks
        moved = False
        for page in pages:
            buttons = page.locator("#choices button.choice:not([disabled])")
            count = buttons.count()
            if count:
                try:
                    buttons.nth(rng.randrange(count)).click(timeout=2_000)
                except PlaywrightTimeout:  # the state moved on meanwhile
                    continue
                clicks += 1
                moved = True
        if not moved:
            time.sleep(0.05)
    raise AssertionError(f"the game did not end within {limit} rounds")


def listen(page: Page) -> list[str]:
    """What ``page`` reports from now on (console lines, uncaught errors, failed and refused
    requests), printed when a step fails: the failure then says why the page did not fill."""
    heard: list[str] = []
    page.on("console", lambda message: heard.append(f"console {message.type}: {message.text}"))
    page.on("pageerror", lambda error: heard.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: heard.append(
        f"request failed: {request.url} ({request.failure})"))
    page.on("response", lambda answer: heard.append(f"answer {answer.status}: {answer.url}")
            if answer.status >= 400 else None)
    return heard


def main(folder: Path) -> None:
    """Everything of the module docstring, inside this namespace."""
    make_network()
    chromium, reason = find_chromium()
    if chromium is None:
        raise SystemExit(reason)
    process, url = spawn(folder / "games.sqlite3", 0.0, ("--no-rate-limits", "--lan"))
    try:
        served = urlsplit(url)
        assert served.hostname == ADDRESS, f"--lan served {url}, not {ADDRESS}"
        local = f"http://127.0.0.1:{served.port}"
        status, answer = fetch(f"{url}/api/games", host="evil.example")
        assert status == 403 and json.loads(answer)["error"] == "foreign_host", answer
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(chromium), args=ARGS,
                                                 timeout=LAUNCH_TIMEOUT_MS)
            laptop = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
            heard = listen(laptop)
            laptop.goto(f"{local}/?game=extra-meters")
            if any("ERR_NETWORK_CHANGED" in line for line in heard):
                # Chromium still saw the namespace's network change during the first load
                # (its scripts failed, not the server): a person would reload, and so do we,
                # once. Any other failure fails below, with what the page reported.
                print("the network changed under the first load: reloading once",
                      file=sys.stderr)
                laptop.reload()
            # The section is filled after the game cards and the lobby: give a loaded machine time.
            try:
                expect(laptop.locator("#phone-access .address")).to_have_text(f"{url}/",
                                                                              timeout=60_000)
            except AssertionError:
                print("what the laptop's page reported:", *heard, sep="\n  ", file=sys.stderr)
                raise
            expect(laptop.locator("#phone-access img")).to_have_js_property("complete", True)
            assert laptop.locator("#phone-access img").evaluate("img => img.naturalWidth") > 0
            expect(laptop.locator("#setup-title")).not_to_be_empty()
            laptop.locator("#players .kind").nth(1).select_option("invited")
            laptop.locator("#players .name").nth(0).fill("Ann")
            laptop.locator("#players .name").nth(1).fill("Ben")
            laptop.click("#start")
            laptop.wait_for_url("**/m/**")
            # The links are drawn at once, then again with the network address when the page
            # has asked the server for it (/api/lan): wait for that second drawing.
            expect(laptop.locator("#links input").first).to_have_value(
                re.compile("^" + re.escape(f"{url}/m/")), timeout=30_000)
            link = laptop.locator("#links input").first.input_value()
            assert link.startswith(f"{url}/m/"), f"the seat link {link} is not at {url}"
            token = parse_qs(urlsplit(link).query)["seat"][0]
            match_id = urlsplit(link).path.rsplit("/", 1)[-1]
            status, svg = fetch(f"{local}/api/matches/{match_id}/qr?token={token}")
            assert status == 200 and svg.decode() == link_svg(link), "the QR code's link"
            phone = browser.new_context(viewport={"width": 390, "height": 844},
                                        is_mobile=True, has_touch=True).new_page()
            phone.goto(link)
            expect(phone.locator("#seats")).to_contain_text("Ben")
            clicks = play_together([laptop, phone], random.Random(25))
            expect(phone.locator("#end-scores")).to_contain_text("Ben")
            browser.close()
        print(json.dumps({"served": url, "clicks": clicks}))
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
