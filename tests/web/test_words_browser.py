"""The words on the boards and pages in every language, in a real headless Chromium (issue
25, defect 4).

- A board draws no English word the catalogue translates (START and FINISH were English in
  every language), and the page's heading carries the game's title in the language.
- The EXTRA! sheet's column headings stand apart in every language (Italian ran them
  together: "sommavalore", "×7punteggio").
- The pages write percentages and numbers the language's way (``55,6 %``).
"""

from __future__ import annotations

from itertools import pairwise
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from playwright.sync_api import Page, expect

from dicegames.core.registry import game_class
from dicegames.i18n import LANGUAGES, title, translate
from web.games import game_ids, skip_unless
from web.server import Server

OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def in_language(link: str, lang: str) -> str:
    """``link`` with ``?lang=`` set."""
    parts = urlsplit(link)
    query = dict(parse_qsl(parts.query))
    query["lang"] = lang
    return urlunsplit(parts._replace(query=urlencode(query)))


def open_match(server: Server, page: Page, game: str, lang: str) -> None:
    """A two-person match of ``game`` with dice rolled by the app, opened by the first seat
    in ``lang``, once its board is drawn."""
    spec = game_class(game).spec
    players = [{"name": name, "kind": "human"}
               for name in ["Ann", "Ben", "Cy", "Di"][:max(2, spec.min_players)]]
    match = server.post("/api/matches", {"game": game, "seed": 3, "dice": "auto",
                                         "players": players})
    page.goto(in_language(server.url + match["seats"][0]["link"], lang))
    expect(page.locator("#board svg").first).to_be_visible()


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", game_ids())
def test_a_board_shows_no_english_word_and_the_title_in_the_language(
        server: Server, page: Page, game: str, lang: str) -> None:
    skip_unless(game, "board", lang=lang)
    open_match(server, page, game, lang)
    expect(page.locator("#title")).to_have_text(title(game_class(game).spec.name, lang))
    words = {text.strip() for text in page.locator("#board svg text").all_text_contents()}
    english = sorted(word for word in words
                     if word and translate(lang, word) != word)
    assert english == [], f"{game} {lang}: English on the board: {english}"


def heading_boxes(page: Page, words: list[str]) -> list[tuple[str, float, float]]:
    """The left and right edges of the sheet's column headings (the texts on the row of
    ``words``), left to right."""
    boxes: list[tuple[str, float, float]] = page.evaluate("""(words) => {
      const sheet = document.querySelector('#board svg.xb-main');
      const texts = [...sheet.querySelectorAll('text')];
      const row = texts.find((node) => node.textContent === words[0]).getAttribute('y');
      return texts.filter((node) => node.getAttribute('y') === row).map((node) => {
        const box = node.getBoundingClientRect();
        return [node.textContent, box.left, box.right];
      }).sort((a, b) => a[1] - b[1]);
    }""", words)
    return boxes


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_extra_sheets_headings_stand_apart(server: Server, page: Page, lang: str) -> None:
    game = "extra"
    skip_unless(game, "board", lang=lang if lang != "en" else "")
    open_match(server, page, game, lang)
    words = [translate(lang, word) for word in ("sum", "value", "score")]
    boxes = heading_boxes(page, words)
    assert {word for word, _left, _right in boxes} >= set(words), boxes
    for (first, _l1, right), (second, left, _r2) in pairwise(boxes):
        assert left - right >= 2, f"{lang}: {first!r} and {second!r} run together: {boxes}"


@pytest.mark.parametrize(("lang", "written"), [
    ("en", "55.6%"), ("fr", "55,6\N{NO-BREAK SPACE}%"), ("de", "55,6\N{NO-BREAK SPACE}%"),
    ("it", "55,6%")])
def test_the_pages_write_percentages_the_languages_way(server: Server, page: Page, lang: str,
                                                       written: str) -> None:
    page.goto(server.url + f"/?lang={lang}")
    shown = page.evaluate("import('/static/shell.js').then((m) => [m.percent(0.5556), "
                          "m.decimal(1234.5)])")
    assert shown[0] == written
    assert shown[1] != "1234.5"
