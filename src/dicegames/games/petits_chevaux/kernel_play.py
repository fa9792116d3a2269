"""Whole Petits Chevaux games over the kernel's integer array, compiled by numba when present:
the playout loop behind :meth:`.kernel.PetitsChevauxKernel.playouts` and ``rollout``."""

from __future__ import annotations

from dicegames.core.kernel import (
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
    TURN,
    WINNER,
    apply_action,
    apply_outcome,
    legal_moves,
)

MAX_MOVES = 200_000
"""A safety cap on the moves of one game."""


@njit
def run(v: IntArray, cfg: IntArray, paths: IntArray, policies: IntArray, dice: IntArray,
        whims: IntArray, scratch: IntArray, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends (or the horizon); the moves applied.

    The generators stay in local variables (see :func:`~dicegames.core.kernel.step_u32`);
    a draw is :func:`~dicegames.core.kernel.below`'s: the die, the first player, a random
    policy's choice among the legal moves.
    """
    return _run(v, cfg, paths, policies, dice, whims, scratch, zeros(6), zeros(6),
                float_zeros(SCORES), stop_seat, stop_turns)


@njit_uncounted
def _run(v: IntArray, cfg: IntArray, paths: IntArray, policies: IntArray, dice: IntArray,
         whims: IntArray, scratch: IntArray, codes: IntArray, targets: IntArray,
         scores: IntArray, stop_seat: int, stop_turns: int) -> int:
    """:func:`run` with scratch lists for the legal moves, their targets and scores
    (compiled without reference counting: see :func:`~dicegames.core.kernel.njit_uncounted`)."""
    d0, d1, d2, d3 = dice[0], dice[1], dice[2], dice[3]
    w0, w1, w2, w3 = whims[0], whims[1], whims[2], whims[3]
    number = v[TURN] if v[PLAYER] == stop_seat else -1
    starts = stop_turns + 1
    moves = 0
    players = cfg[0]
    limit6, limit_players = limit_of(6), limit_of(players)
    while v[PHASE] != OVER and moves < MAX_MOVES:
        if v[PLAYER] == stop_seat and v[TURN] != number:
            number = v[TURN]
            starts -= 1
            if starts == 0:
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
            else:
                code = choose(v, cfg, paths, policy, whims, codes, targets, n, scratch,
                              scores)
            apply_action(v, cfg, paths, code)
        moves += 1
    dice[0], dice[1], dice[2], dice[3] = d0, d1, d2, d3
    whims[0], whims[1], whims[2], whims[3] = w0, w1, w2, w3
    return moves


@njit
def playouts(start: IntArray, cfg: IntArray, paths: IntArray, policies: IntArray, games: int,
             dice: IntArray, whims: IntArray, winners: IntArray, scores: IntArray,
             turns: IntArray, moves: IntArray) -> None:
    """``games`` whole games from ``start``; results per game (see ``Playouts``)."""
    players = cfg[0]
    v, scratch = copy(start), zeros(SCRATCH)
    codes, targets, scores_of = zeros(6), zeros(6), float_zeros(SCORES)
    for g in range(games):
        for j in range(len(start)):
            v[j] = start[j]
        moves[g] = _run(v, cfg, paths, policies, dice, whims, scratch, codes, targets,
                        scores_of, -1, 0)
        turns[g] = v[TURN]
        for seat in range(players):
            winners[g * players + seat] = 1 if v[WINNER] == seat else 0
            stabled = 0
            for h in range(4):
                if v[HORSES + 4 * seat + h] > ENTRANCE:
                    stabled += 1
            scores[g * players + seat] = stabled
