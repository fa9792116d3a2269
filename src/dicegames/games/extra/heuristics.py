"""Game knowledge for the bots: a one-step rule (medium) and a look-ahead evaluation (hard).

Both judge each distinct legal decision by the sheet it leaves; neither looks at the other
players (the only interaction in EXTRA! is when the others stop).

*medium* adds up the value of each row's next cross on a smoothed score (starting a row costs
200, each further cross of the -200 zone wins back 200/k, beyond it the real score change), a
small cost for a cross lost on a full row, and the risk of filling an EXTRA column: a cost
that grows as the column's last box nears, and a large one for the cross that ends the game.

*hard* values the sheet a decision leaves by where it is heading:

1. R, the expected number of rolls left, computed **exactly** by dynamic programming over the
   EXTRA columns (boxes left per column, numbers set or not), the player picking, whenever it
   has a choice, the column that makes the game last longest;
2. for each started row, its expected final score if it gets a Poisson number of further
   crosses with mean ``R * min(a, focus * a / A)``, where ``a`` is the chance that a roll
   offers the row's sum and ``A`` the sum of ``a`` over the started rows (rows that are
   often available get more of the crosses left, and many started rows share them);
3. a bonus per expected roll left, a cost per started row, and a cost for writing 2 or 5 as a
   new EXTRA number (the faces the middle rows need most).

The weights were tuned by simulated solo games (see the rules page for the figures).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, Protocol, cast

from dicegames.core.chance import multisets
from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra.data import (
    BOXES,
    NEGATIVE_BOXES,
    PENALTY,
    SUMS,
    Decision,
    ExtraData,
    Sheet,
    row_score,
)

ROLL_PROBABILITIES = tuple((faces, float(p)) for faces, p in multisets(range(1, 7), 5))
"""The 252 rolls with float probabilities (the bots' arithmetic, not the rules')."""


def _availability() -> tuple[float, ...]:
    """For each sum 2..12, the chance that some pair of a roll of five dice makes it."""
    result = [0.0] * len(SUMS)
    for faces, p in ROLL_PROBABILITIES:
        for index in {a + b - 2 for a, b in combinations(faces, 2)}:
            result[index] += p
    return tuple(result)


AVAILABLE = _availability()
"""Per row, the chance that a roll can give that sum as one of its pairs."""

HARD_FOCUS = 1.5
"""hard: crosses per roll a started row can expect, times its availability share (tuned)."""

HARD_NEW_NUMBER_COST = (0.0, 150.0, 0.0, 0.0, 150.0, 0.0)
"""hard: points against writing each face 1..6 as a new EXTRA number (tuned). 2 and 5 are
the worst EXTRA numbers: they are the faces the middle rows need most often."""

HARD_START_COST = 30.0
"""hard: points per started row, for the rolls its crosses take from the other rows (tuned)."""

HARD_ROLL_BONUS = 50.0
"""hard: points per expected roll left, over the rows' expected scores (tuned)."""


class SheetRules(Protocol):
    """What the bots need of the game (the ``Extra`` class, without importing it)."""

    columns: tuple[int, int, int]

    def record(self, seat: Seat, sheet: Sheet, decision: Decision) -> Sheet:
        """``seat``'s sheet after recording ``decision``."""
        ...

    def child_extra(self, seat: Seat) -> bool:
        """True when ``seat`` plays the children's variant on its EXTRA numbers."""
        ...


# ----------------------------------------------------------------------- medium


def progress(index: int, crosses: int) -> float:
    """The smoothed row score: -200 for the first cross, then 200/k back per cross to 0."""
    k = NEGATIVE_BOXES[index]
    if 1 <= crosses <= k:
        return PENALTY + (-PENALTY) * (crosses - 1) / k
    return float(row_score(index, crosses))


def medium_value(sheet: Sheet, after: Sheet, columns: tuple[int, int, int]) -> float:
    """The one-step value of going from ``sheet`` to ``after`` (see the module docstring)."""
    value = 0.0
    for index, (old, new) in enumerate(zip(sheet.rows, after.rows, strict=True)):
        value += progress(index, new) - progress(index, old)
    lost = 2 - (sum(after.rows) - sum(sheet.rows))
    value -= 10.0 * lost
    for marks, before, size in zip(after.marks, sheet.marks, columns, strict=True):
        if marks > before:
            left = size - marks
            value -= 1000.0 if left <= 0 else 40.0 / left
    return value


def _best(state: State[Any, Any, Any], seat: Seat,
          value: Callable[[Decision], float]) -> Decision:
    """The legal decision of highest ``value`` (the first on a tie)."""
    best: Decision | None = None
    best_value = -math.inf
    for decision in state.legal_actions(seat):
        score = value(decision)
        if score > best_value:
            best, best_value = decision, score
    assert best is not None
    return best


def medium_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The medium bot's choice: the decision of highest :func:`medium_value`."""
    game = cast("SheetRules", state.game)
    data = state.data
    assert isinstance(data, ExtraData)
    sheet = data.sheets[seat]
    return _best(state, seat, lambda decision: medium_value(
        sheet, game.record(seat, sheet, decision), game.columns))


# ----------------------------------------------------------------------- hard


Column = tuple[bool, int]
"""An EXTRA column for the length model: whether its number is set, and boxes left."""


@cache
def _patterns(set_count: int) -> tuple[tuple[tuple[bool, ...], bool, float], ...]:
    """Roll patterns for ``set_count`` set EXTRA numbers (faces 1..set_count by symmetry).

    Each entry: which set numbers the roll shows, whether it shows a face that is no EXTRA
    number (so a new one can be written), and the pattern's probability.
    """
    grouped: dict[tuple[tuple[bool, ...], bool], float] = {}
    for faces, p in ROLL_PROBABILITIES:
        shown = tuple(face in faces for face in range(1, set_count + 1))
        fresh = any(face > set_count for face in faces)
        grouped[(shown, fresh)] = grouped.get((shown, fresh), 0.0) + p
    return tuple((shown, fresh, p) for (shown, fresh), p in sorted(grouped.items()))


@cache
def rolls_left(columns: tuple[Column, Column, Column], new_cross: int = 1) -> float:
    """The expected number of rolls left (this one included) from an EXTRA-column state.

    Exact under the policy that, whenever the EXTRA die is a choice, keeps the game going
    longest; ``new_cross`` is the crosses a new number gets (0 in the children's variant).
    A state with a full column (0 boxes left) has ended: 0 rolls.
    """
    if any(left <= 0 for _, left in columns):
        return 0.0
    set_columns = [j for j in range(3) if columns[j][0]]
    free_columns = [j for j in range(3) if not columns[j][0]]
    total, stay = 1.0, 0.0
    for shown, fresh, p in _patterns(len(set_columns)):
        options = [_cross(columns, set_columns[i], 1) for i, seen in enumerate(shown) if seen]
        if free_columns and fresh:
            options += [_cross(columns, j, new_cross) for j in free_columns]
        if not options:
            stay += p  # a free ride: nothing changes
            continue
        total += p * max(rolls_left(option, new_cross) for option in options)
    return total / (1.0 - stay)


def _cross(columns: tuple[Column, Column, Column], index: int,
           crosses: int) -> tuple[Column, Column, Column]:
    """``columns`` after ``crosses`` crosses in column ``index`` (setting its number)."""
    items = list(columns)
    items[index] = (True, items[index][1] - crosses)
    return (items[0], items[1], items[2])


def sheet_rolls_left(sheet: Sheet, columns: tuple[int, int, int], child_extra: bool) -> float:
    """:func:`rolls_left` for a sheet (0 once the player has stopped)."""
    if sheet.done:
        return 0.0
    state = tuple((number != 0, size - marks) for number, marks, size
                  in zip(sheet.numbers, sheet.marks, columns, strict=True))
    return rolls_left((state[0], state[1], state[2]), 0 if child_extra else 1)


@lru_cache(maxsize=200_000)
def expected_row(index: int, crosses: int, mean: float) -> float:
    """The expected final score of a row with ``crosses`` and Poisson(``mean``) more."""
    room = BOXES[index] - crosses
    if room <= 0 or mean <= 0.0:
        return float(row_score(index, crosses))
    weight = math.exp(-mean)
    value, mass = 0.0, 0.0
    for extra in range(room):
        value += weight * row_score(index, crosses + extra)
        mass += weight
        weight *= mean / (extra + 1)
    return value + (1.0 - mass) * row_score(index, BOXES[index])


def hard_value(sheet: Sheet, columns: tuple[int, int, int], child_extra: bool, *,
               focus: float = HARD_FOCUS, roll_bonus: float = HARD_ROLL_BONUS,
               start_cost: float = HARD_START_COST) -> float:
    """The hard bot's estimate of the final score of ``sheet`` (see the module docstring)."""
    left = sheet_rolls_left(sheet, columns, child_extra)
    started = [i for i, c in enumerate(sheet.rows) if c or sheet.noted >> i & 1]
    share = sum(AVAILABLE[i] for i in started)
    value = roll_bonus * left - start_cost * len(started)
    for index in started:
        mean = left * min(AVAILABLE[index], focus * AVAILABLE[index] / share)
        value += expected_row(index, sheet.rows[index], round(mean, 2))
    return value


def hard_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The hard bot's choice: the decision whose sheet has the best :func:`hard_value`."""
    game = cast("SheetRules", state.game)
    data = state.data
    assert isinstance(data, ExtraData)
    sheet = data.sheets[seat]
    child_extra = game.child_extra(seat)

    def value(decision: Decision) -> float:
        after = game.record(seat, sheet, decision)
        cost = HARD_NEW_NUMBER_COST[decision.extra - 1] if decision.column >= 0 else 0.0
        return hard_value(after, game.columns, child_extra) - cost

    return _best(state, seat, value)
