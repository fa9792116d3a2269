"""Whole Petits Chevaux games over the kernel's integer array, compiled by numba when present:
the functions :class:`~dicegames.core.array_kernel.ArrayKernel` drives (``choose``, ``run``,
``playouts`` and ``work``) behind :class:`.kernel.PetitsChevauxKernel`."""

from __future__ import annotations

from typing import Any, NamedTuple

from dicegames.core.array_kernel import NO_SEAT, horizon_start, horizon_step
from dicegames.core.kernel import (
    FloatArray,
    IntArray,
    copy,
    float_zeros,
    limit_of,
    njit,
    njit_uncounted,
    step_u32,
    zeros,
)
from dicegames.games.petits_chevaux.kernel_bots import SCORES, SCRATCH, choose
from dicegames.games.petits_chevaux.kernel_rules import (
    DRAW,
    ENTRANCE,
    HORSES,
    OVER,
    PHASE,
    PLAYER,
    RANDOM,
    ROLLING,
    TRACK,
    TRAINED,
    TURN,
    WINNER,
    Options,
    apply_action,
    apply_outcome,
    legal_moves,
)
from dicegames.games.petits_chevaux.kernel_trained import FLOATS, trained_choose

MAX_MOVES = 200_000
"""A safety cap on the moves of one game."""

MAX_LEGAL = 6
"""At most six legal codes: out, the four horses, pass."""


class Tables(NamedTuple):
    """The configured game as the compiled functions take it."""

    cfg: Options
    """The player count and the rule options."""
    paths: IntArray
    """``paths[seat * STRIDE + progress]``: the track square of that seat's horse at that
    progress, -1 off the track."""
    weights: FloatArray
    """The ``trained`` level's weights (:mod:`.kernel_trained`, one per feature)."""


class Work(NamedTuple):
    """Scratch arrays of the compiled functions (one per call: :func:`work`)."""

    scratch: IntArray
    """What the bots restore after scoring a move (:data:`.kernel_bots.SCRATCH` slots)."""
    codes: IntArray
    """The legal action codes."""
    targets: IntArray
    """Their target progress (-1 for pass)."""
    scores: FloatArray
    """The bots' float scores and terms (:data:`.kernel_bots.SCORES` slots)."""
    after: IntArray
    """A state the ``trained`` level plays each move on (:mod:`.kernel_trained`)."""
    floats: FloatArray
    """The ``trained`` level's features (:data:`.kernel_trained.FLOATS` slots)."""


@njit
def work(tabs: Tables) -> Work:
    """Fresh scratch arrays."""
    return Work(zeros(SCRATCH), zeros(MAX_LEGAL), zeros(MAX_LEGAL), float_zeros(SCORES),
                zeros(HORSES + 6 * tabs.cfg.players + 2 * TRACK), float_zeros(FLOATS))


@njit
def choose_move(v: IntArray, tabs: Tables, policy: int, rng: IntArray, scratch: Work) -> int:
    """The action code ``policy`` plays here. The bots score each move on the state and undo
    it: on a copy, as another thread may read ``v`` meanwhile."""
    s = copy(v)
    n = legal_moves(s, tabs.cfg, tabs.paths, scratch.codes, scratch.targets)
    if policy == TRAINED:
        return trained_choose(s, tabs.cfg, tabs.paths, tabs.weights, scratch.codes,
                              scratch.targets, n, scratch.scratch, scratch.scores,
                              scratch.after, scratch.floats)
    return choose(s, tabs.cfg, tabs.paths, policy, rng, scratch.codes, scratch.targets, n,
                  scratch.scratch, scratch.scores)


@njit_uncounted
def run(v: IntArray, tabs: Tables, policies: IntArray, dice: IntArray, whims: IntArray,
        scratch: Work, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends (or the horizon); the moves applied.

    The generators stay in local variables (see :func:`~dicegames.core.kernel.step_u32`);
    a draw is :func:`~dicegames.core.kernel.below`'s: the die, the first player, a random
    policy's choice among the legal moves. Compiled without reference counting (see
    :func:`~dicegames.core.kernel.njit_uncounted`).
    """
    cfg, paths = tabs.cfg, tabs.paths
    codes, targets = scratch.codes, scratch.targets
    d0, d1, d2, d3 = dice[0], dice[1], dice[2], dice[3]
    w0, w1, w2, w3 = whims[0], whims[1], whims[2], whims[3]
    seen, left = horizon_start(v[PLAYER], v[TURN], stop_seat, stop_turns)
    moves = 0
    players = cfg.players
    limit6, limit_players = limit_of(6), limit_of(players)
    while v[PHASE] != OVER and moves < MAX_MOVES:
        seen, left = horizon_step(v[PLAYER], v[TURN], stop_seat, seen, left)
        if left == 0:
            break
        phase = v[PHASE]
        if phase == ROLLING:
            while True:
                x, d0, d1, d2, d3 = step_u32(d0, d1, d2, d3)
                if x < limit6:
                    break
            apply_outcome(v, cfg, x % 6 + 1)
        elif phase == DRAW:
            while True:
                x, d0, d1, d2, d3 = step_u32(d0, d1, d2, d3)
                if x < limit_players:
                    break
            apply_outcome(v, cfg, x % players)
        else:
            n = legal_moves(v, cfg, paths, codes, targets)
            policy = policies[v[PLAYER]]
            if n == 1:
                code = codes[0]
            elif policy == RANDOM:
                limit = limit_of(n)
                while True:
                    x, w0, w1, w2, w3 = step_u32(w0, w1, w2, w3)
                    if x < limit:
                        break
                code = codes[x % n]
            elif policy == TRAINED:
                code = trained_choose(v, cfg, paths, tabs.weights, codes, targets, n,
                                      scratch.scratch, scratch.scores, scratch.after,
                                      scratch.floats)
            else:
                code = choose(v, cfg, paths, policy, whims, codes, targets, n,
                              scratch.scratch, scratch.scores)
            apply_action(v, cfg, paths, code)
        moves += 1
    dice[0], dice[1], dice[2], dice[3] = d0, d1, d2, d3
    whims[0], whims[1], whims[2], whims[3] = w0, w1, w2, w3
    return moves


@njit
def playouts(start: IntArray, tabs: Tables, policies: IntArray, dice: IntArray,
             whims: IntArray, out: Any) -> None:
    """Play one game from ``start`` per row of ``out = (winners, scores, turns, moves)``:
    the winner's flag, each seat's horses in its stable, the final turn and the moves."""
    winners, scores, turns, moves = out
    players = tabs.cfg.players
    v, scratch = copy(start), work(tabs)
    for g in range(len(turns)):
        for j in range(len(start)):
            v[j] = start[j]
        moves[g] = run(v, tabs, policies, dice, whims, scratch, NO_SEAT, 0)
        turns[g] = v[TURN]
        for seat in range(players):
            winners[g * players + seat] = 1 if v[WINNER] == seat else 0
            stabled = 0
            for h in range(4):
                if v[HORSES + 4 * seat + h] > ENTRANCE:
                    stabled += 1
            scores[g * players + seat] = stabled
