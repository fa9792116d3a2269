"""Every phone in the house (issue 25): ``dicegames serve --lan``, the served address in the
links, QR codes, ``Host`` and origin checks, the home page's "Open on a phone", and "Join a
table" in every page's header (defect 10).

The end-to-end test runs a real server bound to a non-loopback address of this machine: an
address of a network namespace the test makes itself (:mod:`web.lan_phone`), where a
laptop page and a phone page play a game through it. No packet leaves the machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from dicegames.cli import main
from dicegames.web.lan import PROBE, network_address, origin_of, terminal_qr, usable
from dicegames.web.qr import link_svg
from web.browser import in_ci
from web.client import AppClient
from web.server import Server

SERVED = "http://192.0.2.10:8000"
"""A served origin on a documentation address (the in-process app never listens on it)."""

TWO = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppClient]:
    """The app as ``dicegames serve --lan`` builds it, served at :data:`SERVED`."""
    with AppClient(tmp_path_factory.mktemp("lan") / "games.sqlite3", served=SERVED) as app:
        yield app


# ------------------------------------------------------------------ the address


def test_only_addresses_other_devices_reach_are_usable() -> None:
    for address in ("192.168.1.20", "10.0.0.7", "192.0.2.10"):
        assert usable(address), address
    for address in ("127.0.0.1", "0.0.0.0", "169.254.3.4", "::1", "fe80::1", "224.0.0.1",
                    "localhost", "not an address"):
        assert not usable(address), address
    assert origin_of("192.0.2.10", 8000) == SERVED
    assert origin_of("2001:db8::1", 80) == "http://[2001:db8::1]:80"
    assert usable(PROBE)  # a documentation address: routed like any other, never sent to


def test_the_network_address_is_usable_or_refused_in_a_sentence() -> None:
    try:
        assert usable(network_address())
    except OSError as error:
        assert "--host" in str(error)


def test_the_terminal_shows_the_address_as_a_qr_code() -> None:
    lines = terminal_qr(f"{SERVED}/").splitlines()
    assert len(lines) > 10 and len({len(line) for line in lines}) == 1
    assert set("".join(lines)) <= set(" ▀▄█")


def test_lan_takes_an_address_phones_can_reach() -> None:
    for host in ("127.0.0.1", "0.0.0.0", "localhost"):
        assert main(["serve", "--lan", "--host", host, "--port", "0"]) == 2, host


# ------------------------------------------------------------------ the app with --lan


def test_the_home_page_address_and_its_qr_code(lan: AppClient, client: AppClient) -> None:
    assert lan.get("/api/lan") == {"url": f"{SERVED}/"}
    answer = lan.http.get("/api/lan/qr")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert answer.text == link_svg(f"{SERVED}/")
    assert client.get("/api/lan") == {"url": None}
    status, error = client.call("GET", "/api/lan/qr")
    assert (status, error["error"]) == (404, "no_lan") and "--lan" in error["message"]


def test_seat_qr_codes_carry_the_served_address(lan: AppClient) -> None:
    match = lan.post("/api/matches", {"game": "extra-meters", "players": TWO})
    token = match["seats"][1]["token"]
    answer = lan.http.get(f"/api/matches/{match['id']}/qr?token={token}")  # at localhost
    assert answer.status_code == 200
    assert answer.text == link_svg(f"{SERVED}/m/{match['id']}?seat={token}")


def test_the_served_address_is_the_only_other_host(lan: AppClient, client: AppClient) -> None:
    body = {"game": "extra-meters", "players": TWO}
    for host, status in (("192.0.2.10:8000", 200), ("127.0.0.1:8000", 200),
                         ("localhost:8000", 200), ("192.0.2.11:8000", 403),
                         ("evil.example", 403), ("192.0.2.10.evil.example", 403)):
        got, answer = lan.call("GET", "/api/games", headers={"host": host})
        assert got == status, (host, answer)
        if status == 403:
            assert answer["error"] == "foreign_host" and "192.0.2.10" in answer["message"]
    got, _ = client.call("GET", "/api/games", headers={"host": "192.0.2.10:8000"})
    assert got == 403  # without --lan, the network address is as foreign as any
    for origin, status in ((SERVED, 201), ("http://192.0.2.10:9999", 403),
                           ("http://evil.example", 403)):
        got, answer = lan.call("POST", "/api/matches", body,
                               headers={"host": "192.0.2.10:8000", "origin": origin})
        assert got == status, (origin, answer)


# ------------------------------------------------------------------ a second device


def namespace_problem() -> str | None:
    """Why a network namespace cannot be made here, or None when it can."""
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"no {tool} command"
    try:
        made = subprocess.run(["unshare", "-n", "ip", "link", "add", "lan0", "type", "veth",
                               "peer", "name", "lan1"], capture_output=True, text=True, check=False,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if made.returncode != 0:
        return (made.stderr.strip() or "unshare -n failed") + " (it needs root or user "\
            "namespaces, and veth links)"
    return None


@pytest.mark.browser
@pytest.mark.process
def test_a_phone_plays_through_lan_on_a_network_address(tmp_path: Path) -> None:
    problem = namespace_problem()
    if problem is not None:
        if in_ci():
            pytest.fail(f"cannot make a network namespace in CI: {problem}", pytrace=False)
        pytest.skip(f"cannot make a network namespace: {problem} (in CI this fails)")
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT / "tests")))}
    ran = subprocess.run(["unshare", "-n", sys.executable, str(ROOT / "tests/web/lan_phone.py"),
                          str(tmp_path)], env=env, capture_output=True, text=True, check=False,
                         timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert '"served": "http://192.0.2.10:' in ran.stdout


# ------------------------------------------------------------------ the pages


def test_join_a_table_is_in_every_pages_header(server: Server, page: Page) -> None:
    match = server.post("/api/matches", {"game": "extra-meters", "players": TWO})
    for address in ("/", f"/m/{match['id']}", f"/replay/{match['id']}"):
        page.goto(server.url + address)
        link = page.locator("header.top").get_by_role("link", name="Join a table")
        expect(link).to_be_visible()
    page.goto(server.url + "/?lang=fr")
    page.locator("header.top").get_by_role("link", name="Rejoindre une table").click()
    expect(page.locator("#lobby")).to_be_in_viewport()
    expect(page.locator("#lobby-title")).to_have_text("Rejoindre une table")


def test_the_home_page_says_how_to_open_it_on_a_phone(server: Server, page: Page) -> None:
    page.goto(server.url + "/?lang=de")
    section = page.locator("#phone")
    expect(section.get_by_role("heading")).to_have_text("Auf dem Handy öffnen")
    expect(section).to_contain_text("dicegames serve --lan")
    expect(section.locator("img")).to_have_count(0)  # no code of a loopback address


def test_the_home_page_asks_again_for_the_games_when_the_server_did_not_answer(
        server: Server, page: Page) -> None:
    """A server restarting (or a dropped network) while the home page loads: the page says
    the games could not be loaded, asks again, and fills itself once the server answers."""
    refused = {"count": 0}

    def first_two_refused(route: Route) -> None:
        if refused["count"] < 2:
            refused["count"] += 1
            route.fulfill(status=503, content_type="application/json",
                          body='{"error": "unavailable", "message": "restarting"}')
        else:
            route.continue_()

    page.route("**/api/games?*", first_two_refused)
    page.goto(server.url + "/?lang=fr")
    expect(page.locator("#games-error")).to_contain_text("Les jeux n’ont pas pu être chargés")
    expect(page.locator("#games-error")).to_contain_text("restarting")
    expect(page.locator("#games li").first).to_be_visible(timeout=15_000)
    expect(page.locator("#games-error")).to_be_empty()
    expect(page.locator("#phone")).to_be_visible()
    assert refused["count"] == 2
