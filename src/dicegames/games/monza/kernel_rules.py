"""Monza's rules over integer arrays: the tables, the state array and the moves.

The part of Monza's kernel that the policies build on (:mod:`.kernel` plays whole games and
holds the ``random`` and ``medium`` rules, :mod:`.kernel_hard` the ``hard`` one); the layout
of the tables, the state array and the codes is described in :mod:`.kernel`.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

from dicegames.core.kernel import (
    FloatArray,
    IntArray,
    array,
    copy,
    float_array,
    njit_inline,
    njit_uncounted,
)
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import DICE, START, Phase
from dicegames.games.monza.rules import ROLLS, MonzaRules

(PHASE, PLAYER, TURN, USED, LAST, FINISHING, ROLLED, PLAYERS, DICE_AT, ROLL_AT,
 CARS) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 14, 20)
"""Slots of the state array (then the cars, the dice used this round, the winner flags)."""

ROLL, STEP, STUCK, VARIANT, OVER = (int(p) for p in Phase)
"""Phase codes, :class:`~.data.Phase`'s values."""

MAX_MOVES = 1_000_000
"""A safety cap on the moves of one game in the kernel."""

MULTISETS = 924
"""Multisets of at most six dice over six colours: the columns of the longest table."""

POW7 = (1, 7, 49, 343, 2401, 16807, 117649)
"""Dice as a base-7 number of colour counts: a die of colour c weighs ``7 ** c``."""


ROLL_INDEX = {roll.counts: index for index, (roll, _) in enumerate(ROLLS)}
"""The index in :data:`.rules.ROLLS` of each roll's colour counts."""


(SQUARES, NPLAYERS, COMPULSION, VARIANT_ON, WIDTH, O_COLOUR, O_TARGET, O_TYRE, O_LANE,
 O_NSUCC, O_SUCC, O_STF, O_PROGRESS, O_RANK, O_POW7, O_CODES, O_LONGEST, HEADER) = range(18)
"""The header of the flat table: squares, players, compulsion, variant, successor width,
then where each table starts in the same array."""


def _ranks() -> list[int]:
    """The rank (0..923, by number of dice) of every base-7 dice code, -1 for none."""
    counts = sorted((c for c in product(range(DICE + 1), repeat=DICE) if sum(c) <= DICE),
                    key=lambda c: (sum(c), c))
    rank = [-1] * POW7[DICE]
    for index, c in enumerate(counts):
        rank[sum(n * POW7[i] for i, n in enumerate(c))] = index
    return rank


@cache
def circuit_tables(circuit: Circuit) -> IntArray:
    """The flat table of a circuit (the game's header slots left 0; built once a circuit).

    The compiled functions take this one int array (offsets in its header) rather than a
    tuple of arrays: numba counts references on every array of a tuple argument at each
    call, which cost more than Monza's rules.
    """
    squares = len(circuit.squares)
    positions = [*range(squares), START]
    nexts = [circuit.next_squares(p) for p in positions]
    width = max(len(n) for n in nexts)
    succ = [0] * (len(positions) * width)
    for index, found in enumerate(nexts):
        succ[index * width:index * width + len(found)] = found
    codes = sorted(((c, sum(n * POW7[i] for i, n in enumerate(c)))
                    for c in product(range(DICE + 1), repeat=DICE) if sum(c) <= DICE),
                   key=lambda item: (sum(item[0]), item[0]))
    parts = [[max(c, 0) for c in circuit.colour_of],
             [int(j in circuit.targets) for j in range(squares)],
             [int(s.is_tyre) for s in circuit.squares],
             [circuit.lanes[s.lane][0] for s in circuit.squares],
             [len(n) for n in nexts], succ,
             [circuit.steps_to_finish(p) for p in positions],
             [circuit.progress(p) for p in positions],
             _ranks(), list(POW7), [code for _, code in codes],
             [0] * (len(positions) * MULTISETS)]
    header = [0] * HEADER
    header[SQUARES], header[WIDTH] = squares, width
    at = HEADER
    for slot, part in zip(range(O_COLOUR, HEADER), parts, strict=True):
        header[slot] = at
        at += len(part)
    t = array([value for part in (header, *parts) for value in part])
    _fill_longest(t)
    return t


class Tables(NamedTuple):
    """The configured game as the compiled functions take it."""

    flat: IntArray
    """:func:`circuit_tables` with the game's header slots (players, compulsion, variant)
    filled: one array, every part found through the named header slots (``O_*``)."""
    chances: FloatArray
    """The hard rule's race model (:func:`.race.finish_chances`, row ``p * (HORIZON + 1)``,
    the start zone as position ``squares``); one 0 until a hard policy plays."""
    weights: FloatArray
    """The 462 rolls' probabilities as floats (:data:`.race.ROLL_WEIGHTS`; hard only)."""
    rolls: IntArray
    """The 462 rolls' dice as base-7 codes, in the same order (hard only)."""
    replies: IntArray
    """The ends the medium rule may pick from each position with each roll (hard only;
    :func:`.kernel_hard._fill_replies`)."""
    solved: FloatArray
    """The exact two-player solution's tables (optimal only; :mod:`.kernel_optimal`)."""
    pushed: IntArray
    """Where a car is pushed from each position by the other car (optimal only)."""


def tables(game: MonzaRules) -> Tables:
    """The kernel tables of a configured game: :func:`circuit_tables` with its header."""
    t = copy(circuit_tables(game.circuit))
    t[NPLAYERS], t[COMPULSION], t[VARIANT_ON] = (game.players, int(game.longest_rule),
                                                 int(game.variant))
    return Tables(t, float_array([0.0]), float_array([0.0]), array([0]), array([0]),
                  float_array([0.0]), array([0]))


@njit_uncounted
def _fill_longest(t: IntArray) -> None:
    """The longest usable sequence from each position with each multiset (by size, so each
    entry's shorter multisets are known when it is filled)."""
    squares, width = t[SQUARES], t[WIDTH]
    colour, nsucc, succ, rank, pow7 = t[O_COLOUR], t[O_NSUCC], t[O_SUCC], t[O_RANK], t[O_POW7]
    codes, longest = t[O_CODES], t[O_LONGEST]
    for index in range(MULTISETS):
        code = t[codes + index]
        for p in range(squares + 1):
            best = 0
            for k in range(t[nsucc + p]):
                j = t[succ + p * width + k]
                c = t[colour + j]
                if (code // t[pow7 + c]) % 7 > 0:
                    length = 1 + t[longest + j * MULTISETS + t[rank + code - t[pow7 + c]]]
                    best = max(best, length)
            t[longest + p * MULTISETS + index] = best


# ------------------------------------------------------------------------------ the rules


@njit_inline
def _dice_code(s: IntArray) -> int:
    """The base-7 code of the unused dice."""
    code = 0
    for c in range(5, -1, -1):
        code = code * 7 + s[DICE_AT + c]
    return code


@njit_inline
def _steps(t: IntArray, position: int, code: int, out: IntArray, at: int) -> int:
    """Legal steps from ``position`` (-1: the start zone) with dice ``code`` into
    ``out[at:]``, in the engine's order (:meth:`.circuit.Circuit.steps`); their number."""
    colour, succ, rank, pow7, longest = (t[O_COLOUR], t[O_SUCC], t[O_RANK], t[O_POW7],
                                         t[O_LONGEST])
    p = t[SQUARES] if position < 0 else position
    need = t[longest + p * MULTISETS + t[rank + code]] - 1
    compulsion = t[COMPULSION]
    first = succ + p * t[WIDTH]
    found = 0
    for k in range(t[t[O_NSUCC] + p]):
        j = t[first + k]
        weight = t[pow7 + t[colour + j]]
        if (code // weight) % 7 > 0 and (
                compulsion == 0 or t[longest + j * MULTISETS + t[rank + code - weight]] == need):
            out[at + found] = j
            found += 1
    return found


@njit_inline
def _occupied(s: IntArray, square: int) -> bool:
    """True when some car stands on ``square``."""
    held = False
    for seat in range(s[PLAYERS]):
        if s[CARS + seat] == square:
            held = True
    return held


@njit_inline
def _free_next(s: IntArray, t: IntArray, seat: int, out: IntArray) -> int:
    """The variant's free next squares of ``seat``'s car into ``out``; their number."""
    car = s[CARS + seat]
    if car >= 0 and t[t[O_TARGET] + car] == 1:
        return 0
    p = t[SQUARES] if car < 0 else car
    first = t[O_SUCC] + p * t[WIDTH]
    found = 0
    for k in range(t[t[O_NSUCC] + p]):
        j = t[first + k]
        if not _occupied(s, j):
            out[found] = j
            found += 1
    return found


@njit_inline
def _on_target(t: IntArray, car: int) -> bool:
    """True when ``car`` (a position, -1 the start zone) is a target."""
    return bool(car >= 0 and t[t[O_TARGET] + car] == 1)


@njit_uncounted
def _end_turn(s: IntArray, t: IntArray) -> None:
    """Pass the turn, or end the game when the finishing round is complete."""
    players = s[PLAYERS]
    player = s[PLAYER]
    rounds = CARS + players
    if s[FINISHING] == 1 and player == players - 1:
        fewest = 1 << 20
        for seat in range(players):
            if _on_target(t, s[CARS + seat]):
                fewest = min(fewest, s[rounds + seat])
        if fewest < 1 << 20:
            for seat in range(players):
                s[rounds + players + seat] = int(
                    _on_target(t, s[CARS + seat]) and s[rounds + seat] == fewest)
            s[PHASE] = OVER
            return
    player = (player + 1) % players
    if player == 0:
        for seat in range(players):
            s[rounds + seat] = 0
        s[FINISHING] = 0
    s[PHASE] = STUCK if _on_target(t, s[CARS + player]) else ROLL
    s[PLAYER] = player
    s[TURN] += 1
    for c in range(12):
        s[DICE_AT + c] = 0
    s[ROLLED] = 0
    s[USED] = 0
    s[LAST] = -1


@njit_uncounted
def _finish_move(s: IntArray, t: IntArray, scratch: IntArray) -> None:
    """The move is over: push back, note the dice, trigger the last round, the variant."""
    tyre, lane_first = t[O_TYRE], t[O_LANE]
    players = s[PLAYERS]
    seat = s[PLAYER]
    square = s[CARS + seat]
    if square >= 0 and not _on_target(t, square):
        for other in range(players):
            if other != seat and s[CARS + other] == square:
                behind = -1
                for j in range(square - 1, t[lane_first + square] - 1, -1):
                    if t[tyre + j] == 0 and not _occupied(s, j):
                        behind = j
                        break
                s[CARS + other] = behind
                break
    s[CARS + players + seat] = s[USED]
    if _on_target(t, square):
        s[FINISHING] = 1
    s[PHASE] = VARIANT
    owner = s[LAST]
    if t[VARIANT_ON] == 1 and 0 <= owner < players and _free_next(s, t, owner, scratch) > 0:
        return
    _end_turn(s, t)


@njit_inline
def _apply_outcome(s: IntArray, t: IntArray, roll: IntArray, at: int) -> None:
    """Apply the roll ``roll[at:at + 6]`` (colour counts) in place."""
    colour = t[O_COLOUR]
    car = s[CARS + s[PLAYER]]
    p = t[SQUARES] if car < 0 else car
    first = t[O_SUCC] + p * t[WIDTH]
    moves = False
    for k in range(t[t[O_NSUCC] + p]):
        if roll[at + t[colour + t[first + k]]] > 0:
            moves = True
    for c in range(6):
        s[DICE_AT + c] = roll[at + c]
        s[ROLL_AT + c] = roll[at + c]
    s[ROLLED] = 1
    s[PHASE] = STEP if moves else STUCK
    s[USED] = 0
    s[LAST] = -1


@njit_inline
def _decider(s: IntArray) -> int:
    """The deciding seat: the owner of the last die's colour in the variant, else the mover."""
    return int(s[LAST] if s[PHASE] == VARIANT else s[PLAYER])


@njit_uncounted
def _legal(s: IntArray, t: IntArray, out: IntArray) -> int:
    """The legal action codes into ``out`` in the engine's order; their number."""
    squares = t[SQUARES]
    phase = s[PHASE]
    if phase == STEP:
        return _steps(t, s[CARS + s[PLAYER]], _dice_code(s), out, 0)
    if phase == VARIANT:
        found = _free_next(s, t, s[LAST], out)
        for k in range(found):
            out[k] += squares
        out[found] = 2 * squares
        return found + 1
    out[0] = 2 * squares + 1
    return 1


@njit_uncounted
def _apply_action(s: IntArray, t: IntArray, code: int, scratch: IntArray) -> None:
    """Play action ``code`` in place."""
    squares = t[SQUARES]
    if code < squares:
        c = t[t[O_COLOUR] + code]
        s[CARS + s[PLAYER]] = code
        s[DICE_AT + c] -= 1
        s[USED] += 1
        s[LAST] = c
        if _steps(t, code, _dice_code(s), scratch, 0) == 0:
            _finish_move(s, t, scratch)
    elif code < 2 * squares:
        s[CARS + s[LAST]] = code - squares
        if _on_target(t, code - squares):
            s[FINISHING] = 1
        _end_turn(s, t)
    elif s[PHASE] == STUCK:
        _finish_move(s, t, scratch)
    else:
        _end_turn(s, t)


# ------------------------------------------------------------------------------ the ends

DEPTH = DICE + 1
"""Levels of the move search (one per die used, and the root)."""


@njit_uncounted
def ends_of(t: IntArray, position: int, code: int, stamps: IntArray, stack: IntArray,
            found: IntArray) -> int:
    """Every (end, dice used) of a complete move from ``position`` with dice ``code``
    (:meth:`.circuit.Circuit.ends`) into ``found`` as (end, dice used, first step index)
    triples; their number (0 when no step is legal: the car stays).

    A depth-first search over the legal steps lists each end once, with the first root
    step that reaches it (subtrees are searched in the engine's step order, and a (square,
    dice) node met before is not searched again, so an end is met first under the first
    step that leads to it: ``step_towards``'s step). The root's steps stay in
    ``stack[3 * DEPTH:]``. ``stamps`` marks visited nodes and ends met by a generation
    counter kept in its last slot.
    """
    colour, rank, pow7 = t[O_COLOUR], t[O_RANK], t[O_POW7]
    squares, width = t[SQUARES], t[WIDTH]
    seen = (squares + 1) * MULTISETS
    gen = stamps[len(stamps) - 1] + 1
    stamps[len(stamps) - 1] = gen
    lists = 3 * DEPTH
    stack[0] = code  # per level: dice code, next step index, steps
    stack[DEPTH] = 0
    stack[2 * DEPTH] = _steps(t, position, code, stack, lists)
    depth, first, count = 0, 0, 0
    while depth >= 0:
        k = stack[DEPTH + depth]
        if k >= stack[2 * DEPTH + depth]:
            depth -= 1
            continue
        stack[DEPTH + depth] = k + 1
        if depth == 0:
            first = k
        j = stack[lists + depth * width + k]
        rest = stack[depth] - t[pow7 + t[colour + j]]
        node = j * MULTISETS + t[rank + rest]
        if stamps[node] == gen:
            continue
        stamps[node] = gen
        level = depth + 1
        steps = _steps(t, j, rest, stack, lists + level * width)
        if steps > 0:
            stack[level] = rest
            stack[DEPTH + level] = 0
            stack[2 * DEPTH + level] = steps
            depth = level
        elif stamps[seen + j * DEPTH + level] != gen:
            stamps[seen + j * DEPTH + level] = gen
            found[3 * count] = j
            found[3 * count + 1] = level
            found[3 * count + 2] = first
            count += 1
    return count


@njit_inline
def medium_key(t: IntArray, cars: IntArray, at: int, players: int, seat: int, end: int,
               used: int) -> tuple[int, int, int, int]:
    """:func:`.heuristics.end_key`: the medium rule's preference for ending on ``end``
    (the cars in ``cars[at:at + players]``)."""
    squares = t[SQUARES]
    on_target = end >= 0 and t[t[O_TARGET] + end] == 1
    pushes = 0
    if end >= 0 and not on_target:
        for other in range(players):
            if other != seat and cars[at + other] == end:
                pushes = 1
    p = squares if end < 0 else end
    return (-t[t[O_STF] + p], -used if on_target else 0, pushes, t[t[O_PROGRESS] + p])


@njit_uncounted
def best_medium(t: IntArray, cars: IntArray, at: int, players: int, seat: int,
                found: IntArray, first: int, count: int) -> int:
    """The index in ``found`` (triples ``first .. first + count - 1``) of the end the medium
    rule picks (:func:`.heuristics.medium_end`: the best key, the smallest (end, used) on a
    tie as ``max(sorted(ends))`` picks)."""
    best = first
    best_key = (0, 0, 0, 0)
    for index in range(first, first + count):
        end, used = found[3 * index], found[3 * index + 1]
        key = medium_key(t, cars, at, players, seat, end, used)
        if index == first or key > best_key or (key == best_key and (
                end < found[3 * best] or (end == found[3 * best] and used < found[3 * best + 1]))):
            best, best_key = index, key
    return best
