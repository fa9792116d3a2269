"""Declared game options: their types, defaults, allowed values and one-line docs.

Options are declared once per game as :class:`OptionSpec` values. The same declaration
validates keyword arguments from the library, ``--option k=v`` text from the command line,
and the option block of saved records, so every front end accepts exactly the same things.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from dicegames.core.errors import OptionError

OptionValue = int | bool | str
"""The value types an option may hold (kept JSON-friendly for records)."""

OptionKind = Literal["int", "bool", "choice", "text"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game.

    Attributes:
        name: the key used everywhere (library keyword, ``--option name=value``, records).
        kind: ``int`` (with ``minimum``/``maximum``), ``bool``, ``choice`` (one of
            ``choices``) or ``text`` (free text, e.g. a file path; validated by the game).
        default: the value our rulings choose; used when the option is not given.
        doc: one plain line saying what the option changes, for players (no option names,
            file names or jargon: the set-up form and the launcher show it under the label).
        label: a few words naming the option for players (``name`` is for typing); empty
            means the name itself.
        choice_labels: for a ``choice`` option, the words shown for each of ``choices``,
            in the same order (empty: the choices themselves).
    """

    name: str
    kind: OptionKind
    default: OptionValue
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    label: str = ""
    choice_labels: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """What players read as the option's name: its label, or its name without jargon."""
        return self.label or self.name.replace("_", " ").capitalize()

    def choice_title(self, choice: str) -> str:
        """The words shown for one of ``choices`` (the choice itself without a label)."""
        if choice in self.choices and len(self.choice_labels) == len(self.choices):
            return self.choice_labels[self.choices.index(choice)]
        return choice

    def allowed(self) -> str:
        """Describe the allowed values in a few words, for errors and listings."""
        if self.kind == "int":
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        return "text"

    def validate(self, value: object) -> OptionValue:
        """Return ``value`` converted to this option's type, or raise :class:`OptionError`.

        Strings are parsed (``"30"``, ``"true"``), so command-line text and JSON values go
        through the same check as Python keyword arguments.
        """
        bad = OptionError(
            f"option {self.name}={value!r} is not allowed: {self.name} takes {self.allowed()}"
        )
        if self.kind == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            assert self.minimum is not None and self.maximum is not None
            if not self.minimum <= value <= self.maximum:
                raise bad
            return value
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered in ("true", "yes", "on", "1"):
                    return True
                if lowered in ("false", "no", "off", "0"):
                    return False
            raise bad
        if self.kind == "choice":
            if isinstance(value, str) and value.strip().lower() in self.choices:
                return value.strip().lower()
            raise bad
        if isinstance(value, str):
            return value
        raise bad


def resolve_options(
    game_id: str, specs: tuple[OptionSpec, ...], given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """Validate ``given`` against ``specs`` and fill in the defaults.

    Raises:
        OptionError: an unknown option name, or a value that is not allowed. The message
            names the allowed options or values.
    """
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        allowed = ", ".join(by_name) if by_name else "none"
        raise OptionError(f"{game_id} has no option {unknown[0]!r}; its options are: {allowed}")
    return {
        spec.name: spec.validate(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Split ``["k=v", ...]`` command-line text into a dict, rejecting malformed pairs."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not of the form name=value")
        result[key.strip()] = value.strip()
    return result
