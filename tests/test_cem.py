"""The cross-entropy method the learned levels' trainers share (:mod:`dicegames.analysis.cem`):
it finds the best of a known function, reproducibly, with every candidate of a generation
scored on the same dice seed, and refuses an elite it cannot take."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dicegames.analysis.cem import cross_entropy

BEST = np.array([1.5, -2.0, 0.25])


def score(weights: Any, dice: int) -> float:
    """Highest at :data:`BEST`; the dice seed shifts every candidate of a generation alike
    (common random numbers), so it never changes which candidates are the elite."""
    return -float(np.sum((weights - BEST) ** 2)) + (dice % 7)


def test_it_finds_the_best_of_a_known_function_reproducibly() -> None:
    runs = [cross_entropy(score, np.zeros(3), np.ones(3), seed=4, generations=25,
                          population=20, elite=5, floor=1e-3, dice_stride=3)
            for _ in range(2)]
    assert np.array_equal(runs[0].mean, runs[1].mean)
    assert runs[0].history == runs[1].history and len(runs[0].history) == 25
    assert np.allclose(runs[0].mean, BEST, atol=0.05)
    other = cross_entropy(score, np.zeros(3), np.ones(3), seed=5, generations=2,
                          population=20, elite=5, floor=1e-3, dice_stride=3)
    assert not np.array_equal(other.mean, cross_entropy(
        score, np.zeros(3), np.ones(3), seed=4, generations=2, population=20, elite=5,
        floor=1e-3, dice_stride=3).mean)


def test_candidates_share_their_generations_dice_and_the_mean_competes() -> None:
    seen: list[tuple[tuple[float, ...], int]] = []

    def record(weights: Any, dice: int) -> float:
        seen.append((tuple(weights), dice))
        return score(weights, dice)

    start = np.array([0.5, 0.5, 0.5])
    cross_entropy(record, start, np.ones(3), seed=2, generations=3, population=4, elite=2,
                  floor=0.1, dice_stride=10)
    assert [dice for _, dice in seen] == [2_000_006] * 4 + [2_000_016] * 4 + [2_000_026] * 4
    assert seen[0][0] == tuple(start)  # generation 0's candidate 0 is the starting mean


def test_clamp_bounds_every_candidate_before_it_is_scored() -> None:
    lows: list[float] = []

    def clamp(candidates: Any) -> None:
        candidates[:, 0] = np.maximum(candidates[:, 0], 2.0)

    def record(weights: Any, dice: int) -> float:
        lows.append(float(weights[0]))
        return score(weights, dice)

    found = cross_entropy(record, np.zeros(3), np.ones(3), seed=1, generations=4,
                          population=6, elite=2, floor=0.1, dice_stride=1, clamp=clamp)
    assert min(lows) >= 2.0 and found.mean[0] >= 2.0


def test_the_log_says_each_generation(capsys: pytest.CaptureFixture[str]) -> None:
    cross_entropy(score, np.zeros(3), np.ones(3), seed=1, generations=2, population=3,
                  elite=1, floor=0.1, dice_stride=1, log=".2f")
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == ["generation 1/2", "generation 2/2"]


@pytest.mark.parametrize("elite", [0, 4])
def test_an_impossible_elite_is_refused(elite: int) -> None:
    with pytest.raises(ValueError, match="elite"):
        cross_entropy(score, np.zeros(3), np.ones(3), seed=1, generations=1, population=3,
                      elite=elite, floor=0.1, dice_stride=1)
