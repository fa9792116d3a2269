"""Fixtures of the web tests: the app in process behind an ASGI client (``client``, see
:mod:`web.client`), a real server process over a temporary SQLite file (``server``), and a
real headless Chromium (an installed one, driven by Playwright: see :mod:`web.browser`).

Most tests check the application (answers, states, errors, websockets' messages, restarts
over the same database) and use ``client``: no port, no process, and the analysis workers
start only for a hint or a review. A real ``dicegames serve`` process
(:class:`web.server.Server`; such tests are marked ``process``, and ``make check`` leaves
them out) stays for what only a process or its sockets show:

* signals: SIGTERM and SIGKILL of the server and its analysis workers (``test_work``), a
  kill -9 in the middle of a stream of moves (``test_ws``), the soak (``test_soak``);
* another process at the database: a lock held elsewhere, damaged files refused by the
  real command with one line and exit 2 (``test_faults``);
* uvicorn and the kernel's sockets: frame limits, pings and readers that never read
  (``test_fuzz_ws``, ``test_slow_viewers``), TCP_NODELAY (``test_latency``), per-address
  limits from several loopback addresses and the memory of a burst (``test_limits``);
* time seen from another client: hints within their budget while bots keep their pace
  (``test_work``), other clients served while big records are checked
  (``test_security``), a GET beside sixteen live matches (``test_large_boards``);
* the command line's own options (``--allow-origin``, ``--send-timeout``);
* everything a real browser loads (marked ``browser``: pages, boards, accessibility,
  screenshots), with the API calls of those modules' own set-ups;
* ``test_headers`` and ``test_fuzz_api`` (the headers on the wire, schemathesis over HTTP)
  still use the real server; they could move to the client.

A kept-alive connection after a 500 is checked on uvicorn serving the app in this process
(:mod:`web.inprocess`).

One suite, two stores: ``client`` and ``server`` run over each store in turn (the
module-scoped ``backend`` parameter, ``[sqlite]`` and ``[postgres]`` in the test ids), a
fresh SQLite file or a fresh PostgreSQL database per module (copied from a template with
the schema migrated, on the session's throwaway cluster: see :mod:`pgcluster`). A test that
reads or damages the SQLite file itself is marked ``sqlite_only`` and runs on SQLite alone.
Where PostgreSQL can't be had, the ``[postgres]`` tests skip with the reason (fail under
``CI=true``). The browser tests stay on SQLite, except those marked ``both_stores``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from pgcluster import PgServer
from web.browser import ARGS, LAUNCH_TIMEOUT_MS, find_chromium, in_ci
from web.client import AppClient
from web.server import Server

BACKENDS = ("sqlite", "postgres")
"""The stores every ``client`` and ``server`` test runs over."""


def schema_template(pg_server: PgServer) -> str:
    """The session's template database with the stores' schema migrated (made once)."""
    def migrate(dsn: str) -> None:
        import psycopg

        from dicegames.web.migrations import migrate_postgres
        with psycopg.connect(dsn, autocommit=True) as connection:
            migrate_postgres(connection)

    return pg_server.template("dicegames-schema", migrate)


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The store of this module's run: ``sqlite`` or ``postgres``."""
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def store_target(backend: str, request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path | str]:
    """A fresh store for the module, as ``--db`` takes it: a SQLite file's path, or a
    ``postgresql://`` address of a database copied from the migrated template."""
    if backend == "sqlite":
        yield tmp_path_factory.mktemp("web") / "games.sqlite3"
        return
    pg_server: PgServer = request.getfixturevalue("pg_server")
    dsn = pg_server.create_database(schema_template(pg_server))
    yield dsn
    pg_server.drop_database(dsn)


@pytest.fixture
def fresh_target(backend: str, request: pytest.FixtureRequest,
                 tmp_path: Path) -> Iterator[Path | str]:
    """A fresh store for one test (the module's ``backend``), as ``--db`` takes it."""
    if backend == "sqlite":
        yield tmp_path / "games.sqlite3"
        return
    pg_server: PgServer = request.getfixturevalue("pg_server")
    dsn = pg_server.create_database(schema_template(pg_server))
    yield dsn
    pg_server.drop_database(dsn)


@pytest.fixture(scope="module")
def client(store_target: Path | str) -> Iterator[AppClient]:
    """The app in process over a fresh store (each backend in turn), no bot pause, shared
    by the tests of one module."""
    with AppClient(store_target) as running:
        yield running


@pytest.fixture(scope="module")
def server(store_target: Path | str) -> Iterator[Server]:
    """A server with no bot pause over a fresh store (each backend in turn), shared by the
    tests of one module."""
    running = Server(store_target).start()
    yield running
    running.stop()


def no_browser(reason: str) -> NoReturn:
    """Skip the browser tests with ``reason``, or fail them in CI."""
    if in_ci():
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason} (in CI, with CI=true, this fails instead)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module (see :func:`web.browser.find_chromium`)."""
    chromium, reason = find_chromium()
    if chromium is None:
        no_browser(reason)
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=str(chromium), args=ARGS,
                                                  timeout=LAUNCH_TIMEOUT_MS)
        except PlaywrightError as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
            no_browser(f"{chromium} did not start: {first}")
        yield launched
        launched.close()


def _page(browser: Browser, width: int, height: int, **options: Any) -> Iterator[Page]:
    """A fresh browser context (its own storage, ``options`` as Playwright's
    ``new_context`` takes them) and page; page errors and content security policy
    violations (console errors: something the page tried was blocked) fail the test."""
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text)
              if "Content Security Policy" in message.text else None)
    yield opened
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop-size page (1000 x 900) in a fresh context; page errors fail the test."""
    yield from _page(browser, 1000, 900)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone-width page (390 x 844) in a fresh context; page errors fail the test."""
    yield from _page(browser, 390, 844)


@pytest.fixture
def dark_phone(browser: Browser) -> Iterator[Page]:
    """A phone-width page (390 x 844) in dark mode at two device pixels per CSS pixel, in a
    fresh context; page errors fail the test."""
    yield from _page(browser, 390, 844, color_scheme="dark", device_scale_factor=2)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests by what they start: ``process`` for a real server process (the
    ``server`` fixture), ``browser`` for a real Chromium; ``make check`` leaves both out.
    Leave out the ``[postgres]`` run of the tests marked ``sqlite_only``, and of the browser
    tests not marked ``both_stores``."""
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "server" in names:
            item.add_marker(pytest.mark.process)
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("backend") == "postgres"
        if on_postgres:
            item.add_marker(pytest.mark.postgres)
        sqlite_only = item.get_closest_marker("sqlite_only") is not None or (
            "browser" in names and item.get_closest_marker("both_stores") is None)
        (dropped if on_postgres and sqlite_only else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
