"""Petits Chevaux's rules over an integer array, compiled by numba when present.

The array layout, the codes and the policies are described in :mod:`.kernel`; this module is
:mod:`.moves` and :mod:`.rules` restated over the array, with the track's occupancy kept
incrementally. The bots' judgement is in :mod:`.kernel_bots`, whole games in
:mod:`.kernel_play`.

``cfg`` is the configuration (:class:`Options`: the player count and the rule options);
``paths[seat * 63 + progress]`` is the track square of that seat's horse at that progress
(-1 off the track).
"""

from __future__ import annotations

from typing import NamedTuple

from dicegames.core.kernel import (
    IntArray,
    njit_inline,
)

PLAYER, TURN, PHASE, ROLL, SIXES, WINNER, HORSES = 0, 1, 2, 3, 4, 5, 6
"""Slots of the state array (the horses' progress from ``HORSES``, then the track's rows)."""

DRAW, ROLLING, MOVE, OVER = 0, 1, 2, 3
"""Phase codes, :class:`~.data.Phase`'s values."""

OUT, PASS = 0, 5
"""Action codes: 0 brings a horse out, 1..4 move horse 1..4, 5 passes."""

RANDOM, MEDIUM, HARD, TRAINED = 0, 1, 2, 3
"""Policy codes."""

TRACK = 56
ENTRANCE = 56
FINAL = 62
WINNING = 59
STRIDE = 63
"""Progress values per seat in ``paths`` (0..62)."""


class Options(NamedTuple):
    """The configured game as the compiled rules read it (numba passes it by value)."""

    players: int
    """Seats in the game, 2 to 4."""
    three_sixes_penalty: bool
    """A third 6 in a row ends the turn."""
    compulsory_move: bool
    """A player who can move may not pass."""
    barrage_blocks_own: bool
    """A barrage stops its own colour's horses too."""
    barrage_landing_captures: bool
    """A horse may land on an opposing barrage and capture it."""


@njit_inline
def owner_at(players: int) -> int:
    """Index of the track's owner row (56 squares: owning seat or -1)."""
    return HORSES + 4 * players


@njit_inline
def count_at(players: int) -> int:
    """Index of the track's count row (56 squares: horses there)."""
    return HORSES + 4 * players + TRACK


@njit_inline
def reach_at(players: int) -> int:
    """Index of the reach row (one mask a seat: bit ``56 - p`` set when one of its horses
    stands at progress ``p``, 1 to 55, where it can still hit a horse ahead)."""
    return HORSES + 4 * players + 2 * TRACK


@njit_inline
def barrages_at(players: int) -> int:
    """Index of the barrage row (one mask a seat: bit ``square`` set for each track square
    where two of its horses stand)."""
    return HORSES + 5 * players + 2 * TRACK


def size(players: int) -> int:
    """The array length for ``players`` seats."""
    return HORSES + 6 * players + 2 * TRACK


@njit_inline
def any_barrage(v: IntArray, players: int) -> bool:
    """Whether a barrage stands anywhere on the track."""
    at = barrages_at(players)
    found = 0
    for seat in range(players):
        found |= v[at + seat]
    return found != 0


# ------------------------------------------------------------------------ moves


@njit_inline
def _dest(v: IntArray, cfg: Options, paths: IntArray, seat: int, progress: int,
          die: int, blocked: bool) -> int:
    """:func:`.moves.destination`: the progress reached, or -1 (``blocked``: whether a
    barrage stands anywhere, see :func:`any_barrage`)."""
    if progress == 0:
        return -1
    target = progress + die
    if target > FINAL:
        return -1
    players = cfg.players
    own, cnt = owner_at(players), count_at(players)
    base = seat * STRIDE
    last = target - 1 if target <= ENTRANCE else ENTRANCE
    if blocked:
        for step in range(progress + 1, last + 1):
            square = paths[base + step]
            if v[cnt + square] == 2 and (cfg.barrage_blocks_own or v[own + square] != seat):
                return -1
    if target <= ENTRANCE:
        square = paths[base + target]
        if v[cnt + square] == 2 and (v[own + square] == seat or not cfg.barrage_landing_captures):
            return -1
        return target
    for h in range(4):
        other = v[HORSES + 4 * seat + h]
        if progress < other <= target and other > ENTRANCE:
            return -1
    return target


@njit_inline
def _can_out(v: IntArray, cfg: Options, paths: IntArray, seat: int) -> bool:
    """:func:`.moves.can_come_out`."""
    waiting = False
    for h in range(4):
        if v[HORSES + 4 * seat + h] == 0:
            waiting = True
    if not waiting:
        return False
    players = cfg.players
    square = paths[seat * STRIDE + 1]
    if v[count_at(players) + square] < 2:
        return True
    return bool(v[owner_at(players) + square] != seat and cfg.barrage_landing_captures)


@njit_inline
def legal_moves(v: IntArray, cfg: Options, paths: IntArray, codes: IntArray,
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
    blocked = any_barrage(v, cfg.players)
    for h in range(4):
        target = _dest(v, cfg, paths, seat, v[HORSES + 4 * seat + h], die, blocked)
        if target >= 0:
            codes[n] = h + 1
            targets[n] = target
            n += 1
    if n == 0 or not cfg.compulsory_move:
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
def _place(v: IntArray, cfg: Options, paths: IntArray, seat: int, horse: int,
           target: int) -> None:
    """:func:`.moves.moved` in place: the horse goes to ``target``, victims go home (the
    occupancy, reach and barrage rows follow)."""
    players = cfg.players
    own, cnt = owner_at(players), count_at(players)
    reach, barrages = reach_at(players), barrages_at(players)
    index = HORSES + 4 * seat + horse
    before = v[index]
    old = paths[seat * STRIDE + before]
    if old >= 0:
        if v[cnt + old] == 2:
            v[barrages + seat] &= ~(1 << old)
        v[cnt + old] -= 1
        if v[cnt + old] == 0:
            v[own + old] = -1
            if before < ENTRANCE:
                v[reach + seat] &= ~(1 << (ENTRANCE - before))
    v[index] = target
    square = paths[seat * STRIDE + target]
    if square < 0:
        return
    victim = v[own + square]
    if victim >= 0 and victim != seat:
        for h in range(4):
            at = HORSES + 4 * victim + h
            progress = v[at]
            if paths[victim * STRIDE + progress] == square:
                v[at] = 0
                if progress < ENTRANCE:
                    v[reach + victim] &= ~(1 << (ENTRANCE - progress))
        v[barrages + victim] &= ~(1 << square)
        v[cnt + square] = 0
    v[own + square] = seat
    v[cnt + square] += 1
    if target < ENTRANCE:
        v[reach + seat] |= 1 << (ENTRANCE - target)
    if v[cnt + square] == 2:
        v[barrages + seat] |= 1 << square


@njit_inline
def _next_turn(v: IntArray, cfg: Options) -> None:
    v[PLAYER] = (v[PLAYER] + 1) % cfg.players
    v[TURN] += 1
    v[PHASE] = ROLLING
    v[ROLL] = 0
    v[SIXES] = 0


@njit_inline
def apply_action(v: IntArray, cfg: Options, paths: IntArray, code: int) -> None:
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
def apply_outcome(v: IntArray, cfg: Options, code: int) -> None:
    """The dice show ``code`` (the first seat at the draw, else the die), in place."""
    if v[PHASE] == DRAW:
        v[PLAYER] = code
        v[TURN] = 1
        v[PHASE] = ROLLING
        return
    sixes = v[SIXES] + 1 if code == 6 else 0
    if cfg.three_sixes_penalty and sixes == 3:
        _next_turn(v, cfg)
        return
    v[PHASE] = MOVE
    v[ROLL] = code
    v[SIXES] = sixes

