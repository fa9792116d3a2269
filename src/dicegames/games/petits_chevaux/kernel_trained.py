"""The ``trained`` level of Petits Chevaux over the kernel's integer array: ``hard``'s score
of each move plus a learned, weighted sum of what the move leaves on the board.

``hard`` (:mod:`.kernel_bots`) weighs a move by four tuned terms: the moved horse's
progress, a capture, a horse brought out and the change in the expected loss to captures.
It cannot see what the move does to the race beyond that: the lone horses it now threatens,
whether a capture hits the leading opponent, a barrage made or broken, how much risk to take
when ahead or behind. :data:`FEATURE_NAMES` measures those things on the position after the
move (and on the move itself), and the policy adds ``weights · features`` to ``hard``'s
score; a winning move comes first. The weights were fitted by
``scripts/train_petits_chevaux_trained.py`` (the cross-entropy method over whole kernel
games against ``medium`` bots, seats rotated, common random numbers) and ship in
``trained_weights.json`` (:mod:`.trained`).

There is one implementation: the engine's ``trained`` bot asks this kernel for its move
(:func:`.trained.trained_policy`), so the kernel plays exactly what the bot plays. Every
feature is a plain integer count or an exact float sum in a fixed order, so the compiled and
plain-Python kernels agree to the bit.
"""

from __future__ import annotations

from dicegames.core.kernel import FloatArray, IntArray, njit_inline
from dicegames.games.petits_chevaux.kernel_bots import _expected_loss, score_moves
from dicegames.games.petits_chevaux.kernel_rules import (
    ENTRANCE,
    FINAL,
    HARD,
    HORSES,
    OUT,
    OVER,
    PASS,
    PHASE,
    PLAYER,
    STRIDE,
    TRACK,
    Options,
    _horse_of,
    apply_action,
    count_at,
    owner_at,
)
from dicegames.games.petits_chevaux.trained import FEATURE_NAMES

FEATURES = len(FEATURE_NAMES)
"""The number of features (and of weights)."""

FLOATS = FEATURES + 4
"""The float scratch :func:`trained_choose` needs: the features, then four loss terms."""

TOTAL = 4.0 * FINAL
"""A seat's total progress when every horse is home: the scale of the race features."""


@njit_inline
def _total(v: IntArray, seat: int) -> int:
    """The progress summed over ``seat``'s four horses."""
    total = 0
    for h in range(4):
        total += v[HORSES + 4 * seat + h]
    return total


@njit_inline
def _best_other(v: IntArray, players: int, seat: int) -> int:
    """The highest total progress of ``seat``'s opponents."""
    best = 0
    for other in range(players):
        if other != seat:
            best = max(best, _total(v, other))
    return best


@njit_inline
def _threats(a: IntArray, cfg: Options, paths: IntArray, seat: int) -> tuple[float, float]:
    """The lone opposing horses ``seat``'s horses could land on with one die (1-6 squares
    ahead) or two (7-12), no barrage between: each counted by the victim's own progress
    divided by :data:`.ENTRANCE` (what its owner would lose)."""
    cnt, own = count_at(cfg.players), owner_at(cfg.players)
    near = 0.0
    far = 0.0
    for h in range(4):
        p = a[HORSES + 4 * seat + h]
        if p == 0 or p >= ENTRANCE:
            continue
        for d in range(1, 13):
            if p + d > ENTRANCE:
                break
            square = paths[seat * STRIDE + p + d]
            c = a[cnt + square]
            if c == 0:
                continue
            owner = a[own + square]
            if c == 2:
                if cfg.barrage_blocks_own or owner != seat:
                    break
                continue
            if owner != seat:
                q = square - paths[owner * STRIDE + 1]
                if q < 0:
                    q += TRACK
                worth = (q + 1) / ENTRANCE
                if d <= 6:
                    near += worth
                else:
                    far += worth
    return near, far


@njit_inline
def _held_up(a: IntArray, cfg: Options, seat: int) -> float:
    """Opposing horses 1-6 squares behind one of ``seat``'s barrages (they cannot pass
    it), a quarter each."""
    cnt, own = count_at(cfg.players), owner_at(cfg.players)
    held = 0.0
    for square in range(TRACK):
        if a[cnt + square] == 2 and a[own + square] == seat:
            for d in range(1, 7):
                behind = square - d
                if behind < 0:
                    behind += TRACK
                if a[cnt + behind] > 0 and a[own + behind] != seat:
                    held += 0.25 * a[cnt + behind]
    return held


@njit_inline
def features(v: IntArray, a: IntArray, cfg: Options, paths: IntArray, code: int,
             target: int, out: FloatArray) -> None:
    """:data:`FEATURE_NAMES` of the move ``code`` (to ``target``) of the player to move in
    ``v``, whose result is ``a``, in ``out[0:FEATURES]`` (``out`` has :data:`FLOATS`
    slots; the last four hold the loss terms of :func:`.kernel_bots._expected_loss`)."""
    players = cfg.players
    seat = v[PLAYER]
    cnt, own = count_at(players), owner_at(players)
    horse = _horse_of(v, seat, code)
    before = v[HORSES + 4 * seat + horse]
    old = paths[seat * STRIDE + before]
    square = paths[seat * STRIDE + target]
    victim = v[own + square] if square >= 0 else -1
    captured = victim >= 0 and victim != seat
    mine = _total(v, seat)
    rival = _best_other(v, players, seat)
    near, far = _threats(a, cfg, paths, seat)
    out[0] = near
    out[1] = far
    out[2] = 1.0 if target > ENTRANCE >= before > 0 else 0.0
    out[3] = 1.0 if square >= 0 and a[cnt + square] == 2 else 0.0
    out[4] = 1.0 if old >= 0 and v[cnt + old] == 2 else 0.0
    worth = 0
    if captured:
        for h in range(4):
            progress = v[HORSES + 4 * victim + h]
            if paths[victim * STRIDE + progress] == square:
                worth += progress
    out[5] = 1.0 if captured and _total(v, victim) == rival else 0.0
    out[6] = worth / ENTRANCE
    on_track = 0
    leader = 0
    busy = 0
    for h in range(4):
        p = a[HORSES + 4 * seat + h]
        if 0 < p <= ENTRANCE:
            on_track += 1
        q = v[HORSES + 4 * seat + h]
        if 0 < q <= ENTRANCE:
            busy += 1
            leader = max(leader, q)
    out[7] = on_track / 4
    out[8] = 1.0 if before > 0 and before == leader else 0.0
    loss = _expected_loss(a, cfg, paths, seat, out, FEATURES)
    lead = (_total(a, seat) - _best_other(a, players, seat)) / TOTAL
    out[9] = loss / ENTRANCE * lead
    out[10] = _held_up(a, cfg, seat)
    out[11] = busy / 4 if code == OUT else 0.0
    out[12] = loss / ENTRANCE
    out[13] = target / ENTRANCE
    out[14] = before / ENTRANCE
    out[15] = (target - ENTRANCE) / 6 if target > ENTRANCE else 0.0
    out[16] = (rival - mine) / TOTAL if captured else 0.0
    out[17] = lead


@njit_inline
def trained_choose(v: IntArray, cfg: Options, paths: IntArray, weights: FloatArray,
                   codes: IntArray, targets: IntArray, n: int, scratch: IntArray,
                   scores: FloatArray, after: IntArray, floats: FloatArray) -> int:
    """The action code the ``trained`` level plays among the ``n`` legal ``codes``: the
    first best of ``hard``'s score plus ``weights · features`` (a winning move at once; the
    one move, or pass, when there is nothing else). ``after`` is a state-sized scratch
    array, ``floats`` has :data:`FLOATS` slots; ``v`` is as it was on return."""
    if n == 1:
        return int(codes[0])
    moves = n - 1 if codes[n - 1] == PASS else n  # pass, when legal, is listed last
    if moves <= 1:
        return int(codes[0])
    score_moves(v, cfg, paths, HARD, codes, targets, n, scratch, scores)
    best = -1
    best_score = 0.0
    for i in range(n):
        code = codes[i]
        if code == PASS:
            continue
        for j in range(len(v)):
            after[j] = v[j]
        apply_action(after, cfg, paths, code)
        if after[PHASE] == OVER:
            return int(code)
        features(v, after, cfg, paths, code, targets[i], floats)
        score = scores[i]
        for k in range(FEATURES):
            score += weights[k] * floats[k]
        if best < 0 or score > best_score:
            best, best_score = i, score
    return int(codes[best]) if best >= 0 else PASS
