"""The ``trained`` level of Petits Chevaux over the kernel's integer array: a small neural
network, trained by self-play in the manner of TD-Gammon, that values the position each
move leaves.

The network estimates, for the seat that has just moved, its chance to win the game from
the position its move leaves (the *afterstate*). The level (:func:`trained_choose`) plays a
winning move at once, else the move whose afterstate the network values most: one ply, no
search, as TD-Gammon did. The weights are learned by ``scripts/train_petits_chevaux_td.py``
(TD(lambda) over whole kernel games against ``medium`` bots, :mod:`.kernel_td`) and ship in
``trained_weights.json`` (:mod:`.trained`).

**Inputs** (:data:`INPUTS`), all from the point of view of the seat ``me`` that moved, the
other seats taken in playing order after it (relative seat ``r = 1, 2, 3``):

- ``r * 63 + p``: how many of relative seat ``r``'s horses stand at progress ``p`` on their
  own path (0 waiting, 1..56 the track, 57..62 the stable): the per-square encoding, 252
  inputs of which at most 16 are not zero;
- ``252 + r``: seat ``r``'s expected loss to captures before it moves again, divided by
  :data:`.ENTRANCE` (:func:`.kernel_bots._expected_loss`, ``hard``'s own measure);
- ``256``: 1 when ``me`` plays again (it rolled a 6), else 0.

**Network**: one hidden layer of ``H`` sigmoid units, one sigmoid output. The weights are
one flat float array (:func:`layout`): the hidden weights ``W1[j, i]`` at ``j * INPUTS +
i``, then the hidden biases, then the output weights, then the output bias; ``H`` follows
from its length.

There is one implementation: the engine's ``trained`` bot asks this kernel for its move
(:func:`.trained.trained_policy`), so the kernel plays exactly what the bot plays, and the
trainer learns over these very inputs.
"""

from __future__ import annotations

import math

from dicegames.core.kernel import FloatArray, IntArray, njit_inline
from dicegames.games.petits_chevaux.kernel_bots import _expected_loss
from dicegames.games.petits_chevaux.kernel_rules import (
    ENTRANCE,
    HORSES,
    OVER,
    PASS,
    PHASE,
    PLAYER,
    STRIDE,
    Options,
    apply_action,
)
from dicegames.games.petits_chevaux.trained import INPUTS, hidden_of, layout

SQUARES = 4 * STRIDE
"""The per-square inputs: 63 progress values for each of four relative seats."""

HORSE_SLOTS = 16
"""The square indices of the inputs that may be non-zero: one per horse of four seats."""

DENSE = 9
"""The float slots of the dense inputs: the five inputs, then four of scratch."""

assert INPUTS == SQUARES + 5, "trained.INPUTS must match the kernel's inputs"

__all__ = ["DENSE", "HORSE_SLOTS", "INPUTS", "SQUARES", "features", "hidden_of", "layout",
           "trained_choose", "value"]


@njit_inline
def features(a: IntArray, cfg: Options, paths: IntArray, me: int, again: bool,
             index: IntArray, dense: FloatArray, terms: FloatArray) -> None:
    """The network's inputs for seat ``me`` on the position ``a`` (``again``: ``me``
    plays again, having rolled a 6): the square indices of the horses in ``index[0:16]``
    (-1 for the seats a smaller game lacks) and the dense inputs in ``dense[0:5]``
    (``terms``: 4 float slots of scratch)."""
    players = cfg.players
    for r in range(4):
        dense[r] = 0.0
        for h in range(4):
            index[4 * r + h] = -1
    for r in range(players):
        seat = me + r
        if seat >= players:
            seat -= players
        for h in range(4):
            index[4 * r + h] = r * STRIDE + a[HORSES + 4 * seat + h]
        dense[r] = _expected_loss(a, cfg, paths, seat, terms, 0) / ENTRANCE
    dense[4] = 1.0 if again else 0.0


@njit_inline
def _sigmoid(x: float) -> float:
    """The logistic function, safe for large ``|x|``."""
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


@njit_inline
def value(weights: FloatArray, hidden: int, index: IntArray, dense: FloatArray,
          units: FloatArray) -> float:
    """The network's win chance for these inputs (:func:`features`); the hidden units'
    outputs are left in ``units[0:hidden]``."""
    b1 = hidden * INPUTS
    w2 = b1 + hidden
    out = weights[w2 + hidden]
    for j in range(hidden):
        row = j * INPUTS
        pre = weights[b1 + j]
        for k in range(16):
            if index[k] >= 0:
                pre += weights[row + index[k]]
        for m in range(5):
            pre += weights[row + SQUARES + m] * dense[m]
        u = _sigmoid(pre)
        units[j] = u
        out += weights[w2 + j] * u
    return _sigmoid(out)


@njit_inline
def trained_choose(v: IntArray, cfg: Options, paths: IntArray, weights: FloatArray,
                   hidden: int, codes: IntArray, n: int, after: IntArray, index: IntArray,
                   dense: FloatArray, units: FloatArray) -> int:
    """The action code the ``trained`` level plays among the ``n`` legal ``codes``: a
    winning move at once, else the first move whose afterstate the network values most (the
    one move, or pass, when there is nothing else). ``after``: a state-sized scratch array,
    ``index`` :data:`HORSE_SLOTS` slots, ``dense`` :data:`DENSE` (the last four: scratch),
    ``units`` ``hidden``; ``v`` is left as it was."""
    if n == 1:
        return int(codes[0])
    moves = n - 1 if codes[n - 1] == PASS else n  # pass, when legal, is listed last
    if moves <= 1:
        return int(codes[0])
    me = v[PLAYER]
    best = -1
    best_value = 0.0
    for i in range(n):
        code = codes[i]
        if code == PASS:
            continue
        for j in range(len(v)):
            after[j] = v[j]
        apply_action(after, cfg, paths, code)
        if after[PHASE] == OVER:
            return int(code)
        features(after, cfg, paths, me, after[PLAYER] == me, index, dense, dense[5:])
        worth = value(weights, hidden, index, dense, units)
        if best < 0 or worth > best_value:
            best, best_value = i, worth
    return int(codes[best]) if best >= 0 else PASS
