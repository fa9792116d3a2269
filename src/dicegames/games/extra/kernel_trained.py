"""EXTRA!'s ``trained`` rule in the kernel: :func:`.trained.trained_value`, float for float.

The trained level is ``hard``'s sheet value with learned weights (:mod:`.trained`): a focus,
a bonus per roll left, a start cost per row and a cost per face written as a new EXTRA
number. It reads the same float table as ``hard`` (:func:`.kernel_hard.hard_table`: the
rows' availabilities, the exact rolls left of every EXTRA-column state, the exponentials of
the two-decimal means) and a second float array, the weights (:data:`.trained.WEIGHT_NAMES`
order). The operations are those of :func:`.trained.trained_value` in the same order, so the
kernel policy chooses what the engine's ``trained`` bot chooses to the last bit.
"""

from __future__ import annotations

from dicegames.core.kernel import FloatArray, IntArray, float_array, njit_inline
from dicegames.games.extra.kernel_hard import (
    H_AVAILABLE,
    H_LEFT,
    H_SPAN,
    NOTED,
    ROWS,
    _expected_row,
    _hundredths,
    _rolls_left,
)
from dicegames.games.extra.trained import W_FOCUS, W_NEW, W_ROLL_BONUS, W_START


def weights_array(weights: tuple[float, ...]) -> FloatArray:
    """The kernel's weights array (:data:`.trained.WEIGHT_NAMES` order)."""
    return float_array([float(w) for w in weights])


@njit_inline
def trained_value(s: IntArray, t: IntArray, h: FloatArray, w: FloatArray, base: int,
                  child: int) -> float:
    """:func:`.trained.trained_value` of the sheet at ``base`` (of a seat's block)."""
    left = _rolls_left(s, t, h, base, child)
    span = int(h[H_SPAN])
    exps = H_LEFT + 2 * span * span * span
    noted = s[base + NOTED]
    share = 0.0
    cost = 0.0
    for i in range(11):
        if s[base + ROWS + i] != 0 or (noted >> i) & 1 == 1:
            share += h[H_AVAILABLE + i]
            cost += w[W_START + i]
    value = w[W_ROLL_BONUS] * left - cost
    for i in range(11):
        if s[base + ROWS + i] != 0 or (noted >> i) & 1 == 1:
            available = h[H_AVAILABLE + i]
            mean = left * min(available, w[W_FOCUS] * available / share)
            value += _expected_row(t, h, exps, i, s[base + ROWS + i], _hundredths(mean))
    return float(value)


@njit_inline
def trained_cost(w: FloatArray, extra: int, column: int) -> float:
    """The trained cost of writing ``extra`` as a new EXTRA number (0 when ``column < 0``)."""
    return float(w[W_NEW + extra - 1]) if column >= 0 else 0.0
