""""How to play" on every game page (issue 25, defect 7): the family summary in the viewer's
language, with pictures drawn by the game's own board module; the home page's rules lead
with it. Over the API (the app in process) and in a real Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dicegames.core.registry import game_class
from dicegames.howto import summary
from dicegames.i18n import translate
from registered import shipped_games
from web.client import AppClient
from web.server import Server
from web.test_accessibility import check

SHIPPED = shipped_games()


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_summary_is_served_with_its_pictures_as_board_states(client: AppClient,
                                                                  game_id: str) -> None:
    for lang in ("en", "fr", "de", "it", "ja"):
        found = summary(game_id, lang)
        assert found is not None
        answer = client.get(f"/api/games/{game_id}/howto?lang={lang}")
        assert answer["lang"] == lang and answer["game"] == game_id
        name = translate(lang, game_class(game_id).spec.name)
        assert answer["title"] == translate(lang, "How to play {game}", game=name)
        pictures = [block for block in answer["blocks"] if "picture" in block]
        assert len(pictures) == len(found.pictures) and len(answer["blocks"]) == len(found.blocks)
        for block, picture in zip(pictures, found.pictures, strict=True):
            state = block["picture"]
            assert state["game"]["id"] == game_id and state["view"], "a board to draw"
            assert [p["name"] for p in state["players"]] == list(picture.names(game_id))
            assert block["caption"] and "<script" not in block["caption"]
        assert all(block["html"].startswith("<") for block in answer["blocks"]
                   if "html" in block)


def test_an_unknown_games_summary_is_not_found(client: AppClient) -> None:
    status, data = client.call("GET", "/api/games/monopoly/howto")
    assert (status, data["error"]) == (404, "unknown_game")


def test_the_game_json_has_the_rules_without_the_summary(client: AppClient) -> None:
    detail = client.get("/api/games/extra-meters")
    assert "The game in short" in detail["rules_markdown"]
    assert "The game in short" not in detail["rules_details_html"]
    assert "For developers" in detail["rules_details_html"]


def open_game(server: Server, game: str) -> str:
    """A person's seat link of a new match against the computer."""
    match = server.post("/api/matches", {"game": game, "seed": 4, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot:easy"}]})
    return str(server.url + match["seats"][0]["link"])


@pytest.mark.parametrize("game_id", SHIPPED)
def test_how_to_play_opens_the_summary_over_the_game(server: Server, page: Page,
                                                     game_id: str) -> None:
    page.goto(open_game(server, game_id))
    expect(page.locator("#board svg").first).to_be_visible()
    board_ids = page.eval_on_selector_all("#board [id]", "(nodes) => nodes.map((n) => n.id)")
    button = page.locator("header.top #howto")
    expect(button).to_have_accessible_name("How to play")
    expect(button.locator(".howto-label")).to_be_visible()  # in words on a laptop
    button.click()
    dialog = page.locator("#howto-dialog")
    expect(dialog).to_be_visible()
    found = summary(game_id, "en")
    assert found is not None
    expect(dialog.locator("#howto-title")).to_contain_text("How to play")
    # The pictures are the game's own board, drawn in the summary's positions.
    pictures = dialog.locator(".howto-picture")
    expect(pictures).to_have_count(len(found.pictures))
    for index in range(len(found.pictures)):
        expect(pictures.nth(index).locator(".howto-board svg").first).to_be_visible()
        expect(pictures.nth(index).locator("figcaption")).to_have_text(
            found.pictures[index].caption.replace("**", ""))
    first_words = found.text().split(".")[0]
    expect(dialog.locator(".howto-text").first).to_contain_text(first_words)
    # The game's board keeps its ids to itself: the pictures' are their own.
    ids = page.eval_on_selector_all("[id]", "(nodes) => nodes.map((n) => n.id)")
    assert len(ids) == len(set(ids)), "an id is on the page twice"
    assert board_ids == page.eval_on_selector_all("#board [id]",
                                                  "(nodes) => nodes.map((n) => n.id)")
    check(page)  # axe-core, with the dialog open
    dialog.locator(".howto-close").click()
    expect(dialog).to_be_hidden()
    expect(button).to_be_focused()


@pytest.mark.parametrize("lang", ["fr", "de", "it", "ja"])
def test_how_to_play_is_in_the_viewers_language(server: Server, phone: Page, lang: str) -> None:
    phone.goto(open_game(server, "monza") + f"&lang={lang}")
    button = phone.locator("#howto")
    expect(button).to_have_accessible_name(translate(lang, "How to play"))
    expect(button.locator(".howto-mark")).to_be_visible()  # its mark alone on a phone
    # No taller than the language menu beside it: the header (and the board) keep their place.
    mark, menu = button.bounding_box(), phone.locator("header #lang").bounding_box()
    assert mark is not None and menu is not None and mark["height"] <= menu["height"] + 1
    button.click()
    found = summary("monza", lang)
    assert found is not None and found.lang == lang
    dialog = phone.locator("#howto-dialog")
    expect(dialog.locator("#howto-title")).to_have_text(
        translate(lang, "How to play {game}", game=translate(lang, "Monza")))
    expect(dialog.locator(".howto-picture figcaption").first).to_have_text(
        found.pictures[0].caption)
    expect(dialog.locator(".howto-picture .howto-board svg").first).to_be_visible()
    # On a phone the dialog fits the screen's width; its text scrolls inside it.
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_the_home_pages_rules_lead_with_the_summary(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.locator(".game-card[data-id='extra-meters'] .choose").click()
    page.locator("#rules > summary").click()
    rules = page.locator("#rules-html")
    expect(rules.locator(".howto-summary h2")).to_have_text("The game in short")
    expect(rules.locator(".howto-picture")).to_have_count(2)
    for picture in rules.locator(".howto-picture").all():
        expect(picture.locator(".howto-board svg").first).to_be_visible()
    headings = rules.locator("h2").all_text_contents()
    assert headings[0] == "The game in short" and headings[1] == "How to play", headings
    assert headings[-1] == "For developers", headings
