"""The family summaries ("How to play", issue 25 defect 7) and the rules pages they lead.

- Every shipped game has a summary in English, French, German, Italian and Japanese:
  about a dozen sentences, with pictures of positions the game accepts, the same pictures
  in every language.
- The rules page leads with the summary, keeps the full rules and rulings, and puts the
  notation, the positions, the option keys and the command lines under "For developers".
"""

from __future__ import annotations

import re

import pytest

from dicegames.core.errors import OptionError
from dicegames.core.registry import games
from dicegames.docs import FOR_DEVELOPERS, rules_page, sections, split_text
from dicegames.howto import Picture, Summary, _blocks, summary, summary_file
from dicegames.i18n import translate
from registered import shipped, shipped_games

LANGS = ("en", "fr", "de", "it", "ja")
"""The languages every shipped game's summary is written in."""

SHIPPED = shipped_games()


def sentences(text: str) -> int:
    """Sentences in ``text``: full stops, question and exclamation marks ending one (the
    Japanese 。！？ end one wherever they stand: no space follows them), and the items of a
    list (each one reads as a sentence)."""
    stops = len(re.findall(r"[.!?](?=\s|$)|[。！？]", text))
    return stops + len(re.findall(r"^\s*- (?!.*[.!?。！？]\s*$)", text, re.M))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_game_has_a_short_summary_in_every_language(game_id: str, lang: str) -> None:
    assert summary_file(game_id, lang) == ("howto.md" if lang == "en" else f"howto.{lang}.md")
    found = summary(game_id, lang)
    assert found is not None and found.lang == lang
    count = sentences(found.text())
    assert 8 <= count <= 18, f"{game_id} {lang}: {count} sentences, a dozen or so wanted"
    assert found.pictures, f"{game_id} {lang}: no picture of the board"


@pytest.mark.parametrize("lang", LANGS[1:])
@pytest.mark.parametrize("game_id", SHIPPED)
def test_a_translated_summary_shows_the_same_pictures(game_id: str, lang: str) -> None:
    english, translated = summary(game_id, "en"), summary(game_id, lang)
    assert english is not None and translated is not None
    assert [(p.position, p.options) for p in translated.pictures] == [
        (p.position, p.options) for p in english.pictures]
    assert translated.text() != english.text()
    assert len(translated.blocks) == len(english.blocks), "the same paragraphs, in order"


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_picture_is_a_position_of_the_game_with_a_caption(game_id: str) -> None:
    found = summary(game_id, "en")
    assert found is not None
    for picture in found.pictures:
        state = picture.state(game_id)  # raises PositionError for a wrong one
        assert state.game.spec.id == game_id
        assert picture.caption and picture.names(game_id)[0] == "Ann"
    assert "```text" in found.markdown()  # the text board stands for a picture


def test_a_picture_line_is_read_with_its_options_and_caption() -> None:
    blocks = _blocks("Some words.\n\n{picture track_length=15} 0/0 1 opening - 1\nA caption\n"
                     "on two lines.\n", "test")
    assert blocks == ["Some words.", Picture("0/0 1 opening - 1", "A caption on two lines.",
                                             (("track_length", "15"),))]
    assert Summary("extra-meters", "en", tuple(blocks)).pictures[0].state(
        "extra-meters").game.options["track_length"] == 15
    with pytest.raises(OptionError, match="picture"):
        _blocks("{picture track_length} 0/0 1 opening - 1\nCaption", "test")


def test_a_game_without_a_summary_has_none() -> None:
    others = [spec.id for spec in games() if not shipped(spec.id)]
    for game_id in others:  # the tests' toy game
        assert summary(game_id) is None
        assert "## " + "The game in short" not in rules_page(game_id)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_rules_page_leads_with_the_summary_and_ends_for_developers(
        game_id: str, lang: str) -> None:
    page = rules_page(game_id, lang)
    short = "## " + translate(lang, "The game in short")
    developers = "## " + translate(lang, "For developers")
    rules = [heading for heading, _body in sections(split_text(game_id, lang)[1])[1]]
    assert page.index(short) < page.index(f"## {rules[0]}\n") < page.index(developers)
    before, after = page.split(developers)
    # The full rules and rulings stay, before the developers' part.
    assert len(rules) >= 2 and all(f"## {heading}\n" in before for heading in rules)
    # The notation, positions and file formats, the option keys and the command lines
    # come after it.
    english = [heading for heading, _body in sections(split_text(game_id, "en")[1])[1]]
    assert len(rules) == len(english)
    assert not set(english) & set(FOR_DEVELOPERS)
    assert "```sh" not in before and "`--option name=value`" not in before
    assert "```sh" in after and "dicegames play" in after
    for option in next(spec for spec in games() if spec.id == game_id).options:
        assert f"(`{option.name}`)" not in before and f"(`{option.name}`)" in after
    assert after.count("\n### ") >= 3  # notation, positions, command lines (+ option keys)
