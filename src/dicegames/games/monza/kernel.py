"""Monza's bulk kernel: whole games over an integer array, compiled when numba is there.

The rules of :mod:`.rules` (with RULINGS.md's targets: a car on a target moves no more and is
never pushed, a target holds any number of cars) and the ``medium`` rule of
:mod:`.heuristics`, re-stated over flat integer arrays (see :mod:`dicegames.core.kernel`):
any circuit, 2-6 players, both ``compulsion`` values, ``variant_last_colour``, from any state.

**Tables** (:func:`tables`, a :class:`Tables`): ``flat``, one int array: a header (squares,
players, compulsion, variant, successor width, and where each part below starts, in the named
slots ``O_*``: a part is read as ``t[t[O_COLOUR] + square]``), then per square its colour,
target and tyre flags and the first square of its lane; per position (the start zone is
position ``squares``) its next squares, steps to a target and progress; and the length of
the longest legal sequence of dice from every position with every multiset of at most six
dice (dice as a base-7 code of their colour counts, ranked).

**The state array**: ``[phase, player, turn, used, last, finishing, rolled, players,
dice x6, roll x6, cars..., round_used..., winner flags...]``: the engine's
:class:`~.data.MonzaData` field by field (``rolled`` is 0 while ``roll`` is empty).

**Codes.** Actions: a step to square ``j`` is ``j``; the variant's advance to ``j`` is
``squares + j``; ``stay`` is ``2 * squares``; ``pass`` is ``2 * squares + 1``. Chance
outcomes: the roll's index in :data:`.rules.ROLLS`.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from itertools import product
from typing import Any, NamedTuple

from dicegames.core.array_kernel import NO_SEAT, ArrayKernel, horizon_start, horizon_step
from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    IntArray,
    array,
    below,
    copy,
    njit,
    njit_inline,
    njit_uncounted,
    to_list,
    zeros,
)
from dicegames.core.model import PASS
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import COLOURS, DICE, START, STAY, Advance, MonzaData, Phase, Step
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

RANDOM, MEDIUM = range(2)
"""Policy codes, in :attr:`MonzaKernel.policies` order."""

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


class Work(NamedTuple):
    """Scratch arrays of the compiled functions (one per call: :func:`_work`)."""

    legal: IntArray
    """Legal action codes."""
    stamps: IntArray
    """The medium search's visited nodes, then the ends it met, then the generation."""
    stack: IntArray
    """The medium search's stack."""
    found: IntArray
    """The ends the medium search found: (end, dice used, first step) triples."""
    roll: IntArray
    """A roll's colour counts (six slots)."""


def tables(game: MonzaRules) -> Tables:
    """The kernel tables of a configured game: :func:`circuit_tables` with its header."""
    t = copy(circuit_tables(game.circuit))
    t[NPLAYERS], t[COMPULSION], t[VARIANT_ON] = (game.players, int(game.longest_rule),
                                                 int(game.variant))
    return Tables(t)


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


# ------------------------------------------------------------------------------ the policies

DEPTH = DICE + 1
"""Levels of the move search (one per die used, and the root)."""


@njit
def _work(tabs: Tables) -> Work:
    """Scratch arrays for :func:`_choose`: the legal list, the search's stamps (visited
    nodes, then ends met, then the generation), its stack and the ends it found."""
    t = tabs.flat
    squares, width = t[SQUARES], t[WIDTH]
    return Work(zeros(max(width, 2) + 1),
                zeros((squares + 1) * MULTISETS + squares * DEPTH + 1),
                zeros(3 * DEPTH + DEPTH * width), zeros(3 * squares * DEPTH), zeros(6))


@njit_uncounted
def _medium_step(s: IntArray, t: IntArray, stamps: IntArray, stack: IntArray,
                 found: IntArray) -> int:
    """The medium rule's step (:func:`.heuristics.medium_end` then ``step_towards``).

    A depth-first search over the legal steps lists every (end, dice used) of a complete
    move once, each with the first root step that reaches it (subtrees are searched in the
    engine's step order, and a (square, dice) node met before is not searched again, so
    an end is met first under the first step that leads to it). The best end by the medium
    key, the smallest (end, used) on a tie as ``max(sorted(ends))`` picks, gives the step.
    """
    colour, target, stf, progress, rank, pow7 = (t[O_COLOUR], t[O_TARGET], t[O_STF],
                                                 t[O_PROGRESS], t[O_RANK], t[O_POW7])
    squares, width = t[SQUARES], t[WIDTH]
    seat = s[PLAYER]
    seen = (squares + 1) * MULTISETS
    gen = stamps[len(stamps) - 1] + 1
    stamps[len(stamps) - 1] = gen
    lists = 3 * DEPTH
    stack[0] = _dice_code(s)  # per level: dice code, next step index, steps
    stack[DEPTH] = 0
    stack[2 * DEPTH] = _steps(t, s[CARS + seat], stack[0], stack, lists)
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
        code = stack[depth] - t[pow7 + t[colour + j]]
        node = j * MULTISETS + t[rank + code]
        if stamps[node] == gen:
            continue
        stamps[node] = gen
        level = depth + 1
        steps = _steps(t, j, code, stack, lists + level * width)
        if steps > 0:
            stack[level] = code
            stack[DEPTH + level] = 0
            stack[2 * DEPTH + level] = steps
            depth = level
        elif stamps[seen + j * DEPTH + level] != gen:
            stamps[seen + j * DEPTH + level] = gen
            found[3 * count] = j
            found[3 * count + 1] = level
            found[3 * count + 2] = first
            count += 1
    best = 0
    best_key = (0, 0, 0, 0)
    for index in range(count):
        end, used = found[3 * index], found[3 * index + 1]
        on_target = t[target + end] == 1
        pushes = 0
        if not on_target:
            for other in range(s[PLAYERS]):
                if other != seat and s[CARS + other] == end:
                    pushes = 1
        key = (-t[stf + end], -used if on_target else 0, pushes, t[progress + end])
        if index == 0 or key > best_key or (key == best_key and (
                end < found[3 * best] or (end == found[3 * best] and used < found[3 * best + 1]))):
            best, best_key = index, key
    return int(stack[lists + found[3 * best + 2]])


@njit_inline
def _pick(s: IntArray, t: IntArray, policy: int, rng: IntArray, legal: IntArray,
          stamps: IntArray, stack: IntArray, found: IntArray) -> int:
    """The action code ``policy`` picks for the deciding seat (see :func:`_choose`)."""
    squares, stf = t[SQUARES], t[O_STF]
    phase = s[PHASE]
    if phase == STUCK:
        return int(2 * squares + 1)
    if policy == MEDIUM:
        if phase == STEP:
            return _medium_step(s, t, stamps, stack, found)
        seat = s[LAST]  # the variant's free step: the free square closest to a target
        car = s[CARS + seat]
        here = t[stf + (squares if car < 0 else car)]
        best = 2 * squares
        for k in range(_free_next(s, t, seat, legal)):
            if t[stf + legal[k]] < here:
                here = t[stf + legal[k]]
                best = squares + legal[k]
        return int(best)
    count = _legal(s, t, legal)
    return int(legal[below(rng, count)] if count > 1 else legal[0])


@njit_uncounted
def _choose(s: IntArray, tabs: Tables, policy: int, rng: IntArray, work: Work) -> int:
    """The action code ``policy`` picks for the deciding seat."""
    return _pick(s, tabs.flat, policy, rng, work.legal, work.stamps, work.stack, work.found)


@njit_uncounted
def _run(s: IntArray, tabs: Tables, policies: IntArray, dice: IntArray, whims: IntArray,
         work: Work, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends, or until ``stop_seat`` begins its
    ``stop_turns + 1``-th new turn (see :meth:`GameKernel.rollout`); the moves applied."""
    return _play(s, tabs.flat, policies, dice, whims, work.legal, work.stamps, work.stack,
                 work.found, work.roll, stop_seat, stop_turns)


@njit_uncounted
def _play(s: IntArray, t: IntArray, policies: IntArray, dice: IntArray, whims: IntArray,
          legal: IntArray, stamps: IntArray, stack: IntArray, found: IntArray, roll: IntArray,
          stop_seat: int, stop_turns: int) -> int:
    """:func:`_run` over the table and scratch arrays as arrays."""
    seen, left = horizon_start(s[PLAYER], s[TURN], stop_seat, stop_turns)
    played = 0
    while s[PHASE] != OVER and played < MAX_MOVES:
        seen, left = horizon_step(s[PLAYER], s[TURN], stop_seat, seen, left)
        if left == 0:
            break
        if s[PHASE] == ROLL:
            for c in range(6):
                roll[c] = 0
            for _ in range(DICE):
                roll[below(dice, 6)] += 1
            _apply_outcome(s, t, roll, 0)
        else:
            code = _pick(s, t, policies[_decider(s)], whims, legal, stamps, stack, found)
            _apply_action(s, t, code, legal)
        played += 1
    return played


@njit
def _playouts(start: IntArray, tabs: Tables, policies: IntArray, dice: IntArray,
              whims: IntArray, out: Any) -> None:
    """Play one game from ``start`` per row of ``out = (winners, scores, turns, moves)``."""
    winners, scores, turns, moves = out
    work = _work(tabs)
    t = tabs.flat
    squares, progress = t[SQUARES], t[O_PROGRESS]
    players = start[PLAYERS]
    s = copy(start)
    for game in range(len(turns)):
        for k in range(len(start)):
            s[k] = start[k]
        moves[game] = _run(s, tabs, policies, dice, whims, work, NO_SEAT, 0)
        for seat in range(players):
            car = s[CARS + seat]
            winners[game * players + seat] = s[CARS + 2 * players + seat]
            scores[game * players + seat] = t[progress + (squares if car < 0 else car)]
        turns[game] = s[TURN]


# ------------------------------------------------------------------------------ the protocol


class MonzaKernel(ArrayKernel):
    """Monza over integer arrays: every circuit and option, ``random`` and ``medium``."""

    game_id = "monza"
    compiled_choose = staticmethod(_choose)
    compiled_run = staticmethod(_run)
    compiled_playouts = staticmethod(_playouts)
    compiled_work = staticmethod(_work)

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        assert isinstance(game, MonzaRules)
        self.circuit: Circuit = game.circuit
        self.players: int = game.players
        self.tabs: Tables = tables(game)
        self.squares = len(game.circuit.squares)

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every Monza game: any circuit, compulsion, variant and player count."""
        return isinstance(game, MonzaRules)

    # ---------------------------------------------------------------- states

    def encode(self, data: Any) -> IntArray:
        """The array of :class:`~.data.MonzaData` ``data``."""
        assert isinstance(data, MonzaData)
        roll = data.roll or (0,) * DICE
        return array([int(data.phase), data.player, data.turn, data.used, data.last,
                      int(data.finishing), int(bool(data.roll)), self.players, *data.dice,
                      *roll, *data.cars, *data.round_used,
                      *(int(seat in data.winners) for seat in range(self.players))])

    def decode(self, values: IntArray) -> MonzaData:
        """The :class:`~.data.MonzaData` of an array."""
        v = to_list(values)
        players = self.players
        rounds = CARS + players
        winners = tuple(seat for seat in range(players) if v[rounds + players + seat])
        roll = tuple(v[ROLL_AT:ROLL_AT + DICE]) if v[ROLLED] else ()
        return MonzaData(tuple(v[CARS:rounds]), v[PLAYER], v[TURN], Phase(v[PHASE]),
                         tuple(v[DICE_AT:DICE_AT + DICE]), roll, v[USED], v[LAST],
                         tuple(v[rounds:rounds + players]), bool(v[FINISHING]), winners)

    # ---------------------------------------------------------------- steps

    def kind(self, values: IntArray) -> int:
        """Chance before the roll, terminal once over, else a decision."""
        phase = int(values[PHASE])
        if phase == OVER:
            return KIND_TERMINAL
        return KIND_CHANCE if phase == ROLL else KIND_DECISION

    def outcome_code(self, values: IntArray, outcome: Hashable) -> int:
        """A roll's code is its index in :data:`.rules.ROLLS`."""
        return ROLL_INDEX[getattr(outcome, "counts", ())]

    def outcome_of(self, values: IntArray, code: int) -> Hashable:
        """The roll of code ``code``."""
        return ROLLS[code][0]

    def action_code(self, values: IntArray, action: Hashable) -> int:
        """A step: its square; an advance: squares + its square; stay; pass."""
        if isinstance(action, Step):
            return action.square
        if isinstance(action, Advance):
            return self.squares + action.square
        return 2 * self.squares + (0 if action is STAY else 1)

    def action_of(self, values: IntArray, code: int) -> Hashable:
        """The engine action of ``code``."""
        squares, circuit = self.squares, self.circuit
        if code < squares:
            return Step(COLOURS[circuit.colour_of[code]], code, circuit.squares[code].name)
        if code < 2 * squares:
            return Advance(code - squares, circuit.squares[code - squares].name)
        return STAY if code == 2 * squares else PASS

    def apply_outcome(self, values: IntArray, code: int) -> IntArray:
        """The state after the roll of code ``code``."""
        after = copy(values)
        _apply_outcome(after, self.tabs.flat, array(ROLLS[code][0].counts), 0)
        return after

    def legal(self, values: IntArray) -> list[int]:
        """The legal action codes, in the engine's order."""
        legal = self.scratch().legal
        count = _legal(values, self.tabs.flat, legal)
        return to_list(legal)[:count]

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after action ``code``."""
        after = copy(values)
        _apply_action(after, self.tabs.flat, code, self.scratch().legal)
        return after
