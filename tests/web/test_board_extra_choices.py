"""EXTRA! for a family (issue 25, defect 12): a tapped row narrows the page's choice buttons
to the choices it leaves, the log names the EXTRA columns as the sheet heads them (A, B, C),
and on a phone every glowing row and EXTRA column is a finger-sized target (44 px or more).
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from web.server import Server
from web.test_board_extra import BOARD, ann_choice, new_match

VISIBLE = "#choices button.choice:not([hidden])"


def test_a_tapped_row_narrows_the_choice_buttons(server: Server, page: Page) -> None:
    match_id, token, link = new_match(server)
    page.goto(link)
    hints = ann_choice(server, page, match_id, token)
    expect(page.locator(VISIBLE)).to_have_count(len(hints))
    row = next(hint["targets"][0] for hint in hints if len(hint["targets"]) > 1)
    left = [hint["move"] for hint in hints if row in hint["targets"]]
    assert 0 < len(left) < len(hints)
    page.click(f'{BOARD} [data-target="{row}"]')
    expect(page.locator(VISIBLE)).to_have_count(len(left))
    shown = page.locator(VISIBLE).evaluate_all("nodes => nodes.map(n => n.dataset.move)")
    assert sorted(shown) == sorted(left)
    # The number keys play the buttons still shown, in their order.
    page.keyboard.press("1")
    expect(page.locator("#log li", has_text="Ann records")).to_have_count(1)


def test_the_log_names_the_columns_as_the_sheet_does(server: Server, page: Page) -> None:
    match_id, token, link = new_match(server)
    page.goto(link)
    hints = ann_choice(server, page, match_id, token)
    hint = next(h for h in hints if h["targets"][-1].startswith("s0-x"))
    for target in hint["targets"]:
        page.click(f'{BOARD} [data-target="{target}"]')
    column = hint["targets"][-1].removeprefix("s0-x").upper()
    heads = page.locator(f"{BOARD} text").evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert column in heads
    expect(page.locator("#log li", has_text="Ann records")).to_contain_text(
        re.compile(f"in column {column}$"))


def test_on_a_phone_every_target_of_the_sheet_is_finger_sized(server: Server,
                                                                 phone: Page) -> None:
    match_id, token, link = new_match(server)
    phone.goto(link)
    ann_choice(server, phone, match_id, token)
    sizes: list[dict[str, Any]] = phone.locator(f"{BOARD} [role=button]").evaluate_all(
        """nodes => nodes.map(n => { const r = n.getBoundingClientRect();
             return {target: n.dataset.target, width: r.width, height: r.height}; })""")
    assert sizes
    small = [size for size in sizes if size["width"] < 44 or size["height"] < 44]
    assert not small, small
