"""Shortcut's rules over integer arrays: the board's tables, the state array and the moves.

The part of Shortcut's kernel that the policies build on (:mod:`.kernel` plays whole games
and holds the ``random``, ``medium`` and ``optimal`` rules, :mod:`.kernel_hard` the ``hard``
one), as Monza's kernel is split.

**The board as data.** :func:`board_tables` turns a :class:`~.board.Board` into
:class:`BoardTables`: its size, start, finish and road length, the ``grey`` flags, each cell's
``road_pos``, the ``road`` cells in order, each cell's one-step destinations (``nsteps`` and
``steps``, :data:`WIDTH` slots a cell) and ``stf``, the fewest steps to the finish (the medium
rule's measure and the result's score), and ``within``, the solo race's turn-count law of
:mod:`.planner` (the hard bot's leaf values; built when a hard policy first plays). The
compiled functions share the scratch arrays of :class:`Work`.

**The state array**: ``[phase, player, turn, winner, rolls, total, players, cars...,
roll_1..roll_MAX]``: the engine's :class:`~.data.ShortcutData` field by field, with the
shortcut dice of the turn in order (at most :data:`MAX_ROLLS`; the rules need only their
total, so a longer turn still plays exactly, it just cannot be decoded).

**Codes.** Actions: ``road`` 0, ``shortcut`` 1, ``push`` 2, ``press`` 3, the cell numbered
``c`` is ``4 + c``. Chance outcomes: the die's face 1..6.
"""

from __future__ import annotations

from typing import NamedTuple

from dicegames.core.kernel import FloatArray, IntArray, array, float_array, njit_uncounted
from dicegames.games.shortcut.board import Board, Kind
from dicegames.games.shortcut.data import Phase
from dicegames.games.shortcut.planner import _steps_to_finish
from dicegames.games.shortcut.rules import STUCK

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
    """The ``optimal`` policy's tables (:func:`.kernel.optimal_tables`; one unused slot without it):
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
    pair: FloatArray
    """The ``trained`` policy's two-player table (:mod:`.kernel_trained`; one 0 until it
    plays): ``pair[a * cells + b]``, the exact chance that the car on ``a``, to move, beats
    the car on ``b`` in the two-player race (:mod:`.solver`),"""
    weights: FloatArray
    """and its weights (:data:`.kernel_trained.FEATURES` of them)."""


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
                       float_array([0.0]), float_array([0.0]), float_array([0.0]))


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
