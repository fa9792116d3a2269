"""Monza's bulk kernel: whole games over an integer array, compiled when numba is there.

The rules of :mod:`.rules` (with RULINGS.md's targets: a car on a target moves no more and is
never pushed, a target holds any number of cars) and the ``medium`` rule of
:mod:`.heuristics`, re-stated over flat integer arrays (see :mod:`dicegames.core.kernel`):
any circuit, 2-6 players, both ``compulsion`` values, ``variant_last_colour``, from any state.

**Tables** (:func:`tables`): ``meta`` (squares, players, compulsion, variant, successor
width), per square its colour, target and tyre flags and the first square of its lane; per
position (the start zone is position ``squares``) its next squares, steps to a target and
progress; and the length of the longest legal sequence of dice from every position with
every multiset of at most six dice (dice as a base-7 code of their colour counts, ranked).

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
from typing import Any

from dicegames.core.array_kernel import ArrayKernel
from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    IntArray,
    array,
    below,
    copy,
    njit,
    to_list,
    zeros,
)
from dicegames.core.model import PASS
from dicegames.games.monza import Monza
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import COLOURS, DICE, START, STAY, Advance, MonzaData, Phase, Step
from dicegames.games.monza.rules import ROLLS

(PHASE, PLAYER, TURN, USED, LAST, FINISHING, ROLLED, PLAYERS, DICE_AT, ROLL_AT,
 CARS) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 14, 20)
"""Slots of the state array (then the cars, the dice used this round, the winner flags)."""

ROLL, STEP, STUCK, VARIANT, OVER = (int(p) for p in Phase)

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


def _ranks() -> IntArray:
    """The rank (0..923, by number of dice) of every base-7 dice code, -1 for none."""
    counts = sorted((c for c in product(range(DICE + 1), repeat=DICE) if sum(c) <= DICE),
                    key=lambda c: (sum(c), c))
    rank = [-1] * POW7[DICE]
    for index, c in enumerate(counts):
        rank[sum(n * POW7[i] for i, n in enumerate(c))] = index
    return array(rank)


@cache
def circuit_tables(circuit: Circuit) -> tuple[IntArray, ...]:
    """The tables that depend on the circuit only (built once per circuit)."""
    squares = len(circuit.squares)
    positions = [*range(squares), START]
    nexts = [circuit.next_squares(p) for p in positions]
    width = max(len(n) for n in nexts)
    succ = [0] * (len(positions) * width)
    for index, found in enumerate(nexts):
        succ[index * width:index * width + len(found)] = found
    lane_first = [circuit.lanes[s.lane][0] for s in circuit.squares]
    codes = sorted(((c, sum(n * POW7[i] for i, n in enumerate(c)))
                    for c in product(range(DICE + 1), repeat=DICE) if sum(c) <= DICE),
                   key=lambda item: (sum(item[0]), item[0]))
    base = (array([squares, width, len(codes)]),
            array([max(c, 0) for c in circuit.colour_of]),
            array([int(j in circuit.targets) for j in range(squares)]),
            array([int(s.is_tyre) for s in circuit.squares]),
            array(lane_first), array([len(n) for n in nexts]), array(succ),
            array([circuit.steps_to_finish(p) for p in positions]),
            array([circuit.progress(p) for p in positions]),
            _ranks(), array(POW7), array([code for _, code in codes]))
    longest = zeros(len(positions) * MULTISETS)
    _fill_longest(base, longest)
    return (*base, longest)


def tables(game: Monza) -> tuple[IntArray, ...]:
    """The kernel tables of a configured game: ``meta`` then :func:`circuit_tables`."""
    shape = circuit_tables(game.circuit)
    meta = array([len(game.circuit.squares), game.players, int(game.longest_rule),
                  int(game.variant), int(shape[0][1])])
    return (meta, *shape[1:])


@njit
def _fill_longest(tabs: Any, longest: IntArray) -> None:
    """The longest usable sequence from each position with each multiset (by size, so each
    entry's shorter multisets are known when it is filled)."""
    squares, width = tabs[0][0], tabs[0][1]
    colour, nsucc, succ, rank, pow7, codes = (tabs[1], tabs[5], tabs[6], tabs[9], tabs[10],
                                              tabs[11])
    for index in range(len(codes)):
        code = codes[index]
        for p in range(squares + 1):
            best = 0
            for k in range(nsucc[p]):
                j = succ[p * width + k]
                c = colour[j]
                if (code // pow7[c]) % 7 > 0:
                    length = 1 + longest[j * MULTISETS + rank[code - pow7[c]]]
                    best = max(best, length)
            longest[p * MULTISETS + index] = best


# ------------------------------------------------------------------------------ the rules


@njit
def _dice_code(s: IntArray) -> int:
    """The base-7 code of the unused dice."""
    code = 0
    for c in range(5, -1, -1):
        code = code * 7 + s[DICE_AT + c]
    return code


@njit
def _steps(tabs: Any, position: int, code: int, out: IntArray, at: int) -> int:
    """Legal steps from ``position`` (-1: the start zone) with dice ``code`` into
    ``out[at:]``, in the engine's order (:meth:`.circuit.Circuit.steps`); their number."""
    meta, colour, nsucc, succ, rank, pow7 = (tabs[0], tabs[1], tabs[5], tabs[6], tabs[9],
                                             tabs[10])
    longest = tabs[12]
    squares, width = meta[0], meta[4]
    p = squares if position < 0 else position
    need = longest[p * MULTISETS + rank[code]] - 1
    found = 0
    for k in range(nsucc[p]):
        j = succ[p * width + k]
        weight = pow7[colour[j]]
        if (code // weight) % 7 > 0 and (
                meta[2] == 0 or longest[j * MULTISETS + rank[code - weight]] == need):
            out[at + found] = j
            found += 1
    return found


@njit
def _occupied(s: IntArray, square: int) -> bool:
    """True when some car stands on ``square``."""
    held = False
    for seat in range(s[PLAYERS]):
        if s[CARS + seat] == square:
            held = True
    return held


@njit
def _free_next(s: IntArray, tabs: Any, seat: int, out: IntArray) -> int:
    """The variant's free next squares of ``seat``'s car into ``out``; their number."""
    meta, target, nsucc, succ = tabs[0], tabs[2], tabs[5], tabs[6]
    car = s[CARS + seat]
    if car >= 0 and target[car] == 1:
        return 0
    p = meta[0] if car < 0 else car
    found = 0
    for k in range(nsucc[p]):
        j = succ[p * meta[4] + k]
        if not _occupied(s, j):
            out[found] = j
            found += 1
    return found


@njit
def _end_turn(s: IntArray, tabs: Any) -> None:
    """Pass the turn, or end the game when the finishing round is complete."""
    target = tabs[2]
    players = s[PLAYERS]
    player = s[PLAYER]
    rounds = CARS + players
    if s[FINISHING] == 1 and player == players - 1:
        fewest = 1 << 20
        for seat in range(players):
            car = s[CARS + seat]
            if car >= 0 and target[car] == 1:
                fewest = min(fewest, s[rounds + seat])
        if fewest < 1 << 20:
            for seat in range(players):
                car = s[CARS + seat]
                s[rounds + players + seat] = int(
                    car >= 0 and target[car] == 1 and s[rounds + seat] == fewest)
            s[PHASE] = OVER
            return
    player = (player + 1) % players
    if player == 0:
        for seat in range(players):
            s[rounds + seat] = 0
        s[FINISHING] = 0
    car = s[CARS + player]
    s[PHASE] = STUCK if car >= 0 and target[car] == 1 else ROLL
    s[PLAYER] = player
    s[TURN] += 1
    for c in range(12):
        s[DICE_AT + c] = 0
    s[ROLLED] = 0
    s[USED] = 0
    s[LAST] = -1


@njit
def _finish_move(s: IntArray, tabs: Any, scratch: IntArray) -> None:
    """The move is over: push back, note the dice, trigger the last round, the variant."""
    meta, target, tyre, lane_first = tabs[0], tabs[2], tabs[3], tabs[4]
    players = s[PLAYERS]
    seat = s[PLAYER]
    square = s[CARS + seat]
    if square >= 0 and target[square] == 0:
        for other in range(players):
            if other != seat and s[CARS + other] == square:
                behind = -1
                for j in range(square - 1, lane_first[square] - 1, -1):
                    if tyre[j] == 0 and not _occupied(s, j):
                        behind = j
                        break
                s[CARS + other] = behind
                break
    s[CARS + players + seat] = s[USED]
    if square >= 0 and target[square] == 1:
        s[FINISHING] = 1
    s[PHASE] = VARIANT
    owner = s[LAST]
    if meta[3] == 1 and 0 <= owner < players and _free_next(s, tabs, owner, scratch) > 0:
        return
    _end_turn(s, tabs)


@njit
def _apply_outcome(s: IntArray, tabs: Any, roll: IntArray, at: int) -> None:
    """Apply the roll ``roll[at:at + 6]`` (colour counts) in place."""
    meta, colour, nsucc, succ = tabs[0], tabs[1], tabs[5], tabs[6]
    car = s[CARS + s[PLAYER]]
    p = meta[0] if car < 0 else car
    moves = False
    for k in range(nsucc[p]):
        if roll[at + colour[succ[p * meta[4] + k]]] > 0:
            moves = True
    for c in range(6):
        s[DICE_AT + c] = roll[at + c]
        s[ROLL_AT + c] = roll[at + c]
    s[ROLLED] = 1
    s[PHASE] = STEP if moves else STUCK
    s[USED] = 0
    s[LAST] = -1


@njit
def _decider(s: IntArray) -> int:
    """The deciding seat: the owner of the last die's colour in the variant, else the mover."""
    return int(s[LAST] if s[PHASE] == VARIANT else s[PLAYER])


@njit
def _legal(s: IntArray, tabs: Any, out: IntArray) -> int:
    """The legal action codes into ``out`` in the engine's order; their number."""
    squares = tabs[0][0]
    phase = s[PHASE]
    if phase == STEP:
        return _steps(tabs, s[CARS + s[PLAYER]], _dice_code(s), out, 0)
    if phase == VARIANT:
        found = _free_next(s, tabs, s[LAST], out)
        for k in range(found):
            out[k] += squares
        out[found] = 2 * squares
        return found + 1
    out[0] = 2 * squares + 1
    return 1


@njit
def _apply_action(s: IntArray, tabs: Any, code: int, scratch: IntArray) -> None:
    """Play action ``code`` in place."""
    meta, colour, target = tabs[0], tabs[1], tabs[2]
    squares = meta[0]
    if code < squares:
        c = colour[code]
        s[CARS + s[PLAYER]] = code
        s[DICE_AT + c] -= 1
        s[USED] += 1
        s[LAST] = c
        if _steps(tabs, code, _dice_code(s), scratch, 0) == 0:
            _finish_move(s, tabs, scratch)
    elif code < 2 * squares:
        s[CARS + s[LAST]] = code - squares
        if target[code - squares] == 1:
            s[FINISHING] = 1
        _end_turn(s, tabs)
    elif s[PHASE] == STUCK:
        _finish_move(s, tabs, scratch)
    else:
        _end_turn(s, tabs)


# ------------------------------------------------------------------------------ the policies

DEPTH = DICE + 1
"""Levels of the move search (one per die used, and the root)."""


@njit
def _work(tabs: Any) -> Any:
    """Scratch arrays for :func:`_choose`: the legal list, the search's stamps (visited
    nodes, then ends met, then the generation), its stack and the ends it found."""
    squares, width = tabs[0][0], tabs[0][4]
    return (zeros(max(width, 2) + 1), zeros((squares + 1) * MULTISETS + squares * DEPTH + 1),
            zeros(3 * DEPTH + DEPTH * width), zeros(3 * squares * DEPTH))


@njit
def _medium_step(s: IntArray, tabs: Any, stamps: IntArray, stack: IntArray,
                 found: IntArray) -> int:
    """The medium rule's step (:func:`.heuristics.medium_end` then ``step_towards``).

    A depth-first search over the legal steps lists every (end, dice used) of a complete
    move once, each with the first root step that reaches it (subtrees are searched in the
    engine's step order, and a (square, dice) node met before is not searched again, so
    an end is met first under the first step that leads to it). The best end by the medium
    key, the smallest (end, used) on a tie as ``max(sorted(ends))`` picks, gives the step.
    """
    meta, colour, target, stf, progress, rank, pow7 = (tabs[0], tabs[1], tabs[2], tabs[7],
                                                       tabs[8], tabs[9], tabs[10])
    squares, width = meta[0], meta[4]
    seat = s[PLAYER]
    seen = (squares + 1) * MULTISETS
    gen = stamps[len(stamps) - 1] + 1
    stamps[len(stamps) - 1] = gen
    lists = 3 * DEPTH
    stack[0] = _dice_code(s)  # per level: dice code, next step index, steps
    stack[DEPTH] = 0
    stack[2 * DEPTH] = _steps(tabs, s[CARS + seat], stack[0], stack, lists)
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
        code = stack[depth] - pow7[colour[j]]
        node = j * MULTISETS + rank[code]
        if stamps[node] == gen:
            continue
        stamps[node] = gen
        level = depth + 1
        steps = _steps(tabs, j, code, stack, lists + level * width)
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
        on_target = target[end] == 1
        pushes = 0
        if not on_target:
            for other in range(s[PLAYERS]):
                if other != seat and s[CARS + other] == end:
                    pushes = 1
        key = (-stf[end], -used if on_target else 0, pushes, progress[end])
        if index == 0 or key > best_key or (key == best_key and (
                end < found[3 * best] or (end == found[3 * best] and used < found[3 * best + 1]))):
            best, best_key = index, key
    return int(stack[lists + found[3 * best + 2]])


@njit
def _choose(s: IntArray, tabs: Any, policy: int, rng: IntArray, work: Any) -> int:
    """The action code ``policy`` picks for the deciding seat; ``work`` is the scratch
    arrays ``(legal, stamps, stack, found)`` (see :func:`_work`)."""
    legal, stamps, stack, found = work
    squares, stf = tabs[0][0], tabs[7]
    phase = s[PHASE]
    if phase == STUCK:
        return int(2 * squares + 1)
    if policy == MEDIUM:
        if phase == STEP:
            return _medium_step(s, tabs, stamps, stack, found)
        seat = s[LAST]  # the variant's free step: the free square closest to a target
        car = s[CARS + seat]
        here = stf[squares if car < 0 else car]
        best = 2 * squares
        for k in range(_free_next(s, tabs, seat, legal)):
            if stf[legal[k]] < here:
                here = stf[legal[k]]
                best = squares + legal[k]
        return int(best)
    count = _legal(s, tabs, legal)
    return int(legal[below(rng, count)] if count > 1 else legal[0])


@njit
def _run(s: IntArray, tabs: Any, policies: IntArray, dice: IntArray, whims: IntArray,
         work: Any, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends, or until ``stop_seat`` begins its
    ``stop_turns + 1``-th new turn (see :meth:`GameKernel.rollout`); the moves applied."""
    number = s[TURN] if s[PLAYER] == stop_seat else -1
    starts = stop_turns + 1
    played = 0
    roll = zeros(6)
    while s[PHASE] != OVER and played < MAX_MOVES:
        if s[PLAYER] == stop_seat and s[TURN] != number:
            number = s[TURN]
            starts -= 1
            if starts == 0:
                break
        if s[PHASE] == ROLL:
            for c in range(6):
                roll[c] = 0
            for _ in range(DICE):
                roll[below(dice, 6)] += 1
            _apply_outcome(s, tabs, roll, 0)
        else:
            code = _choose(s, tabs, policies[_decider(s)], whims, work)
            _apply_action(s, tabs, code, work[0])
        played += 1
    return played


@njit
def _playouts(start: IntArray, tabs: Any, policies: IntArray, dice: IntArray,
              whims: IntArray, out: Any) -> None:
    """Play one game from ``start`` per row of ``out = (winners, scores, turns, moves)``."""
    winners, scores, turns, moves = out
    work = _work(tabs)
    squares, progress = tabs[0][0], tabs[8]
    players = start[PLAYERS]
    s = copy(start)
    for game in range(len(turns)):
        for k in range(len(start)):
            s[k] = start[k]
        moves[game] = _run(s, tabs, policies, dice, whims, work, -1, 0)
        for seat in range(players):
            car = s[CARS + seat]
            winners[game * players + seat] = s[CARS + 2 * players + seat]
            scores[game * players + seat] = progress[squares if car < 0 else car]
        turns[game] = s[TURN]


# ------------------------------------------------------------------------------ the protocol


class MonzaKernel(ArrayKernel):
    """Monza over integer arrays: every circuit and option, ``random`` and ``medium``."""

    game_id = "monza"
    compiled_choose = staticmethod(_choose)
    compiled_run = staticmethod(_run)
    compiled_playouts = staticmethod(_playouts)

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        assert isinstance(game, Monza)
        self.circuit: Circuit = game.circuit
        self.players: int = game.players
        self.tabs = tables(game)
        self.squares = len(game.circuit.squares)
        self.work = _work(self.tabs)

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every Monza game: any circuit, compulsion, variant and player count."""
        return isinstance(game, Monza)

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
        _apply_outcome(after, self.tabs, array(ROLLS[code][0].counts), 0)
        return after

    def legal(self, values: IntArray) -> list[int]:
        """The legal action codes, in the engine's order."""
        legal = self.work[0]
        count = _legal(values, self.tabs, legal)
        return to_list(legal)[:count]

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after action ``code``."""
        after = copy(values)
        _apply_action(after, self.tabs, code, self.work[0])
        return after
