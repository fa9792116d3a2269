"""Monza's real-dice colour picker (issue 25, defect 6): each face's "−" stays beside its own
button without covering the next colour's, nothing is clipped, and on a phone the page is no
wider than the screen, in every language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from dicegames.i18n import LANGUAGES
from web.server import Server

SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844}, "small phone": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 800}}

GEOMETRY = """() => {
  const box = (n) => n.getBoundingClientRect();
  const cells = [...document.querySelectorAll('#entry .counter-face')].map((cell) => {
    const add = cell.querySelector('.add'), less = cell.querySelector('.less');
    const name = add.querySelector('.name');
    return {cell: box(cell).toJSON(), add: box(add).toJSON(), less: box(less).toJSON(),
            clipped: name.scrollWidth > name.clientWidth + 1
                     || add.scrollWidth > add.clientWidth + 1};
  });
  return {cells, page: document.documentElement.scrollWidth, screen: innerWidth};
}"""


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page at a phone's or a laptop's size (a phone's with touch, as phones are)."""
    phone = request.param != "laptop"
    context = browser.new_context(viewport=SIZES[request.param], is_mobile=phone, has_touch=phone)
    try:
        yield context.new_page()
    finally:
        context.close()


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5
            and inner["top"] >= outer["top"] - 0.5 and inner["bottom"] <= outer["bottom"] + 0.5)


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
            or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_colour_picker_neither_overlaps_nor_clips_nor_overflows(
        server: Server, sized: Page, lang: str) -> None:
    match = server.post("/api/matches", {"game": "monza", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"},
        {"name": "Cleo", "kind": "human"}]})
    sized.goto(server.url + match["seats"][0]["link"] + f"&lang={lang}")
    expect(sized.locator("#entry .counter-face")).to_have_count(6)
    found = sized.evaluate(GEOMETRY)
    assert found["page"] <= found["screen"], found
    cells = found["cells"]
    for cell in cells:
        assert inside(cell["add"], cell["cell"]) and inside(cell["less"], cell["cell"]), cell
        assert not cell["clipped"], cell
        assert cell["less"]["width"] >= 44 and cell["less"]["height"] >= 44, cell
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            for x in ("add", "less"):
                for y in ("add", "less"):
                    assert apart(a[x], b[y]), (a, b)
