"""Petits Chevaux as a bulk kernel over an integer array (see :mod:`dicegames.core.kernel`).

Every option and 2 to 4 players. The array (``P`` seats; the compiled rules are in
:mod:`.kernel_rules`, the bots in :mod:`.kernel_bots`, whole games in :mod:`.kernel_play`, all
driven by :class:`~dicegames.core.array_kernel.ArrayKernel`):

=======================  =========================================================
index                    value
=======================  =========================================================
0 ``PLAYER``             the seat whose turn it is
1 ``TURN``, 2 ``PHASE``  the turn number; :class:`~.data.Phase` (0 draw, 1 roll, 2 move,
                         3 over)
3 ``ROLL``, 4 ``SIXES``  the die to play (0 when none); 6s in a row this turn
5 ``WINNER``             the winning seat, or -1
6 .. 6+4P                each seat's four horses' progress (0..62), seat by seat
6+4P .. 6+4P+56          the owning seat of each track square, or -1 (kept incrementally)
6+4P+56 .. 6+4P+112      the horses on each track square
6+4P+112 .. 6+5P+112     each seat's reach: bit 56-p set when one of its horses is at
                         progress p, 1 to 55 (kept incrementally)
6+5P+112 .. 6+6P+112     each seat's barrages: bit s set when two of its horses are on
                         track square s (kept incrementally)
=======================  =========================================================

Codes: at the draw, the chance outcome is the seat whose colour is drawn; after that, the die
face. Action 0 is ``out``, 1 to 4 move the player's horse 1 to 4 (``r1``.. or ``b1``..), 5 is
``pass``; :meth:`PetitsChevauxKernel.legal` lists them in the engine's order.

Policies: ``random`` (the ``easy`` bot), ``medium`` and ``hard`` (the bots of those names,
move for move: :func:`.heuristics.heuristic_policy` and :func:`.heuristics.hard_policy`), and
``trained`` (:mod:`.kernel_trained`, with the weights of :mod:`.trained`; the engine's
``trained`` bot asks this kernel for its moves).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from dicegames.core.array_kernel import ArrayKernel
from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    IntArray,
    array,
    copy,
    float_array,
)
from dicegames.core.model import PASS as PASS_ACTION
from dicegames.games.petits_chevaux import kernel_bots as bots
from dicegames.games.petits_chevaux import kernel_play as play
from dicegames.games.petits_chevaux import kernel_rules as rules
from dicegames.games.petits_chevaux.board import PATHS, SEATING, TRACK_LENGTH
from dicegames.games.petits_chevaux.data import HORSE_ACTIONS, HORSE_OF, Action, ChevauxData, Phase
from dicegames.games.petits_chevaux.kernel_rules import (
    ENTRANCE,
    HORSES,
    OUT,
    PASS,
    PHASE,
    PLAYER,
    ROLL,
    SIXES,
    STRIDE,
    TURN,
    WINNER,
    Options,
    barrages_at,
    count_at,
    owner_at,
    reach_at,
    size,
)
from dicegames.games.petits_chevaux.trained import hidden_of, shipped_weights


class PetitsChevauxKernel(ArrayKernel):
    """The Petits Chevaux kernel (see the module docstring)."""

    game_id: ClassVar[str] = "petits-chevaux"
    policies: ClassVar[tuple[str, ...]] = ("random", "medium", "hard", "trained")
    compiled_choose = staticmethod(play.choose_move)
    compiled_run = staticmethod(play.run)
    compiled_playouts = staticmethod(play.playouts)
    compiled_work = staticmethod(play.work)

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        options = game.options
        self.players: int = game.players
        self.colours = SEATING[self.players]
        self.cfg = Options(self.players, bool(options["three_sixes_penalty"]),
                           bool(options["compulsory_move"]),
                           bool(options["barrage_blocks_own"]),
                           bool(options["barrage_landing_captures"]))
        self.paths = array([PATHS[colour][p] for colour in self.colours
                            for p in range(STRIDE)])
        weights = shipped_weights()[self.players]  # each count has its own network
        self.tabs: play.Tables = play.Tables(self.cfg, self.paths, float_array(list(weights)),
                                             hidden_of(len(weights)))

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every option set and player count of the game."""
        return bool(game.spec.id == cls.game_id)

    # ---------------------------------------------------------------- states

    def encode(self, data: Any) -> IntArray:
        """The array of engine data (the track's occupancy computed here)."""
        assert isinstance(data, ChevauxData)
        p = self.players
        values = [0] * size(p)
        values[PLAYER], values[TURN], values[PHASE] = data.player, data.turn, int(data.phase)
        values[ROLL], values[SIXES], values[WINNER] = data.roll, data.sixes, data.winner
        own, cnt = owner_at(p), count_at(p)
        for square in range(TRACK_LENGTH):
            values[own + square] = -1
        for seat, row in enumerate(data.horses):
            path = PATHS[self.colours[seat]]
            for horse, progress in enumerate(row):
                values[HORSES + 4 * seat + horse] = progress
                square = path[progress]
                if square >= 0:
                    values[own + square] = seat
                    values[cnt + square] += 1
                if 0 < progress < ENTRANCE:
                    values[reach_at(p) + seat] |= 1 << (ENTRANCE - progress)
        for square in range(TRACK_LENGTH):
            if values[cnt + square] == 2:
                values[barrages_at(p) + values[own + square]] |= 1 << square
        return array(values)

    def decode(self, values: IntArray) -> ChevauxData:
        """The engine data of an array."""
        return ChevauxData(
            horses=tuple(tuple(int(values[HORSES + 4 * s + h]) for h in range(4))
                         for s in range(self.players)),
            player=int(values[PLAYER]), turn=int(values[TURN]),
            phase=Phase(int(values[PHASE])), roll=int(values[ROLL]),
            sixes=int(values[SIXES]), winner=int(values[WINNER]))

    # ---------------------------------------------------------------- steps

    def kind(self, values: IntArray) -> int:
        """Chance at the draw and the rolls, a decision after a roll."""
        phase = int(values[PHASE])
        return (KIND_TERMINAL if phase == rules.OVER else
                KIND_DECISION if phase == rules.MOVE else KIND_CHANCE)

    def outcome_code(self, values: IntArray, outcome: Hashable) -> int:
        """The seat of the colour drawn, or the die face."""
        if int(values[PHASE]) == rules.DRAW:
            return next(s for s, c in enumerate(self.colours) if c.label == outcome)
        assert isinstance(outcome, int)
        return outcome

    def outcome_of(self, values: IntArray, code: int) -> Hashable:
        """The colour's name at the draw, else the die face."""
        if int(values[PHASE]) == rules.DRAW:
            return self.colours[code].label
        return code

    def action_code(self, values: IntArray, action: Hashable) -> int:
        """0 for out, 1..4 for a horse, 5 for pass."""
        if action == PASS_ACTION:
            return PASS
        if action is Action.OUT:
            return OUT
        assert isinstance(action, Action)
        return HORSE_OF[action] + 1

    def action_of(self, values: IntArray, code: int) -> Hashable:
        """The engine action of a code, for the player to move."""
        if code == PASS:
            return PASS_ACTION
        if code == OUT:
            return Action.OUT
        return HORSE_ACTIONS[self.colours[int(values[PLAYER])]][code - 1]

    def apply_outcome(self, values: IntArray, code: int) -> IntArray:
        """The state after the draw or the die shows ``code``."""
        moved = copy(values)
        rules.apply_outcome(moved, self.cfg, code)
        return moved

    def _legal(self, values: IntArray) -> tuple[play.Work, int]:
        """Scratch arrays holding the legal moves (codes and targets), and their number."""
        work = self.scratch()
        n = rules.legal_moves(values, self.cfg, self.paths, work.codes, work.targets)
        return work, int(n)

    def legal(self, values: IntArray) -> list[int]:
        """The legal codes in the engine's order (pass last)."""
        work, n = self._legal(values)
        return [int(work.codes[i]) for i in range(n)]

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after the player plays ``code``."""
        moved = copy(values)
        rules.apply_action(moved, self.cfg, self.paths, code)
        return moved

    def scores(self, values: IntArray, policy: str) -> dict[int, float]:
        """The ``medium`` or ``hard`` score of each legal move but pass, by code."""
        code = self.check_policies([policy] * self.players)[0]
        work, n = self._legal(values)
        bots.score_moves(copy(values), self.cfg, self.paths, code, work.codes, work.targets,
                         n, work.scratch, work.scores)
        return {int(work.codes[i]): float(work.scores[i]) for i in range(n)
                if work.codes[i] != PASS}
