"""Win-chance estimates of a position, by the strongest means each game offers.

A review judges every decision and a design report measures who leads; both ask the same
question: *from this position, how likely is each seat to win?* Three answers, strongest
first:

* ``exact``: two-player For a Few Extra Meters is solved (:mod:`~dicegames.games.
  extra_meters.solver`): the chance under optimal play from here on, no error;
* ``learned``: Petits Chevaux has a fitted win-chance model (:mod:`~dicegames.games.
  petits_chevaux.value`): instant, its error is the model's (not a sampling error);
* ``rollouts``: every other game: ``n`` continuations played to the end by the game's
  ``medium`` bot in every seat (``random`` where it has none), dice and bots seeded, with
  the standard error of the mean; each is a :func:`dicegames.core.rollout.rollout`, played
  by the game's kernel when it plays that bot.
  Candidates of one decision share their continuations' seeds (common random numbers), so
  their differences are measured far more sharply than each chance alone.

:func:`estimator_for` picks the strongest that fits a game. Estimates depend only on the
position and the estimator's seed: the same review twice gives the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from dicegames.bots import bot_spec, rollout_level
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.core.rollout import game_seed, rollout

DEFAULT_ROLLOUTS = 32
"""Continuations per position (or per candidate move) of the rollout estimate."""

@dataclass(frozen=True, slots=True)
class Estimate:
    """Every seat's chance to win, and the standard error of each (0 when exact).

    ``error`` is ``None`` for the learned model: it has a fitting error, but no sampling
    error this program can state.
    """

    chances: tuple[float, ...]
    error: float | None = 0.0


class Estimator(Protocol):
    """How a game's positions are judged; see the module docstring."""

    kind: str
    """``"exact"``, ``"learned"`` or ``"rollouts"``."""

    description: str
    """One sentence for people: what the estimate is and how sure it is."""

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Every seat's chance to win from ``state``."""
        ...

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The estimate after each of ``seat``'s legal actions at ``state``."""
        ...


def terminal_estimate(state: State[Any, Any, Any]) -> Estimate:
    """The finished game's outcome: 1 split among the winners, exact."""
    return Estimate(state.result.returns(), 0.0)


# --------------------------------------------------------------------------- exact


class ExactExtraMeters:
    """Two-player For a Few Extra Meters by the exact solution (optimal play from here)."""

    kind = "exact"
    description = "exact win chance under optimal play from here on (the solved game)"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        from dicegames.games.extra_meters.solver import solve

        length, finish = game.options["track_length"], game.options["finish"]
        assert isinstance(length, int) and isinstance(finish, str)
        self._solution = solve(length, finish)

    def _mover(self, state: State[Any, Any, Any]) -> float:
        """The chance that the seat whose turn it is wins, at a non-terminal ``state``."""
        from dicegames.games.extra_meters.data import Phase

        data = state.data
        seat = data.player
        if data.phase is Phase.DECIDE:
            return float(max(self._solution.decision_values(data).values()))
        if data.phase is Phase.OPENING:
            a, b = data.positions[seat], data.positions[1 - seat]
            return math.fsum(self._solution.turn_table(seat, a, b)[1][1:6]) / 5
        return math.fsum(float(p) * self.position(state.apply_unchecked(outcome)).chances[seat]
                   for outcome, p in state.chance_outcomes())

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Both seats' exact chances (they sum to 1: a shared win counts half to each)."""
        if state.is_terminal:
            return terminal_estimate(state)
        seat = state.data.player
        mine = self._mover(state)
        chances = [0.0, 0.0]
        chances[seat], chances[1 - seat] = mine, 1.0 - mine
        return Estimate(tuple(chances), 0.0)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """Roll and stop, each with the mover's exact chance after it (the game's
        ``estimates.win_chances``, which ``dicegames hint`` shows too)."""
        from dicegames.games.extra_meters.estimates import win_chances

        values = win_chances(state, seat)
        assert values is not None  # two players: checked by estimator_for
        result: dict[Hashable, Estimate] = {}
        for action in state.legal_actions(seat):
            mine = values[action]
            chances = [0.0, 0.0]
            chances[seat], chances[1 - seat] = mine, 1.0 - mine
            result[action] = Estimate(tuple(chances), 0.0)
        return result


# --------------------------------------------------------------------------- learned


class LearnedPetitsChevaux:
    """Petits Chevaux by its learned win-chance model (the ``expert`` bot's value)."""

    kind = "learned"
    description = ("the learned win-chance model of the expert bot (a fitted estimate: its "
                   "error is the model's, not a sampling error)")

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        from dicegames.games.petits_chevaux.value import model_for

        self._game: Any = game
        self._model = model_for(game.players)

    def _after(self, data: Any) -> tuple[float, ...]:
        game = self._game
        return tuple(self._model.win_chances(game.colours, data.horses, data.player,
                                             blocking=game.blocking))

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """At a roll: the model; at a decision: the model after the mover's best move."""
        if state.is_terminal:
            return terminal_estimate(state)
        if state.is_chance:
            return Estimate(self._after(state.data), None)
        seat = state.node.players[0]
        options = self.choices(state, seat)
        return max(options.values(), key=lambda estimate: estimate.chances[seat])

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The model's chances after each legal move (a winning move wins outright)."""
        result: dict[Hashable, Estimate] = {}
        for action in state.legal_actions(seat):
            after = state.apply_unchecked(action, seat)
            result[action] = (terminal_estimate(after) if after.is_terminal
                              else Estimate(self._after(after.data), None))
        return result


# --------------------------------------------------------------------------- rollouts


class Rollouts:
    """Any game, by ``n`` seeded continuations played out by ``level`` bots in every seat.

    Each continuation is the rollout primitive's (:func:`dicegames.core.rollout.rollout`):
    the game's kernel plays it when it plays the ``level`` bot, the engine otherwise.
    Continuation ``i`` of every position and candidate uses the seed ``game_seed(seed, i)``:
    the candidates of a decision meet the same dice as far as their moves allow.
    """

    kind = "rollouts"

    def __init__(self, game: Game[Any, Any, Any], rollouts: int = DEFAULT_ROLLOUTS,
                 seed: int = 0, level: str | None = None, *, use_kernel: bool = True) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        self.level = level or rollout_level(game)
        self.rollouts = rollouts
        self.seed = seed
        self.use_kernel = use_kernel
        """False: always the engine (a caller whose deadline must not wait for a kernel's
        first compilation)."""
        self._bots = [bot_spec(game, self.level)] * game.players
        self._game = game
        self.description = (f"{rollouts} continuations played out by the {self.level} bot, "
                            f"with the standard error of their mean")

    def play_out(self, state: State[Any, Any, Any], index: int) -> tuple[float, ...]:
        """Every seat's return at the end of continuation ``index`` from ``state``."""
        if state.is_terminal:
            return state.result.returns()
        return rollout(state, self._bots, game_seed(self.seed, index),
                       use_kernel=self.use_kernel).returns()

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """The mean outcome of the continuations, with the largest standard error."""
        if state.is_terminal:
            return terminal_estimate(state)
        players = self._game.players
        sums = [0.0] * players
        squares = [0.0] * players
        for index in range(self.rollouts):
            for seat, value in enumerate(self.play_out(state, index)):
                sums[seat] += value
                squares[seat] += value * value
        n = self.rollouts
        means = tuple(total / n for total in sums)
        error = 0.0
        if n > 1:
            for seat in range(players):
                variance = max(0.0, (squares[seat] - n * means[seat] ** 2) / (n - 1))
                error = max(error, math.sqrt(variance / n))
        return Estimate(means, error)

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The continuations' mean after each legal action (paired seeds)."""
        return {action: self.position(state.apply_unchecked(action, seat))
                for action in state.legal_actions(seat)}


def estimator_for(game: Game[Any, Any, Any], rollouts: int = DEFAULT_ROLLOUTS,
                  seed: int = 0) -> Estimator:
    """The strongest estimate for ``game``: exact, learned, else rollouts."""
    if game.spec.id == "extra-meters" and game.players == 2:
        return ExactExtraMeters(game)
    if game.spec.id == "petits-chevaux":
        return LearnedPetitsChevaux(game)
    return Rollouts(game, rollouts, seed)
