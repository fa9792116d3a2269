"""A rating ladder from a round robin: Bradley-Terry strengths on the Elo scale.

Each pair of bots plays a number of games; the Bradley-Terry model says bot ``i`` beats bot
``j`` with probability ``p_i / (p_i + p_j)``. The strengths are fitted by maximum likelihood
(Hunter's MM iteration, 2004), written as Elo points ``400·log10(p_i)`` with the first bot
(the reference, usually ``random``) at 0, and each rating gets a 95% interval from the
inverse of the observed Fisher information (the reference fixed). A shared win counts half
to each side. Half a virtual win and half a virtual loss against every opponent keep the
ratings finite when a bot wins every game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.stats import Z_95

ELO = 400 / math.log(10)
"""Elo points per unit of natural-log strength."""

PRIOR = 0.5
"""Virtual wins (and as many losses) each bot gets against each opponent."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One bot's place on the ladder: Elo points (the reference at 0) and a 95% interval."""

    name: str
    elo: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"name": self.name, "elo": self.elo, "low": self.low, "high": self.high}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def bradley_terry(names: Sequence[str], wins: Sequence[Sequence[float]],
                  iterations: int = 2000) -> list[Rating]:
    """The ladder of ``names`` from ``wins[i][j]`` (games ``i`` won against ``j``).

    The first name is the reference (0 Elo). Ratings come back in the order of ``names``.

    >>> ladder = bradley_terry(["a", "b"], [[0, 25], [75, 0]])
    >>> round(ladder[1].elo)  # b wins 75.5 of 101: 3 to 1, log10(3)·400 ≈ 189
    189
    """
    n = len(names)
    if n < 2:
        raise ValueError("a ladder needs at least two players")
    won = [[wins[i][j] + (PRIOR if i != j else 0.0) for j in range(n)] for i in range(n)]
    games = [[won[i][j] + won[j][i] for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(won[i][j] for j in range(n) if j != i)
            denominator = sum(games[i][j] / (strength[i] + strength[j])
                              for j in range(n) if j != i)
            new.append(total / denominator)
        scale = new[0]
        new = [value / scale for value in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) < 1e-12
        strength = new
        if done:
            break
    logs = [math.log(value) for value in strength]
    # Observed information of the log-strengths 1..n-1 (the reference's is fixed at 0).
    info = [[0.0] * (n - 1) for _ in range(n - 1)]
    for i in range(n):
        for j in range(i + 1, n):
            p = strength[i] / (strength[i] + strength[j])
            weight = games[i][j] * p * (1 - p)
            for a, b, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
                if a > 0 and b > 0:
                    info[a - 1][b - 1] += sign * weight
    ratings = [Rating(names[0], 0.0, 0.0, 0.0)]
    for k in range(1, n):
        unit = [1.0 if m == k - 1 else 0.0 for m in range(n - 1)]
        variance = _solve(info, unit)[k - 1]
        half = Z_95 * math.sqrt(max(variance, 0.0)) * ELO
        elo = logs[k] * ELO
        ratings.append(Rating(names[k], elo, elo - half, elo + half))
    return ratings
