"""Monza's bulk kernel: whole games over an integer array, compiled when numba is there.

The rules of :mod:`.rules` (with RULINGS.md's targets: a car on a target moves no more and is
never pushed, a target holds any number of cars) and the ``medium`` and ``hard`` rules of
:mod:`.heuristics`, re-stated over flat integer arrays (see :mod:`dicegames.core.kernel`):
any circuit, 2-6 players, both ``compulsion`` values, ``variant_last_colour``, from any state;
and ``optimal`` (:mod:`.optimal`, the exact two-player solution) where the solver covers the
game. The rules are in :mod:`.kernel_rules`, the ``hard`` rule in :mod:`.kernel_hard`, the
``optimal`` one in :mod:`.kernel_optimal`, the ``trained`` rule (hard plus learned weights) in
:mod:`.kernel_trained`; this module holds the ``random`` and ``medium`` rules, whole games
and the protocol.

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
    float_zeros,
    njit,
    njit_inline,
    njit_uncounted,
    to_list,
    zeros,
)
from dicegames.core.model import PASS
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import COLOURS, DICE, STAY, Advance, MonzaData, Phase, Step
from dicegames.games.monza.kernel_hard import OTHERS, hard_step, hard_tables
from dicegames.games.monza.kernel_optimal import optimal_free_step, optimal_step, optimal_tables
from dicegames.games.monza.kernel_rules import (
    CARS,
    DEPTH,
    DICE_AT,
    FINISHING,
    LAST,
    MAX_MOVES,
    MULTISETS,
    O_PROGRESS,
    O_STF,
    OVER,
    PHASE,
    PLAYER,
    PLAYERS,
    ROLL,
    ROLL_AT,
    ROLL_INDEX,
    ROLLED,
    SQUARES,
    STEP,
    STUCK,
    TURN,
    USED,
    WIDTH,
    Tables,
    _apply_action,
    _apply_outcome,
    _decider,
    _dice_code,
    _free_next,
    _legal,
    best_medium,
    ends_of,
    tables,
)
from dicegames.games.monza.kernel_trained import trained_step, trained_tables
from dicegames.games.monza.rules import ROLLS, MonzaRules
from dicegames.games.monza.trained import shipped_weights

RANDOM, MEDIUM, HARD, OPTIMAL, TRAINED = range(5)
"""Policy codes, in :attr:`MonzaKernel.policies` order."""


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
    reply: IntArray
    """The ends of a reply the hard rule weighs (as ``found``)."""
    cars: IntArray
    """The hard rule's cars after a move, then (from :data:`.kernel_hard.OTHERS`) after
    the reply."""
    memo: FloatArray
    """The race value after a reply, by the square it ends on."""
    stamp: IntArray
    """Which ``memo`` entries are current (a generation, kept in the last slot)."""


# ------------------------------------------------------------------------------ the policies


@njit
def _work(tabs: Tables) -> Work:
    """Scratch arrays for :func:`_choose`: the legal list, the search's stamps (visited
    nodes, then ends met, then the generation), its stack and the ends it found."""
    t = tabs.flat
    squares, width = t[SQUARES], t[WIDTH]
    return Work(zeros(max(width, 2) + 1),
                zeros((squares + 1) * MULTISETS + squares * DEPTH + 1),
                zeros(3 * DEPTH + DEPTH * width), zeros(3 * squares * DEPTH), zeros(6),
                zeros(3 * squares * DEPTH), zeros(2 * OTHERS), float_zeros(squares + 1),
                zeros(squares + 2))


@njit_uncounted
def _medium_step(s: IntArray, t: IntArray, stamps: IntArray, stack: IntArray,
                 found: IntArray) -> int:
    """The medium rule's step (:func:`.heuristics.medium_end` then ``step_towards``): the
    best end by the medium key (:func:`.kernel_rules.best_medium`) of those
    :func:`.kernel_rules.ends_of` lists, reached by the first root step that leads there."""
    seat = s[PLAYER]
    count = ends_of(t, s[CARS + seat], _dice_code(s), stamps, stack, found)
    best = best_medium(t, s, CARS, s[PLAYERS], seat, found, 0, count)
    return int(stack[3 * DEPTH + found[3 * best + 2]])


@njit_inline
def _pick(s: IntArray, t: IntArray, hard: Any, policy: int, rng: IntArray, work: Any) -> int:
    """The action code ``policy`` picks for the deciding seat (see :func:`_choose`);
    ``hard`` holds the hard and optimal rules' tables (chances, weights, rolls, replies,
    solved, pushed), ``work`` the scratch arrays (legal, stamps, stack, found, reply, cars)."""
    legal, stamps, stack, found, reply, cars, memo, stamp = work
    squares, stf = t[SQUARES], t[O_STF]
    phase = s[PHASE]
    if phase == STUCK:
        return int(2 * squares + 1)
    chances, weights, rolls, replies, solved, pushed = hard
    if policy == HARD and phase == STEP:
        return hard_step(s, t, chances, weights, rolls, replies, legal, stamps, stack, found,
                         reply, cars, memo, stamp)
    if policy == TRAINED and phase == STEP:
        return trained_step(s, t, chances, weights, rolls, replies, legal, stamps, stack,
                            found, reply, cars, memo, stamp)
    if policy == OPTIMAL:
        if phase == STEP:
            return optimal_step(s, t, solved, pushed, legal, stamps, stack, found)
        return optimal_free_step(s, t, solved, legal)
    if policy != RANDOM:
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
    return _pick(s, tabs.flat, (tabs.chances, tabs.weights, tabs.rolls, tabs.replies,
                                tabs.solved, tabs.pushed), policy,
                 rng, (work.legal, work.stamps, work.stack, work.found, work.reply, work.cars,
                       work.memo, work.stamp))


@njit_uncounted
def _run(s: IntArray, tabs: Tables, policies: IntArray, dice: IntArray, whims: IntArray,
         work: Work, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends, or until ``stop_seat`` begins its
    ``stop_turns + 1``-th new turn (see :meth:`GameKernel.rollout`); the moves applied."""
    return _play(s, tabs.flat, (tabs.chances, tabs.weights, tabs.rolls, tabs.replies,
                                tabs.solved, tabs.pushed),
                 policies, dice, whims, work.legal, work.stamps, work.stack, work.found,
                 work.roll, (work.reply, work.cars, work.memo, work.stamp), stop_seat,
                 stop_turns)


@njit_uncounted
def _play(s: IntArray, t: IntArray, tables: Any, policies: IntArray, dice: IntArray,
          whims: IntArray, legal: IntArray, stamps: IntArray, stack: IntArray, found: IntArray,
          roll: IntArray, hard: Any, stop_seat: int, stop_turns: int) -> int:
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
            reply, cars, memo, stamp = hard
            code = _pick(s, t, tables, policies[_decider(s)], whims,
                         (legal, stamps, stack, found, reply, cars, memo, stamp))
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
    """Monza over integer arrays: every circuit and option, ``random``, ``medium``,
    ``hard`` and ``trained`` (:mod:`.kernel_trained`, with the weights of :mod:`.trained`;
    :attr:`learned` holds them); ``optimal`` where the exact solution covers the game
    (:mod:`.kernel_optimal`)."""

    game_id = "monza"
    policies: ClassVar[tuple[str, ...]] = ("random", "medium", "hard", "optimal", "trained")
    deterministic: ClassVar[frozenset[str]] = frozenset({"medium", "hard", "optimal",
                                                         "trained"})
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
        self.learned: tuple[float, ...] = shipped_weights()
        self._tables: dict[tuple[bool, bool, tuple[float, ...] | None], Tables] = {}

    def policy_of(self, bot: str) -> str | None:
        """As the base class; ``optimal`` only where the exact solution covers the game."""
        if bot == "optimal" and not self._solved():
            return None
        return super().policy_of(bot)

    def _solved(self) -> bool:
        from dicegames.games.monza.optimal import covered

        return covered(self.game)

    def tables_for(self, policies: Sequence[int]) -> Tables:
        """:attr:`tabs`, with the tables of the policies that need their own (built on first
        use): the hard rule's race tables when it or the trained rule plays (then with the
        :attr:`learned` weights behind the rolls'), the exact solution's when ``optimal``
        plays."""
        trained = TRAINED in policies
        hard, optimal = HARD in policies or trained, OPTIMAL in policies
        if not hard and not optimal:
            return self.tabs
        if optimal and not self._solved():
            raise ValueError("the optimal policy covers the configurations the exact "
                             "solution covers (two players, a solvable circuit)")
        key = (hard, optimal, self.learned if trained else None)
        if key not in self._tables:
            tabs = self.tabs
            if hard:
                chances, weights, rolls, replies = hard_tables(self.game, tabs.flat)
                tabs = tabs._replace(chances=chances, weights=weights, rolls=rolls,
                                     replies=replies)
            if trained:
                tabs = trained_tables(tabs, self.learned)
            if optimal:
                solved, pushed = optimal_tables(self.game)
                tabs = tabs._replace(solved=solved, pushed=pushed)
            self._tables[key] = tabs
        return self._tables[key]

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
