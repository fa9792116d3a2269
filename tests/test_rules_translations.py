"""The translated rules pages (``games/<game>/rules.<lang>.md``) against the English one.

A translation is free in its words but not in its facts: the same sections in the same
order, the same tables with the same shape, every notation, option name and value (the
backticked spans) exactly as in English, every figure of two digits or more, and the same
links. These are the checks a reviewer would do by hand, run on every page and language of
every registered game (a game without a catalogue is skipped with the reason: see
:mod:`registered`).
"""

from __future__ import annotations

import re

import pytest

import dicegames
from dicegames.bots import bot_levels
from dicegames.core.registry import games
from dicegames.docs import game_text, rules_page, split_text
from dicegames.i18n import LANGUAGES, game_folder, translate
from registered import translated_games, untranslated_reason

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]

PAGES = [(spec.id, lang) for spec in games() for lang in TRANSLATED
         if untranslated_reason(spec.id) is None
         and (game_folder(spec.id) / f"rules.{lang}.md").is_file()]


def _without_code_blocks(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.S)


def headings(text: str) -> list[int]:
    """The heading levels, in order."""
    return [len(m.group(1)) for m in re.finditer(r"^(#+) ", _without_code_blocks(text), re.M)]


def tables(text: str) -> list[tuple[int, int]]:
    """(rows, columns) of each Markdown table, in order."""
    shapes: list[tuple[int, int]] = []
    rows: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            rows.append(line.strip())
        elif rows:
            shapes.append((len(rows), rows[0].strip("|").count("|") + 1))
            rows = []
    return shapes


def code_spans(text: str) -> set[str]:
    """Every inline code span and fenced block: notation, options and values stay as they
    are in every language."""
    blocks = set(re.findall(r"```.*?```", text, flags=re.S))
    spans = set(re.findall(r"`([^`\n]+)`", _without_code_blocks(text)))
    return blocks | spans


def figures(text: str) -> set[str]:
    """Numbers of two digits or more (a one-digit number may be written as a word). Only
    ASCII letters and digits bound a number: Japanese writes its counters against it
    (``50マス``)."""
    return set(re.findall(r"(?<![\w.])\d{2,}(?![\w])", _without_code_blocks(text), re.ASCII))


def links(text: str) -> set[str]:
    return set(re.findall(r"\]\(([^)]+)\)", text))


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_a_translated_page_keeps_the_english_pages_facts(game_id: str, lang: str) -> None:
    english = game_text(game_id, "en")
    translated = game_text(game_id, lang)
    assert translated != english
    assert headings(translated) == headings(english), "the same sections, in the same order"
    assert tables(translated) == tables(english), "the same tables, of the same shape"
    assert code_spans(translated) == code_spans(english), (
        "notation, options and values are written exactly as in English: "
        f"missing {sorted(code_spans(english) - code_spans(translated))}, "
        f"extra {sorted(code_spans(translated) - code_spans(english))}")
    assert figures(english) <= figures(translated), (
        f"figures lost: {sorted(figures(english) - figures(translated))}")
    assert links(translated) == links(english)


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_a_translated_page_is_served_without_the_english_only_notice(
        game_id: str, lang: str) -> None:
    page = rules_page(game_id, lang)
    lead, everyone, developers = split_text(game_id, lang)
    assert lead in page and everyone in page and developers in page
    assert translate(lang, "*This part of the rules is in English for now.*") not in page


@pytest.mark.parametrize("game_id", translated_games())
def test_every_game_has_its_rules_in_every_language(game_id: str) -> None:
    missing = [f"rules.{lang}.md" for lang in TRANSLATED
               if not (game_folder(game_id) / f"rules.{lang}.md").is_file()]
    assert not missing, f"{game_id}: rules pages not translated: {missing}"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game_id", translated_games())
def test_the_bots_are_described_in_the_pages_language(game_id: str, lang: str) -> None:
    page = rules_page(game_id, lang)
    for level in bot_levels(dicegames.make(game_id)):
        described = translate(lang, level.doc)
        assert described != level.doc, f"{game_id} {level.name}: not translated"
        assert f"| `{level.name}` | {described} |" in page
