"""Languages (issue 14): English, French, German and Italian.

- The catalogues: every English message is translated in every language, with the same
  placeholders, and the compiled files (.mo for Python, JSON for the pages) match the .po
  sources.
- The server answers in the language asked (``?lang=``, else ``Accept-Language``).
- In a real Chromium, every page (home, each game's set-up, each game's page mid-game, a
  replay) in every language shows no English message of the catalogue, and the header's
  switch changes the language and keeps it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from playwright.sync_api import Page, expect

from dicegames.core.registry import games
from dicegames.docs import has_translated_text
from dicegames.i18n import LANGUAGES, translate
from web.games import game_ids, lacks
from web.server import Server

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_ids()
"""Every registered game (a new one is covered without an edit here)."""
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")


@cache
def catalogue_script() -> ModuleType:
    """scripts/i18n.py, imported (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_script"] = module
    spec.loader.exec_module(module)
    return module


@cache
def english() -> tuple[str, ...]:
    """Every English message id (the template of the catalogues)."""
    return tuple(str(m.id) for m in catalogue_script().template() if m.id)


def test_the_compiled_catalogues_match_the_po_files() -> None:
    assert catalogue_script().problems() == []


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = {str(m.id): m for m in catalogue_script().read(lang) if m.id}
    for message in english():
        entry = catalog.get(message)
        assert entry is not None, f"{lang}: {message!r} missing"
        assert entry.string and not entry.fuzzy, f"{lang}: {message!r} is not translated"
        wanted = sorted(PLACEHOLDER.findall(message))
        assert sorted(PLACEHOLDER.findall(str(entry.string))) == wanted, (lang, message)
        # Each placeholder fills (no stray brace breaks str.format).
        filled = translate(lang, message, **{name: "X" for name in wanted})
        assert "{" not in filled or "{" in message.replace("{", "", len(wanted)), filled


def test_the_server_answers_in_the_language_asked(server: Server) -> None:
    italian = server.get("/api/games/petits-chevaux?lang=it")
    labels = [option["label"] for option in italian["options"]]
    assert "Tre 6 fanno perdere il turno" in labels
    assert italian["pitch"].startswith("Il Ludo francese")
    assert {b["plain"] for b in italian["bots"] if b["name"] == "easy"} == {
        "il più debole, per una prima partita o per i più piccoli"}
    status, body = server.call("GET", "/api/games/monza", headers={
        "Accept-Language": "de-CH, fr;q=0.8"})
    assert status == 200 and body["options"][0]["label"] == "Welche Würfel man nutzen muss"
    english_answer = server.get("/api/games/monza?lang=xx")
    assert english_answer["options"][0]["label"] == "Which dice you must use"


def test_a_match_answers_in_the_language_asked(server: Server) -> None:
    """A match's state, replay steps and hints: sentences and labels in the language asked
    (``?lang=``, else ``Accept-Language``), notation the same in all (issue 14)."""
    match = server.post("/api/matches", {"game": "extra-meters", "dice": "manual", "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]})
    token = match["seats"][0]["token"]
    path = f"/api/matches/{match['id']}"
    server.post(f"{path}/dice", {"token": token, "dice": "3"})
    italian = server.get(f"{path}?token={token}&lang=it")
    assert italian["log"][0]["description"] == "Ann tira 3"
    assert italian["log"][0]["text"] == "3"
    status, german = server.call("GET", f"{path}/states/1", headers={
        "Accept-Language": "de-DE, en;q=0.5"})
    assert status == 200 and german["log"][0]["description"] == "Ann würfelt 3"
    labels = {lang: [h["label"] for h in server.get(f"{path}?token={token}&lang={lang}")[
        "hints"]["0"]] for lang in ("en", "fr")}
    assert labels["en"] == ["Roll again (a 6 moves you only 2)", "Stop: move 3 to square 3"]
    assert labels["fr"] == ["Relancer (un 6 ne vous fait avancer que de 2)",
                            "S'arrêter : avancer de 3 jusqu'à la case 3"]
    hint = server.get(f"{path}/hint?token={token}&lang=fr")
    assert hint["label"] in labels["fr"] and hint["move"] in ("roll", "stop")
    # The home page's sample boards carry their words in the page's language too.
    cells = {lang: {cell["kind"]: cell["text"] for cell in server.get(
        f"/api/games/shortcut/sample?lang={lang}")["view"]["board"]["cells"]}
        for lang in ("en", "de")}
    assert (cells["en"]["start"], cells["de"]["finish"]) == ("Start", "Ziel")


# A message with placeholders matches text with anything in their place.
@cache
def english_patterns() -> tuple[tuple[str, re.Pattern[str], int], ...]:
    patterns = []
    titles = {spec.name for spec in games()}
    for message in english():
        if translate("fr", message) == message:
            continue  # the same in French (a name, "Options"): not a sign of English
        if message in titles:
            continue  # a game's name ("Shortcut") is its title in every language
        text = re.escape(message.strip())
        text = re.sub(r"\\\{\w+\\\}", ".{1,60}?", text)
        literal = len(PLACEHOLDER.sub("", message).strip())
        patterns.append((message, re.compile(f"^{text}$", re.S), literal))
    return tuple(patterns)


VISIBLE_TEXTS = """(skip) => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, code, [hidden], .log')) continue;
    if (skip && parent.closest(skip)) continue;
    const box = parent.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (text) texts.push(text);
  }
  for (const node of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (skip && node.closest(skip)) continue;
    for (const name of ['aria-label', 'placeholder', 'title']) {
      const value = node.getAttribute(name);
      if (value) texts.push(value.replace(/\\s+/g, ' ').trim());
    }
  }
  return texts;
}"""


def untranslated(page: Page, lang: str, skip: str = "") -> list[str]:
    """The English catalogue messages the page shows (text or accessible names), outside
    the elements ``skip`` selects."""
    found: list[str] = []
    if lang == "en":
        return found
    for text in page.evaluate(VISIBLE_TEXTS, skip):
        for message, pattern, literal in english_patterns():
            # A message with placeholders counts when its own words are most of the text
            # ("Ben's turn"), not when a short joint matches ("Die Autos", "Die {number}").
            if (pattern.match(text) and translate(lang, message) != text
                    and 2 * literal >= len(text)):
                found.append(f"{text!r} (English: {message!r})")
    return found


def check_page(page: Page, lang: str, game: str = "") -> None:
    """The page is in ``lang``. A rules page whose hand-written part has no translation yet
    says so in ``lang``, and that English part is not checked."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("header #lang")).to_have_value(lang)
    skip = ""
    if game and not has_translated_text(game, lang):
        note = translate(lang, "*This part of the rules is in English for now.*").strip("*")
        expect(page.locator("#rules-html")).to_contain_text(note)
        skip = "#rules-html"
    assert untranslated(page, lang, skip) == []


@pytest.fixture(scope="module")
def matches(server: Server) -> Iterator[dict[str, dict[str, str]]]:
    """One match of each game a few moves in (a person against a bot, or another person
    in a game with no bots of its own): its id and token."""
    made: dict[str, dict[str, str]] = {}
    for game in GAMES:
        other = "human" if lacks(game, "bots") else "bot:easy"
        match = server.post("/api/matches", {"game": game, "seed": 4, "players": [
            {"name": "Ann", "kind": "human"}, {"name": "Zoé", "kind": other}]})
        made[game] = {"id": match["id"], "token": match["seats"][0]["token"]}
    yield made


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_page_is_in_the_chosen_language(server: Server, page: Page, lang: str,
                                              matches: dict[str, dict[str, str]]) -> None:
    page.goto(f"{server.url}/?lang={lang}")
    expect(page.locator("#games .game-card")).to_have_count(len(games()))  # the toy game too
    check_page(page, lang)
    for game in GAMES:
        page.goto(f"{server.url}/?game={game}&lang={lang}")
        expect(page.locator("#setup-title")).not_to_be_empty()
        expect(page.locator("#players .player")).not_to_have_count(0)
        expect(page.locator("#rules-html h1")).to_be_attached()
        check_page(page, lang, game)
    for match in matches.values():
        page.goto(f"{server.url}/m/{match['id']}?seat={match['token']}&lang={lang}")
        page.wait_for_function("() => document.querySelector('#status').textContent.length > 0")
        buttons = page.locator("#choices button.choice:not([disabled])")
        if buttons.count():
            buttons.first.click()
            page.wait_for_timeout(150)
        check_page(page, lang)
    replay = next(iter(matches.values()))["id"]
    page.goto(f"{server.url}/replay/{replay}?lang={lang}")
    expect(page.locator("#where")).not_to_be_empty()
    check_page(page, lang)


def test_the_switch_changes_the_language_and_keeps_it(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.select_option("header #lang", "de")
    page.wait_for_url("**lang=de")
    expect(page.locator("#pick-title")).to_have_text("Wähle ein Spiel")
    page.goto(server.url + "/")  # no parameter: the choice was kept
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#games .play-now").first).to_have_text("Gegen den Computer spielen")


def test_the_browser_language_is_the_default(server: Server, page: Page) -> None:
    context = page.context.browser
    assert context is not None
    french = context.new_context(locale="fr-FR")
    try:
        opened = french.new_page()
        opened.goto(server.url + "/")
        expect(opened.locator("#pick-title")).to_have_text("Choisissez un jeu")
    finally:
        french.close()
