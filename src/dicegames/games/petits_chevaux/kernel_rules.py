"""Petits Chevaux's rules and bots over an integer array, compiled by numba when present.

The array layout, the codes and the policies are described in :mod:`.kernel`; this module is
the compiled half: :mod:`.moves` and :mod:`.rules` restated over the array (with the
track's occupancy kept incrementally), and :mod:`.heuristics`' ``medium`` and ``hard``
scores restated with the same floating-point operations in the same order, so they choose
exactly what the engine's bots choose.

``cfg`` holds the configuration: ``[players, three_sixes_penalty, compulsory_move,
barrage_blocks_own, barrage_landing_captures]``; ``paths[seat * 63 + progress]`` is the
track square of that seat's horse at that progress (-1 off the track).
"""

from __future__ import annotations

from dicegames.core.kernel import (
    IntArray,
    array,
    borrow,
    copy,
    float_array,
    float_zeros,
    limit_of,
    njit,
    njit_inline,
    step_u32,
    zeros,
)

PLAYER, TURN, PHASE, ROLL, SIXES, WINNER, HORSES = 0, 1, 2, 3, 4, 5, 6
DRAW, ROLLING, MOVE, OVER = 0, 1, 2, 3
OUT, PASS = 0, 5
"""Action codes: 0 brings a horse out, 1..4 move horse 1..4, 5 passes."""

RANDOM, MEDIUM, HARD = 0, 1, 2
"""Policy codes."""

TRACK = 56
ENTRANCE = 56
FINAL = 62
WINNING = 59
STRIDE = 63
"""Progress values per seat in ``paths`` (0..62)."""

WAITING = -8.0
PROGRESS_WEIGHT = 0.15
CAPTURE_BONUS = 100.0
OUT_BONUS = 50.0
RISK_WEIGHT = 1.0
"""The ``hard`` bot's weights (:mod:`.heuristics`)."""

MAX_MOVES = 200_000
"""A safety cap on the moves of one game."""


def _chance(bits: int, six: bool) -> float:
    """One seat's chance to capture in :func:`.heuristics.capture_chance` when its hits at
    distances 1..12 are bits 0..11 of ``bits``: the engine's float operations, in order."""
    hits = [False, *((bits >> (d - 1)) & 1 == 1 for d in range(1, 13))]
    first = sum(hits[1:6]) / 6
    if six:
        return first + 1 / 6
    again = sum(hits[d] or hits[d + 6] for d in range(1, 6)) / 6 + hits[12] / 6
    return first + again / 6


REACHES = array([0, *(min(12, ENTRANCE - p) for p in range(1, ENTRANCE)),
                *[0] * (STRIDE - ENTRANCE)])
"""The farthest distance a horse at each progress can hit before the entrance (0 for a horse
at home or past the entrance): the range :func:`capture_chance` tests."""

CHANCES = float_array([_chance(bits, six) for six in (False, True) for bits in range(4096)])
"""One seat's capture chance by its hits (``six * 4096 + bits``): read, not recomputed, in
the playout loop (a frozen constant array under numba)."""


@njit_inline
def owner_at(players: int) -> int:
    """Index of the track's owner row (56 squares: owning seat or -1)."""
    return HORSES + 4 * players


@njit_inline
def count_at(players: int) -> int:
    """Index of the track's count row (56 squares: horses there)."""
    return HORSES + 4 * players + TRACK


def size(players: int) -> int:
    """The array length for ``players`` seats."""
    return HORSES + 4 * players + 2 * TRACK


# ------------------------------------------------------------------------ moves


@njit_inline
def _dest(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, progress: int,
          die: int) -> int:
    """:func:`.moves.destination`: the progress reached, or -1."""
    if progress == 0:
        return -1
    target = progress + die
    if target > FINAL:
        return -1
    players = cfg[0]
    own, cnt = owner_at(players), count_at(players)
    base = seat * STRIDE
    last = target - 1 if target <= ENTRANCE else ENTRANCE
    for step in range(progress + 1, last + 1):
        square = paths[base + step]
        if v[cnt + square] == 2 and (cfg[3] == 1 or v[own + square] != seat):
            return -1
    if target <= ENTRANCE:
        square = paths[base + target]
        if v[cnt + square] == 2 and (v[own + square] == seat or cfg[4] == 0):
            return -1
        return target
    for h in range(4):
        other = v[HORSES + 4 * seat + h]
        if progress < other <= target and other > ENTRANCE:
            return -1
    return target


@njit_inline
def _can_out(v: IntArray, cfg: IntArray, paths: IntArray, seat: int) -> bool:
    """:func:`.moves.can_come_out`."""
    waiting = False
    for h in range(4):
        if v[HORSES + 4 * seat + h] == 0:
            waiting = True
    if not waiting:
        return False
    players = cfg[0]
    square = paths[seat * STRIDE + 1]
    if v[count_at(players) + square] < 2:
        return True
    return bool(v[owner_at(players) + square] != seat and cfg[4] == 1)


@njit_inline
def legal_moves(v: IntArray, cfg: IntArray, paths: IntArray, codes: IntArray,
                targets: IntArray) -> int:
    """The legal action codes of the player in ``codes`` (engine order), their targets in
    ``targets`` (-1 for pass); returns how many."""
    seat = v[PLAYER]
    die = v[ROLL]
    n = 0
    if die == 6 and _can_out(v, cfg, paths, seat):
        codes[0] = OUT
        targets[0] = 1
        n = 1
    for h in range(4):
        target = _dest(v, cfg, paths, seat, v[HORSES + 4 * seat + h], die)
        if target >= 0:
            codes[n] = h + 1
            targets[n] = target
            n += 1
    if n == 0 or cfg[2] == 0:
        codes[n] = PASS
        targets[n] = -1
        n += 1
    return n


@njit_inline
def _horse_of(v: IntArray, seat: int, code: int) -> int:
    """The horse index an action code moves (out: the first horse waiting)."""
    if code != OUT:
        return code - 1
    for h in range(4):
        if v[HORSES + 4 * seat + h] == 0:
            return h
    return -1


@njit_inline
def _place(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, horse: int,
           target: int) -> None:
    """:func:`.moves.moved` in place: the horse goes to ``target``, victims go home."""
    players = cfg[0]
    own, cnt = owner_at(players), count_at(players)
    index = HORSES + 4 * seat + horse
    old = paths[seat * STRIDE + v[index]]
    if old >= 0:
        v[cnt + old] -= 1
        if v[cnt + old] == 0:
            v[own + old] = -1
    v[index] = target
    square = paths[seat * STRIDE + target]
    if square < 0:
        return
    victim = v[own + square]
    if victim >= 0 and victim != seat:
        for h in range(4):
            at = HORSES + 4 * victim + h
            if paths[victim * STRIDE + v[at]] == square:
                v[at] = 0
        v[cnt + square] = 0
    v[own + square] = seat
    v[cnt + square] += 1


@njit_inline
def _next_turn(v: IntArray, cfg: IntArray) -> None:
    v[PLAYER] = (v[PLAYER] + 1) % cfg[0]
    v[TURN] += 1
    v[PHASE] = ROLLING
    v[ROLL] = 0
    v[SIXES] = 0


@njit_inline
def apply_action(v: IntArray, cfg: IntArray, paths: IntArray, code: int) -> None:
    """The player plays action ``code`` (legal), in place."""
    seat = v[PLAYER]
    if code != PASS:
        horse = _horse_of(v, seat, code)
        target = 1 if code == OUT else v[HORSES + 4 * seat + horse] + v[ROLL]
        _place(v, cfg, paths, seat, horse, target)
        lowest = FINAL
        for h in range(4):
            lowest = min(lowest, v[HORSES + 4 * seat + h])
        if lowest >= WINNING:
            v[PHASE] = OVER
            v[ROLL] = 0
            v[SIXES] = 0
            v[WINNER] = seat
            return
    if v[ROLL] == 6:
        v[PHASE] = ROLLING
        v[ROLL] = 0
    else:
        _next_turn(v, cfg)


@njit_inline
def apply_outcome(v: IntArray, cfg: IntArray, code: int) -> None:
    """The dice show ``code`` (the first seat at the draw, else the die), in place."""
    if v[PHASE] == DRAW:
        v[PLAYER] = code
        v[TURN] = 1
        v[PHASE] = ROLLING
        return
    sixes = v[SIXES] + 1 if code == 6 else 0
    if cfg[1] == 1 and sixes == 3:
        _next_turn(v, cfg)
        return
    v[PHASE] = MOVE
    v[ROLL] = code
    v[SIXES] = sixes


# ------------------------------------------------------------------------ the bots' judgement


@njit_inline
def capture_chance(v: IntArray, cfg: IntArray, paths: IntArray, seat: int,
                   square: int) -> float:
    """:func:`.heuristics.capture_chance`, with the same float operations (the hits are
    bits of one integer here, and each seat's chance is read from :data:`CHANCES`)."""
    survive = 1.0
    players = cfg[0]
    own, cnt = owner_at(players), count_at(players)
    everyone = cfg[3] == 1  # a barrage blocks its own seat too
    for step in range(1, players):
        other = seat + step
        if other >= players:
            other -= players
        base = other * STRIDE
        hits = 0
        waiting = False
        for h in range(4):
            progress = v[HORSES + 4 * other + h]
            waiting = waiting or progress == 0
            distance = square - paths[base + progress]  # (square - from) % TRACK
            if distance < 0:
                distance += TRACK
            if 1 <= distance <= REACHES[progress]:
                free = True  # no barrage strictly between (:func:`.heuristics._blocked`)
                for j in range(progress + 1, progress + distance):
                    at = paths[base + j]
                    if v[cnt + at] == 2 and (everyone or v[own + at] != other):
                        free = False
                        break
                if free:
                    hits |= 1 << distance
        six = (hits >> 6) & 1 == 1 or (square == paths[base + 1] and waiting)
        chance = CHANCES[(4096 if six else 0) + (hits >> 1)]
        survive *= 1.0 - chance
    return 1.0 - survive


@njit_inline
def _threats(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, target: int) -> float:
    """:func:`.heuristics._threats`."""
    if target > ENTRANCE or target == 0:
        return 0.0
    square = paths[seat * STRIDE + target]
    if v[count_at(cfg[0]) + square] == 2 and cfg[4] == 0:
        return 0.0
    return capture_chance(v, cfg, paths, seat, square)


@njit_inline
def _victims(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, target: int) -> int:
    """The progress summed over the horses a move to ``target`` captures (-1: none)."""
    square = paths[seat * STRIDE + target]
    if square < 0:
        return -1
    victim = v[owner_at(cfg[0]) + square]
    if victim < 0 or victim == seat:
        return -1
    total = 0
    for h in range(4):
        progress = v[HORSES + 4 * victim + h]
        if paths[victim * STRIDE + progress] == square:
            total += progress
    return total


@njit
def _expected_loss(v: IntArray, cfg: IntArray, paths: IntArray, seat: int) -> float:
    """:func:`.heuristics.expected_loss`."""
    loss = 0.0
    cnt = count_at(cfg[0])
    for h in range(4):
        progress = v[HORSES + 4 * seat + h]
        if 0 < progress <= ENTRANCE:
            square = paths[seat * STRIDE + progress]
            if v[cnt + square] == 1 or cfg[4] == 1:
                loss += capture_chance(v, cfg, paths, seat, square) * (progress - WAITING)
    return loss


@njit_inline
def _play(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, horse: int, target: int,
          scratch: IntArray) -> None:
    """Play ``horse`` of ``seat`` to ``target`` on ``v`` itself, keeping in ``scratch`` (at
    least 8 slots) what :func:`_unplay` needs to undo it: cheaper than a copy of the whole
    state per move scored."""
    own, cnt = owner_at(cfg[0]), count_at(cfg[0])
    old = paths[seat * STRIDE + v[HORSES + 4 * seat + horse]]
    square = paths[seat * STRIDE + target]
    victim = v[own + square] if square >= 0 else -1
    if old >= 0:
        scratch[0], scratch[1] = v[own + old], v[cnt + old]
    if square >= 0:
        scratch[2], scratch[3] = v[own + square], v[cnt + square]
    if victim >= 0:
        for h in range(4):
            scratch[4 + h] = v[HORSES + 4 * victim + h]
    _place(v, cfg, paths, seat, horse, target)


@njit_inline
def _unplay(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, horse: int, before: int,
            target: int, victim: int, scratch: IntArray) -> None:
    """Undo :func:`_play` (``before``: the horse's progress before it, ``victim``: the seat
    whose horse stood on the target, or -1)."""
    own, cnt = owner_at(cfg[0]), count_at(cfg[0])
    old = paths[seat * STRIDE + before]
    square = paths[seat * STRIDE + target]
    if victim >= 0:
        for h in range(4):
            v[HORSES + 4 * victim + h] = scratch[4 + h]
    if square >= 0:
        v[own + square], v[cnt + square] = scratch[2], scratch[3]
    if old >= 0:
        v[own + old], v[cnt + old] = scratch[0], scratch[1]
    v[HORSES + 4 * seat + horse] = before


@njit_inline
def _medium_base(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, code: int,
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
def _victim_at(v: IntArray, cfg: IntArray, paths: IntArray, seat: int, target: int) -> int:
    square = paths[seat * STRIDE + target]
    return v[owner_at(cfg[0]) + square] if square >= 0 else -1


@njit_inline
def score_moves(v: IntArray, cfg: IntArray, paths: IntArray, policy: int, codes: IntArray,
                targets: IntArray, n: int, scratch: IntArray, scores: IntArray) -> None:
    """The ``medium`` (:func:`.heuristics.heuristic_scores`) or ``hard``
    (:func:`.heuristics.hard_scores`) score of each legal move but pass, in ``scores``.

    Each move is played on ``v`` itself and undone (``v`` is as it was on return)."""
    seat = v[PLAYER]
    base = _expected_loss(v, cfg, paths, seat) if policy == HARD else 0.0
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
            _play(v, cfg, paths, seat, horse, target, scratch)
            score = PROGRESS_WEIGHT * target
            if victims >= 0:
                score += CAPTURE_BONUS + victims / 2
            if code == OUT:
                score += OUT_BONUS
            score += RISK_WEIGHT * (base - _expected_loss(v, cfg, paths, seat))
        else:
            score = _medium_base(v, cfg, paths, seat, code, before, target)
            exposed = _threats(v, cfg, paths, seat, before)
            _play(v, cfg, paths, seat, horse, target, scratch)
            score -= 80 * _threats(v, cfg, paths, seat, target)
            score += 40 * exposed
        scores[i] = score
        _unplay(v, cfg, paths, seat, horse, before, target, victim, scratch)


@njit_inline
def _best_medium(v: IntArray, cfg: IntArray, paths: IntArray, codes: IntArray,
                 targets: IntArray, n: int, scratch: IntArray, scores: IntArray) -> int:
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
        _play(v, cfg, paths, seat, horse, target, scratch)
        score = base - 80 * _threats(v, cfg, paths, seat, target)
        _unplay(v, cfg, paths, seat, horse, before, target, victim, scratch)
        score += 40 * exposed
        if best < 0 or score > best_score or (score == best_score and top < best):
            best, best_score = top, score
    return best


@njit_inline
def choose(v: IntArray, cfg: IntArray, paths: IntArray, policy: int, whims: IntArray,
           codes: IntArray, targets: IntArray, n: int, scratch: IntArray,
           scores: IntArray) -> int:
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


# ------------------------------------------------------------------------ whole games


@njit
def run(v: IntArray, cfg: IntArray, paths: IntArray, policies: IntArray, dice: IntArray,
        whims: IntArray, scratch: IntArray, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends (or the horizon); the moves applied.

    The generators stay in local variables (see :func:`~dicegames.core.kernel.step_u32`);
    a draw is :func:`~dicegames.core.kernel.below`'s: the die, the first player, a random
    policy's choice among the legal moves.
    """
    return _run(borrow(v), borrow(cfg), borrow(paths), borrow(policies), borrow(dice),
                borrow(whims),
                borrow(scratch), zeros(6), zeros(6), float_zeros(6), stop_seat, stop_turns)


@njit
def _run(v: IntArray, cfg: IntArray, paths: IntArray, policies: IntArray, dice: IntArray,
         whims: IntArray, scratch: IntArray, codes: IntArray, targets: IntArray,
         scores: IntArray, stop_seat: int, stop_turns: int) -> int:
    """:func:`run` over borrowed arrays (see :func:`~dicegames.core.kernel.borrow`) and
    scratch lists for the legal moves, their targets and scores."""
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
    owned = copy(start)
    owned_scratch = copy(start)
    owned_lists = zeros(12)
    owned_scores = float_zeros(6)
    v, scratch, cfg, paths = borrow(owned), borrow(owned_scratch), borrow(cfg), borrow(paths)
    codes, targets = borrow(owned_lists[:6]), borrow(owned_lists[6:])
    scores_of = borrow(owned_scores)
    for g in range(games):
        for j in range(len(start)):
            v[j] = start[j]
        moves[g] = _run(v, cfg, paths, borrow(policies), borrow(dice), borrow(whims), scratch,
                        codes, targets, scores_of, -1, 0)
        turns[g] = v[TURN]
        for seat in range(players):
            winners[g * players + seat] = 1 if v[WINNER] == seat else 0
            stabled = 0
            for h in range(4):
                if v[HORSES + 4 * seat + h] > ENTRANCE:
                    stabled += 1
            scores[g * players + seat] = stabled
    # the owners of the borrowed views live to here
    owned[0] = owned_scratch[0] + owned_lists[0] + int(owned_scores[0])
