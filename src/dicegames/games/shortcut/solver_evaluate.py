"""Exact chances of fixed two-player Shortcut policies, and each level's loss against optimal.

A policy is three tables in the layout of :class:`.solver.Solution` (``declare``, ``push``,
``choose``), read off a bot by asking it at every decision of every position
(:func:`policy_of_bot`: exact for a bot that decides the same way every time, as ``medium``,
``hard`` and ``optimal`` do) or the uniformly random policy (:func:`uniform_policy`: the
``easy`` and ``random`` bots). Two policies make the race a Markov chain, whose chances
:func:`evaluate` finds by the same kind of sweeps as the solver
(:func:`.solver_core.policy_sweep`).

Shortcut totals: the tables stop at the board's ``cap`` (the largest total that still reaches
a new cell, plus 3); a bot must decide at every larger total as it does at ``cap``. The bots
of this game do (their choices depend on the cells in range and, for ``medium``, on whether the
total reached 3); :func:`policy_of_bot` checks it on the next three totals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from dicegames.core.game import State
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.solver import (
    MAX_SWEEPS,
    TOLERANCE,
    BoardArrays,
    Solution,
    board_arrays,
    solve,
)

CODES = {Declaration.ROAD: 0, Declaration.SHORTCUT: 1, Declaration.PUSH: 2}
"""Declarations as the tables' codes (:data:`.solver_core.ROAD` ...)."""


@dataclass(frozen=True)
class Policy:
    """One seat's decisions as tables (see the module docstring)."""

    declare: Any
    push: Any
    choose: Any


def optimal_policy(solution: Solution) -> Policy:
    """The optimal player's tables."""
    return Policy(solution.declare, solution.push, solution.choose)


def uniform_policy(arrays: BoardArrays) -> Policy:
    """Every legal choice equally likely, at every decision (the random bot)."""
    import numpy as np

    from dicegames.games.shortcut import solver_core

    n = arrays.cells
    return Policy(np.full((n, n), solver_core.UNIFORM, dtype=np.int16),
                  np.full((n, n), solver_core.ANY, dtype=np.int16),
                  np.full((n, n, arrays.cap + 1), solver_core.ANY, dtype=np.int16))


def _rolls(total: int) -> tuple[int, ...]:
    """Shortcut dice adding up to ``total`` (threes, then the rest)."""
    return (3,) * (total // 3) + ((total % 3,) if total % 3 else ())


def policy_of_bot(game: Any, bot: Any, arrays: BoardArrays | None = None) -> Policy:
    """The tables of a bot that decides the same way every time (asked at every decision of
    every position with seat 0 to move; the seats are alike).

    Raises:
        ValueError: the bot decides differently past the tables' last total.
    """
    import numpy as np

    from dicegames.games.shortcut import solver_core

    board = game.board
    arrays = arrays or board_arrays(board)
    n, cap = arrays.cells, arrays.cap
    declare = np.zeros((n, n), dtype=np.int16)
    push = np.full((n, n), solver_core.NONE, dtype=np.int16)
    choose = np.zeros((n, n, cap + 1), dtype=np.int16)

    def ask(data: ShortcutData) -> Any:
        return bot.choose(State(game, data), 0)

    def code(action: Any) -> int:
        if action is Press.PRESS:
            return solver_core.PRESS
        assert isinstance(action, Cell)
        return action.index

    for a in range(n):
        if a == board.finish:
            continue
        for b in range(n):
            if b == board.finish or (a == b and board.is_grey(a)):
                continue
            base = ShortcutData(cars=(a, b))
            declare[a, b] = CODES[ask(base)]
            if len(game.board.push_targets(a, game.blocked(base, 0))) > 1:
                push[a, b] = code(ask(replace(base, phase=Phase.PUSH_TO)))
            for total in range(1, cap + 4):
                choice = code(ask(replace(base, phase=Phase.CHOOSE, rolls=_rolls(total))))
                if total <= cap:
                    choose[a, b, total] = choice
                elif choice != choose[a, b, cap]:
                    raise ValueError(f"the bot decides differently at a shortcut total of "
                                     f"{total} than at {cap} on {board.names[a]}")
    return Policy(declare, push, choose)


def evaluate(arrays: BoardArrays, first: Policy, second: Policy) -> Any:
    """``v[p, a, b]``: seat ``p``'s chance to win when it declares on ``a`` (the other car
    on ``b``), seat 0 playing ``first`` and seat 1 ``second``."""
    import numpy as np

    from dicegames.games.shortcut import solver_core

    n = arrays.cells
    v = np.full((2, n, n), 0.5)
    declare = np.stack([first.declare, second.declare])
    push = np.stack([first.push, second.push])
    choose = np.stack([first.choose, second.choose])
    c_, s = arrays.scratch()
    for _ in range(MAX_SWEEPS):
        if solver_core.policy_sweep(v, *arrays.tables(), declare, push, choose, c_,
                                    s) <= TOLERANCE:
            break
    return v


def first_wins(arrays: BoardArrays, start: int, first: Policy, second: Policy) -> float:
    """The first seat's exact chance to win from the start."""
    return float(evaluate(arrays, first, second)[0, start, start])


@dataclass(frozen=True)
class Loss:
    """A level against the optimal player, exactly.

    Attributes:
        level: the level's name.
        as_first, as_second: its chance to win against ``optimal`` from the first and from
            the second seat.
    """

    level: str
    as_first: float
    as_second: float

    @property
    def both(self) -> float:
        """Its chance over both seat orders (the mean of the two)."""
        return (self.as_first + self.as_second) / 2


def losses(game: Any, levels: tuple[str, ...] = ("easy", "medium", "hard")) -> list[Loss]:
    """Each level's exact chance against ``optimal`` on ``game``'s board, both seat
    orders (``easy`` and ``random`` are the uniform policy; the others are read off their
    bots)."""
    from dicegames.bots import make_bot

    solution = solve(game.board)
    arrays = board_arrays(game.board)
    best = optimal_policy(solution)
    start = game.board.start
    found = []
    for level in levels:
        if level in ("easy", "random"):
            policy = uniform_policy(arrays)
        else:
            policy = policy_of_bot(game, make_bot(game, level, random.Random(0)), arrays)
        found.append(Loss(level, first_wins(arrays, start, policy, best),
                          1.0 - first_wins(arrays, start, best, policy)))
    return found


def exact_losses(game: Any) -> dict[str, tuple[float, float]] | None:
    """For a strength table: each of the game's own levels but ``optimal`` (the bots that
    decide the same way every time, and ``easy``, the uniform policy) mapped to its exact
    chance to win against ``optimal`` (moving first, moving second); None where the
    solution does not cover the game."""
    from dicegames.bots import own_levels
    from dicegames.games.shortcut.solver import supported

    if supported(game.players, game.board) is not None:
        return None
    names = tuple(level.name for level in own_levels(game) if level.name != "optimal")
    return {loss.level: (loss.as_first, loss.as_second) for loss in losses(game, names)}
