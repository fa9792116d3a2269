"""The words families read, in their language (issue 25, defect 4).

- Every ``t("...")`` of the pages and boards is extracted into the catalogues: a call nested
  in another call's arguments is one Babel skips, so its English would show in every
  language ("écrire the fifth die").
- Percentages and numbers are written the language's way, through Babel (``55,6 %``).
- Each game has its title in each language (*Pour quelques mètres de plus*).
- The boards' START and FINISH are translated.
"""

from __future__ import annotations

import re

import pytest

from dicegames.core.registry import games
from dicegames.i18n import LANGUAGES, PACKAGE, decimal, percent, title, translate, use
from web.test_languages import english

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
CALL = re.compile(r"""\b(?:t|tr)\(\s*(["'`])((?:\\.|(?!\1).)*)\1""", re.DOTALL)
"""A translation call of the pages' scripts whose message is a literal."""
MORE = re.compile(r"""\s*\+\s*(["'])((?:\\.|(?!\1).)*)\1""", re.DOTALL)
"""A literal added to it (``t("..." + "...")``: Babel joins them)."""


def script_messages() -> list[tuple[str, str]]:
    """Every literal message of a ``t()``/``tr()`` call in the web pages' and the games'
    scripts, with where it is."""
    found = []
    for path in sorted([*PACKAGE.glob("web/static/*.js"), *PACKAGE.glob("games/*/*.js")]):
        text = path.read_text(encoding="utf-8")
        for match in CALL.finditer(text):
            if match.group(1) == "`" and "${" in match.group(2):
                continue  # a template with a value inside is not a message
            line = text.count("\n", 0, match.start()) + 1
            message, end = match.group(2), match.end()
            while (more := MORE.match(text, end)) is not None:
                message, end = message + more.group(2), more.end()
            message = message.replace('\\"', '"').replace("\\'", "'")
            found.append((f"{path.relative_to(PACKAGE)}:{line}", message))
    return found


def test_every_message_of_the_pages_is_extracted() -> None:
    known = set(english())
    unseen = [f"{where} {message!r}" for where, message in script_messages()
              if message not in known]
    assert unseen == []


def test_the_scan_sees_the_board_words() -> None:
    """The scan itself finds the boards' messages (so an empty scan cannot pass)."""
    messages = {message for _where, message in script_messages()}
    assert {"START", "FINISH", "the fifth die", "A car"} <= messages


@pytest.mark.parametrize(("lang", "written"), [
    ("en", "55.6%"), ("fr", "55,6\N{NO-BREAK SPACE}%"), ("de", "55,6\N{NO-BREAK SPACE}%"),
    ("it", "55,6%")])
def test_a_percentage_is_written_the_languages_way(lang: str, written: str) -> None:
    assert percent(0.5556, lang=lang) == written
    with use(lang):
        assert percent(0.5556) == written


def test_numbers_follow_the_language() -> None:
    assert decimal(1234.56, lang="en") == "1,234.6"
    assert decimal(1234.56, lang="de") == "1.234,6"
    assert decimal(0.25, 2, lang="it") == "0,25"
    assert percent(1.0, 0, lang="en") == "100%"


def test_each_game_has_its_title_in_each_language() -> None:
    titles = {spec.id: {lang: title(spec.name, lang) for lang in LANGUAGES}
              for spec in games() if spec.id in {"extra-meters", "shortcut"}}
    assert titles["extra-meters"]["fr"] == "Pour quelques mètres de plus"
    assert titles["extra-meters"]["en"] == "For a Few Extra Meters"
    assert titles["shortcut"]["de"] == "Abkürzung"


BOARD_WORDS = {"fr": ("DÉPART", "ARRIVÉE"), "de": ("START", "ZIEL"), "it": ("VIA", "ARRIVO")}


@pytest.mark.parametrize("lang", OTHERS)
def test_the_boards_start_and_finish_are_translated(lang: str) -> None:
    words = (translate(lang, "START"), translate(lang, "FINISH"))
    assert words != ("START", "FINISH")
    if lang in BOARD_WORDS:
        assert words == BOARD_WORDS[lang]
