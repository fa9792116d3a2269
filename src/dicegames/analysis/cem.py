"""The cross-entropy method, the search the learned levels' trainers share
(``scripts/train_monza.py``, ``train_shortcut.py``, ``train_extra.py``).

Each generation draws ``population`` weight vectors from a Gaussian around the current mean
(the mean itself is candidate 0, so it competes on the same dice), scores every candidate on
the **same dice** (common random numbers: candidates are compared on equal luck, the
generation's dice seed being ``seed * 1_000_003 + generation * dice_stride``), and refits
the Gaussian to the best ``elite``: their mean, and their spread kept above ``floor`` so the
search never stops exploring. What a candidate is worth (its games, against whom, its
measure) is the trainer's ``score``; the method knows nothing of any game.

Reproducible: numpy's generator seeded with ``seed`` draws the candidates, and the
trainer's ``score`` is expected to be a function of the weights and the dice seed alone.
numpy is needed (the trainers' own dependency).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Vector = Any
"""A one-dimensional numpy float array."""

Score = Callable[[Vector, int], float]
"""A candidate's worth: ``score(weights, dice_seed)``, higher is better."""


@dataclass(slots=True)
class Search:
    """What a run of :func:`cross_entropy` found."""

    mean: Vector
    """The last generation's mean: the weights the trainer keeps."""
    history: list[float] = field(default_factory=list)
    """The elites' mean score of each generation (on that generation's own dice)."""


def cross_entropy(score: Score, mean: Vector, spread: Vector, *, seed: int, generations: int,
                  population: int, elite: int, floor: Vector | float, dice_stride: int,
                  clamp: Callable[[Vector], None] | None = None, log: str | None = None
                  ) -> Search:
    """Run the method (see the module docstring) from ``mean`` and ``spread`` (per weight).

    ``clamp`` may bound the candidates in place before they are scored (a weight that must
    stay positive); ``log``, a format for the score (``".4f"``), prints one line per
    generation on stderr (None: silent)."""
    import numpy as np

    if not 1 <= elite <= population:
        raise ValueError(f"the elite ({elite}) must be 1 to the population ({population})")
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    mean = np.array(mean, dtype=float)
    spread = np.array(spread, dtype=float)
    history: list[float] = []
    for generation in range(generations):
        candidates = mean + spread * rng.standard_normal((population, len(mean)))
        candidates[0] = mean  # the current mean competes on the same dice
        if clamp is not None:
            clamp(candidates)
        dice = seed * 1_000_003 + generation * dice_stride
        scores = np.array([score(c, dice) for c in candidates])
        best = np.argsort(-scores, kind="stable")[:elite]
        mean = candidates[best].mean(axis=0)
        spread = np.maximum(candidates[best].std(axis=0), floor)
        history.append(float(scores[best].mean()))
        if log is not None:
            print(f"generation {generation + 1}/{generations}: elite {history[-1]:{log}}, "
                  f"mean's own {scores[0]:{log}}, best {scores[best[0]]:{log}} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    return Search(mean, history)
