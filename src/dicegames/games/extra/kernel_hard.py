"""EXTRA!'s ``hard`` rule in the kernel: :func:`.heuristics.hard_policy`, float for float.

The engine's hard bot values each legal decision by the sheet it leaves
(:func:`.heuristics.hard_value`): the expected rolls left for the EXTRA columns (an exact
dynamic programme, :func:`.heuristics.rolls_left`), each started row's expected final score
under a Poisson number of further crosses (:func:`.heuristics.expected_row`, its mean rounded
to two decimals), a bonus per roll left and a cost per started row, minus the cost of writing
a new EXTRA number. The kernel computes the same values in the same order, so the choice is
the engine's to the last bit (ties: the first decision listed), from three float tables built
in Python by the engine's own functions (:func:`hard_table`, on the first hard game):

- ``AVAILABLE`` (11 floats) and ``HARD_NEW_NUMBER_COST`` (6 floats), as in :mod:`.heuristics`;
- ``rolls_left`` for every EXTRA-column state a game can reach (whether each column's
  number is set and its boxes left, both values of the new number's crosses);
- ``exp(-k / 100)`` for every two-decimal mean ``k / 100`` a row can be given (the one
  function whose compiled and C library results could differ).

The mean is rounded as Python's ``round(mean, 2)`` rounds: to the nearest hundredth of the
double's exact value, half to even (:func:`_hundredths`, exact with Dekker's product).

The tuning values are read from :mod:`.heuristics`, the one place they are defined.
"""

from __future__ import annotations

import math

from dicegames.core.kernel import FloatArray, IntArray, float_array, njit_inline
from dicegames.games.extra.heuristics import (
    AVAILABLE,
    HARD_FOCUS,
    HARD_NEW_NUMBER_COST,
    HARD_ROLL_BONUS,
    HARD_START_COST,
    rolls_left,
)

H_AVAILABLE, H_COST, H_SPAN, H_LEFT = 0, 11, 17, 18
"""Where each part of the hard table starts: row availabilities, new-number costs, the span
of one column's index (``2 * (largest column + 1)``), then the rolls-left table (``2 *
span ** 3`` entries: new crosses, then per column ``set * (largest + 1) + left``) and the
exponentials (from ``H_LEFT + 2 * span ** 3``)."""

ROWS, NUMBERS, MARKS, NOTED, DONE, SEAT = 0, 11, 14, 17, 18, 20
"""Offsets inside a seat's block of the state array (as :mod:`.kernel`)."""

T_COLUMNS, T_CONSTS = 1, 4 + 2 * 6
"""Where the column sizes and the sheet constants start in the kernel's int table."""

_SPLIT = 134217729.0
"""2**27 + 1: Veltkamp's splitting constant for doubles."""


def hard_table(columns: tuple[int, int, int]) -> FloatArray:
    """The hard rule's float table for EXTRA columns of these sizes (see the docstring)."""
    largest = max(columns)
    span = 2 * (largest + 1)
    left_table = [0.0] * (2 * span ** 3)
    ranges = [[(False, size)] + [(True, left) for left in range(1, size + 1)]
              for size in columns]
    most = 0.0
    for new_cross in (0, 1):
        for c0 in ranges[0]:
            for c1 in ranges[1]:
                for c2 in ranges[2]:
                    value = rolls_left((c0, c1, c2), new_cross)
                    most = max(most, value)
                    at = new_cross * span ** 3
                    for j, (is_set, left) in enumerate((c0, c1, c2)):
                        at += (int(is_set) * (largest + 1) + left) * span ** (2 - j)
                    left_table[at] = value
    top = math.ceil(most * 100) + 2  # a mean never exceeds the rolls left
    exps = [math.exp(-(k / 100)) for k in range(top + 1)]
    return float_array([*AVAILABLE, *HARD_NEW_NUMBER_COST, float(span), *left_table,
                        *exps])


@njit_inline
def _hundredths(x: float) -> int:
    """``round(x, 2) * 100`` as an int for ``x >= 0``: the nearest integer to the exact
    ``100 * x``, half to even, as Python's correctly rounded ``round`` gives it."""
    p = x * 100.0
    whole = math.floor(p)
    part = p - whole  # exact
    if part < 0.5:
        return int(whole)
    if part > 0.5:
        return int(whole) + 1
    c = _SPLIT * x  # p is a half: the sign of 100 * x - p (Dekker's exact product) decides
    high = c - (c - x)
    low = x - high
    error = ((high * 100.0 - p) + low * 100.0)
    if error > 0.0:
        return int(whole) + 1
    if error < 0.0:
        return int(whole)
    return int(whole) + (int(whole) & 1)


@njit_inline
def _row_score(t: IntArray, index: int, crosses: int) -> int:
    """:func:`.data.row_score` over the kernel's sheet constants."""
    k = t[T_CONSTS + index]
    if crosses == 0:
        return 0
    if crosses <= k:
        return -200
    if crosses == k + 1:
        return 0
    step = min(crosses, t[T_CONSTS + 11 + index]) - k - 2
    factor = 1 if step == 0 else 2 if step == 1 else 3 if step == 2 else 5 if step == 3 else 7
    return int(t[T_CONSTS + 22 + index] * factor)


@njit_inline
def _expected_row(t: IntArray, h: FloatArray, exps: int, index: int, crosses: int,
                  k: int) -> float:
    """:func:`.heuristics.expected_row` for a mean of ``k / 100``."""
    boxes = t[T_CONSTS + 11 + index]
    room = boxes - crosses
    mean = k / 100.0
    if room <= 0 or mean <= 0.0:
        return float(_row_score(t, index, crosses))
    weight = h[exps + k]
    value, mass = 0.0, 0.0
    for extra in range(room):
        value += weight * _row_score(t, index, crosses + extra)
        mass += weight
        weight *= mean / (extra + 1)
    return value + (1.0 - mass) * _row_score(t, index, boxes)


@njit_inline
def _rolls_left(s: IntArray, t: IntArray, h: FloatArray, base: int, child: int) -> float:
    """:func:`.heuristics.sheet_rolls_left` of the sheet at ``base`` (0 once it is done)."""
    if s[base + DONE] == 1:
        return 0.0
    span = int(h[H_SPAN])
    largest = span // 2 - 1
    at = (1 - child) * span * span * span
    for j in range(3):
        left = t[T_COLUMNS + j] - s[base + MARKS + j]
        if left <= 0:
            return 0.0
        is_set = 1 if s[base + NUMBERS + j] != 0 else 0
        at += (is_set * (largest + 1) + left) * (span ** (2 - j))
    return float(h[H_LEFT + at])


@njit_inline
def hard_value(s: IntArray, t: IntArray, h: FloatArray, base: int, child: int) -> float:
    """:func:`.heuristics.hard_value` of the sheet at ``base`` (of a seat's block)."""
    left = _rolls_left(s, t, h, base, child)
    span = int(h[H_SPAN])
    exps = H_LEFT + 2 * span * span * span
    noted = s[base + NOTED]
    share = 0.0
    started = 0
    for i in range(11):
        if s[base + ROWS + i] != 0 or (noted >> i) & 1 == 1:
            share += h[H_AVAILABLE + i]
            started += 1
    value = HARD_ROLL_BONUS * left - HARD_START_COST * started
    for i in range(11):
        if s[base + ROWS + i] != 0 or (noted >> i) & 1 == 1:
            available = h[H_AVAILABLE + i]
            mean = left * min(available, HARD_FOCUS * available / share)
            value += _expected_row(t, h, exps, i, s[base + ROWS + i], _hundredths(mean))
    return float(value)


@njit_inline
def new_number_cost(h: FloatArray, extra: int, column: int) -> float:
    """The cost of writing ``extra`` as a new EXTRA number (0 when ``column < 0``)."""
    return float(h[H_COST + extra - 1]) if column >= 0 else 0.0

