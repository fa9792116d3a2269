"""Fixtures of the web tests: a real server process over a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from web.server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with no bot pause, shared by the tests of one module."""
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    running = Server(db).start()
    yield running
    running.stop()
