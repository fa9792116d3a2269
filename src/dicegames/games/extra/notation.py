"""EXTRA!'s decision notation read leniently: the pairs in any order, each pair either way.

``1+5 2+2 x3a``, ``5+1 2+2 x3a`` and ``2+2 1+5 x3a`` name one decision; the canonical
order (by sum, then by the lower die; each pair low die first) is what ``str()`` writes.
"""

from __future__ import annotations

import re

from dicegames.core.errors import IllegalAction
from dicegames.games.extra.data import COLUMN_NAMES, Decision

PAIRS = re.compile(r"([1-6])\s*\+\s*([1-6])[\s,]+([1-6])\s*\+\s*([1-6])[\s,]+(\S+)")
"""Two pairs (``a+b``) and the EXTRA part, separated by spaces or commas."""

EXTRA = re.compile(r"x([1-6])([abc]?)|free")
"""The EXTRA part: ``x3a`` (a new number in column a), ``x3`` (a repeat), ``free``."""


def read_decision(text: str) -> Decision | None:
    """The decision ``text`` writes with its pairs in any order; None when the text is not
    written with two pairs (the caller tries other forms).

    Raises:
        IllegalAction: two pairs followed by an EXTRA part that is not ``x<die>``,
            ``x<die><column>`` or ``free``.
    """
    found = PAIRS.fullmatch(text.strip().lower())
    if found is None:
        return None
    a, b, c, d = (int(found[i]) for i in range(1, 5))
    extra = EXTRA.fullmatch(found[5])
    if extra is None:
        raise IllegalAction(f"{text.strip()!r}: after the two pairs comes the EXTRA part, "
                            f"x<die> with a column ({', '.join(COLUMN_NAMES)}) for a new "
                            "EXTRA number (x3a), x<die> for a repeat (x3), or free; "
                            f"not {found[5]!r}")
    first, second = sorted(((min(a, b), max(a, b)), (min(c, d), max(c, d))),
                           key=lambda pair: (pair[0] + pair[1], pair[0]))
    if extra[0] == "free":
        return Decision((first, second))
    column = COLUMN_NAMES.index(extra[2]) if extra[2] else -1
    return Decision((first, second), int(extra[1]), column)


def written_decision(written: Decision, legal: tuple[Decision, ...], roll: tuple[int, ...],
                     numbers: tuple[int, int, int]) -> Decision:
    """``written`` (from :func:`read_decision`) when it is legal, else an error that says
    why: dice that are not the roll's, a new EXTRA number without its column, a taken
    column, or (otherwise) the legal decisions.

    Raises:
        IllegalAction: ``written`` is not among ``legal``.
    """
    if written in legal:
        return written
    die, column = written.extra, written.column
    if not uses_roll(written, roll):
        problem = (f"does not split the roll {' '.join(map(str, roll))}: the two pairs (in "
                   "any order) and the EXTRA die use the five dice")
    elif die and column < 0 and die not in numbers:
        problem = (f"{die} is not an EXTRA number yet: a new number goes in a free column, "
                   f"x{die}a, x{die}b or x{die}c")
    elif column >= 0 and numbers[column]:
        problem = (f"column {COLUMN_NAMES[column]} already holds the EXTRA number "
                   f"{numbers[column]}: a repeat is written x<die>, a new number goes in a "
                   "free column")
    else:
        problem = "is not a legal decision here"
    shown = ", ".join(str(action) for action in legal[:12])
    more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
    raise IllegalAction(f"{written}: {problem}; legal: {shown}{more}")


def uses_roll(decision: Decision, roll: tuple[int, ...]) -> bool:
    """True when the decision's dice (four in pairs, the fifth unless a free ride) can come
    from the five dice of ``roll``."""
    dice = [die for pair in decision.pairs for die in pair]
    if decision.extra:
        dice.append(decision.extra)
    rest = list(roll)
    for die in dice:
        if die not in rest:
            return False
        rest.remove(die)
    return True
