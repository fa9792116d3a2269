"""The data of an EXTRA! position: the score sheet's constants, one player's sheet, decisions.

The sheet is RULINGS.md's reconstruction of the Schmidt pad: per sum 2..12, k boxes in the
-200 zone, one "0" box, then the multiplier boxes x1 x2 x3 x5 x7; three EXTRA columns
(10, 9 and 8 boxes by default, option ``extra_columns``).
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.model import Seat

SUMS = tuple(range(2, 13))
"""The rows of the sheet: the sums of two dice."""

ROW_VALUES = (100, 70, 60, 50, 40, 30, 40, 50, 60, 70, 100)
"""Points of one row per multiplier step, for sums 2..12."""

K_FIVE_NINE = 5
"""The number of -200 boxes of rows 5 and 9. UNVERIFIED: reviews disagree (5 or 6), and the
seed's table is garbled; RULINGS.md keeps it one named constant, flagged in the docs."""

NEGATIVE_BOXES = (3, 3, 4, K_FIVE_NINE, 7, 7, 7, K_FIVE_NINE, 4, 3, 3)
"""k per row (sums 2..12): the boxes of the -200 zone."""

FACTORS = (1, 2, 3, 5, 7)
"""The multipliers of the five boxes after the "0" box."""

BOXES = tuple(k + 1 + len(FACTORS) for k in NEGATIVE_BOXES)
"""Boxes per row: k, the 0 box, the five multiplier boxes. Crosses beyond are lost."""

PENALTY = -200
"""The score of a started row that has not left the -200 zone."""

COLUMN_NAMES = "abc"
"""The EXTRA columns, left to right, as the notation names them."""

DEFAULT_COLUMNS = (10, 9, 8)
"""Boxes of the three EXTRA columns (RULINGS.md; option ``extra_columns``)."""


def row_score(index: int, crosses: int) -> int:
    """The score of the row of sum ``index + 2`` holding ``crosses`` crosses.

    0 if empty; -200 while in the -200 zone (1..k crosses); 0 on the 0 box (k + 1); then the
    row's value times the factor of the last box reached (k + 2 -> x1 ... k + 6 -> x7).

    >>> row_score(9, 7)  # row 11 crossed seven times: 70 x 3 (the seed's example)
    210
    """
    k = NEGATIVE_BOXES[index]
    if crosses == 0:
        return 0
    if crosses <= k:
        return PENALTY
    if crosses == k + 1:
        return 0
    return ROW_VALUES[index] * FACTORS[min(crosses, BOXES[index]) - k - 2]


@dataclass(frozen=True, slots=True, order=True)
class Decision:
    """One player's use of a roll: two pairs and the fifth die.

    Attributes:
        pairs: the two pairs, each (low, high), in canonical order (by sum, then low die).
        extra: the fifth die recorded as EXTRA number, 0 on a free ride (no EXTRA cross).
        column: for a new EXTRA number, the free column it is written in (0, 1, 2 for
            a, b, c); -1 for a repeat of an EXTRA number or a free ride.

    The notation is ``2+2 1+5 x3a`` (a new EXTRA number 3 in column a), ``2+2 1+5 x3`` (3
    is already an EXTRA number), ``2+4 5+5 free`` (a free ride: the fifth die is unused).
    """

    pairs: tuple[tuple[int, int], tuple[int, int]]
    extra: int = 0
    column: int = -1

    @property
    def sums(self) -> tuple[int, int]:
        """The two sums crossed, in notation order."""
        return (self.pairs[0][0] + self.pairs[0][1], self.pairs[1][0] + self.pairs[1][1])

    @property
    def is_free_ride(self) -> bool:
        """True when no EXTRA box is crossed (all three EXTRA numbers set, none rolled)."""
        return self.extra == 0

    def extra_notation(self) -> str:
        """The last word of the notation: ``x3a``, ``x3`` or ``free``."""
        if self.extra == 0:
            return "free"
        column = COLUMN_NAMES[self.column] if self.column >= 0 else ""
        return f"x{self.extra}{column}"

    def __str__(self) -> str:
        pairs = " ".join(f"{a}+{b}" for a, b in self.pairs)
        return f"{pairs} {self.extra_notation()}"


@dataclass(frozen=True, slots=True)
class Sheet:
    """One player's score sheet.

    Attributes:
        rows: crosses per row, sums 2..12 (never more than the row's boxes).
        numbers: the EXTRA number heading each column, 0 while the column is free.
        marks: crosses per EXTRA column.
        noted: children's ``rows`` reading only: bit i set when sum i + 2 has been recorded
            once without its first cross.
        done: True once a cross filled the last box of an EXTRA column (the player stopped).
    """

    rows: tuple[int, ...] = (0,) * len(SUMS)
    numbers: tuple[int, int, int] = (0, 0, 0)
    marks: tuple[int, int, int] = (0, 0, 0)
    noted: int = 0
    done: bool = False

    @property
    def score(self) -> int:
        """The sheet's total: the sum of the row scores."""
        return sum(row_score(i, c) for i, c in enumerate(self.rows))


@dataclass(frozen=True, slots=True)
class ExtraData:
    """An EXTRA! position.

    Attributes:
        sheets: one sheet per seat.
        roll: the shared roll (five sorted dice), () while the dice are still to be rolled.
        pending: each seat's decision on ``roll`` (None while undecided, or for a seat that
            has stopped); the decisions are recorded together once every playing seat has
            decided, so the order of the decisions leaves no trace.
        roller: the seat that rolls (or rolled) the dice of this turn.
        turn: rolls completed so far plus one.
    """

    sheets: tuple[Sheet, ...]
    roll: tuple[int, ...] = ()
    pending: tuple[Decision | None, ...] = ()
    roller: Seat = 0
    turn: int = 1
