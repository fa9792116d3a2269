"""EXTRA!'s bulk kernel: whole games over an integer array, compiled when numba is there.

The rules of :mod:`.rules` and :mod:`.sheet`, the ``medium`` and ``hard`` rules of
:mod:`.heuristics` (``hard`` in :mod:`.kernel_hard`) and the ``trained`` rule of
:mod:`.trained` (in :mod:`.kernel_trained`), re-stated over flat integer arrays
(see :mod:`dicegames.core.kernel`): 1-6 players, any
``extra_columns``, the children's variant for any seats under either ``children_rule``, from
any state.

**Tables** (:func:`tables`, per configured game, a :class:`Tables`): ``flat``, one int
array at fixed offsets (``T_...``, compile-time constants): ``meta`` (players and the three
column sizes), per-seat children's flags (``extra`` and ``rows`` readings), the sheet
constants (k, boxes and value per row) and, for each of the 252 rolls, what
:func:`.sheet.legal_decisions` builds its lists from: the distinct faces, the pairings of the
four dice left by each face (as their two sums), and the distinct pairings of a free ride;
and ``smooth``, one float array, the medium rule's smoothed row scores
(:func:`.heuristics.progress`, the very floats).

**The state array**: ``[roll, roller, turn, players]`` then one block of :data:`SEAT` slots
per seat: 11 rows, 3 EXTRA numbers, 3 column marks, ``noted``, ``done`` and the seat's pending
decision (its index in the legal list, -1 for none). ``roll`` is the index of the roll in
:data:`.rules.ROLLS` (-1 before the dice are rolled).

**Codes.** An action is its index in the deciding seat's legal list (the engine's order); a
chance outcome is the roll's index in :data:`.rules.ROLLS`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, NamedTuple

from dicegames.core.array_kernel import NO_SEAT, ArrayKernel, horizon_start, horizon_step
from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    FloatArray,
    IntArray,
    array,
    below,
    copy,
    float_array,
    njit,
    njit_inline,
    njit_uncounted,
    to_list,
    zeros,
)
from dicegames.games.extra.data import (
    BOXES,
    NEGATIVE_BOXES,
    PENALTY,
    ROW_VALUES,
    Decision,
    ExtraData,
    Sheet,
)
from dicegames.games.extra.heuristics import progress
from dicegames.games.extra.kernel_hard import hard_table, hard_value, new_number_cost
from dicegames.games.extra.kernel_trained import trained_cost, trained_value, weights_array
from dicegames.games.extra.rules import ROLLS, ExtraRules, Roll
from dicegames.games.extra.sheet import legal_decisions, pairings
from dicegames.games.extra.trained import shipped_weights

ROLL, ROLLER, TURN, PLAYERS, HEAD = range(5)
"""Slots of the state array's head; seat ``s``'s block starts at ``HEAD + s * SEAT``."""

ROWS, NUMBERS, MARKS, NOTED, DONE, PENDING, SEAT = 0, 11, 14, 17, 18, 19, 20
"""Offsets inside a seat's block, and the block's size."""

MAX_MOVES = 1_000_000
"""A safety cap on the moves of one game in the kernel."""

MAX_DECISIONS = 64
"""Room for one legal list (at most 5 faces x 3 columns x 3 pairings = 45)."""

FREE = 15
"""Room for one roll's distinct free-ride pairings."""

SMOOTH = 16
"""Slots per row in the table of :func:`.heuristics.progress` (rows have at most 13 boxes)."""

RANDOM, MEDIUM, HARD, TRAINED = range(4)
"""Policy codes, in :attr:`ExtraKernel.policies` order."""

ROLL_INDEX = {tuple(faces): index for index, (faces, _) in enumerate(ROLLS)}
"""The index in :data:`.rules.ROLLS` of each sorted roll."""


NROLLS = len(ROLLS)
"""The 252 sorted rolls of five dice."""

MAX_SEATS = 6
"""Seats the per-seat slots of the table hold."""

(T_COLUMNS, T_CHILD_EXTRA, T_CHILD_ROWS, T_CONSTS, T_FACES, T_NFACES, T_PAIRS, T_NPAIRS,
 T_FREE, T_NFREE, T_LOOKUP, T_SIZE) = (
    1, 4, 4 + MAX_SEATS, 4 + 2 * MAX_SEATS, 49, 49 + NROLLS * 5, 49 + NROLLS * 6,
    49 + NROLLS * 36, 49 + NROLLS * 41, 49 + NROLLS * (41 + 2 * FREE),
    49 + NROLLS * (42 + 2 * FREE), 49 + NROLLS * (42 + 2 * FREE) + (1 << 18))
"""Where each table starts in the one flat table array (fixed offsets: compile-time
constants): ``[players, the three column sizes]``, the children's ``extra`` and ``rows``
flags per seat, the sheet constants (k, boxes, value per row), then per roll its faces, their
number, each face's pairings as sums and their number, the free-ride pairings as sums and
their number, and last the lookup from five dice (counts per face, 3 bits a face) to a roll."""


def _roll_tables() -> list[int]:
    """Per roll: its faces, each face's pairings (as sums), its free-ride pairings; then the
    lookup from dice to roll (the flat table from :data:`T_FACES` on)."""
    faces_of, nfaces, pair_sums, npairs, free_sums, nfree = [], [], [], [], [], []
    for faces, _ in ROLLS:
        distinct = sorted(set(faces))
        faces_of += [*distinct, *[0] * (5 - len(distinct))]
        nfaces.append(len(distinct))
        seen: list[tuple[tuple[int, int], tuple[int, int]]] = []
        for slot in range(5):
            found: list[tuple[tuple[int, int], tuple[int, int]]] = []
            if slot < len(distinct):
                rest = list(faces)
                rest.remove(distinct[slot])
                found = list(pairings((rest[0], rest[1], rest[2], rest[3])))
                seen += [p for p in found if p not in seen]
            npairs.append(len(found))
            for k in range(3):
                pair = found[k] if k < len(found) else ((0, 0), (0, 0))
                pair_sums += [sum(pair[0]), sum(pair[1])]
        nfree.append(len(seen))
        for k in range(FREE):
            pair = seen[k] if k < len(seen) else ((0, 0), (0, 0))
            free_sums += [sum(pair[0]), sum(pair[1])]
    lookup = [0] * (1 << 18)  # five dice as counts per face, 3 bits a face
    for index, (faces, _) in enumerate(ROLLS):
        lookup[sum(1 << 3 * (face - 1) for face in faces)] = index
    return [*faces_of, *nfaces, *pair_sums, *npairs, *free_sums, *nfree, *lookup]


class Tables(NamedTuple):
    """The configured game as the compiled functions take it."""

    flat: IntArray
    """The int table: every part at its fixed offset ``T_...``."""
    smooth: FloatArray
    """The medium rule's smoothed row scores (floats, ``row * SMOOTH + crosses``)."""
    hard: FloatArray
    """The hard rule's float table (:func:`.kernel_hard.hard_table`; one 0 until a hard
    or trained policy plays)."""
    weights: FloatArray
    """The trained rule's weights (:data:`.trained.WEIGHT_NAMES`; one 0 until it plays)."""


class Work(NamedTuple):
    """Scratch arrays of the compiled functions (one per call: :func:`_work`)."""

    dec: IntArray
    """The deciding seat's legal decisions, four slots each."""
    picked: IntArray
    """Each seat's decision of this roll as it is taken, four slots each."""
    sheet: IntArray
    """A state array's room: the sheet a decision leaves, for the hard rule."""


def tables(game: ExtraRules) -> Tables:
    """The kernel tables of a configured game."""
    seats = range(MAX_SEATS)
    smooth = [progress(row, crosses) if crosses <= BOXES[row] else 0.0
              for row in range(len(BOXES)) for crosses in range(SMOOTH)]
    flat = [game.players, *game.columns,
            *(int(s < game.players and game.child_extra(s)) for s in seats),
            *(int(s < game.players and game._child_rows[s]) for s in seats),
            *NEGATIVE_BOXES, *BOXES, *ROW_VALUES, *_roll_tables()]
    assert len(flat) == T_SIZE
    return Tables(array(flat), float_array(smooth), float_array([0.0]), float_array([0.0]))


# ------------------------------------------------------------------------------ the sheet
#
# The rules' helpers take the flat table ``t`` (and ``f``, the floats) as plain arrays, the
# parts found at their fixed offsets ``T_...`` (compile-time constants).


@njit_inline
def _row_score(t: IntArray, index: int, crosses: int) -> int:
    """:func:`.data.row_score`."""
    k = t[T_CONSTS + index]
    if crosses == 0:
        return 0
    if crosses <= k:
        return PENALTY
    if crosses == k + 1:
        return 0
    step = min(crosses, t[T_CONSTS + 11 + index]) - k - 2
    factor = 1 if step == 0 else 2 if step == 1 else 3 if step == 2 else 5 if step == 3 else 7
    return int(t[T_CONSTS + 22 + index] * factor)


@njit_uncounted
def _decisions(s: IntArray, t: IntArray, seat: int, out: IntArray) -> int:
    """The seat's legal decisions for the roll as ``(sum, sum, extra, column)`` rows of
    ``out``, in :func:`.sheet.legal_decisions` order; their number."""
    roll = s[ROLL]
    base = HEAD + seat * SEAT + NUMBERS
    n0, n1, n2 = s[base], s[base + 1], s[base + 2]
    found = 0
    if n0 != 0 and n1 != 0 and n2 != 0:
        for slot in range(t[T_NFACES + roll]):
            face = t[T_FACES + roll * 5 + slot]
            if face in (n0, n1, n2):
                at = T_PAIRS + (roll * 5 + slot) * 6
                for k in range(t[T_NPAIRS + roll * 5 + slot]):
                    out[found * 4] = t[at + k * 2]
                    out[found * 4 + 1] = t[at + k * 2 + 1]
                    out[found * 4 + 2] = face
                    out[found * 4 + 3] = -1
                    found += 1
        if found == 0:  # a free ride
            at = T_FREE + roll * FREE * 2
            for k in range(t[T_NFREE + roll]):
                out[found * 4] = t[at + k * 2]
                out[found * 4 + 1] = t[at + k * 2 + 1]
                out[found * 4 + 2] = 0
                out[found * 4 + 3] = -1
                found += 1
        return found
    for slot in range(t[T_NFACES + roll]):
        face = t[T_FACES + roll * 5 + slot]
        known = face in (n0, n1, n2)
        at = T_PAIRS + (roll * 5 + slot) * 6
        pairs = t[T_NPAIRS + roll * 5 + slot]
        for column in range(-1, 3):
            if (column == -1) != known or (column >= 0 and s[base + column] != 0):
                continue
            for k in range(pairs):
                out[found * 4] = t[at + k * 2]
                out[found * 4 + 1] = t[at + k * 2 + 1]
                out[found * 4 + 2] = face
                out[found * 4 + 3] = column
                found += 1
    return found


@njit_inline
def _crossed(t: IntArray, seat: int, row: int, noted: int, rows_first: int) -> int:
    """What one pair does to row ``row``: 1 a cross, 0 lost on a full row, -1 only noted
    (children's ``rows`` reading); ``rows_first`` is the row's crosses before the pair."""
    if t[T_CHILD_ROWS + seat] == 1 and rows_first == 0 and (noted >> row) & 1 == 0:
        return -1
    return 1 if rows_first < t[T_CONSTS + 11 + row] else 0


@njit_uncounted
def _record(s: IntArray, t: IntArray, seat: int, dec: IntArray, at: int) -> None:
    """Record decision row ``at`` of ``dec`` on the seat's sheet (:func:`.sheet.record`)."""
    base = HEAD + seat * SEAT
    for p in range(2):
        row = dec[at * 4 + p] - 2
        effect = _crossed(t, seat, row, s[base + NOTED], s[base + ROWS + row])
        if effect == -1:
            s[base + NOTED] |= 1 << row
        elif effect == 1:
            s[base + ROWS + row] += 1
    extra, column = dec[at * 4 + 2], dec[at * 4 + 3]
    if extra != 0:
        if column >= 0:
            s[base + NUMBERS + column] = extra
            s[base + MARKS + column] = 0 if t[T_CHILD_EXTRA + seat] == 1 else 1
        else:
            for j in range(3):
                if s[base + NUMBERS + j] == extra:
                    s[base + MARKS + j] += 1
    done = 0
    for j in range(3):
        if s[base + MARKS + j] >= t[T_COLUMNS + j]:
            done = 1
    s[base + DONE] = done


@njit_inline
def _medium_value(s: IntArray, t: IntArray, f: FloatArray, seat: int, dec: IntArray,
                  at: int) -> float:
    """:func:`.heuristics.medium_value` of decision row ``at`` for the seat's sheet
    (``f[row * SMOOTH + crosses]`` is :func:`.heuristics.progress`)."""
    base = HEAD + seat * SEAT
    first, second = dec[at * 4] - 2, dec[at * 4 + 1] - 2
    noted = s[base + NOTED]
    old_first = s[base + ROWS + first]
    effect = _crossed(t, seat, first, noted, old_first)
    added = max(effect, 0)
    if effect == -1:
        noted |= 1 << first
    new_first = old_first + added
    value = 0.0
    if first == second:  # sums in order: a double touches one row twice
        again = _crossed(t, seat, first, noted, new_first)
        added += max(again, 0)
        value += f[first * SMOOTH + old_first + added] - f[first * SMOOTH + old_first]
    else:
        value += f[first * SMOOTH + new_first] - f[first * SMOOTH + old_first]
        old_second = s[base + ROWS + second]
        more = max(_crossed(t, seat, second, noted, old_second), 0)
        added += more
        value += f[second * SMOOTH + old_second + more] - f[second * SMOOTH + old_second]
    value -= 10.0 * (2 - added)
    extra, column = dec[at * 4 + 2], dec[at * 4 + 3]
    if extra != 0:
        if column < 0:
            for j in range(3):
                if s[base + NUMBERS + j] == extra:
                    column = j
            marks = s[base + MARKS + column] + 1
        else:
            marks = 0 if t[T_CHILD_EXTRA + seat] == 1 else 1
        if marks > s[base + MARKS + column]:
            left = t[T_COLUMNS + column] - marks
            value -= 1000.0 if left <= 0 else 40.0 / left
    return float(value)


# ------------------------------------------------------------------------------ the turn


@njit_inline
def _decider(s: IntArray) -> int:
    """The first seat still to decide on the roll (-1 when none)."""
    for seat in range(s[PLAYERS]):
        base = HEAD + seat * SEAT
        if s[base + DONE] == 0 and s[base + PENDING] < 0:
            return seat
    return -1


@njit_uncounted
def _end_roll(s: IntArray, t: IntArray, picked: IntArray) -> None:
    """Every seat has decided: record the decisions (seat ``k``'s is row ``k`` of
    ``picked``) and pass the dice to the next seat still playing."""
    players = s[PLAYERS]
    for seat in range(players):
        base = HEAD + seat * SEAT
        if s[base + PENDING] >= 0:
            _record(s, t, seat, picked, seat)
            s[base + PENDING] = -1
    roller = s[ROLLER]
    for step in range(1, players + 1):
        candidate = (roller + step) % players
        if s[HEAD + candidate * SEAT + DONE] == 0:
            s[ROLLER] = candidate
            break
    s[ROLL] = -1
    s[TURN] += 1


@njit
def _apply_action(s: IntArray, t: IntArray, code: int, dec: IntArray) -> None:
    """The deciding seat takes decision ``code``; the last one records all of them."""
    s[HEAD + _decider(s) * SEAT + PENDING] = code
    if _decider(s) >= 0:
        return
    picked = zeros(MAX_SEATS * 4)
    for seat in range(s[PLAYERS]):
        pending = s[HEAD + seat * SEAT + PENDING]
        if pending >= 0:
            _decisions(s, t, seat, dec)
            for k in range(4):
                picked[seat * 4 + k] = dec[pending * 4 + k]
    _end_roll(s, t, picked)


@njit_inline
def _over(s: IntArray) -> bool:
    """True once every player has stopped (and no roll is pending)."""
    over = bool(s[ROLL] < 0)
    for seat in range(s[PLAYERS]):
        if s[HEAD + seat * SEAT + DONE] == 0:
            over = False
    return over


@njit_inline
def _hard_value(s: IntArray, t: IntArray, tabs: Tables, seat: int, dec: IntArray, at: int,
                sheet: IntArray, trained: bool) -> float:
    """The hard (or trained) rule's value of decision row ``at``
    (:func:`.heuristics.hard_policy`, :func:`.trained.decision_value`): the sheet it
    leaves, recorded in ``sheet``, by :func:`.kernel_hard.hard_value` (or
    :func:`.kernel_trained.trained_value`)."""
    base = HEAD + seat * SEAT
    for k in range(SEAT):
        sheet[base + k] = s[base + k]
    _record(sheet, t, seat, dec, at)
    h, extra, column = tabs.hard, dec[at * 4 + 2], dec[at * 4 + 3]
    if trained:
        w = tabs.weights
        return float(trained_value(sheet, t, h, w, base, t[T_CHILD_EXTRA + seat])
                     - trained_cost(w, extra, column))
    value = hard_value(sheet, t, h, base, t[T_CHILD_EXTRA + seat])
    return float(value - new_number_cost(h, extra, column))


@njit_inline
def _pick(s: IntArray, tabs: Tables, seat: int, policy: int, rng: IntArray, dec: IntArray,
          sheet: IntArray) -> int:
    """The decision index ``policy`` picks for ``seat`` (its decisions left in ``dec``)."""
    t = tabs.flat
    count = _decisions(s, t, seat, dec)
    if policy == RANDOM:
        return below(rng, count) if count > 1 else 0
    best, best_value = 0, -math.inf
    for at in range(count):
        if policy >= HARD:
            value = _hard_value(s, t, tabs, seat, dec, at, sheet, policy == TRAINED)
        else:
            value = _medium_value(s, t, tabs.smooth, seat, dec, at)
        if value > best_value:
            best, best_value = at, value
    return best


@njit_uncounted
def _choose(s: IntArray, tabs: Tables, policy: int, rng: IntArray, work: Work) -> int:
    """The decision index ``policy`` picks for the deciding seat."""
    return _pick(s, tabs, _decider(s), policy, rng, work.dec, work.sheet)


@njit_inline
def _roll(rng: IntArray, t: IntArray) -> int:
    """Five dice rolled and sorted: the roll's index in ROLLS."""
    code = 0  # counts per face, 3 bits a face: the same for every order of the dice
    for _ in range(5):
        code += 1 << (3 * below(rng, 6))
    return int(t[T_LOOKUP + code])


@njit
def _work(tabs: Tables) -> Work:
    """Fresh scratch arrays."""
    return Work(zeros(MAX_DECISIONS * 4), zeros(MAX_SEATS * 4), zeros(HEAD + MAX_SEATS * SEAT))


@njit_uncounted
def _run(s: IntArray, tabs: Tables, policies: IntArray, dice: IntArray, whims: IntArray,
         work: Work, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends, or until ``stop_seat`` begins its
    ``stop_turns + 1``-th new turn (see :meth:`GameKernel.rollout`); the moves applied.
    Each seat's decision is kept in ``work.picked`` as it is taken, so the last one records
    them without listing decisions again."""
    t, dec, picked = tabs.flat, work.dec, work.picked
    seen, left = horizon_start(s[ROLLER], s[TURN], stop_seat, stop_turns)
    played = 0
    for seat in range(s[PLAYERS]):  # decisions already pending in a state played from
        pending = s[HEAD + seat * SEAT + PENDING]
        if pending >= 0 and s[ROLL] >= 0:
            _decisions(s, t, seat, dec)
            for k in range(4):
                picked[seat * 4 + k] = dec[pending * 4 + k]
    while not _over(s) and played < MAX_MOVES:
        seen, left = horizon_step(s[ROLLER], s[TURN], stop_seat, seen, left)
        if left == 0:
            break
        if s[ROLL] < 0:
            s[ROLL] = _roll(dice, t)
        else:
            seat = _decider(s)
            code = _pick(s, tabs, seat, policies[seat], whims, dec, work.sheet)
            for k in range(4):
                picked[seat * 4 + k] = dec[code * 4 + k]
            s[HEAD + seat * SEAT + PENDING] = code
            if _decider(s) < 0:
                _end_roll(s, t, picked)
        played += 1
    return played


@njit
def _playouts(start: IntArray, tabs: Tables, policies: IntArray, dice: IntArray,
              whims: IntArray, out: Any) -> None:
    """Play one game from ``start`` per row of ``out = (winners, scores, turns, moves)``."""
    winners, scores, turns, moves = out
    t = tabs.flat
    players = start[PLAYERS]
    s = copy(start)
    work = _work(tabs)
    for game in range(len(turns)):
        for k in range(len(start)):
            s[k] = start[k]
        moves[game] = _run(s, tabs, policies, dice, whims, work, NO_SEAT, 0)
        best = -1 << 40
        for seat in range(players):
            total = 0
            for row in range(11):
                total += _row_score(t, row, s[HEAD + seat * SEAT + ROWS + row])
            scores[game * players + seat] = total
            best = max(best, total)
        for seat in range(players):
            won = scores[game * players + seat] == best and (players > 1 or best >= 0)
            winners[game * players + seat] = int(won)
        turns[game] = s[TURN]


# ------------------------------------------------------------------------------ the protocol


class ExtraKernel(ArrayKernel):
    """EXTRA! over integer arrays: every option and player count, ``random``, ``medium``,
    ``hard`` and ``trained``."""

    game_id = "extra"
    policies: ClassVar[tuple[str, ...]] = ("random", "medium", "hard", "trained")
    deterministic: ClassVar[frozenset[str]] = frozenset({"medium", "hard", "trained"})
    compiled_choose = staticmethod(_choose)
    compiled_run = staticmethod(_run)
    compiled_playouts = staticmethod(_playouts)
    compiled_work = staticmethod(_work)

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        assert isinstance(game, ExtraRules)
        self.players: int = game.players
        self.tabs: Tables = tables(game)
        self._hard: Tables | None = None

    def tables_for(self, policies: Sequence[int]) -> Tables:
        """:attr:`tabs`, with the hard rule's table and the trained weights (read on first
        use: a broken weights file fails only the trained level) when one of them plays."""
        if HARD not in policies and TRAINED not in policies:
            return self.tabs
        if self._hard is None:
            self._hard = self.tabs._replace(hard=hard_table(self.game.columns))
        if TRAINED in policies and len(self._hard.weights) == 1:
            self._hard = self._hard._replace(weights=weights_array(shipped_weights()))
        return self._hard

    def use_weights(self, weights: Sequence[float]) -> None:
        """Play ``trained`` with ``weights`` instead of the shipped ones (the trainer's)."""
        self._hard = self.tables_for([HARD])._replace(weights=weights_array(tuple(weights)))

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every EXTRA! game: 1-6 players, any columns, any children's seats and rule."""
        return isinstance(game, ExtraRules)

    # ---------------------------------------------------------------- states

    def encode(self, data: Any) -> IntArray:
        """The array of :class:`~.data.ExtraData` ``data``."""
        assert isinstance(data, ExtraData)
        roll = ROLL_INDEX[tuple(data.roll)] if data.roll else -1
        values = [roll, data.roller, data.turn, self.players]
        for sheet, decision in zip(data.sheets, data.pending, strict=True):
            pending = -1
            if decision is not None:
                pending = legal_decisions(data.roll, sheet.numbers).index(decision)
            values += [*sheet.rows, *sheet.numbers, *sheet.marks, sheet.noted,
                       int(sheet.done), pending]
        return array(values)

    def decode(self, values: IntArray) -> ExtraData:
        """The :class:`~.data.ExtraData` of an array."""
        v = to_list(values)
        roll = Roll(ROLLS[v[ROLL]][0]) if v[ROLL] >= 0 else ()
        sheets: list[Sheet] = []
        pending: list[Decision | None] = []
        for seat in range(self.players):
            b = HEAD + seat * SEAT
            numbers = (v[b + NUMBERS], v[b + NUMBERS + 1], v[b + NUMBERS + 2])
            sheets.append(Sheet(tuple(v[b:b + NUMBERS]), numbers,
                                (v[b + MARKS], v[b + MARKS + 1], v[b + MARKS + 2]),
                                v[b + NOTED], bool(v[b + DONE])))
            index = v[b + PENDING]
            pending.append(None if index < 0 else legal_decisions(roll, numbers)[index])
        return ExtraData(tuple(sheets), roll, tuple(pending), v[ROLLER], v[TURN])

    # ---------------------------------------------------------------- steps

    def kind(self, values: IntArray) -> int:
        """Chance before the roll, terminal once all have stopped, else a decision."""
        if _over(values):
            return KIND_TERMINAL
        return KIND_CHANCE if values[ROLL] < 0 else KIND_DECISION

    def outcome_code(self, values: IntArray, outcome: Hashable) -> int:
        """A roll's code is its index in :data:`.rules.ROLLS`."""
        assert isinstance(outcome, tuple)
        return ROLL_INDEX[tuple(outcome)]

    def outcome_of(self, values: IntArray, code: int) -> Hashable:
        """The roll of code ``code``."""
        return ROLLS[code][0]

    def _legal_decisions(self, values: IntArray) -> tuple[Decision, ...]:
        """The engine's legal decisions of the deciding seat."""
        seat = int(_decider(values))
        base = HEAD + seat * SEAT + NUMBERS
        numbers = (int(values[base]), int(values[base + 1]), int(values[base + 2]))
        return legal_decisions(ROLLS[int(values[ROLL])][0], numbers)

    def action_code(self, values: IntArray, action: Hashable) -> int:
        """A decision's code is its index in the deciding seat's legal list."""
        assert isinstance(action, Decision)
        return self._legal_decisions(values).index(action)

    def action_of(self, values: IntArray, code: int) -> Hashable:
        """The decision of code ``code``."""
        return self._legal_decisions(values)[code]

    def apply_outcome(self, values: IntArray, code: int) -> IntArray:
        """The state after the roll of code ``code``."""
        after = copy(values)
        after[ROLL] = code
        return after

    def legal(self, values: IntArray) -> list[int]:
        """The legal codes: ``0 .. n - 1`` for the deciding seat's n decisions."""
        dec = self.scratch().dec
        return list(range(_decisions(values, self.tabs.flat, _decider(values), dec)))

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after the deciding seat's decision ``code``."""
        after = copy(values)
        _apply_action(after, self.tabs.flat, code, self.scratch().dec)
        return after
