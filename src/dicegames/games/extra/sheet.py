"""Pure sheet logic: the distinct legal decisions for a roll, and recording one on a sheet.

Kept apart from the Game class so that the bots can use the same code on bare sheets, fast.
"""

from __future__ import annotations

from functools import lru_cache

from dicegames.games.extra.data import BOXES, Decision, Sheet


def pairings(dice: tuple[int, ...]) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The distinct ways to split four sorted dice into two pairs, canonically ordered.

    Each pair is (low, high); the two pairs are ordered by sum, then by low die. Equal dice
    make pairings equal; each distinct one is listed once.

    >>> pairings((1, 2, 2, 5))
    (((1, 2), (2, 5)), ((2, 2), (1, 5)))
    """
    a, b, c, d = dice
    found: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for first, second in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        p, q = sorted((first, second), key=lambda pair: (pair[0] + pair[1], pair[0]))
        found.add((p, q))
    return tuple(sorted(found, key=_pairing_key))


def _pairing_key(pairs: tuple[tuple[int, int], tuple[int, int]]) -> tuple[int, ...]:
    (a, b), (c, d) = pairs
    return (a + b, c + d, a, c)


def _without(roll: tuple[int, ...], value: int) -> tuple[int, ...]:
    """``roll`` with one die showing ``value`` taken out."""
    index = roll.index(value)
    return roll[:index] + roll[index + 1:]


@lru_cache(maxsize=65536)
def legal_decisions(roll: tuple[int, ...], numbers: tuple[int, int, int]) -> tuple[Decision, ...]:
    """Every distinct legal decision for a sorted five-dice ``roll`` and EXTRA ``numbers``.

    While a column is free, any die may be the fifth: a repeat of an EXTRA number, or a new
    number in any free column. With all three set: exactly the EXTRA numbers in the roll may
    be the fifth (forced when one, a choice when several); with none of them rolled, a free
    ride: two pairs from any four dice and no EXTRA cross.
    """
    free = tuple(j for j, n in enumerate(numbers) if n == 0)
    present = sorted({d for d in roll if d in numbers})
    decisions: list[Decision] = []
    if free:
        for value in sorted(set(roll)):
            rest = _without(roll, value)
            columns = (-1,) if value in numbers else free
            for column in columns:
                decisions.extend(Decision(p, value, column) for p in pairings(rest))
    elif present:
        for value in present:
            decisions.extend(Decision(p, value) for p in pairings(_without(roll, value)))
    else:
        seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        for value in sorted(set(roll)):
            for p in pairings(_without(roll, value)):
                if p not in seen:
                    seen.add(p)
                    decisions.append(Decision(p))
    return tuple(decisions)


def record(sheet: Sheet, decision: Decision, columns: tuple[int, int, int], *,
           child_extra: bool = False, child_rows: bool = False) -> Sheet:
    """The sheet after recording ``decision`` (assumed legal), and whether the player stops.

    Each pair's sum gets a cross in its row, left to right; a cross on a full row is lost.
    The fifth die gets a cross in its EXTRA column (a new number is written at the head of
    its column and crossed once). The player stops when a column's last box is crossed.

    Children (``child_extra``, the rule sheet's reading): a new EXTRA number is only written
    down, its first cross comes when it is recorded again. ``child_rows`` (the variant's
    other reading): a row gets its first cross when its sum is recorded a second time.
    """
    rows, noted, _ = row_crosses(sheet, decision, child_rows=child_rows)
    numbers, marks = sheet.numbers, sheet.marks
    if decision.extra:
        if decision.column >= 0:
            column = decision.column
            numbers = _put(numbers, column, decision.extra)
            crossed = 0 if child_extra else 1
        else:
            column = numbers.index(decision.extra)
            crossed = marks[column] + 1
        marks = _put(marks, column, crossed)
    done = any(m >= c for m, c in zip(marks, columns, strict=True))
    return Sheet(tuple(rows), numbers, marks, noted, done)


NOTED = -1
"""In :func:`row_crosses`: the pair's sum was only noted (``child_rows``), no box crossed."""

LOST = -2
"""In :func:`row_crosses`: the pair's row was full, its cross is lost."""


def row_crosses(sheet: Sheet, decision: Decision, *,
                child_rows: bool = False) -> tuple[tuple[int, ...], int, tuple[int, int]]:
    """What the two pairs of ``decision`` do to the rows, pair by pair (see :func:`record`).

    Returns the rows' cross counts and the ``noted`` bits after both pairs, and for each
    pair the box it crosses (0-based, left to right), :data:`NOTED` or :data:`LOST`. A
    double (two pairs of one sum) crosses two boxes of one row, one after the other.
    """
    rows = list(sheet.rows)
    noted = sheet.noted
    boxes: list[int] = []
    for low, high in decision.pairs:
        index = low + high - 2
        if child_rows and rows[index] == 0 and not noted >> index & 1:
            noted |= 1 << index
            boxes.append(NOTED)
        elif rows[index] < BOXES[index]:
            boxes.append(rows[index])
            rows[index] += 1
        else:
            boxes.append(LOST)
    return tuple(rows), noted, (boxes[0], boxes[1])


def _put(values: tuple[int, int, int], index: int, value: int) -> tuple[int, int, int]:
    """``values`` with ``values[index]`` replaced by ``value``."""
    items = list(values)
    items[index] = value
    return (items[0], items[1], items[2])
