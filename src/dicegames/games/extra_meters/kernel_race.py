"""The compiled fill of the exact race of three or four runners (see :mod:`.races`).

One function, :func:`fill_race`, compiled by numba when it is installed (through
:func:`dicegames.core.kernel.njit`, so the compiled code is cached with the kernels'; the
module's name contains ``kernel`` so that cache's key covers it). :mod:`.races` calls it only
on the compiled path; without numba it fills the same tables with numpy
(:func:`.races.fill_numpy`), with the same floating-point operations in the same order, so
both give bit-identical tables (a test holds it).

The layout, with ``B = N + 1`` squares per runner (0..N) and ``P`` runners: a *rest* index
``r`` numbers the positions of the ``P - 1`` runners after the mover, in turn order, as the
digits of ``r`` in base ``B`` (the next runner is the most significant digit); the state
``(a; rest)`` is ``s = a * B**(P-1) + r``.

- ``chances[s, k]``: the winning chance of the ``k``-th runner in turn order from the mover
  (``k = 0`` the mover) at the start of the mover's turn;
- ``rows[r, x, k]``: the latest turn row ``U(x, j)`` of the rest ``r`` (see :mod:`.races`);
- ``decisions[r, j, x >> 3]`` bit ``x & 7``: roll again with the stop square ``x`` and the
  bust square ``j``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dicegames.core.kernel import njit


@njit
def fill_race(players: int, n: int, margin: float, sums: Any, chances: Any, rows: Any,
              decisions: Any) -> None:
    """Fill ``chances`` and ``decisions`` (zeroed by the caller) by decreasing position
    total; ``sums[r]`` is the sum of the rest's positions and ``rows`` is scratch."""
    squares = n + 1
    rests = rows.shape[0]
    tail = rests // squares  # rests of the runners after the next one
    for r in range(rests):
        for x in range(n + 6):
            rows[r, x, 0] = 1.0  # past the end: the mover has won
            for k in range(1, players):
                rows[r, x, k] = 0.0
    after = np.zeros((n + 1, players))
    bust = np.zeros(players)
    roll = np.zeros(players)
    for total in range(players * n, -1, -1):
        for r in range(rests):
            a = total - sums[r]
            if a < 0 or a > n:
                continue
            # h(x): the state (next; ..., x) after the turn ends on x, reordered so that
            # the runner on x (last there) comes first.
            base = (r // tail) * rests + (r % tail) * squares
            for x in range(a + 1, n + 1):
                s = base + x
                after[x, 0] = chances[s, players - 1]
                for k in range(1, players):
                    after[x, k] = chances[s, k - 1]
            j = a + 2
            for k in range(players):
                bust[k] = after[j, k] if j <= n else (1.0 if k == 0 else 0.0)
            for x in range(a + 1, n + 1):
                for k in range(players):
                    roll[k] = (bust[k] + ((((rows[r, x + 1, k] + rows[r, x + 2, k])
                                            + rows[r, x + 3, k]) + rows[r, x + 4, k])
                                          + rows[r, x + 5, k])) / 6
                if roll[0] > after[x, 0] + margin:
                    for k in range(players):
                        rows[r, x, k] = roll[k]
                    decisions[r, j, x >> 3] |= 1 << (x & 7)
                else:
                    for k in range(players):
                        rows[r, x, k] = after[x, k]
            s = a * rests + r
            for k in range(players):
                chances[s, k] = ((((rows[r, a + 1, k] + rows[r, a + 2, k]) + rows[r, a + 3, k])
                                  + rows[r, a + 4, k]) + rows[r, a + 5, k]) / 5
