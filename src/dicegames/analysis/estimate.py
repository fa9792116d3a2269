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
  ``medium`` bot in every seat, dice and bots seeded, with the standard error of the mean.
  Candidates of one decision share their continuations' seeds (common random numbers), so
  their differences are measured far more sharply than each chance alone.

:func:`estimator_for` picks the strongest that fits a game. Estimates depend only on the
position and the estimator's seed: the same review twice gives the same figures.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from dicegames.analysis.simulate import game_seed
from dicegames.bots import bot_levels
from dicegames.core.chance import sample
from dicegames.core.estimates import Estimate as Estimate  # noqa: PLC0414 (re-exported)
from dicegames.core.estimates import Estimator as Estimator  # noqa: PLC0414
from dicegames.core.estimates import terminal_estimate as terminal_estimate  # noqa: PLC0414
from dicegames.core.game import Game, State
from dicegames.core.model import Agent, NodeKind, Seat
from dicegames.core.registry import definition_of

DEFAULT_ROLLOUTS = 32
"""Continuations per position (or per candidate move) of the rollout estimate."""

ROLLOUT_MAX_MOVES = 20_000
"""Moves after which a continuation stops and scores as a shared draw (never reached in
practice; it keeps a misbehaving bot from hanging a review)."""


# --------------------------------------------------------------------------- rollouts


def rollout_level(game: Game[Any, Any, Any]) -> str:
    """The bot the continuations are played by: ``medium`` when the game has it (fast and
    sensible), else the game's first level."""
    names = [level.name for level in bot_levels(game)]
    return "medium" if "medium" in names else names[0]


class Rollouts:
    """Any game, by ``n`` seeded continuations played out by ``level`` bots in every seat.

    Continuation ``i`` of every position and candidate uses the seed ``(seed, i)``: the
    candidates of a decision meet the same dice as far as their moves allow.
    """

    kind = "rollouts"

    def __init__(self, game: Game[Any, Any, Any], rollouts: int = DEFAULT_ROLLOUTS,
                 seed: int = 0, level: str | None = None) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        self.level = level or rollout_level(game)
        self.rollouts = rollouts
        self.seed = seed
        factories = {item.name: item.factory for item in reversed(bot_levels(game))}
        self._factory = factories[self.level]
        self._game = game
        self.description = (f"{rollouts} continuations played out by the {self.level} bot, "
                            f"with the standard error of their mean")

    def _play_out(self, state: State[Any, Any, Any], index: int) -> tuple[float, ...]:
        master = random.Random(game_seed(self.seed, index))
        dice = random.Random(master.getrandbits(64))
        agents: dict[Seat, Agent] = {}
        for _ in range(ROLLOUT_MAX_MOVES):
            node = state.node
            if node.kind is NodeKind.TERMINAL:
                return state.result.returns()
            if node.kind is NodeKind.CHANCE:
                state = state.apply_unchecked(sample(state.chance_outcomes(), dice))
                continue
            seat = node.players[0]
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                state = state.apply_unchecked(legal[0], seat)
                continue
            agent = agents.get(seat)
            if agent is None:
                agent = agents[seat] = self._factory(
                    self._game, random.Random(master.getrandbits(64) ^ seat))
            action = agent.choose(state, seat)
            state = state.apply_unchecked(action if action in legal else legal[0], seat)
        players = self._game.players
        return tuple(1.0 / players for _ in range(players))

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """The mean outcome of the continuations, with the largest standard error."""
        if state.is_terminal:
            return terminal_estimate(state)
        players = self._game.players
        sums = [0.0] * players
        squares = [0.0] * players
        for index in range(self.rollouts):
            for seat, value in enumerate(self._play_out(state, index)):
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
