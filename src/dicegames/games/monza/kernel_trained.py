"""Monza's ``trained`` level in the kernel: ``hard``'s score plus learned weights times what
the move leaves on the circuit.

``hard`` (:mod:`.kernel_hard`) scores each end of a move by the race value expected after
the **next** player's reply. With three to six players that is one reply of several before
the car moves again: the players further round the table may push it back too, and hard
does not look at them. :data:`.trained.FEATURE_NAMES` measures, on the cars after the move:

- ``exposure``: the chance, summed over the players after the next one (those who still
  move before this car does), that their ``medium`` move with a fresh roll ends on this
  car's square and pushes it back (exact over the 462 rolls, on the cars as they are now);
- ``exposure_loss``: the same chances times the steps to a target the push would cost,
  in tens of steps;
- ``exposure_value``: the same chances times the race value (:func:`.kernel_hard._race`)
  the push would cost: what hard's score would lose if it weighed those players' pushes
  as it weighs the next player's;
- ``race_now``: the race value at once (:func:`.kernel_hard._race`), before any reply;
- ``pushed``: the steps to a target the move's push costs the car pushed back, in tens;
- ``used``: the dice used, in sixths;
- ``gain``: the steps to a target the move gains, in tens;
- ``lead``: the car's lead in steps to a target over the best opponent, in tens.

A target end keeps hard's score (a target all but wins); any other end scores hard's value
plus ``weights · features``, so zero weights play ``hard`` exactly. The weights are fitted
by ``scripts/train_monza.py`` (the cross-entropy method over whole kernel games against
``hard``) and ship in ``trained_weights.json`` (:mod:`.trained`); the kernel takes them
behind the 462 roll probabilities in the hard tables' float array (:func:`trained_tables`).

There is one implementation: the engine's ``trained`` bot asks this kernel for its move
(:func:`.trained.trained_policy`).
"""

from __future__ import annotations

from collections.abc import Sequence

from dicegames.core.kernel import FloatArray, IntArray, float_array, njit_uncounted
from dicegames.games.monza.kernel_hard import (
    NROLLS,
    OTHERS,
    _medium_reply,
    _push_back,
    _race,
    _reply,
)
from dicegames.games.monza.kernel_rules import (
    CARS,
    FINISHING,
    O_STF,
    O_TARGET,
    PLAYER,
    PLAYERS,
    SQUARES,
    Tables,
    _dice_code,
    _steps,
    best_medium,
    ends_of,
    medium_key,
)
from dicegames.games.monza.trained import FEATURE_NAMES

FEATURES = len(FEATURE_NAMES)
"""The number of features (and of weights)."""


def trained_tables(hard: Tables, learned: Sequence[float]) -> Tables:
    """The hard tables ``hard`` with the learned weights appended to the roll
    probabilities (``weights[NROLLS:]``; the hard rule reads only the first 462)."""
    rolls = [float(w) for w in hard.weights[:NROLLS]]
    return hard._replace(weights=float_array([*rolls, *(float(w) for w in learned)]))


@njit_uncounted
def _steps_at(t: IntArray, car: int) -> int:
    """Steps to a target from ``car`` (-1: the start zone)."""
    return int(t[t[O_STF] + (t[SQUARES] if car < 0 else car)])


@njit_uncounted
def _exposure(t: IntArray, chances: FloatArray, weights: FloatArray, rolls: IntArray,
              replies: IntArray, cars: IntArray, players: int, seat: int, finishing: int,
              stamps: IntArray, stack: IntArray, found: IntArray) -> tuple[float, float, float]:
    """Summed over the players after the next one who move before ``seat`` again, the
    chance that their medium move ends on ``seat``'s car and pushes it back: alone, times
    the steps to a target lost / 10, and times the race value lost (the cars in
    ``cars[:players]``; ``cars[OTHERS:]`` is scratch)."""
    mine = cars[seat]
    if mine < 0 or t[t[O_TARGET] + mine] == 1:
        return 0.0, 0.0, 0.0
    chance = 0.0
    loss = 0.0
    value = 0.0
    before = -1.0
    for d in range(2, players):
        j = (seat + d) % players
        if finishing == 1 and j < seat:
            continue  # the finishing round ends before they move
        car = cars[j]
        if car >= 0 and t[t[O_TARGET] + car] == 1:
            continue
        p = 0.0
        for r in range(NROLLS):
            end = _medium_reply(t, replies, cars, players, j, r)
            if end == -2:
                count = ends_of(t, car, rolls[r], stamps, stack, found)
                end = car
                if count > 0:
                    end = found[3 * best_medium(t, cars, 0, players, j, found, 0, count)]
            if end == mine:
                p += weights[r]
        if p > 0.0:
            for k in range(players):
                cars[OTHERS + k] = cars[k]
            cars[OTHERS + j] = mine
            _push_back(t, cars, OTHERS, players, j)
            lost = _steps_at(t, cars[OTHERS + seat]) - _steps_at(t, mine)
            if before < 0.0:
                before = _race(t, chances, cars, 0, players, seat, seat)
            chance += p
            loss += p * lost / 10
            value += p * (before - _race(t, chances, cars, OTHERS, players, seat, seat))
    return chance, loss, value


@njit_uncounted
def _learned(t: IntArray, chances: FloatArray, weights: FloatArray, rolls: IntArray,
             replies: IntArray, s: IntArray, cars: IntArray, players: int, seat: int,
             end: int, used: int, stamps: IntArray, stack: IntArray,
             found: IntArray) -> float:
    """``weights · features`` of ending the move on ``end`` (a square that is no target)
    after ``used`` dice, the cars after the move (and its push) in ``cars[:players]``."""
    chance, loss, value = _exposure(t, chances, weights, rolls, replies, cars, players, seat,
                                    s[FINISHING], stamps, stack, found)
    race_now = _race(t, chances, cars, 0, players, seat, seat)
    pushed = 0
    for other in range(players):
        if other != seat and cars[other] != s[CARS + other]:
            pushed = _steps_at(t, cars[other]) - _steps_at(t, s[CARS + other])
    best = -1
    for other in range(players):
        if other != seat and (best < 0 or _steps_at(t, cars[other]) < best):
            best = _steps_at(t, cars[other])
    mine = _steps_at(t, end)
    features = (chance, loss, value, race_now, pushed / 10, used / 6,
                (_steps_at(t, s[CARS + seat]) - mine) / 10, (best - mine) / 10)
    total = 0.0
    for k in range(len(features)):
        total += weights[NROLLS + k] * features[k]
    return total


@njit_uncounted
def trained_step(s: IntArray, t: IntArray, chances: FloatArray, weights: FloatArray,
                 rolls: IntArray, replies: IntArray, legal: IntArray, stamps: IntArray,
                 stack: IntArray, found: IntArray, reply: IntArray, cars: IntArray,
                 memo: FloatArray, stamp: IntArray) -> int:
    """The trained rule's step: :func:`.kernel_hard.hard_step` with ``weights · features``
    added to the score of every end that is no target (the learned weights in
    ``weights[NROLLS:]``); ties as hard breaks them."""
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
            else:
                if s[FINISHING] == 1 and seat == players - 1:
                    value = _race(t, chances, cars, 0, players, seat, seat)
                else:
                    value = _reply(t, chances, weights, rolls, replies, cars, players, seat,
                                   replier, stamps, stack, reply, memo, stamp)
                value += _learned(t, chances, weights, rolls, replies, s, cars, players,
                                  seat, end, used, stamps, stack, reply)
            key = medium_key(t, s, CARS, players, seat, end, used)
            if index == 0 or value > best_value or (value == best_value and (
                    key > best_key or (key == best_key and (
                        end < found[3 * best] or (end == found[3 * best]
                                                  and used < found[3 * best + 1]))))):
                best, best_value, best_key = index, value, key
    _steps(t, here, dice, legal, 0)
    return int(legal[found[3 * best + 2]])


__all__ = ["FEATURES", "trained_step", "trained_tables"]
