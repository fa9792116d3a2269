"""Player names and option numbers: one check for every front end (see dicegames.core.names).

A name is refused when it holds an unpaired surrogate, a control character, a bidirectional
control or a stray format character, or when it is invisible; it is kept NFC-normalised.
Whatever a name checker accepts encodes as UTF-8 (so no answer carrying it can fail), and
any stored text renders safely. Option numbers take the ASCII digits 0 to 9 only, in every
option of every game.
"""

from __future__ import annotations

import unicodedata
from importlib.resources import files

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicegames.cli import main
from dicegames.core.errors import OptionError, RecordError
from dicegames.core.names import (
    MAX_NAME,
    BadName,
    check_name,
    safe_name,
    safe_text,
    text_problem,
)
from dicegames.core.options import OptionSpec
from dicegames.core.record import from_record, to_record
from dicegames.core.registry import configure, games, make
from dicegames.core.session import Session
from dicegames.terminal.console import UsageError
from dicegames.terminal.seats import player_infos

TRICKY = ("e", "A", " ", "\u3000", "\u0301", "\u200b", "\u200c", "\u200d", "\u202e", "\u2066",
          "\u061c", "\ufe0f", "\u3164", "\u2800", "\x07", "\n", "\ud800", "\udfff",
          "\U0001f3f4", "\U000e0067", "\U000e007f", "\U0001f468", "\u1100", "\u1161")
"""Characters the rules are about, drawn often (among all others) so that joiners between
emoji, flags, decomposed letters and Hangul jamo (which NFC composes) come up."""

ANY_TEXT = st.text(st.characters(exclude_categories=()) | st.sampled_from(TRICKY),
                   max_size=60)
"""Any text at all, unpaired surrogates and control characters included."""

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize(("name", "kept"), [
    ("Ann", "Ann"), ("  Ann Lee  ", "Ann Lee"), ("Zoe\u0301", "Zo\u00e9"), (FAMILY, FAMILY),
    ("\u2764\ufe0f\u200d\U0001f525", "\u2764\ufe0f\u200d\U0001f525"), (ENGLAND, ENGLAND),
    ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", None),  # Persian, with a ZWNJ
    ("\u674e\u3000\u534e", None), ("x" * MAX_NAME, None), ("\ufffd", None),
    ("\U0001f3b2", None),
])
def test_names_people_use_are_kept(name: str, kept: str | None) -> None:
    assert check_name(name) == (name if kept is None else kept)


@pytest.mark.parametrize(("name", "words"), [
    ("Host\ud800", "contains an unpaired surrogate (U+D800)"),
    ("\udc80x", "contains an unpaired surrogate (U+DC80)"),
    ("Ann\x07", "contains a control character (U+0007)"),
    ("Ann\tLee", "contains a control character (U+0009)"),
    ("Ann\x85", "contains a control character (U+0085)"),
    ("Ann\u2028Lee", "contains a control character (U+2028)"),
    ("\u202eAnn", "contains a bidirectional control (U+202E)"),
    ("Ann\u200f", "contains a bidirectional control (U+200F)"),
    ("An\u2068n", "contains a bidirectional control (U+2068)"),
    ("\u061cAnn", "contains a bidirectional control (U+061C)"),
    ("A\u200bnn", "contains an invisible formatting character (U+200B)"),
    ("Ann\ufeff", "contains an invisible formatting character (U+FEFF)"),
    ("A\u2060nn", "contains an invisible formatting character (U+2060)"),
    ("\u200dAnn", "contains a zero-width joiner that joins nothing (U+200D)"),
    ("Ann \u200c", "contains a zero-width joiner that joins nothing (U+200C)"),
    ("Ann\U000e0041", "contains a tag character outside a flag (U+E0041)"),
    ("\u200b", "is invisible"), ("\u200b \u200b", "is invisible"), (" \u3164 ", "is invisible"),
    ("\u2800", "is invisible"), ("\ufe0f", "is invisible"),
    ("   ", "is empty"), ("", "is empty"),
    ("x" * (MAX_NAME + 1), f"has {MAX_NAME + 1} characters"),
    ("x" * 100_000, "has 100000 characters"),
])
def test_names_that_could_break_or_hide_something_are_refused(name: str, words: str) -> None:
    with pytest.raises(BadName) as refused:
        check_name(name, "player 2's name")
    assert str(refused.value).startswith(f"player 2's name {words}")
    if "contains" in words:
        assert str(refused.value).endswith(
            "names may not contain control characters, bidirectional controls, invisible "
            "formatting characters or unpaired surrogates")


def test_a_name_that_is_not_text_is_refused() -> None:
    for raw in (None, 5, ["Ann"]):
        with pytest.raises(BadName, match="must be text of 1 to 40 characters"):
            check_name(raw)


@given(ANY_TEXT)
def test_every_accepted_name_encodes_as_utf8_and_is_nfc(raw: str) -> None:
    try:
        name = check_name(raw)
    except BadName:
        return
    name.encode("utf-8")
    assert unicodedata.is_normalized("NFC", name)
    assert 1 <= len(name) <= MAX_NAME
    assert name == name.strip()
    assert check_name(name) == name
    assert not any(unicodedata.category(char) in ("Cc", "Cs") for char in name)


@given(ANY_TEXT | st.integers() | st.none(), st.integers(1, 6))
def test_any_stored_name_renders_as_a_name_that_is_accepted(raw: object, seat: int) -> None:
    shown = safe_name(raw, seat)
    assert check_name(shown) == shown
    shown.encode("utf-8")


@given(ANY_TEXT)
def test_safe_text_always_encodes_and_text_problem_finds_what_would_not(raw: str) -> None:
    safe_text(raw).encode("utf-8")
    if text_problem(raw) is None:
        raw.encode("utf-8")


def test_old_names_render_with_replacement_characters() -> None:
    assert safe_name("Host\ud800", 1) == "Host\ufffd"
    assert safe_name("\u202eAnn\x07", 2) == "\ufffdAnn\ufffd"
    assert safe_name(" \u200b ", 3) == "Player 3"
    assert safe_name("\x07\u202e", 2) == "Player 2"
    assert safe_name(None, 4) == "Player 4"
    assert safe_name("x" * 500, 1) == "x" * MAX_NAME


def test_records_and_the_command_line_use_the_same_name_check() -> None:
    session = Session(make("extra-meters", players=2), None, 3)
    record = to_record(session)
    record["players"][1]["name"] = "Ben\u202e"
    with pytest.raises(RecordError, match=r"player 2's name contains a bidirectional "
                                          r"control \(U\+202E\)"):
        from_record(record)
    record["players"][1]["name"] = "Zoe\u0301"
    assert from_record(record).players[1].name == "Zo\u00e9"
    with pytest.raises(UsageError, match=r"player 2's name contains a control character "
                                         r"\(U\+001B\)"):
        player_infos(["you", "\x1b[2JBen"])
    with pytest.raises(UsageError, match="two players are called"):
        player_infos(["Zo\u00e9", "Zoe\u0301"])  # the same name once normalised
    assert main(["play", "extra-meters", "--players", "Ann,Ben\x07", "--seed", "1"]) == 2


# ----------------------------------------------------------------------- option numbers

SAMPLES = {"child_seats": "1,2", "board": "S 1 2\ng g 3\nF 5 4\n",
           "circuit": files("dicegames.games.monza").joinpath("default.json").read_text(
               encoding="utf-8")}
"""Values with digits for the options whose default has none."""

OTHER_DIGITS = {"Arabic-Indic": 0x0660, "full-width": 0xFF10, "Devanagari": 0x0966}


def _sample(option: OptionSpec) -> str:
    """A value of ``option`` written with ASCII digits that the game accepts."""
    if option.kind == "bool":
        return "1"
    if option.name in SAMPLES:
        return SAMPLES[option.name]
    return str(option.default)


OPTIONS = [(spec.id, option) for spec in games() for option in spec.options
           if any(char.isdigit() for char in _sample(option))]


def test_every_game_has_an_option_written_with_digits() -> None:
    assert {game_id for game_id, _ in OPTIONS} == {spec.id for spec in games()}


@pytest.mark.parametrize("script", sorted(OTHER_DIGITS))
@pytest.mark.parametrize(("game_id", "option"), OPTIONS,
                         ids=[f"{game_id}-{option.name}" for game_id, option in OPTIONS])
def test_option_numbers_take_ascii_digits_only(game_id: str, option: OptionSpec,
                                               script: str) -> None:
    ascii_value = _sample(option)
    configure(game_id, 2, {option.name: ascii_value})
    zero = OTHER_DIGITS[script]
    other = "".join(chr(zero + int(char)) if "0" <= char <= "9" else char
                    for char in ascii_value)
    with pytest.raises(OptionError) as refused:
        configure(game_id, 2, {option.name: other})
    assert option.name in str(refused.value)


@pytest.mark.parametrize("value", ["\u0661\u0660,\u0669,\u0668", "\uff11\uff10,9,8",
                                   "1_0,9,8"])
def test_extra_columns_say_digits_0_to_9(value: str) -> None:
    with pytest.raises(OptionError, match=r"option extra_columns=.*digits 0 to 9"):
        configure("extra", 2, {"extra_columns": value})


def test_whole_number_options_name_the_digits_they_take() -> None:
    with pytest.raises(OptionError, match="option track_length='\u0663\u0660' is not "
                                          r"allowed: .*written with the digits 0 to 9"):
        configure("extra-meters", 2, {"track_length": "\u0663\u0660"})
    with pytest.raises(OptionError, match="track_length"):
        configure("extra-meters", 2, {"track_length": "3_0"})
    assert configure("extra-meters", 2, {"track_length": " 30 "}).options["track_length"] == 30
