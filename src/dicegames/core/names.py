"""Player names and other text from outside: what is allowed in, and a safe rendering of
what older versions let in.

Every place a name enters (the web app's match set-up and lobby, uploaded records and saved
games, ``--players`` and the terminal launcher) goes through :func:`check_name`, so all of
them accept exactly the same names:

* text, surrounding spaces stripped, normalised to NFC (so "é" typed as ``e`` + U+0301 and
  as U+00E9 is the same name), then 1 to :data:`MAX_NAME` characters;
* no unpaired surrogate (U+D800 to U+DFFF alone: valid in a JSON string as ``"\\ud800"``, but
  not encodable as UTF-8, so every answer carrying it would fail);
* no control character (C0, DEL, C1, and the line and paragraph separators U+2028/U+2029);
* no bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069),
  which would reorder the text shown around the name;
* no other invisible formatting character (Unicode category Cf: soft hyphen, word joiner,
  zero-width space, byte order mark...), except the two that shape visible text: the
  zero-width joiner and non-joiner between two visible characters (emoji sequences such as
  "👨‍👩‍👧", Persian and Indic words), and the tag characters of a subdivision flag
  (U+E0020 to U+E007F after U+1F3F4);
* not invisible: at least one character that is neither a space nor a zero-width or blank
  character (variation selectors, Hangul fillers, the braille blank...).

Other text that arrives from outside and is stored or echoed (moves, positions, option
values, a custom board's text) goes through :func:`text_problem`: no unpaired surrogate and
no control character (a file's text may hold line breaks and tabs).

Rows stored by older versions may hold anything; :func:`safe_name` renders such a name
safely (each forbidden character becomes U+FFFD) and :func:`safe_text` does the same for
unpaired surrogates in any text, so loading an old row never fails an answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from dicegames.core.errors import DiceGamesError

MAX_NAME = 40
"""The longest player name, in characters after NFC normalisation: records, the command
line and the web app."""

RAW_LIMIT = 8 * MAX_NAME
"""Longer text is refused before any character is looked at (it cannot be a name of
:data:`MAX_NAME` characters after normalisation and stripping spaces)."""

RULE = ("names may not contain control characters, bidirectional controls, invisible "
        "formatting characters or unpaired surrogates")
"""The rule every refusal of a forbidden character ends with."""

HARMFUL = frozenset({"an unpaired surrogate", "a control character",
                     "a bidirectional control"})
"""The kinds of character named as such even in a name with nothing visible."""

REPLACEMENT = "\ufffd"
"""What a forbidden character of an old stored text is shown as."""

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""The Unicode Bidi_Control characters: marks, embeddings, overrides and isolates."""

JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: allowed between two visible characters."""

TAGS = (0xE0020, 0xE007F)
"""The tag characters, which spell a subdivision after :data:`FLAG` (England's flag)."""

FLAG = "\U0001f3f4"
"""The waving black flag, which a run of tag characters turns into a subdivision flag."""

BLANKS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800"
                   "\u3164\uffa0") | frozenset(map(chr, range(0xFE00, 0xFE10))) | frozenset(
                       map(chr, range(0xE0100, 0xE01F0)))
"""Characters that are not format characters but show nothing on their own (combining
grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation selectors,
the braille blank, variation selectors): a name made only of these (and spaces, and format
characters) is invisible."""

_NOT_PLAIN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""The characters :func:`text_problem` refuses, for a quick search of long texts."""

_NOT_IN_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""The same, for a file's text: line feeds, carriage returns and tabs are allowed."""

_SURROGATE = re.compile(r"[\ud800-\udfff]")


class BadName(DiceGamesError, ValueError):
    """A player name that is not allowed; the message says which name, why, and the rule."""


def codepoint(char: str) -> str:
    """``U+0007`` for a character: how messages show one that cannot be shown as itself."""
    return f"U+{ord(char):04X}"


def _kind(text: str, index: int, in_flag: bool) -> str | None:
    """What the character at ``index`` is when a name may not hold it there, else None;
    ``in_flag``: the characters before it are a flag and tag characters."""
    char = text[index]
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return "an unpaired surrogate"
    category = unicodedata.category(char)
    if category == "Cc" or char in "\u2028\u2029":
        return "a control character"
    if char in BIDI_CONTROLS:
        return "a bidirectional control"
    if category != "Cf":
        return None
    if char in JOINERS:
        inside = 0 < index < len(text) - 1 and _joinable(text[index - 1]) and (
            _joinable(text[index + 1]))
        return None if inside else "a zero-width joiner that joins nothing"
    if TAGS[0] <= code <= TAGS[1]:
        return None if in_flag else "a tag character outside a flag"
    return "an invisible formatting character"


def _joinable(char: str) -> bool:
    """True for a character a zero-width joiner or non-joiner may stand next to."""
    return not (char.isspace() or char in JOINERS
                or unicodedata.category(char) in ("Cf", "Cc", "Zl", "Zp", "Cs"))


def _visible(char: str) -> bool:
    """True for a character that shows something on its own."""
    return _joinable(char) and char not in BLANKS


def _problems(text: str) -> Iterator[tuple[int, str]]:
    """The index and kind of every character a name may not hold, in order."""
    in_flag = False
    for index, char in enumerate(text):
        kind = _kind(text, index, in_flag)
        in_flag = char == FLAG or (in_flag and TAGS[0] <= ord(char) <= TAGS[1])
        if kind is not None:
            yield index, kind


def check_name(raw: object, who: str = "the name") -> str:
    """The name ``raw`` as it is kept: stripped and NFC-normalised, checked (module rules).

    ``who`` names it in messages ("player 2's name", "'name'").

    Raises:
        BadName: not text, a forbidden character (the message says which class, with its
            code point, and the rule), invisible, empty or longer than :data:`MAX_NAME`.
    """
    if not isinstance(raw, str):
        raise BadName(f"{who} must be text of 1 to {MAX_NAME} characters")
    if len(raw) > RAW_LIMIT:  # NFC never shortens text this much: too long for sure
        raise BadName(f"{who} has {len(raw)} characters; a name has 1 to {MAX_NAME} characters")
    invisible = BadName(f"{who} is invisible (only spaces or zero-width characters); a "
                        "name needs at least one visible character")
    for index, kind in _problems(raw):  # before normalising: NFC keeps these as they are
        if kind not in HARMFUL and not any(_visible(char) for char in raw):
            raise invisible
        raise BadName(f"{who} contains {kind} ({codepoint(raw[index])}); {RULE}")
    name = unicodedata.normalize("NFC", raw.strip())
    if not name:
        raise BadName(f"{who} is empty; a name has 1 to {MAX_NAME} characters")
    if not any(_visible(char) for char in name):
        raise invisible
    if len(name) > MAX_NAME:
        raise BadName(f"{who} has {len(name)} characters; a name has 1 to {MAX_NAME} "
                      "characters")
    return name


def safe_name(raw: object, number: int) -> str:
    """A stored name (of seat ``number``, from 1) as it can be shown and sent: the checked
    name when :func:`check_name` takes it, else with each forbidden character replaced by
    U+FFFD, cut to :data:`MAX_NAME` characters, or ``Player <number>`` when it shows nothing
    visible (only controls, spaces, zero-width characters) or is not text. Never raises;
    the result always passes :func:`check_name`.
    """
    fallback = f"Player {number}"
    if not isinstance(raw, str):
        return fallback
    try:
        return check_name(raw)
    except BadName:
        pass
    if not any(_visible(char) for char in raw):
        return fallback
    bad = {index for index, _ in _problems(raw)}
    cleaned = "".join(REPLACEMENT if index in bad else char for index, char in enumerate(raw))
    cleaned = unicodedata.normalize("NFC", cleaned.strip())[:MAX_NAME].strip()
    try:
        return check_name(cleaned)
    except BadName:
        return fallback


def text_problem(text: str, lines: bool = False) -> str | None:
    """What makes ``text`` unfit to store or echo: ``"an unpaired surrogate (U+D800)"`` or
    ``"a control character (U+0007)"`` for the first such character, else None.

    With ``lines`` (a file's text), line feeds, carriage returns and tabs are allowed.
    """
    found = (_NOT_IN_LINES if lines else _NOT_PLAIN).search(text)
    if found is None:
        return None
    char = found.group()
    kind = "an unpaired surrogate" if _SURROGATE.match(char) else "a control character"
    return f"{kind} ({codepoint(char)})"


def safe_text(text: str) -> str:
    """``text`` with every unpaired surrogate replaced by U+FFFD (so it encodes as UTF-8)."""
    return _SURROGATE.sub(REPLACEMENT, text)
