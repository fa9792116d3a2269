"""Each game's replay passes axe-core at every kind of move, in dark mode
(``test_accessibility_replay.py``: the other mode;
the check itself: :func:`web.axe_replay.check_every_move`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from web.axe_replay import check_every_move, scheme_page
from web.games import game_ids
from web.server import Server


@pytest.fixture
def seen(browser: Browser) -> Iterator[Page]:
    """A desktop page in dark mode."""
    yield from scheme_page(browser, "dark")


@pytest.mark.parametrize("game", game_ids())
def test_a_replay_at_every_move(server: Server, seen: Page, game: str) -> None:
    check_every_move(server, seen, game)
