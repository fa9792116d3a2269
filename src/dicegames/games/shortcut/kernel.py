"""Shortcut's bulk kernel: whole games over an integer array, compiled when numba is there.

The rules of :mod:`.rules` and the ``medium`` and ``hard`` bots of :mod:`.heuristics`,
re-stated over flat integer arrays (see :mod:`dicegames.core.kernel`): any board, 2-4 players,
from any state; and the ``optimal`` policy, the exact two-player solution's decisions
(:mod:`.solver`) read from tables (:func:`optimal_tables`), so it decides exactly as the
engine's ``optimal`` bot. The rules (the board's tables, the state array, the codes) are in
:mod:`.kernel_rules`, the ``hard`` rule in :mod:`.kernel_hard`; this module holds the
``random``, ``medium`` and ``optimal`` rules, whole games and the protocol.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from dicegames.core.array_kernel import NO_SEAT, ArrayKernel, horizon_start, horizon_step
from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    IntArray,
    array,
    below,
    copy,
    float_array,
    float_zeros,
    njit,
    njit_uncounted,
    to_list,
    zeros,
)
from dicegames.games.shortcut.board import Board
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.heuristics import CUT_SAVING, STOP_AT
from dicegames.games.shortcut.kernel_hard import hard
from dicegames.games.shortcut.kernel_rules import (
    CARS,
    CELL,
    CHOOSE,
    DECLARE,
    MAX_MOVES,
    MAX_ROLLS,
    OVER,
    PHASE,
    PLAYER,
    PLAYERS,
    PRESS,
    PUSH,
    PUSH_TO,
    ROAD,
    ROAD_ROLL,
    ROLLS,
    SHORTCUT,
    SHORTCUT_ROLL,
    TOTAL,
    TURN,
    WIDTH,
    WINNER,
    BoardTables,
    Work,
    _apply_action,
    _apply_outcome,
    _legal,
    _push_targets,
    _reachable,
    board_tables,
)
from dicegames.games.shortcut.kernel_trained import trained, trained_tables
from dicegames.games.shortcut.planner import HORIZON, planner_for
from dicegames.games.shortcut.rules import ShortcutRules

__all__ = ["MAX_ROLLS", "BoardTables", "ShortcutKernel", "board_tables", "optimal_tables"]

RANDOM, MEDIUM, HARD, OPTIMAL, TRAINED = range(5)
"""Policy codes, in :attr:`ShortcutKernel.policies` order."""


def optimal_tables(tabs: BoardTables, board: Board) -> BoardTables:
    """``tabs`` with the ``optimal`` policy's tables: the exact two-player solution's
    decisions (:mod:`.solver`, read from its disk cache or solved now), flattened."""
    from dicegames.games.shortcut.solver import solve

    solution = solve(board)
    return tabs._replace(opt_declare=array(solution.declare.ravel().tolist()),
                         opt_push=array(solution.push.ravel().tolist()),
                         opt_choose=array(solution.choose.ravel().tolist()),
                         opt_cap=solution.choose.shape[2] - 1)



# ------------------------------------------------------------------------------ the policies


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
        return hard(s, b, work)
    if policy == OPTIMAL:
        return _optimal(s, b)
    if policy == TRAINED:
        return trained(s, b, work)
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
    board); ``trained`` (:mod:`.kernel_trained`) on a board the two-player solution covers,
    any player count.

    Attributes:
        trained_weights: the ``trained`` policy's weights; None (the default) for the
            shipped ones (:func:`.trained.shipped_weights`). The trainer sets candidates
            here; setting them drops the tables built with the previous ones.
    """

    game_id = "shortcut"
    policies: ClassVar[tuple[str, ...]] = ("random", "medium", "hard", "optimal", "trained")
    deterministic: ClassVar[frozenset[str]] = frozenset({"medium", "hard", "optimal",
                                                         "trained"})
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
        self._tables: dict[tuple[bool, bool, bool], BoardTables] = {}
        self._weights: tuple[float, ...] | None = None

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every Shortcut game: any board, any player count."""
        return isinstance(game, ShortcutRules)

    @property
    def trained_weights(self) -> tuple[float, ...] | None:
        """The ``trained`` policy's weights (None: the shipped ones)."""
        return self._weights

    @trained_weights.setter
    def trained_weights(self, weights: Sequence[float] | None) -> None:
        self._weights = None if weights is None else tuple(float(w) for w in weights)
        self._tables = {key: tabs for key, tabs in self._tables.items() if not key[2]}

    def policy_of(self, bot: str) -> str | None:
        """As the base class; ``optimal`` only where the exact solution covers the game,
        ``trained`` only on a board it covers."""
        if (bot == "optimal" and not self._solved()) or (
                bot == "trained" and not self._solved(2)):
            return None
        return super().policy_of(bot)

    def _solved(self, players: int | None = None) -> bool:
        from dicegames.games.shortcut.solver import supported

        return supported(players or self.players, self.board) is None

    def tables_for(self, policies: Sequence[int]) -> BoardTables:
        """:attr:`tabs`, with the tables of the policies that need their own (built on first
        use): the solo race's turn-count law when ``hard`` or ``trained`` plays, the exact
        solution's decisions when ``optimal`` plays, the two-player chances and the weights
        when ``trained`` plays."""
        optimal, learned = OPTIMAL in policies, TRAINED in policies
        hard = HARD in policies or learned
        if not hard and not optimal:
            return self.tabs
        if optimal and not self._solved():
            raise ValueError("the optimal policy covers two players on a solvable board")
        if learned and not self._solved(2):
            raise ValueError("the trained policy needs a board the two-player solution "
                             "covers")
        key = (hard, optimal, learned)
        if key not in self._tables:
            tabs = self.tabs
            if hard:
                within = planner_for(self.game).within
                tabs = tabs._replace(within=float_array([p for law in within for p in law]))
            if optimal:
                tabs = optimal_tables(tabs, self.board)
            if learned:
                tabs = trained_tables(tabs, self.board, self._weights)
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
