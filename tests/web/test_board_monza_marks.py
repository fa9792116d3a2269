"""Monza's colours read without colour, in every language (issue 25, defect 1).

The dice once showed their translated colour's initial while the squares kept R Y G B W P:
French white dice showed B (blue on the board), Italian blue and white both B, German yellow
and green both G. Now a die carries its squares' letter and shape, and so do the dice entry's
buttons and the key under the track. A colour-vision deficiency simulation of the real
screenshot (:mod:`web.vision`) shows every pair of colours still apart: by colour where the
simulated colours differ, and always by a shape that stands out from its square.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect

from dicegames.i18n import LANGUAGES
from web import vision
from web.browser import READY
from web.server import Server

COLOURS = ("red", "yellow", "green", "blue", "white", "purple")


def open_match(server: Server, page: Page, lang: str, dice: str = "auto") -> None:
    """Ann against an easy bot, in ``lang``, waiting until the dice (or their entry) show."""
    match = server.post("/api/matches", {"game": "monza", "seed": 3, "dice": dice, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "bot:easy"}]})
    page.goto(server.url + match["seats"][0]["link"] + f"&lang={lang}")
    if dice == "manual":
        expect(page.locator("#entry .counter")).to_be_visible()
    else:
        page.wait_for_function(READY, timeout=20_000)
        expect(page.locator("#dice svg.die").first).to_be_visible()


def square_marks(page: Page) -> dict[str, list[str]]:
    """Each colour's (letter, shape path) as drawn on the track's squares."""
    found: dict[str, list[str]] = page.locator("svg.mz-track g.mz-mark").evaluate_all(
        """nodes => Object.fromEntries(nodes.filter(n => n.dataset.hue !== 'tyre').map(n => [
             n.dataset.hue, [n.querySelector('text').textContent,
                                n.querySelector('path.mark-shape')?.getAttribute('d') || '']]))""")
    return found


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_dice_carry_the_squares_letter_and_shape_in_every_language(
        server: Server, page: Page, lang: str) -> None:
    open_match(server, page, lang)
    squares = square_marks(page)
    assert set(squares) == set(COLOURS)
    assert len({shape for _, shape in squares.values()} - {""}) == 6, squares
    dice = page.locator("#dice svg.die").evaluate_all(
        """nodes => nodes.map(n => [n.querySelector('rect').getAttribute('fill'),
             n.querySelector('text').textContent,
             n.querySelector('path.mark-shape')?.getAttribute('d') || ''])""")
    by_fill = {page.locator(f"svg.mz-track g[data-colour={c}] rect").first.get_attribute("fill"): c
               for c in COLOURS}
    assert len(dice) == 6
    for fill, letter, shape in dice:
        colour = by_fill[fill]
        assert [letter, shape] == squares[colour], (lang, colour, letter)


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_real_dice_buttons_and_the_key_show_the_same_marks(
        server: Server, page: Page, lang: str) -> None:
    open_match(server, page, lang, dice="manual")
    squares = square_marks(page)
    buttons = page.locator("#entry .counter .counter-face").evaluate_all(
        """nodes => nodes.map(n => [n.querySelector('.add').dataset.value,
             n.querySelector('svg text').textContent,
             n.querySelector('svg path.mark-shape')?.getAttribute('d') || ''])""")
    assert [[letter, shape] for _, letter, shape in buttons] == [squares[c] for c in COLOURS]
    key = page.locator(".monza-key .mz-swatch svg").evaluate_all(
        """nodes => nodes.map(n => [n.querySelector('text').textContent,
             n.querySelector('path.mark-shape')?.getAttribute('d') || ''])""")
    assert sorted(key) == sorted(squares.values())


def test_every_pair_of_colours_stays_apart_under_colour_vision_deficiencies(
        server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900}, device_scale_factor=3)
    page = context.new_page()
    open_match(server, page, "en", dice="manual")
    shapes: dict[str, bytes] = {}
    shape = "svg.mz-track g.mz-mark[data-hue={}] path.mark-shape"
    boxes = {c: page.locator(shape.format(c)).first.bounding_box() for c in COLOURS}
    # A control: the same shape on another square of the same colour looks the same.
    boxes["red again"] = page.locator(shape.format("red")).nth(1).bounding_box()
    # One frame size for every shape (the largest's, and a margin of its square around it),
    # so a circle and a square of the same width still differ by their corners.
    half = max(max(b["width"], b["height"]) for b in boxes.values() if b) / 2 + 3
    for colour, box in boxes.items():
        assert box is not None, f"no shape on the {colour} squares"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        shapes[colour] = page.screenshot(clip={"x": x - half, "y": y - half,
                                               "width": 2 * half, "height": 2 * half})
    context.close()
    for deficiency in vision.MACHADO:
        seen = {c: vision.simulate(vision.load(png), deficiency) for c, png in shapes.items()}
        masks = {c: vision.ink_mask(image) for c, image in seen.items()}
        for colour, mask in masks.items():
            # The shape stands out from its square by lightness alone.
            assert mask.mean() > 0.15, (deficiency, colour, mask.mean())
        assert vision.overlap(masks["red"], masks["red again"]) > 0.9, deficiency
        for a, b in itertools.combinations(COLOURS, 2):
            apart = vision.delta_e(seen[a][0, 0], seen[b][0, 0])
            same = vision.overlap(masks[a], masks[b])
            # Colours that come close under the deficiency differ clearly by their shape,
            # and no two shapes look alike whatever their colours.
            assert apart >= 30 or same < 0.8, (deficiency, a, b, apart, same)
            assert same < 0.85, (deficiency, a, b, same)


def test_the_simulation_confuses_red_and_green_as_deuteranopes_do() -> None:
    # The model at work: red and green squares, far apart to a typical eye, come close.
    red, green = np.array([0.898, 0.224, 0.208]), np.array([0.263, 0.627, 0.278])
    assert vision.delta_e(red, green) > 60
    close = vision.delta_e(vision.simulate(red, "deuteranopia"),
                           vision.simulate(green, "deuteranopia"))
    assert close < 30
