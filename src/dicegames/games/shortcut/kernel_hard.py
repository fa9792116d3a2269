"""Shortcut's ``hard`` rule in the kernel: :class:`.heuristics.HardBot`, float for float.

:func:`hard` is :class:`.heuristics.TurnSearch` over the tables of :mod:`.kernel_rules`: the
same expectimax over the turn with the same float operations in the same order (the values
bottom-up where the engine recurses, which computes the same numbers), so it picks the
engine's action to the last bit, ties to the first legal action. Its one table, ``within``
(the solo race's turn-count law of :mod:`.planner`), is built when a hard policy first plays.
"""

from __future__ import annotations

from dicegames.core.kernel import IntArray, njit_inline, njit_uncounted
from dicegames.games.shortcut.kernel_rules import (
    CARS,
    CELL,
    PHASE,
    PLAYER,
    PLAYERS,
    PRESS,
    PUSH_TO,
    ROAD,
    SHORTCUT,
    TOTAL,
    WIDTH,
    BoardTables,
    Work,
    _blocked,
    _legal,
    _push_targets,
)
from dicegames.games.shortcut.planner import HORIZON

LOWEST = -1e300
"""Below every leaf value (``hard``'s are chances; the ``trained`` policy's may be
negative): where a maximum starts."""


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
        best = LOWEST
        for k in range(tail):
            if dist[queue[k]] <= total:
                best = max(best, _leaf(b, work, queue[k]))
        work.values[waits + total] = best
    for total in range(deepest - 1, -1, -1):
        work.values[waits + total] = max(work.values[waits + total],
                                          _press(b, work, here, total, deepest))
    return int(deepest)


@njit_uncounted
def survival(s: IntArray, b: BoardTables, work: Work) -> None:
    """Start a decision's search: the others' survival law at the start of ``work.values``
    (``P(no other car has finished after n rounds)``), and no leaf value computed yet."""
    seat = s[PLAYER]
    values = work.values
    for n in range(HORIZON + 1):
        values[n] = 1.0
    for other in range(s[PLAYERS]):
        if other != seat:
            law = s[CARS + other] * (HORIZON + 1)
            for n in range(HORIZON + 1):
                values[n] = values[n] * (1.0 - b.within[law + n])
    for cell in range(b.cells):
        work.known[cell] = 0


@njit_uncounted
def search(s: IntArray, b: BoardTables, work: Work, count: int) -> int:
    """The legal action (``work.legal[:count]``) of the highest value by the turn's
    expectimax over the leaf values (:func:`_leaf`, or those set beforehand with their
    ``known`` flag), the first on a tie."""
    legal = work.legal
    here = s[CARS + s[PLAYER]]
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
            value = LOWEST
            for j in range(_push_targets(s, b, work.queue)):
                value = max(value, _leaf(b, work, work.queue[j]))
        if k == 0 or value > best_value:
            best, best_value = k, value
    return int(legal[best])


@njit_uncounted
def hard(s: IntArray, b: BoardTables, work: Work) -> int:
    """The hard bot's action code (:class:`.heuristics.HardBot`): the legal action of the
    highest chance to win, the first on a tie."""
    count = _legal(s, b, work.legal, work.dist, work.queue)
    if count == 1:
        return int(work.legal[0])
    survival(s, b, work)
    return search(s, b, work, count)
