"""Declared game options: their types, defaults, allowed values and one-line docs.

Options are declared once per game as :class:`OptionSpec` values. The same declaration
validates keyword arguments from the library, ``--option k=v`` text from the command line,
and the option block of saved records, so every front end accepts exactly the same things.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from dicegames.core.errors import BadOptionValue, UnknownOption
from dicegames.core.names import text_problem
from dicegames.i18n import _

OptionValue = int | bool | str
"""The value types an option may hold (kept JSON-friendly for records)."""

OptionKind = Literal["int", "bool", "choice", "text", "file"]

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
"""How a whole-number option is written as text: ASCII digits only, with an optional sign
(``int()`` would also take other scripts' digits, "١٠", and underscores, "1_0")."""

DIGITS = re.compile(r"[0-9]+")
"""ASCII digits (see :func:`is_digits`)."""

FILE_LIMIT = 64 * 1024
"""The default size limit of a ``file`` option's text, in bytes (UTF-8)."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game.

    Attributes:
        name: the key used everywhere (library keyword, ``--option name=value``, records).
        kind: ``int`` (with ``minimum``/``maximum``), ``bool``, ``choice`` (one of
            ``choices``), ``text`` (free text, validated by the game) or ``file``: one of
            the built-in names in ``choices``, or the *text* of a file (a custom board), at
            most ``maximum`` bytes (default :data:`FILE_LIMIT`) and always holding a line
            break, so a one-line value can never be mistaken for it. Only the command line
            and the library read a file's path into its text (:func:`read_option_files`);
            a record or a web request carries the text itself, so the game, a replay and
            the server never open a file.
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
        """Describe the allowed values in a few words of the language in use, for errors and
        listings."""
        if self.kind == "int":
            return _("a whole number from {low} to {high}", low=self.minimum, high=self.maximum)
        if self.kind == "bool":
            return _("true or false")
        if self.kind == "choice":
            return _("one of {choices}", choices=", ".join(self.choices))
        if self.kind == "file":
            return (f"{' or '.join(self.choices)}, or a {self.name} file's text (at most "
                    f"{self.size_limit} bytes)")
        return "text"

    @property
    def size_limit(self) -> int:
        """The largest text a ``file`` option takes, in bytes."""
        return self.maximum if self.maximum is not None else FILE_LIMIT

    def validate(self, value: object) -> OptionValue:
        """Return ``value`` converted to this option's type, or raise
        :class:`~dicegames.core.errors.BadOptionValue`.

        Strings are parsed (``"30"``, ``"true"``), so command-line text and JSON values go
        through the same check as Python keyword arguments.
        """
        bad = BadOptionValue(
            f"option {self.name}={value!r} is not allowed: {self.name} takes {self.allowed()}"
        )
        if self.kind == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                if not WHOLE_NUMBER.fullmatch(value.strip()):  # int() takes "١٠", "1_0"
                    if any(char.isdigit() and not char.isascii() for char in value):
                        raise BadOptionValue(f"{bad}, written with the digits 0 to 9")
                    raise bad
                value = int(value.strip())
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
        if self.kind == "file":
            return self._validate_file(value)
        if isinstance(value, str):
            problem = text_problem(value)
            if problem is not None:
                raise BadOptionValue(f"option {self.name}: the text contains {problem}; an "
                                  "option's text may not hold control characters or unpaired "
                                  "surrogates")
            return value
        raise bad

    def validate_local(self, value: object) -> OptionValue:
        """:meth:`validate` for a value the local user typed (command line, launcher): a
        ``file`` option's path is read into the file's text first."""
        return self.validate(read_option_files((self,), {self.name: value})[self.name])

    def _validate_file(self, value: object) -> str:
        """A built-in name (lower-cased) or a file's text, never a path."""
        if not isinstance(value, str):
            raise BadOptionValue(f"option {self.name} takes {self.allowed()}, not "
                              f"{type(value).__name__}")
        if value.strip().lower() in self.choices:
            return value.strip().lower()
        if "\n" not in value:
            shown = value if len(value) <= 60 else value[:57] + "..."
            raise BadOptionValue(
                f"option {self.name}: {shown!r} is neither a built-in {self.name} "
                f"({', '.join(self.choices)}) nor a {self.name}'s text; a file is read only "
                "by the command line and the library, never from a record or a web request")
        problem = text_problem(value, lines=True)
        if problem is not None:
            raise BadOptionValue(f"option {self.name}: the {self.name}'s text contains "
                                 f"{problem}; it may hold line breaks and tabs, but no other "
                                 "control characters and no unpaired surrogates")
        size = len(value.encode("utf-8"))
        if size > self.size_limit:
            raise BadOptionValue(f"option {self.name}: the {self.name} is {size} bytes; the "
                              f"limit is {self.size_limit}")
        return value


def read_option_files(specs: tuple[OptionSpec, ...],
                      given: Mapping[str, object]) -> dict[str, object]:
    """``given`` with the path of each ``file`` option replaced by the file's text.

    For the command line and the library only (never for anything from the network): a
    value that is a built-in name or already a text (it holds a line break) is kept. The
    file must be a regular file of at most the option's size limit, in UTF-8; its text
    gets a final line break if it lacks one.

    Raises:
        BadOptionValue: the file cannot be read; the message names the option and the path.
    """
    result = dict(given)
    for spec in specs:
        value = given.get(spec.name)
        if spec.kind != "file" or not isinstance(value, str | os.PathLike):
            continue
        if isinstance(value, str) and (value.strip().lower() in spec.choices or "\n" in value):
            continue
        text = _read_text(Path(value).expanduser(), spec)
        result[spec.name] = text if text.endswith("\n") else text + "\n"
    return result


def _read_text(path: Path, spec: OptionSpec) -> str:
    def refuse(reason: str) -> BadOptionValue:
        return BadOptionValue(f"{spec.name} {str(path)!r} is neither a built-in {spec.name} "
                           f"({', '.join(spec.choices)}) nor a readable {spec.name} file: "
                           f"{reason}")
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # before opening: a FIFO would block
            raise refuse("not a regular file")
        with path.open("rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise refuse("not a regular file")
            data = stream.read(spec.size_limit + 1)
    except OSError as error:
        raise refuse(error.strerror or str(error)) from None
    if len(data) > spec.size_limit:
        raise refuse(f"larger than {spec.size_limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse("not a UTF-8 text file") from None


def resolve_options(
    game_id: str, specs: tuple[OptionSpec, ...], given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """Validate ``given`` against ``specs`` and fill in the defaults (never reading a file:
    see :func:`read_option_files` for the front ends that may).

    Raises:
        UnknownOption: an unknown option name; the message names the allowed options.
        BadOptionValue: a value that is not allowed; the message names the allowed values.
    """
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        allowed = ", ".join(by_name) if by_name else "none"
        raise UnknownOption(f"{game_id} has no option {unknown[0]!r}; its options are: "
                            f"{allowed}")
    return {
        spec.name: spec.validate(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


def is_digits(text: str) -> bool:
    """True when ``text`` is one or more ASCII digits 0 to 9 and nothing else: how every
    number in an option is written (``str.isdigit`` and ``int`` also take other scripts'
    digits, "١٠" or "１０")."""
    return DIGITS.fullmatch(text) is not None


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Split ``["k=v", ...]`` command-line text into a dict, rejecting malformed pairs."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadOptionValue(f"option {pair!r} is not of the form name=value")
        result[key.strip()] = value.strip()
    return result
