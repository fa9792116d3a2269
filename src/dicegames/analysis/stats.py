"""Small, exact statistics for simulation reports: confidence intervals and histograms.

Kept free of any game or engine import so it can be reused (and tested) on its own. Game
lengths are kept as histograms (length -> count) rather than lists: a million games of
similar length then cost a few hundred dictionary entries, and merging the histograms of
several worker processes is exact and order-independent.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

Z_95 = 1.959963984540054
"""The two-sided 95% standard normal quantile, Φ⁻¹(0.975)."""


def wilson_interval(successes: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    With p̂ = successes / n, the interval is::

        centre ± half, where
        centre = (p̂ + z²/(2n)) / (1 + z²/n)
        half   = z / (1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/(4n²))

    Unlike the textbook Wald interval p̂ ± z·sqrt(p̂(1 − p̂)/n) it stays inside [0, 1] and
    does not collapse to a point at 0 or n successes, which matters for lopsided matchups
    and small samples. ``successes`` may be fractional (a shared win counts 1/k for each of
    k winners); the formula is used as is.

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)

    Raises:
        ValueError: ``n`` is not positive, ``successes`` is outside [0, n], or ``z`` is not
            positive.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise ValueError(f"the Wilson interval needs a positive whole number of trials, not {n!r}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie between 0 and n={n}, not {successes!r}")
    if not z > 0:
        raise ValueError(f"z must be positive, not {z!r}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


def histogram_total(histogram: Mapping[int, int]) -> int:
    """The number of observations in a histogram (value -> count)."""
    return sum(histogram.values())


def histogram_mean(histogram: Mapping[int, int]) -> float:
    """The arithmetic mean Σ value·count / Σ count of a histogram (value -> count).

    Raises:
        ValueError: the histogram is empty.
    """
    total = histogram_total(histogram)
    if total <= 0:
        raise ValueError("the mean of an empty histogram is undefined")
    return sum(value * count for value, count in histogram.items()) / total


def histogram_median(histogram: Mapping[int, int]) -> float:
    """The median of a histogram (value -> count), as :func:`statistics.median` gives it.

    With the observations sorted as x₁ ≤ … ≤ xₙ, the median is x₍ₙ₊₁₎/₂ for odd n and the
    mean of xₙ/₂ and xₙ/₂₊₁ for even n.

    Raises:
        ValueError: the histogram is empty.
    """
    total = histogram_total(histogram)
    if total <= 0:
        raise ValueError("the median of an empty histogram is undefined")
    low_rank = (total - 1) // 2  # 0-based ranks of the one or two middle observations
    high_rank = total // 2
    low: int | None = None
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if low is None and seen > low_rank:
            low = value
        if seen > high_rank:
            assert low is not None
            return (low + value) / 2
    raise AssertionError("unreachable: the ranks lie inside the histogram")
