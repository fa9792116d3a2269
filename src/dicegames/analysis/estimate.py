"""Win-chance estimates of a position, by the strongest means each game offers.

A review judges every decision and a design report measures who leads; both ask the same
question: *from this position, how likely is each seat to win?* Three answers, strongest
first:

* ``exact``: a solved game (two-player For a Few Extra Meters): the chance under optimal
  play from here on, no error;
* ``learned``: a fitted win-chance model (Petits Chevaux's): instant, its error is the
  model's (not a sampling error);

  both are a game's ``estimator`` part (:mod:`dicegames.core.definition`; the shapes
  :class:`Estimate` and :class:`Estimator` live in :mod:`dicegames.core.estimates`);
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
from typing import Any

from dicegames.bots import bot_spec, rollout_level
from dicegames.core.estimates import Estimate as Estimate  # noqa: PLC0414 (re-exported)
from dicegames.core.estimates import Estimator as Estimator  # noqa: PLC0414
from dicegames.core.estimates import terminal_estimate as terminal_estimate  # noqa: PLC0414
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.core.registry import definition_of
from dicegames.core.rollout import game_seed, rollout

DEFAULT_ROLLOUTS = 32
"""Continuations per position (or per candidate move) of the rollout estimate."""

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
    """The strongest estimate for ``game``: its definition's ``estimator`` part (exact or
    learned) when it covers this configuration, else rollouts."""
    factory = definition_of(game).part("estimator")
    found: Estimator | None = factory(game) if factory is not None else None
    return found if found is not None else Rollouts(game, rollouts, seed)
