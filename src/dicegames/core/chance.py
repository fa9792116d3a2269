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


_PREPARED: dict[int, tuple[object, tuple[Hashable, ...], int, int, tuple[int, ...] | None]] = {}
"""Per distribution object, keyed by identity (games reuse constants): the distribution
(kept alive so its id cannot be reused while cached), its outcomes, the common denominator,
the denominator's bit length, and the cumulative integer weights (None when the outcomes are
equally likely, so the ticket is the index). Emptied when it grows past a bound (games that
build distributions on the fly)."""

_Random = random.Random


def _prepare(
    distribution: Distribution[T],
) -> tuple[object, tuple[Hashable, ...], int, int, tuple[int, ...] | None]:
    """The cached sampling entry of ``distribution`` (see :data:`_PREPARED`)."""
    if len(_PREPARED) > 4096:
        _PREPARED.clear()
    denominator, bounds = _cumulative(tuple(p for _, p in distribution))
    entry = (distribution, tuple(o for o, _ in distribution), denominator,
             denominator.bit_length(), None if denominator == len(bounds) else bounds)
    _PREPARED[id(distribution)] = entry
    return entry


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` > 0), drawn the same way for a plain ``random.Random``.

    CPython draws ``randrange(n)`` by rejection: ``getrandbits(n.bit_length())`` until the
    draw is below ``n``. That loop is repeated here without ``randrange``'s argument checks
    and method layers, so the numbers (and every seeded game) are the same, only cheaper. A
    subclass of ``Random`` (which may draw differently) gets its own ``randrange``.
    """
    if type(rng) is not _Random:
        return rng.randrange(n)
    bits = n.bit_length()
    getrandbits = rng.getrandbits
    ticket = getrandbits(bits)
    while ticket >= n:
        ticket = getrandbits(bits)
    return ticket


def sample(distribution: Distribution[T], rng: random.Random) -> T:
    """Draw one outcome exactly by its probability, using only ``rng``.

    Draws what one ``rng.randrange`` over the common denominator draws (see :func:`below`),
    so the draw is exact (no float rounding) and the same seed always gives the same
    outcome: equally likely outcomes are indexed by the ticket, others found by bisection
    of the cumulative integer weights.
    """
    entry = _PREPARED.get(id(distribution))
    if entry is None or entry[0] is not distribution:
        entry = _prepare(distribution)
    _, outcomes, denominator, bits, bounds = entry
    if type(rng) is _Random:
        getrandbits = rng.getrandbits
        ticket = getrandbits(bits)
        while ticket >= denominator:
            ticket = getrandbits(bits)
    else:
        ticket = rng.randrange(denominator)
    if bounds is None:
        return outcomes[ticket]  # type: ignore[return-value]
    return outcomes[bisect_right(bounds, ticket)]  # type: ignore[return-value]
