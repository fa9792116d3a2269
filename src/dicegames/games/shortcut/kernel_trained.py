"""Shortcut's ``trained`` policy in the kernel: ``hard``'s turn search over learned leaves.

``hard`` (:mod:`.kernel_hard`) values the end of a turn by the chance to win the race as if
every car ran alone at its best solo pace. That misses what the exact two-player solution
(:mod:`.solver`) knows: a car behind should take risks, a car ahead should play safe, and
the pace of the nearest rival matters more than that of the others. The ``trained`` policy
keeps ``hard``'s exact expectimax over the turn (every roll, press, stop and push) and
changes only the value of where the turn ends: for a car on cell ``c``, ``hard``'s value
plus ``weights · features``, where, with ``p_j`` the exact two-player chance to beat
opponent ``j`` from there (``j`` to move: ``1 - pair[b_j, c]``), the features are

* ``pairs_product``: ``prod_j p_j - 1``,
* ``pairs_min``: ``min_j p_j - 1`` (the most dangerous rival),
* ``pairs_mean``: ``mean_j p_j - 1``,
* ``grey``: 1 on a grey cell (a car there blocks the others' shortcut), else 0.

The three chances enter as shortfalls from 1, so that they vanish at the finish, whose value
stays 1; the weights never lift another cell's value to 1 (:data:`CAP`), so that the finish
in reach is taken. Zero weights play exactly as ``hard``. The weights are fitted by
``scripts/train_shortcut.py`` and shipped in ``trained_weights.json`` (:mod:`.trained`).
"""

from __future__ import annotations

from collections.abc import Sequence

from dicegames.core.kernel import IntArray, float_array, njit_uncounted
from dicegames.games.shortcut.board import Board
from dicegames.games.shortcut.kernel_hard import _leaf, search, survival
from dicegames.games.shortcut.kernel_rules import (
    CARS,
    PLAYER,
    PLAYERS,
    BoardTables,
    Work,
    _legal,
)
from dicegames.games.shortcut.planner import HORIZON

FEATURES = 4
"""The number of features (and of weights)."""

CAP = 1.0 - 1e-9
"""The highest value of a cell other than the finish (which is worth 1)."""


@njit_uncounted
def features(s: IntArray, b: BoardTables, cell: int) -> tuple[float, float, float, float]:
    """The features of ending the turn on ``cell`` (see the module docstring)."""
    seat = s[PLAYER]
    product, lowest, total, others = 1.0, 1.0, 0.0, 0
    for other in range(s[PLAYERS]):
        if other != seat:
            chance = 1.0 - b.pair[s[CARS + other] * b.cells + cell]
            product *= chance
            lowest = min(lowest, chance)
            total += chance
            others += 1
    return (product - 1.0, lowest - 1.0, total / max(others, 1) - 1.0,
            float(b.grey[cell]))


@njit_uncounted
def trained(s: IntArray, b: BoardTables, work: Work) -> int:
    """The ``trained`` policy's action code: ``hard``'s search over the learned leaves."""
    count = _legal(s, b, work.legal, work.dist, work.queue)
    if count == 1:
        return int(work.legal[0])
    survival(s, b, work)
    w = b.weights
    for cell in range(b.cells):
        value = _leaf(b, work, cell)  # hard's value, now marked known
        if cell != b.finish:
            f0, f1, f2, f3 = features(s, b, cell)
            gain = w[0] * f0 + w[1] * f1 + w[2] * f2 + w[3] * f3
            if gain > 0.0:  # never above the finish (hard's own 1s are kept)
                work.values[HORIZON + 1 + cell] = min(value + gain, max(value, CAP))
            elif gain < 0.0:
                work.values[HORIZON + 1 + cell] = value + gain
    return search(s, b, work, count)


def trained_tables(tabs: BoardTables, board: Board,
                   weights: Sequence[float] | None = None) -> BoardTables:
    """``tabs`` with the ``trained`` policy's tables: the exact two-player chances on
    ``board`` (:func:`.solver.solve`: its disk cache, or solved now) and ``weights`` (None:
    the shipped ones, :func:`.trained.shipped_weights`)."""
    from dicegames.games.shortcut.solver import solve
    from dicegames.games.shortcut.trained import shipped_weights

    chosen = shipped_weights() if weights is None else tuple(weights)
    if len(chosen) != FEATURES:
        raise ValueError(f"the trained policy takes {FEATURES} weights, not {len(chosen)}")
    return tabs._replace(pair=float_array(solve(board).win.ravel().tolist()),
                         weights=float_array([float(w) for w in chosen]))
