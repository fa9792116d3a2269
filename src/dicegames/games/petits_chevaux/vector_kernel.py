"""Jeu des Petits Chevaux in the vectorised environment (:mod:`dicegames.envs.vector`).

One compiled call steps every row: the learner's action (encoder id ``0`` pass is kernel code
5, id ``k >= 1`` is code ``k - 1``: out, then horses 1 to 4), then the draw, the dice and the
opponents' kernel policies (:mod:`.kernel_rules`, :mod:`.kernel_bots`,
:mod:`.kernel_trained`) until a learning seat
decides (a forced pass included, as the other environments ask it too), then the encoder's
observation (:class:`.encoder.PetitsChevauxEncoder`'s fields over the kernel array) and mask.
"""

from __future__ import annotations

from typing import Any

from dicegames.core.kernel import FloatArray, IntArray, below, njit_uncounted
from dicegames.envs.vector_kernel import LEARNER, relative, scaled
from dicegames.games.petits_chevaux.kernel_bots import choose
from dicegames.games.petits_chevaux.kernel_play import MAX_MOVES, Tables, Work
from dicegames.games.petits_chevaux.kernel_rules import (
    DRAW,
    FINAL,
    HORSES,
    MOVE,
    OVER,
    PASS,
    PHASE,
    PLAYER,
    RANDOM,
    ROLL,
    ROLLING,
    SIXES,
    STRIDE,
    TRACK,
    TRAINED,
    WINNER,
    apply_action,
    apply_outcome,
    legal_moves,
)
from dicegames.games.petits_chevaux.kernel_trained import trained_choose


@njit_uncounted
def _advance(v: IntArray, t: Tables, policies: IntArray, dice: IntArray, whims: IntArray,
             scratch: Work) -> None:
    """Draw, roll and let the kernel policies move until a learning seat decides or the end
    (the kernel's :func:`.kernel_play.run` without its horizon, stopping at learners)."""
    cfg, paths = t.cfg, t.paths
    codes, targets = scratch.codes, scratch.targets
    players = cfg.players
    moves = 0
    while v[PHASE] != OVER and moves < MAX_MOVES:
        phase = v[PHASE]
        if phase == ROLLING:
            apply_outcome(v, cfg, below(dice, 6) + 1)
        elif phase == DRAW:
            apply_outcome(v, cfg, below(dice, players))
        else:
            policy = policies[v[PLAYER]]
            if policy == LEARNER:
                return
            n = legal_moves(v, cfg, paths, codes, targets)
            if n == 1:
                code = codes[0]
            elif policy == RANDOM:
                code = codes[below(whims, n)]
            elif policy == TRAINED:
                code = trained_choose(v, cfg, paths, t.weights, t.hidden, codes, n,
                                      scratch.after, scratch.sparse, scratch.dense,
                                      scratch.units)
            else:
                code = choose(v, cfg, paths, policy, whims, codes, targets, n,
                              scratch.scratch, scratch.scores)
            apply_action(v, cfg, paths, code)
        moves += 1


@njit_uncounted
def _observe(v: IntArray, t: Tables, seat: int, out: FloatArray) -> None:
    """The encoder's observation of ``seat``: progress, track, to_move, phase, die, sixes."""
    players = t.cfg.players
    paths = t.paths
    for j in range(len(out)):
        out[j] = 0.0
    track_at = 4 * players
    start = paths[seat * STRIDE + 1]
    for other in range(players):
        place = relative(seat, other, players)
        for horse in range(4):
            progress = v[HORSES + 4 * other + horse]
            out[4 * place + horse] = progress / FINAL
            square = paths[other * STRIDE + progress]
            if square >= 0:
                out[track_at + place * TRACK + (square - start) % TRACK] += 0.5
    at = track_at + players * TRACK
    out[at + relative(seat, v[PLAYER], players)] = 1.0
    at += players
    out[at + v[PHASE]] = 1.0
    at += 4
    if v[ROLL] > 0:
        out[at + v[ROLL] - 1] = 1.0
    out[at + 6] = scaled(float(v[SIXES]), 3.0)


@njit_uncounted
def step(states: Any, t: Tables, policies: IntArray, actions: IntArray, dice: Any,
         whims: Any, scratch: Work, start: IntArray, observations: Any, masks: Any,
         rewards: FloatArray, terminations: Any, to_play: IntArray, final: Any) -> None:
    """Step every row (see :class:`dicegames.envs.vector.VectorGame`). Compiled without
    reference counting, as the kernels' loops (:func:`~dicegames.core.kernel.njit_uncounted`):
    the counts on the rows' views and on every helper's arrays were most of the time."""
    cfg, paths = t.cfg, t.paths
    players = cfg.players
    for i in range(states.shape[0]):
        v = states[i]
        rewards[i] = 0.0
        terminations[i] = 0
        acted = to_play[i]
        action = actions[i]
        if action >= 0:
            apply_action(v, cfg, paths, PASS if action == 0 else action - 1)
        while True:
            _advance(v, t, policies, dice[i], whims[i], scratch)
            if v[PHASE] != OVER:
                break
            if action >= 0 and terminations[i] == 0:
                for seat in range(players):  # one winner: +1, every other -1/(n-1)
                    final[i, seat] = 1.0 if v[WINNER] == seat else -1.0 / (players - 1)
                rewards[i] = final[i, acted]
                terminations[i] = 1
            for j in range(len(start)):
                v[j] = start[j]
        seat = v[PLAYER]
        to_play[i] = seat
        _observe(v, t, seat, observations[i])
        for j in range(masks.shape[1]):
            masks[i, j] = 0
        if v[PHASE] == MOVE:
            n = legal_moves(v, cfg, paths, scratch.codes, scratch.targets)
            for k in range(n):
                code = scratch.codes[k]
                masks[i, 0 if code == PASS else code + 1] = 1

