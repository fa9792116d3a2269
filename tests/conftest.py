"""Shared test setup: Hypothesis profiles that keep the suite quick and reproducible, and
the toy game registered for the session, and the PostgreSQL fixtures (``pg_server``,
``pg_dsn``, ``pg_module_dsn``: see :mod:`pgcluster`).

The ``ci`` profile (the default) runs a modest, derandomized number of examples with no
deadline, so property tests never fail on a slow machine and every run checks the same
cases. ``HYPOTHESIS_PROFILE=dev`` explores more, with fresh random examples each run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from dicegames.core.registry import register

TOY = "toygame:DEFINITION"
"""The toy game's definition, as ``DICEGAMES_GAMES`` names it."""

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The toy game (tests/toygame.py) is registered for the whole session, so every suite that
# iterates the registry plays a game with only rules, a presenter and an encoder. The
# environment carries it to the processes the tests start (servers, CLI runs, workers):
# DICEGAMES_GAMES names its definition and PYTHONPATH finds this folder.
TESTS = str(Path(__file__).resolve().parent)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [TESTS, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != TESTS)])
os.environ["DICEGAMES_GAMES"] = ",".join(
    [*(p for p in os.environ.get("DICEGAMES_GAMES", "").split(",") if p.strip()
       and p.strip() != TOY), TOY])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

import toygame  # noqa: E402
from pgcluster import PgServer, Unavailable, session_server, unavailable  # noqa: E402

register(toygame.DEFINITION)


# PostgreSQL (tests/pgcluster.py): one throwaway server per test process, a fresh database
# per test (pg_dsn) or per module (pg_module_dsn); skipped with the reason where PostgreSQL
# can't be had, failed instead under CI=true.
@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's PostgreSQL server (a throwaway cluster, or ``DICEGAMES_TEST_PG``'s)."""
    with session_server() as server:
        if isinstance(server, Unavailable):
            unavailable(str(server))
        yield server


@pytest.fixture
def pg_dsn(pg_server: PgServer) -> Iterator[str]:
    """The ``postgresql://`` address of a fresh, empty database for this test; dropped
    after it (whatever is still connected is disconnected)."""
    dsn = pg_server.create_database()
    yield dsn
    pg_server.drop_database(dsn)


@pytest.fixture(scope="module")
def pg_module_dsn(pg_server: PgServer) -> Iterator[str]:
    """The ``postgresql://`` address of a fresh, empty database shared by one module."""
    dsn = pg_server.create_database()
    yield dsn
    pg_server.drop_database(dsn)


# The order modules are handed to the test processes in (`make test` and `make check` run
# pytest-xdist with --dist loadfile --no-loadscope-reorder, so this order is kept): the longest
# first, so that the run ends on short modules and neither process waits long for the other.
# A module's kind stands for its length: the browser modules first, then those that start a
# server process, then the slow ones, then the rest; the modules with more tests first within
# a kind (xdist's own order). Tests keep their order within a module.
MODULE_KINDS = ("browser", "process", "slow")
"""Marks that make a module longer, the longest kind first."""


def module_rank(items: list[pytest.Item]) -> tuple[int, int]:
    """Where a module's ``items`` go in the run: its longest kind, then most tests first."""
    marks = {mark.name for item in items for mark in item.iter_markers()}
    kind = next((rank for rank, name in enumerate(MODULE_KINDS) if name in marks),
                len(MODULE_KINDS))
    return kind, -len(items)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hand the modules out longest first (:func:`module_rank`), after the marks are set."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    items[:] = [item for module in sorted(modules.values(), key=module_rank)
                for item in module]
