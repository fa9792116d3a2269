"""Issue 27: the set-up form's level choices say how strong each level is, in words, for
the table's player count (``static/strength.js`` over the API's ``strength`` of each bot)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from web.server import Server


def titles(page: Page, row: int) -> dict[str, str]:
    """The tooltips of one player row's level choices, by option value."""
    found: dict[str, str] = page.locator("#players .kind").nth(row).evaluate(
        "(select) => Object.fromEntries([...select.options].map((o) => [o.value, o.title]))")
    return found


def test_the_level_choices_say_how_strong_each_level_is(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/?game=extra-meters&lang=en")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#players .kind")).to_have_count(2)
    two = titles(page, 1)
    assert two["bot:hard"].startswith("a strong opponent; wins about ")
    assert two["bot:hard"].endswith(" against medium")
    assert two["bot:medium"].endswith(" against easy")
    page.locator("#add-player").click()
    expect(page.locator("#players .kind")).to_have_count(3)
    for row in range(3):
        assert titles(page, row)["bot:easy"].endswith(" against 2 medium players")
    page.goto(f"{server.url}/?game=extra-meters&lang=fr")
    expect(page.locator("#players .kind")).to_have_count(2)
    assert "gagne environ" in titles(page, 1)["bot:hard"]
