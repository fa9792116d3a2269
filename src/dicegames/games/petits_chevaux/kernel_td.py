"""An experiment towards issue 27's aim for Petits Chevaux: a TD-Gammon-style value of
positions over the kernel's integer array, a small neural network over a per-square
encoding, evaluated and trained in compiled code (``scripts/train_petits_chevaux_td.py``).

The network estimates, for the seat that has just moved, its chance to win the game from
the position its move leaves (the *afterstate*). Its choice (:func:`td_choose`) is the
move whose afterstate it values most: one ply, no search, as TD-Gammon did. It is no level
yet: in the time this machine allowed it reached about ``expert``'s share against three
``medium`` bots, not the 36% aimed at (docs/performance.md, "Petits Chevaux against three
`medium`").

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
from its length. The training loop (:func:`train_games`, TD(lambda) against fixed
opponents) lives here too, so that the trainer and the policy read the very same inputs.
"""

from __future__ import annotations

import math

from dicegames.core.kernel import (
    FloatArray,
    IntArray,
    float_zeros,
    limit_of,
    njit,
    njit_inline,
    step_u32,
    zeros,
)
from dicegames.games.petits_chevaux.kernel_bots import SCORES, SCRATCH, _expected_loss, choose
from dicegames.games.petits_chevaux.kernel_rules import (
    DRAW,
    ENTRANCE,
    HORSES,
    OVER,
    PASS,
    PHASE,
    PLAYER,
    ROLLING,
    STRIDE,
    WINNER,
    Options,
    apply_action,
    apply_outcome,
    legal_moves,
)

SQUARES = 4 * STRIDE
"""The per-square inputs: 63 progress values for each of four relative seats."""

INPUTS = SQUARES + 5
"""Every input: the squares, four expected losses, and the play-again flag."""

HORSE_SLOTS = 16
"""The square indices of the inputs that may be non-zero: one per horse of four seats."""

DENSE = 9
"""The float slots of the dense inputs: the five inputs, then four of scratch."""


def layout(hidden: int) -> int:
    """The length of the flat weight array of a network with ``hidden`` units."""
    return hidden * (INPUTS + 2) + 1


def hidden_of(length: int) -> int:
    """The hidden units of a flat weight array of ``length`` floats (-1: no such network)."""
    if length < layout(1) or (length - 1) % (INPUTS + 2) != 0:
        return -1
    return (length - 1) // (INPUTS + 2)


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
def td_choose(v: IntArray, cfg: Options, paths: IntArray, weights: FloatArray, hidden: int,
              codes: IntArray, targets: IntArray, n: int, after: IntArray, index: IntArray,
              dense: FloatArray, units: FloatArray) -> int:
    """The action code the network's choice plays among the ``n`` legal ``codes``: a winning
    move at once, else the first move whose afterstate the network values most (the one
    move, or pass, when there is nothing else). ``after``: a state-sized scratch array,
    ``index`` 16 slots, ``dense`` 5 + 4 (the last four: scratch), ``units`` ``hidden``."""
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


# ------------------------------------------------------------------------------ training


@njit_inline
def _gradient(weights: FloatArray, hidden: int, index: IntArray, dense: FloatArray,
              units: FloatArray, out: float, trace: FloatArray, lam: float) -> None:
    """``trace = lam * trace + grad(value)`` at these inputs (``units`` and ``out``: what
    :func:`value` computed there)."""
    for i in range(len(trace)):
        trace[i] *= lam
    b1 = hidden * INPUTS
    w2 = b1 + hidden
    g = out * (1.0 - out)
    trace[w2 + hidden] += g
    for j in range(hidden):
        u = units[j]
        trace[w2 + j] += g * u
        gj = g * weights[w2 + j] * u * (1.0 - u)
        trace[b1 + j] += gj
        row = j * INPUTS
        for k in range(16):
            if index[k] >= 0:
                trace[row + index[k]] += gj
        for m in range(5):
            trace[row + SQUARES + m] += gj * dense[m]


@njit
def train_games(weights: FloatArray, hidden: int, cfg: Options, paths: IntArray,
                opponent: int, behaviour: int, games: int, seed_words: IntArray,
                alpha: float, lam: float, trace: FloatArray, state: IntArray,
                results: IntArray) -> None:
    """Play ``games`` games, the learner in seat ``g % players`` of game ``g`` and
    ``opponent`` (a policy code) in the others, updating ``weights`` in place by
    TD(``lam``) with step ``alpha`` over the learner's successive afterstates (the last
    one's target: 1 for a win, else 0; ``alpha = 0`` only measures).

    The learner plays :func:`td_choose` (``behaviour`` -1), or the kernel policy
    ``behaviour``, whose play the network then learns to value. ``seed_words`` (4 words for
    the dice, then 4 for the bots' whims) carry on from call to call; ``trace`` is a
    scratch array of the weights' length; ``state`` is a fresh game's array (the draw to
    come); the learner's wins by game go to ``results`` (1 or 0). Sequential and seeded, so
    a run is reproducible."""
    players = cfg.players
    v = state.copy()
    after = state.copy()
    codes, targets = zeros(6), zeros(6)
    scratch, scores = zeros(SCRATCH), float_zeros(SCORES)
    index, dense, units = zeros(HORSE_SLOTS), float_zeros(DENSE), float_zeros(hidden)
    whims = seed_words[4:8].copy()
    d0, d1, d2, d3 = seed_words[0], seed_words[1], seed_words[2], seed_words[3]
    limit6, limit_players = limit_of(6), limit_of(players)
    for g in range(games):
        learner = g % players
        for j in range(len(state)):
            v[j] = state[j]
        for i in range(len(trace)):
            trace[i] = 0.0
        started = False
        old = 0.0
        while v[PHASE] != OVER:
            phase = v[PHASE]
            if phase == ROLLING:
                while True:
                    x, d0, d1, d2, d3 = step_u32(d0, d1, d2, d3)
                    if x < limit6:
                        break
                apply_outcome(v, cfg, x % 6 + 1)
                continue
            if phase == DRAW:
                while True:
                    x, d0, d1, d2, d3 = step_u32(d0, d1, d2, d3)
                    if x < limit_players:
                        break
                apply_outcome(v, cfg, x % players)
                continue
            n = legal_moves(v, cfg, paths, codes, targets)
            if v[PLAYER] != learner:
                code = choose(v, cfg, paths, opponent, whims, codes, targets, n, scratch,
                              scores)
                apply_action(v, cfg, paths, code)
                continue
            if behaviour >= 0:
                code = choose(v, cfg, paths, behaviour, whims, codes, targets, n, scratch,
                              scores)
            else:
                code = td_choose(v, cfg, paths, weights, hidden, codes, targets, n, after,
                                 index, dense, units)
            apply_action(v, cfg, paths, code)
            if v[PHASE] == OVER:
                break
            features(v, cfg, paths, learner, v[PLAYER] == learner, index, dense, dense[5:])
            now = value(weights, hidden, index, dense, units)
            if started:
                delta = alpha * (now - old)
                for i in range(len(trace)):
                    weights[i] += delta * trace[i]
                now = value(weights, hidden, index, dense, units)
            _gradient(weights, hidden, index, dense, units, now, trace, lam)
            old = now
            started = True
        won = 1.0 if v[WINNER] == learner else 0.0
        results[g] = 1 if won > 0.0 else 0
        if started:
            delta = alpha * (won - old)
            for i in range(len(trace)):
                weights[i] += delta * trace[i]
    seed_words[0], seed_words[1], seed_words[2], seed_words[3] = d0, d1, d2, d3
    for k in range(4):
        seed_words[4 + k] = whims[k]


