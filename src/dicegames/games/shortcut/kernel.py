"""Shortcut's bulk kernel: whole games over an integer array, compiled when numba is there.

The rules of :mod:`.rules` and the ``medium`` and ``hard`` bots of :mod:`.heuristics`,
re-stated over flat integer arrays (see :mod:`dicegames.core.kernel`): any board, 2-4 players,
from any state; and the ``optimal`` policy, the exact two-player solution's decisions
(:mod:`.solver`) read from tables (:func:`optimal_tables`), so it decides exactly as the
engine's ``optimal`` bot.

**The board as data.** :func:`board_tables` turns a :class:`~.board.Board` into
:class:`BoardTables`: its size, start, finish and road length, the ``grey`` flags, each cell's
``road_pos``, the ``road`` cells in order, each cell's one-step destinations (``nsteps`` and
``steps``, :data:`WIDTH` slots a cell) and ``stf``, the fewest steps to the finish (the medium
rule's measure and the result's score), and ``within``, the solo race's turn-count law of
:mod:`.planner` (the hard bot's leaf values; built when a hard policy first plays). The
compiled functions share the scratch arrays of :class:`Work`.

**The hard bot** (:func:`_hard`) is :class:`.heuristics.TurnSearch` over these tables: the
same expectimax over the turn with the same float operations in the same order (the values
bottom-up where the engine recurses, which computes the same numbers), so it picks the
engine's action to the last bit, ties to the first legal action.

**The state array**: ``[phase, player, turn, winner, rolls, total, players, cars...,
roll_1..roll_MAX]``: the engine's :class:`~.data.ShortcutData` field by field, with the
shortcut dice of the turn in order (at most :data:`MAX_ROLLS`; the rules need only their
total, so a longer turn still plays exactly, it just cannot be decoded).

**Codes.** Actions: ``road`` 0, ``shortcut`` 1, ``push`` 2, ``press`` 3, the cell numbered
``c`` is ``4 + c``. Chance outcomes: the die's face 1..6.
"""

from __future__ import annotations

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
    float_zeros,
    njit,
    njit_inline,
    njit_uncounted,
    to_list,
    zeros,
)
from dicegames.games.shortcut.board import Board, Kind
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.heuristics import CUT_SAVING, STOP_AT
from dicegames.games.shortcut.planner import HORIZON, _steps_to_finish, planner_for
from dicegames.games.shortcut.rules import STUCK, ShortcutRules

PHASE, PLAYER, TURN, WINNER, ROLLS, TOTAL, PLAYERS, CARS = range(8)
"""Slots of the state array (the cars follow from ``CARS``, then the rolls)."""

MAX_MOVES = 1_000_000
"""A safety cap on the moves of one game in the kernel."""

MAX_ROLLS = 48
"""Shortcut dice of one turn kept for decoding (2**-48 is the chance of a longer turn)."""

WIDTH = 4
"""Slots per cell in the ``steps`` table (orthogonal steps: at most four)."""

ROAD, SHORTCUT, PUSH, PRESS, CELL = range(5)
"""Action codes; the cell numbered ``c`` is ``CELL + c``."""

DECLARE, ROAD_ROLL, SHORTCUT_ROLL, CHOOSE, PUSH_TO, OVER = (int(p) for p in Phase)

RANDOM, MEDIUM, HARD, OPTIMAL = range(4)
"""Policy codes, in :attr:`ShortcutKernel.policies` order."""


class BoardTables(NamedTuple):
    """A board as the compiled functions read it (:func:`board_tables`)."""

    cells: int
    """Cells on the board (numbered ``0 .. cells - 1``)."""
    start: int
    """The start cell."""
    finish: int
    """The finish cell."""
    road_length: int
    """Places on the road, start to finish."""
    grey: IntArray
    """1 for each grey (shortcut field) cell, else 0."""
    road_pos: IntArray
    """Each cell's place on the road."""
    road: IntArray
    """The road's cells in order."""
    nsteps: IntArray
    """Each cell's number of one-step destinations."""
    steps: IntArray
    """The one-step destinations, :data:`WIDTH` slots a cell."""
    stf: IntArray
    """Each cell's fewest steps to the finish."""
    opt_declare: IntArray
    """The ``optimal`` policy's tables (:func:`optimal_tables`; one unused slot without it):
    its declaration for the mover on ``a``, the other car on ``b``, at ``a * cells + b``,"""
    opt_push: IntArray
    """its push cell at the same index,"""
    opt_choose: IntArray
    """and after a shortcut roll to total ``t``, -1 (press) or the cell to stop on at
    ``(a * cells + b) * (opt_cap + 1) + min(t, opt_cap)``."""
    opt_cap: int
    """The last shortcut total of ``opt_choose`` (it stands for every larger one)."""
    within: FloatArray
    """The hard bot's turn-count law: ``within[c * (HORIZON + 1) + n]``, the chance to finish
    from cell ``c`` within ``n`` turns under the best solo play (one 0 until hard plays)."""


class Work(NamedTuple):
    """Scratch arrays of the compiled functions (one per call: :func:`_work`)."""

    legal: IntArray
    """Legal action codes (``cells + 1``)."""
    dist: IntArray
    """Breadth-first distances (``cells``)."""
    queue: IntArray
    """Breadth-first queue and cell lists (``cells``)."""
    known: IntArray
    """The hard bot's flags: each cell's leaf value computed (``cells``)."""
    values: FloatArray
    """The hard bot's floats: the others' survival law (``HORIZON + 1``), then each cell's
    leaf value (``cells``), then the waits by shortcut total (``cells + 4``)."""


def board_tables(board: Board) -> BoardTables:
    """The board as the kernel's tables."""
    cells = len(board.kinds)
    steps = [0] * (cells * WIDTH)
    for cell, targets in enumerate(board.steps):
        if len(targets) > WIDTH:
            raise ValueError(f"cell {board.names[cell]} has {len(targets)} steps")
        steps[cell * WIDTH:cell * WIDTH + len(targets)] = targets
    return BoardTables(cells, board.start, board.finish, len(board.road),
                       array([int(kind is Kind.GREY) for kind in board.kinds]),
                       array(board.road_pos), array(board.road),
                       array([len(targets) for targets in board.steps]), array(steps),
                       array(_steps_to_finish(board)), array([0]), array([0]), array([0]), 0,
                       float_array([0.0]))


def optimal_tables(tabs: BoardTables, board: Board) -> BoardTables:
    """``tabs`` with the ``optimal`` policy's tables: the exact two-player solution's
    decisions (:mod:`.solver`, read from its disk cache or solved now), flattened."""
    from dicegames.games.shortcut.solver import solve

    solution = solve(board)
    return tabs._replace(opt_declare=array(solution.declare.ravel().tolist()),
                         opt_push=array(solution.push.ravel().tolist()),
                         opt_choose=array(solution.choose.ravel().tolist()),
                         opt_cap=solution.choose.shape[2] - 1)


# ------------------------------------------------------------------------------ the rules


@njit_uncounted
def _blocked(s: IntArray, grey: IntArray, cell: int, seat: int) -> bool:
    """True when ``cell`` is grey and holds a car other than ``seat``'s."""
    held = False
    if grey[cell] == 1:
        for other in range(s[PLAYERS]):
            if other != seat and s[CARS + other] == cell:
                held = True
    return held


@njit_uncounted
def _push_targets(s: IntArray, b: BoardTables, out: IntArray) -> int:
    """The current car's one-step destinations into ``out`` (board order); their number."""
    seat = s[PLAYER]
    here = s[CARS + seat]
    found = 0
    for k in range(b.nsteps[here]):
        cell = b.steps[here * WIDTH + k]
        if not _blocked(s, b.grey, cell, seat):
            out[found] = cell
            found += 1
    return found


@njit_uncounted
def _reachable(s: IntArray, b: BoardTables, out: IntArray, dist: IntArray,
               queue: IntArray) -> int:
    """Cells within the shortcut total (the car's own included) into ``out`` in board order."""
    seat = s[PLAYER]
    here = s[CARS + seat]
    total = s[TOTAL]
    for cell in range(b.cells):
        dist[cell] = -1
    dist[here] = 0
    queue[0] = here
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        if dist[cell] == total or cell == b.finish:
            continue
        for k in range(b.nsteps[cell]):
            step = b.steps[cell * WIDTH + k]
            if dist[step] < 0 and not _blocked(s, b.grey, step, seat):
                dist[step] = dist[cell] + 1
                queue[tail] = step
                tail += 1
    found = 0
    for cell in range(b.cells):
        if dist[cell] >= 0:
            out[found] = cell
            found += 1
    return found


@njit_uncounted
def _legal(s: IntArray, b: BoardTables, out: IntArray, dist: IntArray, queue: IntArray) -> int:
    """The legal action codes into ``out`` in the engine's order; their number."""
    phase = s[PHASE]
    if phase == DECLARE:
        here = s[CARS + s[PLAYER]]
        found = 0
        if b.grey[here] == 0:
            out[found] = ROAD
            found += 1
        out[found] = SHORTCUT
        found += 1
        if _push_targets(s, b, queue) > 0:
            out[found] = PUSH
            found += 1
        return found
    if phase == CHOOSE:
        found = _reachable(s, b, queue, dist, out)
        out[0] = PRESS
        for k in range(found):
            out[k + 1] = CELL + queue[k]
        return found + 1
    if phase == PUSH_TO:
        found = _push_targets(s, b, queue)
        for k in range(found):
            out[k] = CELL + queue[k]
        return found
    return 0


@njit_uncounted
def _end_turn(s: IntArray, b: BoardTables, cell: int) -> None:
    """Put the current car on ``cell``: a win on the finish, else the next player's turn."""
    player = s[PLAYER]
    s[CARS + player] = cell
    first = CARS + s[PLAYERS]
    for k in range(min(s[ROLLS], MAX_ROLLS)):  # a canonical array: unused slots hold 0
        s[first + k] = 0
    s[ROLLS] = 0
    s[TOTAL] = 0
    if cell == b.finish:
        s[PHASE] = OVER
        s[WINNER] = player
    else:
        s[PHASE] = DECLARE
        s[PLAYER] = (player + 1) % s[PLAYERS]
        s[TURN] += 1


@njit_uncounted
def _apply_action(s: IntArray, b: BoardTables, code: int, scratch: IntArray) -> None:
    """Play action ``code`` in place."""
    if code == ROAD:
        s[PHASE] = ROAD_ROLL
    elif code in (SHORTCUT, PRESS):
        s[PHASE] = SHORTCUT_ROLL
    elif code == PUSH:
        if _push_targets(s, b, scratch) == 1:
            _end_turn(s, b, scratch[0])
        else:
            s[PHASE] = PUSH_TO
    else:
        _end_turn(s, b, code - CELL)


@njit_uncounted
def _apply_outcome(s: IntArray, b: BoardTables, face: int) -> None:
    """Apply the die ``face`` in place (a road roll or a shortcut roll)."""
    here = s[CARS + s[PLAYER]]
    if s[PHASE] == ROAD_ROLL:
        place = b.road_pos[here] + face
        _end_turn(s, b, b.road[place] if place < b.road_length else here)
    elif face >= STUCK:
        _end_turn(s, b, here)
    else:
        rolls = s[ROLLS]
        if rolls < MAX_ROLLS:
            s[CARS + s[PLAYERS] + rolls] = face
        s[ROLLS] = rolls + 1
        s[TOTAL] += face
        s[PHASE] = CHOOSE


@njit_uncounted
def _nearest(cells: IntArray, count: int, stf: IntArray) -> int:
    """The cell of ``cells[:count]`` fewest steps from the finish (lowest number on a tie)."""
    best = cells[0]
    for k in range(1, count):
        cell = cells[k]
        if stf[cell] < stf[best] or (stf[cell] == stf[best] and cell < best):
            best = cell
    return int(best)


@njit_uncounted
def _medium(s: IntArray, b: BoardTables, dist: IntArray, queue: IntArray,
            cells: IntArray) -> int:
    """The medium rule's action code (:func:`.heuristics.medium_policy`)."""
    phase = s[PHASE]
    here = s[CARS + s[PLAYER]]
    if phase == PUSH_TO:
        return int(CELL + _nearest(cells, _push_targets(s, b, cells), b.stf))
    if phase == CHOOSE:
        best = _nearest(cells, _reachable(s, b, cells, dist, queue), b.stf)
        if best == b.finish or b.grey[here] == 1 or s[TOTAL] >= STOP_AT:
            return int(CELL + best)
        return PRESS
    if b.grey[here] == 1:
        return PUSH if _push_targets(s, b, cells) > 0 else SHORTCUT
    distance = b.road_length - 1 - b.road_pos[here]
    if distance == 1:
        return PUSH
    if distance <= 3:
        return SHORTCUT
    near_grey = False
    for k in range(b.nsteps[here]):
        if b.grey[b.steps[here * WIDTH + k]] == 1:
            near_grey = True
    if near_grey and distance - b.stf[here] >= CUT_SAVING:
        return SHORTCUT
    return ROAD


@njit_inline
def _leaf(b: BoardTables, work: Work, cell: int) -> float:
    """:meth:`.heuristics.TurnSearch.leaf`: the chance to win when the turn ends on ``cell``
    (the others' survival law at the start of ``work.values``), computed once a decision."""
    values = work.values
    at = HORIZON + 1 + cell
    if work.known[cell] == 0:
        work.known[cell] = 1
        if cell == b.finish:
            values[at] = 1.0
        else:
            law = cell * (HORIZON + 1)
            value = 0.0
            for n in range(1, HORIZON + 1):
                value += (b.within[law + n] - b.within[law + n - 1]) * values[n]
            values[at] = value
    return float(values[at])


@njit_inline
def _wait(b: BoardTables, work: Work, total: int, deepest: int) -> float:
    """:meth:`.heuristics.TurnSearch.wait` (filled by :func:`_press_values`)."""
    return float(work.values[HORIZON + 1 + b.cells + min(total, deepest)])


@njit_inline
def _press(b: BoardTables, work: Work, here: int, total: int, deepest: int) -> float:
    """:meth:`.heuristics.TurnSearch.press_value`: roll (again) with ``total`` so far."""
    rest = (_wait(b, work, total + 1, deepest) + _wait(b, work, total + 2, deepest)
            + _wait(b, work, total + 3, deepest))
    return _leaf(b, work, here) / 2 + rest / 6


@njit_uncounted
def _press_values(s: IntArray, b: BoardTables, work: Work) -> int:
    """The waits of :meth:`.heuristics.TurnSearch.wait` for every total up to the deepest
    cell the car reaches (bottom-up; a total beyond it only stops); the deepest distance."""
    seat = s[PLAYER]
    here = s[CARS + seat]
    dist, queue = work.dist, work.queue
    for cell in range(b.cells):
        dist[cell] = -1
    dist[here] = 0
    queue[0] = here
    head, tail = 0, 1
    while head < tail:  # board.reachable(here, 10_000, blocked)
        cell = queue[head]
        head += 1
        if cell == b.finish:
            continue
        for k in range(b.nsteps[cell]):
            step = b.steps[cell * WIDTH + k]
            if dist[step] < 0 and not _blocked(s, b.grey, step, seat):
                dist[step] = dist[cell] + 1
                queue[tail] = step
                tail += 1
    deepest = dist[queue[tail - 1]]
    waits = HORIZON + 1 + b.cells
    for total in range(deepest + 1):  # the best stop within each total
        best = -1.0
        for k in range(tail):
            if dist[queue[k]] <= total:
                best = max(best, _leaf(b, work, queue[k]))
        work.values[waits + total] = best
    for total in range(deepest - 1, -1, -1):
        work.values[waits + total] = max(work.values[waits + total],
                                          _press(b, work, here, total, deepest))
    return int(deepest)


@njit_uncounted
def _hard(s: IntArray, b: BoardTables, work: Work) -> int:
    """The hard bot's action code (:class:`.heuristics.HardBot`): the legal action of the
    highest chance to win, the first on a tie."""
    legal = work.legal
    count = _legal(s, b, legal, work.dist, work.queue)
    if count == 1:
        return int(legal[0])
    seat = s[PLAYER]
    here = s[CARS + seat]
    values = work.values
    for n in range(HORIZON + 1):  # P(no other car has finished after n rounds)
        values[n] = 1.0
    for other in range(s[PLAYERS]):
        if other != seat:
            law = s[CARS + other] * (HORIZON + 1)
            for n in range(HORIZON + 1):
                values[n] = values[n] * (1.0 - b.within[law + n])
    for cell in range(b.cells):
        work.known[cell] = 0
    deepest = -1
    if s[PHASE] != PUSH_TO:
        for k in range(count):
            if legal[k] in (SHORTCUT, PRESS):
                deepest = _press_values(s, b, work)
                break
    best, best_value = 0, -1.0
    for k in range(count):
        code = legal[k]
        if code >= CELL:
            value = _leaf(b, work, code - CELL)
        elif code == PRESS:
            value = _press(b, work, here, s[TOTAL], deepest)
        elif code == SHORTCUT:
            value = _press(b, work, here, 0, deepest)
        elif code == ROAD:
            value = 0.0
            for roll in range(1, 7):
                place = b.road_pos[here] + roll
                value += _leaf(b, work, b.road[place] if place < b.road_length else here)
            value = value / 6
        else:  # push: the best one-step destination
            value = -1.0
            for j in range(_push_targets(s, b, work.queue)):
                value = max(value, _leaf(b, work, work.queue[j]))
        if k == 0 or value > best_value:
            best, best_value = k, value
    return int(legal[best])


@njit_uncounted
def _optimal(s: IntArray, b: BoardTables) -> int:
    """The ``optimal`` policy's action code, read from its tables (two players)."""
    here = s[CARS + s[PLAYER]]
    pair = here * b.cells + s[CARS + 1 - s[PLAYER]]
    phase = s[PHASE]
    if phase == DECLARE:
        return int(b.opt_declare[pair])  # ROAD, SHORTCUT, PUSH: the kernel's codes too
    if phase == PUSH_TO:
        return int(CELL + b.opt_push[pair])
    cell = b.opt_choose[pair * (b.opt_cap + 1) + min(s[TOTAL], b.opt_cap)]
    return PRESS if cell < 0 else int(CELL + cell)


@njit_uncounted
def _choose(s: IntArray, b: BoardTables, policy: int, rng: IntArray, work: Work) -> int:
    """The action code ``policy`` picks (random: uniform over the legal codes)."""
    if policy == MEDIUM:
        return _medium(s, b, work.dist, work.queue, work.legal)
    if policy == HARD:
        return _hard(s, b, work)
    if policy == OPTIMAL:
        return _optimal(s, b)
    count = _legal(s, b, work.legal, work.dist, work.queue)
    return int(work.legal[below(rng, count)] if count > 1 else work.legal[0])


@njit
def _work(b: BoardTables) -> Work:
    """Fresh scratch arrays for the board."""
    return Work(zeros(b.cells + 1), zeros(b.cells), zeros(b.cells), zeros(b.cells),
                float_zeros(HORIZON + 1 + 2 * b.cells + 4))


@njit_uncounted
def _run(s: IntArray, b: BoardTables, policies: IntArray, dice: IntArray, whims: IntArray,
         work: Work, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends, or until ``stop_seat`` begins its
    ``stop_turns + 1``-th new turn (see :meth:`GameKernel.rollout`); the moves applied."""
    seen, left = horizon_start(s[PLAYER], s[TURN], stop_seat, stop_turns)
    played = 0
    while s[PHASE] != OVER and played < MAX_MOVES:
        seen, left = horizon_step(s[PLAYER], s[TURN], stop_seat, seen, left)
        if left == 0:
            break
        if s[PHASE] in (ROAD_ROLL, SHORTCUT_ROLL):
            _apply_outcome(s, b, below(dice, 6) + 1)
        else:
            code = _choose(s, b, policies[s[PLAYER]], whims, work)
            _apply_action(s, b, code, work.queue)
        played += 1
    return played


@njit
def _playouts(start: IntArray, b: BoardTables, policies: IntArray, dice: IntArray,
              whims: IntArray, out: Any) -> None:
    """Play one game from ``start`` per row of ``out = (winners, scores, turns, moves)``."""
    winners, scores, turns, moves = out
    players = start[PLAYERS]
    s = copy(start)
    work = _work(b)
    for game in range(len(turns)):
        for k in range(len(start)):
            s[k] = start[k]
        moves[game] = _run(s, b, policies, dice, whims, work, NO_SEAT, 0)
        for seat in range(players):
            winners[game * players + seat] = int(s[WINNER] == seat)
            scores[game * players + seat] = -b.stf[s[CARS + seat]]
        turns[game] = s[TURN]


# ------------------------------------------------------------------------------ the protocol


class ShortcutKernel(ArrayKernel):
    """Shortcut over integer arrays: any board, 2-4 players, ``random``, ``medium`` and
    ``hard``; ``optimal`` where the exact solution covers the game (two players, a solvable
    board)."""

    game_id = "shortcut"
    policies: ClassVar[tuple[str, ...]] = ("random", "medium", "hard", "optimal")
    deterministic: ClassVar[frozenset[str]] = frozenset({"medium", "hard", "optimal"})
    compiled_choose = staticmethod(_choose)
    compiled_run = staticmethod(_run)
    compiled_playouts = staticmethod(_playouts)
    compiled_work = staticmethod(_work)

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        assert isinstance(game, ShortcutRules)
        self.board: Board = game.board
        self.players: int = game.players
        self.tabs: BoardTables = board_tables(game.board)
        self._tables: dict[tuple[bool, bool], BoardTables] = {}

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every Shortcut game: any board, any player count."""
        return isinstance(game, ShortcutRules)

    def policy_of(self, bot: str) -> str | None:
        """As the base class; ``optimal`` only where the exact solution covers the game."""
        if bot == "optimal" and not self._solved():
            return None
        return super().policy_of(bot)

    def _solved(self) -> bool:
        from dicegames.games.shortcut.solver import supported

        return supported(self.players, self.board) is None

    def tables_for(self, policies: Sequence[int]) -> BoardTables:
        """:attr:`tabs`, with the tables of the policies that need their own (built on first
        use): the solo race's turn-count law when ``hard`` plays, the exact solution's
        decisions when ``optimal`` plays."""
        hard, optimal = HARD in policies, OPTIMAL in policies
        if not hard and not optimal:
            return self.tabs
        if optimal and not self._solved():
            raise ValueError("the optimal policy covers two players on a solvable board")
        key = (hard, optimal)
        if key not in self._tables:
            tabs = self.tabs
            if hard:
                within = planner_for(self.game).within
                tabs = tabs._replace(within=float_array([p for law in within for p in law]))
            if optimal:
                tabs = optimal_tables(tabs, self.board)
            self._tables[key] = tabs
        return self._tables[key]

    # ---------------------------------------------------------------- states

    def encode(self, data: Any) -> IntArray:
        """The array of :class:`~.data.ShortcutData` ``data``."""
        assert isinstance(data, ShortcutData)
        if len(data.rolls) > MAX_ROLLS:
            raise ValueError(f"a turn of {len(data.rolls)} shortcut dice; the kernel keeps "
                             f"at most {MAX_ROLLS}")
        rolls = [*data.rolls, *[0] * (MAX_ROLLS - len(data.rolls))]
        return array([int(data.phase), data.player, data.turn, data.winner, len(data.rolls),
                      sum(data.rolls), self.players, *data.cars, *rolls])

    def decode(self, values: IntArray) -> ShortcutData:
        """The :class:`~.data.ShortcutData` of an array."""
        v = to_list(values)
        rolls = v[ROLLS]
        if rolls > MAX_ROLLS:
            raise ValueError(f"a turn of {rolls} shortcut dice cannot be decoded (at most "
                             f"{MAX_ROLLS} are kept)")
        first = CARS + self.players
        return ShortcutData(tuple(v[CARS:first]), v[PLAYER], v[TURN], Phase(v[PHASE]),
                            tuple(v[first:first + rolls]), v[WINNER])

    # ---------------------------------------------------------------- steps

    def kind(self, values: IntArray) -> int:
        """Chance on the two roll phases, terminal once over, else a decision."""
        phase = int(values[PHASE])
        if phase == OVER:
            return KIND_TERMINAL
        return KIND_CHANCE if phase in (ROAD_ROLL, SHORTCUT_ROLL) else KIND_DECISION

    def outcome_code(self, values: IntArray, outcome: Hashable) -> int:
        """A die's face is its own code."""
        assert isinstance(outcome, int) and 1 <= outcome <= 6
        return outcome

    def outcome_of(self, values: IntArray, code: int) -> Hashable:
        """The face of code ``code``."""
        return int(code)

    def action_code(self, values: IntArray, action: Hashable) -> int:
        """``road`` 0, ``shortcut`` 1, ``push`` 2, ``press`` 3, a cell ``4 + number``."""
        if isinstance(action, Cell):
            return CELL + action.index
        if action is Press.PRESS:
            return PRESS
        return (Declaration.ROAD, Declaration.SHORTCUT, Declaration.PUSH).index(action)

    def action_of(self, values: IntArray, code: int) -> Hashable:
        """The engine action of ``code``."""
        if code >= CELL:
            return Cell(code - CELL, self.board.names[code - CELL])
        if code == PRESS:
            return Press.PRESS
        return (Declaration.ROAD, Declaration.SHORTCUT, Declaration.PUSH)[code]

    def apply_outcome(self, values: IntArray, code: int) -> IntArray:
        """The state after the die shows ``code``."""
        after = copy(values)
        _apply_outcome(after, self.tabs, code)
        return after

    def legal(self, values: IntArray) -> list[int]:
        """The legal action codes, in the engine's order."""
        work = self.scratch()
        count = _legal(values, self.tabs, work.legal, work.dist, work.queue)
        return to_list(work.legal)[:count]

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after action ``code``."""
        after = copy(values)
        _apply_action(after, self.tabs, code, self.scratch().queue)
        return after
