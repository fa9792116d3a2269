"""Monza's ``hard`` rule in the kernel: :func:`.heuristics.hard_policy`, float for float.

The engine's hard bot scores each end of its move (:func:`.heuristics.hard_value`): a target
is worth ``2 - dice used / 100``; otherwise the race value (:func:`.race.win_chance`, over the
lone cars' finish chances) expected after the next player's reply, exact over that player's
462 rolls with the reply chosen by the ``medium`` rule, or the race value at once when the
finishing round ends with this move. The best score wins, then the medium rule's key, then
the smallest (end, dice used); the step taken is the first legal step that still leads there.

:func:`hard_step` computes the same values with the same float operations in the same order
(the rolls in :data:`.rules.ROLLS` order, the seats in seat order), so it picks the engine's
step to the last bit. Its tables (:func:`hard_tables`) are the engine's own numbers: the
finish chances of :func:`.race.finish_chances` and the rolls' float probabilities of
:data:`.race.ROLL_WEIGHTS`, built when a hard policy first plays.
"""

from __future__ import annotations

from dicegames.core.kernel import (
    FloatArray,
    IntArray,
    array,
    float_array,
    njit_inline,
    njit_uncounted,
    zeros,
)
from dicegames.games.monza.kernel_rules import (
    CARS,
    DEPTH,
    FINISHING,
    MULTISETS,
    O_LANE,
    O_PROGRESS,
    O_STF,
    O_TARGET,
    O_TYRE,
    PLAYER,
    PLAYERS,
    POW7,
    SQUARES,
    WIDTH,
    _dice_code,
    _steps,
    best_medium,
    ends_of,
    medium_key,
)
from dicegames.games.monza.race import HORIZON, ROLL_WEIGHTS, finish_chances
from dicegames.games.monza.rules import MonzaRules

ROW = HORIZON + 1
"""Floats per position in the finish-chance table."""

OTHERS = 8
"""Where the second car array (a reply's cars) starts in the cars scratch."""

NROLLS = 462
"""The rolls of six dice over six colours (:data:`.rules.ROLLS`)."""

GROUP = 6
"""Ends kept per position and roll in the reply table (a larger tie is searched again)."""

SLOT = 1 + 2 * GROUP
"""Ints per position and roll in the reply table: the count, then (end, dice used) pairs."""


def hard_tables(game: MonzaRules, t: IntArray) -> tuple[FloatArray, FloatArray, IntArray,
                                                        IntArray]:
    """The hard rule's tables for a game whose kernel table is ``t``: the finish chances
    (the start zone last), the rolls' float probabilities, the rolls' dice as base-7 codes
    and the reply table of :func:`_fill_replies` (see :class:`.kernel_rules.Tables`)."""
    table = finish_chances(game.circuit, game.longest_rule)
    rolls = array([sum(n * POW7[c] for c, n in enumerate(counts))
                   for counts, _ in ROLL_WEIGHTS])
    squares = len(game.circuit.squares)
    replies = zeros((squares + 1) * NROLLS * SLOT)
    _fill_replies(t, rolls, replies, zeros((squares + 1) * MULTISETS + squares * DEPTH + 1),
                  zeros(3 * DEPTH + DEPTH * t[WIDTH]), zeros(3 * squares * DEPTH))
    return (float_array([p for row in table for p in row]),
            float_array([weight for _, weight in ROLL_WEIGHTS]), rolls, replies)


@njit_uncounted
def _fill_replies(t: IntArray, rolls: IntArray, replies: IntArray, stamps: IntArray,
                  stack: IntArray, found: IntArray) -> None:
    """For every position (the start zone as ``squares``) and roll, the ends of a move that
    the medium rule may pick whatever the other cars: those best on its first two keys
    (fewest steps to a target; on a target, fewest dice). Cars only decide the third key
    (pushing a car back), so the medium end among them is the best by (pushes, progress),
    then the smallest (end, used). Count 0: no step is legal; -1: more than :data:`GROUP`."""
    squares = t[SQUARES]
    target, stf = t[O_TARGET], t[O_STF]
    for p in range(squares + 1):
        position = -1 if p == squares else p
        for r in range(NROLLS):
            slot = (p * NROLLS + r) * SLOT
            count = ends_of(t, position, rolls[r], stamps, stack, found)
            best = (0, 0)
            for k in range(count):
                end, used = found[3 * k], found[3 * k + 1]
                key = (-t[stf + end], -used if t[target + end] == 1 else 0)
                if k == 0 or key > best:
                    best = key
            kept = 0
            for k in range(count):
                end, used = found[3 * k], found[3 * k + 1]
                if (-t[stf + end], -used if t[target + end] == 1 else 0) == best:
                    if kept < GROUP:
                        replies[slot + 1 + 2 * kept] = end
                        replies[slot + 2 + 2 * kept] = used
                    kept += 1
            replies[slot] = kept if kept <= GROUP else -1


@njit_inline
def _medium_reply(t: IntArray, replies: IntArray, cars: IntArray, players: int, replier: int,
                  roll: int) -> int:
    """The end the medium rule picks for ``replier`` with roll ``roll`` from the reply table
    (see :func:`_fill_replies`); -2 when the table does not hold it."""
    car = cars[replier]
    squares = t[SQUARES]
    slot = ((squares if car < 0 else car) * NROLLS + roll) * SLOT
    count = replies[slot]
    if count <= 0:
        return car if count == 0 else -2
    target, progress = t[O_TARGET], t[O_PROGRESS]
    best_end, best_used, best_key = 0, 0, (0, 0)
    for k in range(count):
        end, used = replies[slot + 1 + 2 * k], replies[slot + 2 + 2 * k]
        pushes = 0
        if t[target + end] == 0:
            for other in range(players):
                if other != replier and cars[other] == end:
                    pushes = 1
        key = (pushes, t[progress + end])
        if k == 0 or key > best_key or (key == best_key and (
                end < best_end or (end == best_end and used < best_used))):
            best_end, best_used, best_key = end, used, key
    return best_end


@njit_uncounted
def _race(t: IntArray, chances: FloatArray, cars: IntArray, at: int, players: int, seat: int,
          mover: int) -> float:
    """:func:`.race.win_chance`: ``seat``'s chance to win, ``mover`` having just moved."""
    squares = t[SQUARES]
    mine_car = cars[at + seat]
    mine = (squares if mine_car < 0 else mine_car) * ROW
    mine_shift = 0 if seat > mover else 1
    total = 0.0
    previous = 0.0
    for r in range(HORIZON):
        now = chances[mine + min(HORIZON, r + 1 - mine_shift)]
        arrive = now - previous
        previous = now
        if arrive <= 0.0:
            continue
        share = 1.0
        for j in range(players):
            if j != seat:
                car = cars[at + j]
                row = (squares if car < 0 else car) * ROW
                shift = 0 if j > mover else 1
                before = chances[row + min(HORIZON, r - shift)] if r else 0.0
                share *= 1.0 - before - 0.5 * (chances[row + min(HORIZON, r + 1 - shift)]
                                               - before)
        total += arrive * share
    return total


@njit_uncounted
def _push_back(t: IntArray, cars: IntArray, at: int, players: int, seat: int) -> None:
    """:meth:`.rules.MonzaRules.push_back` on ``cars[at:at + players]``, in place."""
    square = cars[at + seat]
    if square < 0 or t[t[O_TARGET] + square] == 1:
        return
    tyre = t[O_TYRE]
    for other in range(players):
        if other != seat and cars[at + other] == square:
            behind = -1
            for j in range(square - 1, t[t[O_LANE] + square] - 1, -1):
                if t[tyre + j] == 0:
                    held = False
                    for k in range(players):
                        if cars[at + k] == j:
                            held = True
                    if not held:
                        behind = j
                        break
            cars[at + other] = behind
            return


@njit_uncounted
def _reply(t: IntArray, chances: FloatArray, weights: FloatArray, rolls: IntArray,
           replies: IntArray, cars: IntArray, players: int, seat: int, replier: int,
           stamps: IntArray, stack: IntArray, found: IntArray, memo: FloatArray,
           stamp: IntArray) -> float:
    """:func:`.heuristics.reply_value`: ``seat``'s race value expected after ``replier``
    rolls and moves by the medium rule (the cars in ``cars[:players]``).

    The reply's end comes from the reply table (:func:`_medium_reply`), or a search where
    the table does not hold it. The race value after the reply depends only on where the reply ends,
    so it is computed once per end square (``memo``, valid where ``stamp`` holds this call's
    generation, kept in its last slot) and summed in roll order, as the engine sums it."""
    car = cars[replier]
    if car >= 0 and t[t[O_TARGET] + car] == 1:
        return _race(t, chances, cars, 0, players, seat, replier)
    squares = t[SQUARES]
    gen = stamp[len(stamp) - 1] + 1
    stamp[len(stamp) - 1] = gen
    total = 0.0
    for r in range(len(rolls)):
        end = _medium_reply(t, replies, cars, players, replier, r)
        if end == -2:
            count = ends_of(t, car, rolls[r], stamps, stack, found)
            end = car
            if count > 0:
                end = found[3 * best_medium(t, cars, 0, players, replier, found, 0, count)]
        p = squares if end < 0 else end
        if stamp[p] != gen:
            for k in range(players):
                cars[OTHERS + k] = cars[k]
            cars[OTHERS + replier] = end
            _push_back(t, cars, OTHERS, players, replier)
            memo[p] = _race(t, chances, cars, OTHERS, players, seat, replier)
            stamp[p] = gen
        total += weights[r] * memo[p]
    return total


@njit_uncounted
def hard_step(s: IntArray, t: IntArray, chances: FloatArray, weights: FloatArray,
              rolls: IntArray, replies: IntArray, legal: IntArray, stamps: IntArray,
              stack: IntArray, found: IntArray, reply: IntArray, cars: IntArray,
              memo: FloatArray, stamp: IntArray) -> int:
    """The hard rule's step (:func:`.heuristics.hard_policy` in the step phase): the end of
    the best score (:func:`.heuristics.hard_value`), then the best medium key, then the
    smallest (end, used); the first legal step towards it. ``found`` holds the mover's
    ends, ``reply`` a reply's where the reply table does not hold it."""
    seat = s[PLAYER]
    players = s[PLAYERS]
    replier = (seat + 1) % players
    here, dice = s[CARS + seat], _dice_code(s)
    count = ends_of(t, here, dice, stamps, stack, found)
    best = 0
    if count > 1:
        best_value = 0.0
        best_key = (0, 0, 0, 0)
        for index in range(count):
            end, used = found[3 * index], found[3 * index + 1]
            for k in range(players):
                cars[k] = s[CARS + k]
            cars[seat] = end
            _push_back(t, cars, 0, players, seat)
            if end >= 0 and t[t[O_TARGET] + end] == 1:
                value = 2.0 - used / 100
            elif s[FINISHING] == 1 and seat == players - 1:
                value = _race(t, chances, cars, 0, players, seat, seat)
            else:
                value = _reply(t, chances, weights, rolls, replies, cars, players, seat,
                               replier, stamps, stack, reply, memo, stamp)
            key = medium_key(t, s, CARS, players, seat, end, used)
            if index == 0 or value > best_value or (value == best_value and (
                    key > best_key or (key == best_key and (
                        end < found[3 * best] or (end == found[3 * best]
                                                  and used < found[3 * best + 1]))))):
                best, best_value, best_key = index, value, key
    _steps(t, here, dice, legal, 0)
    return int(legal[found[3 * best + 2]])


__all__ = ["DEPTH", "NROLLS", "OTHERS", "hard_step", "hard_tables"]
