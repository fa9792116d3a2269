"""Petits Chevaux's bots over the kernel's integer array, compiled by numba when present.

:mod:`.heuristics`' ``medium`` and ``hard`` scores restated with the same floating-point
operations in the same order, so that they choose exactly what the engine's bots choose, and
the ``random`` policy's draw (see :mod:`.kernel` for the array and the codes).
"""

from __future__ import annotations

from dicegames.core.kernel import (
    FloatArray,
    IntArray,
    float_array,
    limit_of,
    njit_inline,
    step_u32,
)
from dicegames.games.petits_chevaux.kernel_rules import (
    ENTRANCE,
    HARD,
    HORSES,
    MEDIUM,
    OUT,
    PASS,
    PLAYER,
    RANDOM,
    STRIDE,
    TRACK,
    Options,
    _horse_of,
    _place,
    barrages_at,
    count_at,
    owner_at,
    reach_at,
)

WAITING = -8.0
PROGRESS_WEIGHT = 0.15
CAPTURE_BONUS = 100.0
OUT_BONUS = 50.0
RISK_WEIGHT = 1.0
"""The ``hard`` bot's weights (:mod:`.heuristics`)."""

SCRATCH = 12
"""The scratch slots the bots need (what :func:`_unplay` restores)."""

TERMS = 6
"""Where ``hard`` keeps each horse's term of the expected loss before the move, in the
float array of scores (slots 6 to 9, after the scores of at most six moves); slots 10 to 13
take those of a position after a move played to measure it."""

SCORES = TERMS + 8
"""The float slots the bots need: the moves' scores, then the terms."""


def _chance(bits: int, six: bool) -> float:
    """One seat's chance to capture in :func:`.heuristics.capture_chance` when its hits at
    distances 1..12 are bits 0..11 of ``bits``: the engine's float operations, in order."""
    hits = [False, *((bits >> (d - 1)) & 1 == 1 for d in range(1, 13))]
    first = sum(hits[1:6]) / 6
    if six:
        return first + 1 / 6
    again = sum(hits[d] or hits[d + 6] for d in range(1, 6)) / 6 + hits[12] / 6
    return first + again / 6


CHANCES = float_array([_chance(bits, six) for six in (False, True) for bits in range(4096)])
"""One seat's capture chance by its hits (``six * 4096 + bits``): read, not recomputed, in
the playout loop (a frozen constant array under numba)."""


@njit_inline
def capture_chance(v: IntArray, cfg: Options, paths: IntArray, seat: int, square: int,
                   victim: int) -> float:
    """:func:`.heuristics.capture_chance`, with the same float operations, read from the
    reach and barrage rows (:func:`.kernel_rules.reach_at`) and :data:`CHANCES`.

    In another seat's frame (a track square is the progress ``q`` at which its horses pass
    it, 1 to 56), a horse ``d`` squares behind the square stands at ``q - d``: bit ``d`` of
    its reach mask shifted down by ``56 - q``. Only a barrage strictly between blocks, so the
    nearest blocking one below ``q`` caps the distances. ``victim`` (or -1) is a seat whose
    horses a move is taken to have sent home from this very square (see :func:`_after`):
    they hit it from nowhere, but they now wait.
    """
    survive = 1.0
    players = cfg.players
    reach, barrages = reach_at(players), barrages_at(players)
    standing = -1  # every barrage on the track, once needed
    everyone = cfg.barrage_blocks_own  # a barrage blocks its own seat too
    for step in range(1, players):
        other = seat + step
        if other >= players:
            other -= players
        start = paths[other * STRIDE + 1]
        q = square - start
        if q < 0:
            q += TRACK
        q += 1
        hits = (v[reach + other] >> (ENTRANCE - q)) & 0x1FFE
        if hits != 0 and standing < 0:
            standing = 0
            for owner in range(players):
                standing |= v[barrages + owner]
        if hits != 0 and standing != 0:
            blocking = standing if everyone else standing & ~v[barrages + other]
            if blocking != 0:
                for j in range(q - 1, max(q - 12, 0), -1):  # the nearest barrage first
                    at = start + j - 1
                    if at >= TRACK:
                        at -= TRACK
                    if (blocking >> at) & 1 == 1:
                        hits &= (2 << (q - j)) - 1
                        break
        six = (hits >> 6) & 1 == 1
        if not six and square == start:
            six = other == victim
            for h in range(4):
                six = six or v[HORSES + 4 * other + h] == 0
        if hits != 0 or six:  # else the chance is 0.0, and survive * 1.0 is survive
            survive *= 1.0 - CHANCES[(4096 if six else 0) + (hits >> 1)]
    return 1.0 - survive


@njit_inline
def _threats(v: IntArray, cfg: Options, paths: IntArray, seat: int, target: int) -> float:
    """:func:`.heuristics._threats` of the horse of ``seat`` at ``target``."""
    if target > ENTRANCE or target == 0:
        return 0.0
    square = paths[seat * STRIDE + target]
    if v[count_at(cfg.players) + square] == 2 and not cfg.barrage_landing_captures:
        return 0.0
    return capture_chance(v, cfg, paths, seat, square, -1)


@njit_inline
def _breaks_barrage(v: IntArray, cfg: Options, paths: IntArray, seat: int,
                    before: int) -> bool:
    """Whether the horse of ``seat`` at ``before`` stands in a barrage it would break."""
    old = paths[seat * STRIDE + before]
    return bool(old >= 0 and v[count_at(cfg.players) + old] == 2)


@njit_inline
def _after(v: IntArray, cfg: Options, paths: IntArray, seat: int, target: int,
           owner: int) -> float:
    """:func:`_threats` of the horse of ``seat`` just moved to ``target``, read on the
    state before the move, for a move that breaks no barrage. ``owner``: the seat whose
    horses stood on the target (:func:`_victim_at`; this one's own included), or -1.

    Reading the state before the move is exact: the move changes only the moved horse (not
    an opponent's), the victims (they stood on the target: no hit, but they wait), and a
    barrage it makes on the target (the target itself never blocks a hit on it)."""
    if target > ENTRANCE:
        return 0.0
    square = paths[seat * STRIDE + target]
    victim = owner if owner != seat else -1
    after = 1 if victim >= 0 else v[count_at(cfg.players) + square] + 1
    if after == 2 and not cfg.barrage_landing_captures:
        return 0.0
    return capture_chance(v, cfg, paths, seat, square, victim)


@njit_inline
def _expected_loss(v: IntArray, cfg: Options, paths: IntArray, seat: int, terms: FloatArray,
                   at: int) -> float:
    """:func:`.heuristics.expected_loss` of ``seat`` as the position stands, keeping each
    horse's term in ``terms[at + h]`` (-1.0 for a horse that adds none) for
    :func:`_loss_moved`."""
    loss = 0.0
    cnt = count_at(cfg.players)
    for h in range(4):
        terms[at + h] = -1.0
        progress = v[HORSES + 4 * seat + h]
        if 0 < progress <= ENTRANCE:
            square = paths[seat * STRIDE + progress]
            if v[cnt + square] == 1 or cfg.barrage_landing_captures:
                term = capture_chance(v, cfg, paths, seat, square, -1) * (progress - WAITING)
                terms[at + h] = term
                loss += term
    return loss


@njit_inline
def _loss_moved(v: IntArray, cfg: Options, paths: IntArray, seat: int, horse: int,
                target: int, scores: FloatArray) -> float:
    """:func:`_expected_loss` with ``horse`` at ``target``, read on the state before the
    move from the terms it kept at :data:`TERMS`, for a move that captures nothing, breaks
    no barrage and makes none: then no hit changes, every other horse's term is the same and
    only the moved horse's is new; the terms are added in the same order, so the sum has
    the same bits."""
    loss = 0.0
    for h in range(4):
        if h == horse:
            if 0 < target <= ENTRANCE:
                loss += capture_chance(v, cfg, paths, seat, paths[seat * STRIDE + target],
                                       -1) * (target - WAITING)
        elif scores[TERMS + h] >= 0.0:
            loss += scores[TERMS + h]
    return loss


@njit_inline
def _victims(v: IntArray, cfg: Options, paths: IntArray, seat: int, target: int) -> int:
    """The progress summed over the horses a move to ``target`` captures (-1: none)."""
    square = paths[seat * STRIDE + target]
    if square < 0:
        return -1
    victim = v[owner_at(cfg.players) + square]
    if victim < 0 or victim == seat:
        return -1
    total = 0
    for h in range(4):
        progress = v[HORSES + 4 * victim + h]
        if paths[victim * STRIDE + progress] == square:
            total += progress
    return total


@njit_inline
def _play(v: IntArray, cfg: Options, paths: IntArray, seat: int, horse: int, target: int,
          scratch: IntArray) -> None:
    """Play ``horse`` of ``seat`` to ``target`` on ``v`` itself, keeping in ``scratch``
    (:data:`SCRATCH` slots) what :func:`_unplay` needs to undo it: cheaper than a copy of
    the whole state per move scored."""
    players = cfg.players
    own, cnt = owner_at(players), count_at(players)
    reach, barrages = reach_at(players), barrages_at(players)
    old = paths[seat * STRIDE + v[HORSES + 4 * seat + horse]]
    square = paths[seat * STRIDE + target]
    victim = v[own + square] if square >= 0 else -1
    scratch[8], scratch[9] = v[reach + seat], v[barrages + seat]
    if victim >= 0:
        scratch[10], scratch[11] = v[reach + victim], v[barrages + victim]
    if old >= 0:
        scratch[0], scratch[1] = v[own + old], v[cnt + old]
    if square >= 0:
        scratch[2], scratch[3] = v[own + square], v[cnt + square]
    if victim >= 0:
        for h in range(4):
            scratch[4 + h] = v[HORSES + 4 * victim + h]
    _place(v, cfg, paths, seat, horse, target)


@njit_inline
def _unplay(v: IntArray, cfg: Options, paths: IntArray, seat: int, horse: int, before: int,
            target: int, victim: int, scratch: IntArray) -> None:
    """Undo :func:`_play` (``before``: the horse's progress before it, ``victim``: the seat
    whose horse stood on the target, or -1)."""
    players = cfg.players
    own, cnt = owner_at(players), count_at(players)
    reach, barrages = reach_at(players), barrages_at(players)
    old = paths[seat * STRIDE + before]
    square = paths[seat * STRIDE + target]
    if victim >= 0:
        for h in range(4):
            v[HORSES + 4 * victim + h] = scratch[4 + h]
        v[reach + victim], v[barrages + victim] = scratch[10], scratch[11]
    v[reach + seat], v[barrages + seat] = scratch[8], scratch[9]
    if square >= 0:
        v[own + square], v[cnt + square] = scratch[2], scratch[3]
    if old >= 0:
        v[own + old], v[cnt + old] = scratch[0], scratch[1]
    v[HORSES + 4 * seat + horse] = before


@njit_inline
def _medium_base(v: IntArray, cfg: Options, paths: IntArray, seat: int, code: int,
                 before: int, target: int) -> float:
    """:func:`.heuristics.heuristic_scores` of one move without its two threat terms
    (``- 80 * threat after + 40 * threat before``), read from the state before the move and
    summed in the same order, so that adding those terms gives the same bits."""
    victims = _victims(v, cfg, paths, seat, target)
    score = target / 10
    if victims >= 0:
        score += 100 + victims / 2
    if code == OUT:
        score += 50
    if target > ENTRANCE >= before:
        score += 60
    elif target > ENTRANCE:
        score += 20
    if target <= ENTRANCE:
        same = 1  # the moved horse, and those of its seat already there
        for h in range(4):
            if v[HORSES + 4 * seat + h] == target:
                same += 1
        if same == 2:
            score += 25
    return score


@njit_inline
def _victim_at(v: IntArray, cfg: Options, paths: IntArray, seat: int, target: int) -> int:
    square = paths[seat * STRIDE + target]
    return v[owner_at(cfg.players) + square] if square >= 0 else -1


@njit_inline
def score_moves(v: IntArray, cfg: Options, paths: IntArray, policy: int, codes: IntArray,
                targets: IntArray, n: int, scratch: IntArray, scores: FloatArray) -> None:
    """The ``medium`` (:func:`.heuristics.heuristic_scores`) or ``hard``
    (:func:`.heuristics.hard_scores`) score of each legal move but pass, in ``scores``.

    The capture chances after a move are read on the state before it where that is exact
    (:func:`_after`, :func:`_loss_moved`); other moves (one that breaks a barrage, or for
    ``hard`` also captures or makes one) are played on ``v`` itself and undone (``v`` is as
    it was on return). ``scratch`` has :data:`SCRATCH` slots at least, ``scores``
    :data:`SCORES`."""
    seat = v[PLAYER]
    base = _expected_loss(v, cfg, paths, seat, scores, TERMS) if policy == HARD else 0.0
    for i in range(n):
        code = codes[i]
        if code == PASS:
            continue
        target = targets[i]
        horse = _horse_of(v, seat, code)
        before = v[HORSES + 4 * seat + horse]
        victim = _victim_at(v, cfg, paths, seat, target)
        if policy == HARD:
            victims = _victims(v, cfg, paths, seat, target)
            score = PROGRESS_WEIGHT * target
            if victims >= 0:
                score += CAPTURE_BONUS + victims / 2
            if code == OUT:
                score += OUT_BONUS
            if victim >= 0 or _breaks_barrage(v, cfg, paths, seat, before):
                # a capture, a barrage made (a horse stood on the target) or broken: play it
                _play(v, cfg, paths, seat, horse, target, scratch)
                score += RISK_WEIGHT * (base - _expected_loss(v, cfg, paths, seat, scores,
                                                              TERMS + 4))
                _unplay(v, cfg, paths, seat, horse, before, target, victim, scratch)
            else:
                score += RISK_WEIGHT * (base - _loss_moved(v, cfg, paths, seat, horse, target,
                                                           scores))
        else:
            score = _medium_base(v, cfg, paths, seat, code, before, target)
            exposed = _threats(v, cfg, paths, seat, before)
            score -= 80 * _medium_after(v, cfg, paths, seat, horse, before, target, victim,
                                        scratch)
            score += 40 * exposed
        scores[i] = score


@njit_inline
def _medium_after(v: IntArray, cfg: Options, paths: IntArray, seat: int, horse: int,
                  before: int, target: int, victim: int, scratch: IntArray) -> float:
    """The threat to the horse moved to ``target``: read on the state before the move
    (:func:`_after`), or, when the move breaks a barrage, on the state after it, played and
    undone."""
    if not _breaks_barrage(v, cfg, paths, seat, before):
        return _after(v, cfg, paths, seat, target, victim)
    _play(v, cfg, paths, seat, horse, target, scratch)
    threat = _threats(v, cfg, paths, seat, target)
    _unplay(v, cfg, paths, seat, horse, before, target, victim, scratch)
    return threat


@njit_inline
def _best_medium(v: IntArray, cfg: Options, paths: IntArray, codes: IntArray,
                 targets: IntArray, n: int, scratch: IntArray, scores: FloatArray) -> int:
    """The index of the move ``medium`` plays: the first of the best scores of
    :func:`score_moves`, found without scoring the moves that cannot be best.

    A move's score is its base (:func:`_medium_base`) minus 80 times a threat plus 40 times
    another, both chances in [0, 1]; IEEE rounding is monotonic, so base + 40 (then base +
    40 * the threat before the move) bounds the score's very bits from above. Moves are
    scored from the highest base down, and one whose bound is below the best score so far
    is skipped; ties go to the earlier move, as in :func:`score_moves`' first maximum.
    """
    seat = v[PLAYER]
    for i in range(n):  # the bases first (scores[i]); pass is never chosen over a move
        if codes[i] == PASS:
            scores[i] = -1e300
        else:
            horse = _horse_of(v, seat, codes[i])
            scores[i] = _medium_base(v, cfg, paths, seat, codes[i],
                                     v[HORSES + 4 * seat + horse], targets[i])
    best, best_score = -1, 0.0
    for _ in range(n):
        top = -1
        for i in range(n):
            if codes[i] != PASS and scores[i] > -1e299 and (top < 0 or scores[i] > scores[top]):
                top = i
        if top < 0:
            break
        base = scores[top]
        scores[top] = -1e300  # taken
        if best >= 0 and base + 40 < best_score:
            break  # every move left has a base no higher
        code, target = codes[top], targets[top]
        horse = _horse_of(v, seat, code)
        before = v[HORSES + 4 * seat + horse]
        exposed = _threats(v, cfg, paths, seat, before)
        if best >= 0 and base + 40 * exposed < best_score:
            continue
        victim = _victim_at(v, cfg, paths, seat, target)
        score = base - 80 * _medium_after(v, cfg, paths, seat, horse, before, target, victim,
                                          scratch)
        score += 40 * exposed
        if best < 0 or score > best_score or (score == best_score and top < best):
            best, best_score = top, score
    return best


@njit_inline
def choose(v: IntArray, cfg: Options, paths: IntArray, policy: int, whims: IntArray,
           codes: IntArray, targets: IntArray, n: int, scratch: IntArray,
           scores: FloatArray) -> int:
    """The action code ``policy`` plays among the ``n`` legal ``codes``."""
    if n == 1:
        return int(codes[0])
    if policy == RANDOM:
        limit = limit_of(n)
        while True:
            x, s0, s1, s2, s3 = step_u32(whims[0], whims[1], whims[2], whims[3])
            whims[0], whims[1], whims[2], whims[3] = s0, s1, s2, s3
            if x < limit:
                return int(codes[x % n])
    moves = n - 1 if codes[n - 1] == PASS else n  # pass, when legal, is listed last
    if moves <= 1:  # the bots play their one move (or pass) whatever its score
        return int(codes[0])
    if policy == MEDIUM:
        best = _best_medium(v, cfg, paths, codes, targets, n, scratch, scores)
        return codes[best] if best >= 0 else PASS
    score_moves(v, cfg, paths, policy, codes, targets, n, scratch, scores)
    best = -1
    for i in range(n):
        if codes[i] != PASS and (best < 0 or scores[i] > scores[best]):
            best = i
    return codes[best] if best >= 0 else PASS

