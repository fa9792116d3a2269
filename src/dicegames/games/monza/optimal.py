"""Playing and judging two-player Monza by its exact solution (:mod:`.solver`).

- :func:`optimal_policy`: the ``optimal`` bot. At each step it takes the move end (and the
  dice count, onto a target) with the highest exact chance to win, then any step still
  leading there; equal chances are broken by the ``medium`` preference, so play is
  deterministic. With ``variant_last_colour`` it also decides the free step (advance or
  stay) by the exact chances, the first of the legal choices on a tie.
- :func:`estimator`: the ``estimator`` part of the definition: exact win chances under
  optimal play from here on, for hints, reviews and the design report; None where the
  solver does not cover the configuration.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from dicegames.bots import PolicyBot
from dicegames.core.estimates import Estimate, Estimator, terminal_estimate
from dicegames.core.game import Game, State
from dicegames.core.model import PASS, Seat
from dicegames.games.monza.data import Advance, MonzaData, Phase
from dicegames.games.monza.heuristics import end_key, step_towards
from dicegames.games.monza.rules import MonzaRules, Move
from dicegames.games.monza.solver import Solution, exact_solution, supported
from dicegames.games.monza.solver_variant import VariantSolution

NEAR = 1e-12
"""Chances closer than this count as equal (then the medium preference decides)."""


def _red_used(data: MonzaData) -> int:
    return data.round_used[0] if data.round_used else 0


def end_values(solution: Solution | VariantSolution, data: MonzaData, seat: Seat
               ) -> dict[tuple[int, int], float]:
    """``seat``'s exact chance for each (end, dice used from here) its move can still give."""
    circuit = solution.circuit
    ends = circuit.ends(data.cars[seat], data.dice, solution.longest)
    values: dict[tuple[int, int], float] = {}
    for end, more in ends:
        red = solution.after_move(data.cars, seat, end, data.used + more,
                                  finishing=data.finishing, red_used=_red_used(data))
        values[(end, more)] = red if seat == 0 else 1.0 - red
    return values


def best_end(solution: Solution | VariantSolution, data: MonzaData, seat: Seat) -> tuple[int, int]:
    """The (end, dice used from here) the optimal bot aims for."""
    values = end_values(solution, data, seat)
    top = max(values.values())
    near = [e for e, v in sorted(values.items()) if v >= top - NEAR]
    return max(near, key=lambda e: end_key(solution.circuit, data.cars, seat, *e))


def optimal_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Move:
    """The optimal bot (see the module docstring)."""
    game, data = state.game, state.data
    assert isinstance(game, MonzaRules) and isinstance(data, MonzaData)
    if data.phase is Phase.VARIANT:
        solution = exact_solution(game)
        assert isinstance(solution, VariantSolution)
        return best_variant_step(solution, game, data, seat)
    if data.phase is not Phase.STEP:
        return PASS
    end, used = best_end(exact_solution(game), data, seat)
    return step_towards(game, data, seat, end, used)


def variant_values(solution: VariantSolution, game: MonzaRules, data: MonzaData,
                   seat: Seat) -> list[tuple[Move, float]]:
    """Each legal choice of the free step (the advances, then stay) with ``seat``'s exact
    chance after it."""
    found: list[tuple[Move, float]] = []
    red_used, yellow_used = data.round_used[0], data.round_used[1]
    for action in game._legal_actions(data, seat):
        cars = data.cars
        if isinstance(action, Advance):
            cars = (*cars[:seat], action.square, *cars[seat + 1:])
        red = solution.turn_end(cars, data.player, red_used, yellow_used)
        found.append((action, red if seat == 0 else 1.0 - red))
    return found


def best_variant_step(solution: VariantSolution, game: MonzaRules, data: MonzaData,
                      seat: Seat) -> Move:
    """The free step the optimal bot takes: the best chance, the first such choice in the
    legal order (advances, then stay) among those within :data:`NEAR` of it."""
    values = variant_values(solution, game, data, seat)
    top = max(value for _, value in values)
    return next(action for action, value in values if value >= top - NEAR)


def optimal_bot(game: Any, rng: random.Random) -> PolicyBot:
    """The optimal bot, its solution built (or read from the disk cache) now, so that no
    decision pays for it."""
    exact_solution(game)
    return PolicyBot(optimal_policy, rng)


class ExactMonza:
    """Two-player Monza by the exact solution: chances under optimal play from here."""

    kind = "exact"
    description = "exact win chance under optimal play from here on (the solved race)"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self._solution = exact_solution(game)

    def red(self, state: State[Any, Any, Any]) -> float:
        """Seat 0's exact chance (a shared win counts half) at a non-terminal ``state``."""
        data = state.data
        assert isinstance(data, MonzaData)
        solution = self._solution
        if data.phase is Phase.ROLL:
            return solution.turn_start(data.cars, data.player, data.finishing,
                                       _red_used(data))
        if data.phase is Phase.STEP:
            values = end_values(solution, data, data.player)
            mine = max(values.values())
            return mine if data.player == 0 else 1.0 - mine
        if data.phase is Phase.VARIANT:
            assert isinstance(solution, VariantSolution)
            assert isinstance(state.game, MonzaRules)
            seat = data.last
            best = max(v for _, v in variant_values(solution, state.game, data, seat))
            return best if seat == 0 else 1.0 - best
        return self.position(state.apply(PASS)).chances[0]  # stuck: the pass is forced

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Both seats' exact chances (they sum to 1: a shared win counts half to each)."""
        if state.is_terminal:
            return terminal_estimate(state)
        red = self.red(state)
        return Estimate((red, 1.0 - red), 0.0)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """Each legal step (or the pass), with both seats' exact chances after it."""
        return {action: self.position(state.apply(action, seat))
                for action in state.legal_actions(seat)}


def covered(game: Game[Any, Any, Any]) -> bool:
    """True when the exact solution covers this configured game."""
    return isinstance(game, MonzaRules) and supported(
        game.players, game.options, game.circuit) is None


def estimator(game: Game[Any, Any, Any]) -> Estimator | None:
    """The exact estimate for two players on supported options; None elsewhere."""
    return ExactMonza(game) if covered(game) else None
