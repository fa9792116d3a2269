"""Playing and judging two-player Shortcut by its exact solution (:mod:`.solver`).

- :class:`OptimalBot`: the ``optimal`` level. Every decision (the declaration, each press
  or stop and where, the cell of a push) is read from the solution's tables: the choice
  with the highest exact chance to win. Equal chances (within 1e-12) go to the declaration
  listed first and to stopping rather than pressing, so play is deterministic.
- :func:`estimator`: the definition's ``estimator`` part: exact chances under optimal play
  from here, so two-player hints, reviews and the design report's traced games on a board
  the solver covers read the solved race instead of sampling it; None elsewhere (three or
  four players, a board over :data:`.solver.LARGEST` cells), where they keep to rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from dicegames.core.estimates import Estimate, Estimator, terminal_estimate
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.rules import ShortcutRules
from dicegames.games.shortcut.solver import (
    Solution,
    UnsolvedConfiguration,
    solution_for,
    supported,
)

DECLARATIONS = (Declaration.ROAD, Declaration.SHORTCUT, Declaration.PUSH)
"""The declarations by their code in the tables."""

OPTIMAL_DOC = ("plays perfectly: the exact solution of the two-player race decides every "
               "declaration, press, stop and push; no opponent wins more than the solved "
               "share against it on average")
"""The optimal level's line (two players, boards of a solvable size)."""


def covered(game: Game[Any, Any, Any]) -> bool:
    """True when the exact solution covers this configured game."""
    return isinstance(game, ShortcutRules) and supported(game.players, game.board) is None


def optimal_action(solution: Solution, state: State[Any, Any, Any]) -> Hashable:
    """The optimal action at ``state`` (a decision of a covered game)."""
    game, data = state.game, state.data
    assert isinstance(game, ShortcutRules) and isinstance(data, ShortcutData)
    kind, code = solution.decision(data)
    if kind == "declare":
        return DECLARATIONS[code]
    if code < 0:
        return Press.PRESS
    return Cell(code, game.board.names[code])


class OptimalBot:
    """The ``optimal`` level (see the module docstring).

    Args:
        game: the configured game. Its solution is read from the disk cache or built at the
            first decision that offers a choice, not here: the web app builds its bots on
            the event loop and lets them think in its bots' threads, and a first solve on a
            fresh machine also compiles the solver (seconds).
        rng: not drawn from (play is deterministic); taken so that every bot is built alike.

    Raises:
        UnsolvedConfiguration: the solution does not cover the game.
    """

    def __init__(self, game: Any, rng: random.Random) -> None:
        reason = supported(game.players, game.board)
        if reason is not None:
            raise UnsolvedConfiguration(f"Shortcut is not solved here: {reason}")
        self.rng = rng
        self._game = game
        self._solution: Solution | None = None

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """The choice with the highest exact chance to win."""
        legal: tuple[Hashable, ...] = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if self._solution is None:
            self._solution = solution_for(self._game)
        return optimal_action(self._solution, state)


class ExactShortcut:
    """Two-player Shortcut by the exact solution: chances under optimal play from here."""

    kind = "exact"
    description = "exact win chance under optimal play from here on (the solved race)"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self._solution = solution_for(game)

    def first(self, state: State[Any, Any, Any]) -> float:
        """Seat 0's exact chance at a non-terminal ``state``."""
        data = state.data
        assert isinstance(data, ShortcutData)
        solution = self._solution
        if data.phase is Phase.DECLARE:
            return solution.chance(data.cars, 0) if data.player == 0 else (
                1.0 - solution.chance(data.cars, 1))
        if state.is_chance:
            return sum(float(weight) * self.position(state.apply(outcome)).chances[0]
                       for outcome, weight in state.chance_outcomes())
        return self.position(state.apply(optimal_action(solution, state))).chances[0]

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Both seats' exact chances (they sum to 1)."""
        if state.is_terminal:
            return terminal_estimate(state)
        first = self.first(state)
        return Estimate((first, 1.0 - first), 0.0)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """Each legal choice, with both seats' exact chances after it."""
        return {action: self.position(state.apply(action, seat))
                for action in state.legal_actions(seat)}


def estimator(game: Game[Any, Any, Any]) -> Estimator | None:
    """The exact estimate for two players on a solvable board; None elsewhere."""
    return ExactShortcut(game) if covered(game) else None
