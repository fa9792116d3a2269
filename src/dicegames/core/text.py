"""Small helpers for the sentences games write about players ("Ann rolls", "You roll").

A front end may call the person at the keyboard "You"; sentences then need the verb without
"s" and "Your" instead of "You's".
"""

from __future__ import annotations

_IRREGULAR = {"has": "have", "does": "do", "goes": "go", "is": "are", "was": "were"}


def is_you(name: str) -> bool:
    """True when ``name`` addresses the reader ("You")."""
    return name.strip().lower() == "you"


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
    return name.strip()[0] + "our" if is_you(name) else f"{name}'s"
