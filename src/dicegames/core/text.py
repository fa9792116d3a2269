"""Small helpers for the sentences games write about players ("Ann rolls", "You roll").

A front end may call the person at the keyboard "You"; sentences then need the verb without
"s" and "Your" instead of "You's". In other languages verbs do not morph the English way, so
the sentences people read go through :func:`says` and :func:`counted`: whole messages (one
for "You", one for anyone else; one for a count of 1, one for more) translated into the
current language (:mod:`dicegames.i18n`). :func:`sentence`, :func:`verb` and :func:`count`
remain for English-only text (reports, docs).
"""

from __future__ import annotations

from collections.abc import Sequence

from dicegames.i18n import N_, _

_IRREGULAR = {"has": "have", "does": "do", "goes": "go", "is": "are", "was": "were"}


_YOU = {"you", "vous", "du", "tu"}
""""You" as the web pages' languages write it for the player at the keyboard."""


def is_you(name: str) -> bool:
    """True when ``name`` addresses the reader ("You", or "Vous", "Du", "Tu").

    >>> is_you("You"), is_you("Vous"), is_you("Ann")
    (True, True, False)
    """
    return name.strip().lower() in _YOU


def verb(name: str, third_person: str) -> str:
    """``third_person`` ("rolls", "has") agreeing with ``name``.

    >>> verb("Ann", "rolls"), verb("You", "rolls"), verb("You", "has"), verb("You", "passes")
    ('rolls', 'roll', 'have', 'pass')
    """
    if not is_you(name):
        return third_person
    if third_person in _IRREGULAR:
        return _IRREGULAR[third_person]
    if third_person.endswith(("shes", "ches", "sses", "xes")):
        return third_person[:-2]
    return third_person[:-1] if third_person.endswith("s") else third_person


def sentence(name: str, third_person: str, rest: str = "") -> str:
    """``name`` and one agreeing verb, then ``rest``.

    >>> sentence("Ann", "rolls", "5"), sentence("You", "rolls", "5")
    ('Ann rolls 5', 'You roll 5')
    """
    return f"{name} {verb(name, third_person)}" + (f" {rest}" if rest else "")


def possessive(name: str) -> str:
    """ "Ann's", "Your".

    >>> possessive("Ann"), possessive("You"), possessive("Jules")
    ("Ann's", 'Your', "Jules's")
    """
    if is_you(name):
        return ("y" if name.strip()[0].islower() else "Y") + "our"
    return f"{name}'s"


_PLURALS = {"die": "dice", "child": "children", "person": "people"}


def plural(number: float, noun: str, many: str | None = None) -> str:
    """``noun`` in the form that agrees with ``number``: singular only for exactly 1.

    ``many`` names an irregular plural; common ones ("die": "dice") are known.

    >>> plural(1, "square"), plural(2, "square"), plural(0, "die"), plural(3, "cross")
    ('square', 'squares', 'dice', 'crosses')
    """
    if number == 1:
        return noun
    if many is not None:
        return many
    if noun in _PLURALS:
        return _PLURALS[noun]
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def count(number: float, noun: str, many: str | None = None) -> str:
    """``number`` and ``noun`` agreeing: "1 square", "2 squares", "1 die", "6 dice".

    Every sentence that counts something for people goes through here (and
    :func:`plural`), so no message reads "1 squares" or "Resuming after 1 moves".

    >>> count(1, "square"), count(5, "square"), count(1, "move"), count(2, "die")
    ('1 square', '5 squares', '1 move', '2 dice')
    >>> count(1.5, "turn"), count(0, "game")
    ('1.5 turns', '0 games')
    """
    return f"{number:g} {plural(number, noun, many)}" if isinstance(number, float) else (
        f"{number} {plural(number, noun, many)}")


def says(name: str, other: str, you: str, **params: object) -> str:
    """The sentence about ``name`` in the current language: the message ``you`` when
    ``name`` addresses the reader, else ``other``; ``{name}`` and ``params`` filled in.

    Both messages are whole sentences marked with ``N_`` where they are written
    (``says(who, N_("{name} rolls {value}"), N_("You roll {value}"), value=5)``), so each
    language writes its own verb form.

    >>> says("Ann", "{name} rolls {value}", "You roll {value}", value=5)
    'Ann rolls 5'
    >>> says("You", "{name} rolls {value}", "You roll {value}", value=5)
    'You roll 5'
    """
    return _(you if is_you(name) else other, name=name, **params)


def counted(number: int, one: str, many: str) -> str:
    """``number`` of something in the current language: the message ``one`` for exactly 1,
    else ``many`` with ``{count}`` filled (``counted(3, N_("1 square"),
    N_("{count} squares"))``).

    >>> counted(1, "1 square", "{count} squares"), counted(4, "1 square", "{count} squares")
    ('1 square', '4 squares')
    """
    return _(one) if number == 1 else _(many, count=number)


COLOUR_WORDS = (N_("red"), N_("yellow"), N_("green"), N_("blue"), N_("white"), N_("purple"))
"""The colours the games' pieces and dice have, by their English names (their notation)."""


def colour_word(colour: str) -> str:
    """A colour given by its English name (the notation a game writes, ``red``; a
    ``StrEnum`` member works) in the current language: French *rouge*, German *rot*.

    >>> colour_word("red")
    'red'
    """
    return _(str(colour))


def listing(words: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c" in the current language.

    >>> listing(["R1"]), listing(["Ann", "Ben", "Cy"])
    ('R1', 'Ann, Ben and Cy')
    """
    if len(words) == 1:
        return words[0]
    return _("{names} and {last}", names=", ".join(words[:-1]), last=words[-1])
