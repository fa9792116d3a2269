"""For a Few Extra Meters in the vectorised environment (:mod:`dicegames.envs.vector`).

One compiled call steps every row: the learner's action (the encoder's ids are the kernel's
codes: 0 roll, 1 stop), then the dice and the opponents' kernel policies
(:mod:`.kernel`'s rules and ``choose``) until a learning seat decides, then the encoder's
observation (:mod:`.encoder`'s fields, written here over the kernel array) and the mask (both
actions are always legal at a decision).
"""

from __future__ import annotations

from typing import Any

from dicegames.core.kernel import FloatArray, IntArray, below, njit_uncounted
from dicegames.envs.vector_kernel import LEARNER, relative, scaled, write_returns
from dicegames.games.extra_meters.kernel import (
    COUNT,
    DECIDE,
    MAX_MOVES,
    OPENING,
    OVER,
    PHASE,
    PLAYER,
    POS,
    SUM,
    Tables,
    _action,
    _choose,
    _outcome,
)


@njit_uncounted
def _advance(v: IntArray, t: Tables, policies: IntArray, dice: IntArray,
             whims: IntArray) -> None:
    """Roll and let the kernel policies decide until a learning seat decides or the end."""
    moves = 0
    while v[PHASE] != OVER and moves < MAX_MOVES:
        phase = v[PHASE]
        if phase == DECIDE:
            policy = policies[v[PLAYER]]
            if policy == LEARNER:
                return
            _action(v, t, _choose(v, t, policy, whims, None))
        elif phase == OPENING:
            _outcome(v, t, below(dice, 5) + 1)
        else:
            _outcome(v, t, below(dice, 6) + 1)
        moves += 1


@njit_uncounted
def _observe(v: IntArray, t: Tables, seat: int, out: FloatArray) -> None:
    """The encoder's observation of ``seat`` (:class:`.encoder.ExtraMetersEncoder`)."""
    players = t.players
    scale = float(t.track + 1)
    for j in range(len(out)):
        out[j] = 0.0
    for other in range(players):
        out[relative(seat, other, players)] = scaled(float(v[POS + other]), scale)
    out[players + relative(seat, v[PLAYER], players)] = 1.0
    out[2 * players + v[PHASE]] = 1.0
    at = 2 * players + 4
    out[at] = scaled(float(v[SUM]), scale)
    out[at + 1] = scaled(float(v[COUNT]), scale)
    out[at + 2] = 1.0 if v[POS + v[PLAYER]] + v[SUM] > t.track else 0.0


@njit_uncounted
def step(states: Any, t: Tables, policies: IntArray, actions: IntArray, dice: Any,
         whims: Any, work: Any, start: IntArray, observations: Any, masks: Any,
         rewards: FloatArray, terminations: Any, to_play: IntArray, final: Any) -> None:
    """Step every row (see :class:`dicegames.envs.vector.VectorGame`). Compiled without
    reference counting, as the kernels' loops (:func:`~dicegames.core.kernel.njit_uncounted`):
    the counts on the rows' views and on every helper's arrays were most of the time."""
    players = t.players
    for i in range(states.shape[0]):
        v = states[i]
        rewards[i] = 0.0
        terminations[i] = 0
        acted = to_play[i]
        if actions[i] >= 0:
            _action(v, t, actions[i])
        while True:
            _advance(v, t, policies, dice[i], whims[i])
            if v[PHASE] != OVER:
                break
            if actions[i] >= 0 and terminations[i] == 0:
                write_returns(v, POS + players, players, final[i])
                rewards[i] = final[i, acted]
                terminations[i] = 1
            for j in range(len(start)):
                v[j] = start[j]
        seat = v[PLAYER]
        to_play[i] = seat
        _observe(v, t, seat, observations[i])
        masks[i, 0] = 1
        masks[i, 1] = 1

