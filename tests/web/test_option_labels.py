"""Issue 14, defect 5: the set-up form names every option in words and explains it in one
plain line; no raw option name, file name of ours or jargon reaches a player, and no label
runs into its checkbox.

The declarations themselves (every option of every game has a label, a plain explanation,
labels for its choices) are checked without a browser, so the terminal launcher and the
rules pages are held to the same standard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from dicegames.core.registry import game_class
from web.games import game_ids
from web.server import Server

GAMES = game_ids()
"""Every registered game (a new one is covered without an edit here)."""
JARGON = re.compile(r"RULINGS|\.md\b|\.txt\b|1-based|seed|`|\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize("game", GAMES)
def test_every_option_is_declared_for_players(game: str) -> None:
    for option in game_class(game).spec.options:
        assert option.label and option.label != option.name, option.name
        assert option.doc[:1].isupper() and option.doc.endswith("."), option.doc
        assert not JARGON.search(option.label + " " + option.doc), (option.name, option.doc)
        if option.kind == "choice":
            assert len(option.choice_labels) == len(option.choices), option.name
            assert not any(JARGON.search(label) for label in option.choice_labels)


@pytest.mark.parametrize("game", GAMES)
def test_the_setup_form_shows_labels_and_plain_explanations(
        server: Server, page: Page, game: str) -> None:
    page.goto(f"{server.url}/?game={game}")
    expect(page.locator("#setup")).to_be_visible()
    options = game_class(game).spec.options
    form = page.locator("#options-set")
    if form.is_hidden():
        return
    text = form.inner_text()
    for option in options:
        # Names that are plain words (board, children) may appear as words.
        assert "_" not in option.name or option.name not in text, (option.name, text)
    assert not JARGON.search(text), text
    for field in page.locator("#options .option").all():
        label = field.locator("label")
        control = field.locator("input, select").first
        expect(label).not_to_be_empty()
        # The explanation is read with the control, and the label never overlaps it.
        described = control.get_attribute("aria-describedby")
        assert described and page.locator(f"#{described}").inner_text().strip()
        box, words = control.bounding_box(), label.bounding_box()
        assert box and words
        apart = (box["x"] + box["width"] <= words["x"] or words["x"] + words["width"] <= box["x"]
                 or box["y"] + box["height"] <= words["y"]
                 or words["y"] + words["height"] <= box["y"])
        assert apart, (label.inner_text(), box, words)


def test_extra_columns_and_choices_are_explained(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/?game=extra")
    field = page.locator("#options .option").filter(has=page.locator("#opt-extra_columns"))
    expect(field.locator("label")).to_have_text("Size of the EXTRA columns")
    expect(field.locator("small")).to_contain_text("three numbers")
    expect(page.locator("#opt-children_rule option").first).to_have_text("EXTRA numbers")
    page.goto(f"{server.url}/?game=petits-chevaux")
    expect(page.locator("label[for=opt-three_sixes_penalty]")).to_have_text(
        "Three sixes lose the turn")
