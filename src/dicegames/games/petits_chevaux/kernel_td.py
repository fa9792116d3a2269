"""The training loop of Petits Chevaux' ``trained`` level: TD(lambda) in the manner of
TD-Gammon, over whole games played by the kernel, in compiled code
(``scripts/train_petits_chevaux_td.py`` drives it).

The network, its inputs and its choice are :mod:`.kernel_trained`'s, the very ones the
level plays: :func:`train_games` moves the weights after each of the learner's moves
towards the value of its next afterstate (the last one's target: 1 for a win, else 0),
with eligibility traces.
"""

from __future__ import annotations

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
from dicegames.games.petits_chevaux.kernel_bots import SCORES, SCRATCH, choose
from dicegames.games.petits_chevaux.kernel_rules import (
    DRAW,
    OVER,
    PHASE,
    PLAYER,
    ROLLING,
    WINNER,
    Options,
    apply_action,
    apply_outcome,
    legal_moves,
)
from dicegames.games.petits_chevaux.kernel_trained import (
    DENSE,
    HORSE_SLOTS,
    INPUTS,
    SQUARES,
    features,
    trained_choose,
    value,
)


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

    The learner plays :func:`.kernel_trained.trained_choose` (``behaviour`` -1), or the
    kernel policy ``behaviour``, whose play the network then learns to value.
    ``seed_words`` (4 words for the dice, then 4 for the bots' whims) carry on from call to
    call; ``trace`` is a scratch array of the weights' length; ``state`` is a fresh game's
    array (the draw to come); the learner's wins by game go to ``results`` (1 or 0).
    Sequential and seeded, so a run is reproducible."""
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
                code = trained_choose(v, cfg, paths, weights, hidden, codes, n, after, index,
                                      dense, units)
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


