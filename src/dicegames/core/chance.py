"""Dice as exact distributions, and exact sampling from them.

Rules never roll dice. A chance node lists its outcomes with exact ``Fraction``
probabilities, lumping outcomes that the rules treat alike (a multiset of faces instead of
every ordering). A seeded generator, a test script or a person supplies the outcome.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, lcm
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

Distribution = tuple[tuple[T, Fraction], ...]
"""A chance node's outcomes with their exact probabilities, in a fixed order."""


def uniform(outcomes: Sequence[T]) -> Distribution[T]:
    """Every outcome equally likely, e.g. ``uniform(range(1, 7))`` for one fair die."""
    if not outcomes:
        raise ValueError("a chance node needs at least one outcome")
    p = Fraction(1, len(outcomes))
    return tuple((outcome, p) for outcome in outcomes)


def multisets(faces: Sequence[T], dice: int) -> Distribution[tuple[T, ...]]:
    """The distribution of ``dice`` fair dice with ``faces`` as unordered multisets.

    Each outcome is a sorted tuple (sorted by position in ``faces``); its probability is
    the multinomial count of orderings over ``len(faces) ** dice``. Six colour dice give
    462 outcomes, five d6 give 252.

    >>> dist = multisets((1, 2), 2)
    >>> [(o, str(p)) for o, p in dist]
    [((1, 1), '1/4'), ((1, 2), '1/2'), ((2, 2), '1/4')]
    """
    total = len(faces) ** dice
    result = []
    for combo in combinations_with_replacement(faces, dice):
        orderings = factorial(dice)
        for count in Counter(combo).values():
            orderings //= factorial(count)
        result.append((combo, Fraction(orderings, total)))
    return tuple(result)


def _cumulative(probabilities: tuple[Fraction, ...]) -> tuple[int, tuple[int, ...]]:
    """Common denominator and cumulative integer weights of a distribution."""
    denominator = lcm(*(p.denominator for p in probabilities))
    running = 0
    bounds = []
    for p in probabilities:
        running += p.numerator * (denominator // p.denominator)
        bounds.append(running)
    if running != denominator:
        raise ValueError(f"chance probabilities sum to {Fraction(running, denominator)}, not 1")
    return denominator, tuple(bounds)


_PREPARED: dict[int, tuple[object, int, tuple[int, ...]]] = {}
"""Cumulative weights per distribution object, keyed by identity (games reuse constants).

The entry keeps the distribution alive so its id cannot be reused while cached; the cache
is emptied when it grows past a bound (games that build distributions on the fly).
"""


def sample(distribution: Distribution[T], rng: random.Random) -> T:
    """Draw one outcome exactly by its probability, using only ``rng``.

    Uses one ``randrange`` over the common denominator, so the draw is exact (no float
    rounding) and the same seed always gives the same outcome.
    """
    entry = _PREPARED.get(id(distribution))
    if entry is None or entry[0] is not distribution:
        if len(_PREPARED) > 4096:
            _PREPARED.clear()
        entry = (distribution, *_cumulative(tuple(p for _, p in distribution)))
        _PREPARED[id(distribution)] = entry
    _, denominator, bounds = entry
    ticket = rng.randrange(denominator)
    if denominator == len(bounds):  # equally likely outcomes: the ticket is the index
        return distribution[ticket][0]
    return distribution[bisect_right(bounds, ticket)][0]
