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

from dicegames.core.kernel import FloatArray, IntArray, array, float_array, njit_uncounted
from dicegames.games.monza.kernel_rules import (
    CARS,
    DEPTH,
    FINISHING,
    O_LANE,
    O_TARGET,
    O_TYRE,
    PLAYER,
    PLAYERS,
    POW7,
    SQUARES,
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


def hard_tables(game: MonzaRules) -> tuple[FloatArray, FloatArray, IntArray]:
    """The hard rule's tables: the finish chances (the start zone last), the rolls' float
    probabilities and the rolls' dice as base-7 codes (see :class:`.kernel_rules.Tables`)."""
    table = finish_chances(game.circuit, game.longest_rule)
    return (float_array([p for row in table for p in row]),
            float_array([weight for _, weight in ROLL_WEIGHTS]),
            array([sum(n * POW7[c] for c, n in enumerate(counts))
                   for counts, _ in ROLL_WEIGHTS]))


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
           cars: IntArray, players: int, seat: int, replier: int, stamps: IntArray,
           stack: IntArray, found: IntArray) -> float:
    """:func:`.heuristics.reply_value`: ``seat``'s race value expected after ``replier``
    rolls and moves by the medium rule (the cars in ``cars[:players]``)."""
    car = cars[replier]
    if car >= 0 and t[t[O_TARGET] + car] == 1:
        return _race(t, chances, cars, 0, players, seat, replier)
    total = 0.0
    for r in range(len(rolls)):
        count = ends_of(t, car, rolls[r], stamps, stack, found)
        end = car
        if count > 0:
            end = found[3 * best_medium(t, cars, 0, players, replier, found, count)]
        for k in range(players):
            cars[OTHERS + k] = cars[k]
        cars[OTHERS + replier] = end
        _push_back(t, cars, OTHERS, players, replier)
        total += weights[r] * _race(t, chances, cars, OTHERS, players, seat, replier)
    return total


@njit_uncounted
def _hard_value(s: IntArray, t: IntArray, chances: FloatArray, weights: FloatArray,
                rolls: IntArray, end: int, used: int, cars: IntArray, stamps: IntArray,
                stack: IntArray, found: IntArray) -> float:
    """:func:`.heuristics.hard_value` of ending the mover's move on ``end`` after ``used``
    dice."""
    players = s[PLAYERS]
    seat = s[PLAYER]
    for k in range(players):
        cars[k] = s[CARS + k]
    cars[seat] = end
    _push_back(t, cars, 0, players, seat)
    if end >= 0 and t[t[O_TARGET] + end] == 1:
        return 2.0 - used / 100
    if s[FINISHING] == 1 and seat == players - 1:
        return _race(t, chances, cars, 0, players, seat, seat)
    return _reply(t, chances, weights, rolls, cars, players, seat, (seat + 1) % players,
                  stamps, stack, found)


@njit_uncounted
def hard_step(s: IntArray, t: IntArray, chances: FloatArray, weights: FloatArray,
              rolls: IntArray, legal: IntArray, stamps: IntArray, stack: IntArray,
              found: IntArray, reply: IntArray, cars: IntArray) -> int:
    """The hard rule's step (:func:`.heuristics.hard_policy` in the step phase): the end of
    the best score, then the best medium key, then the smallest (end, used); the first legal
    step towards it. ``found`` holds the mover's ends, ``reply`` each reply's."""
    seat = s[PLAYER]
    players = s[PLAYERS]
    here, dice = s[CARS + seat], _dice_code(s)
    count = ends_of(t, here, dice, stamps, stack, found)
    best = 0
    if count > 1:
        best_value = 0.0
        best_key = (0, 0, 0, 0)
        for index in range(count):
            end, used = found[3 * index], found[3 * index + 1]
            value = _hard_value(s, t, chances, weights, rolls, end, used, cars, stamps, stack,
                                reply)
            key = medium_key(t, s, CARS, players, seat, end, used)
            if index == 0 or value > best_value or (value == best_value and (
                    key > best_key or (key == best_key and (
                        end < found[3 * best] or (end == found[3 * best]
                                                  and used < found[3 * best + 1]))))):
                best, best_value, best_key = index, value, key
    _steps(t, here, dice, legal, 0)
    return int(legal[found[3 * best + 2]])


__all__ = ["DEPTH", "hard_step", "hard_tables"]
