"""The search bot of Petits Chevaux: rollout policy improvement with the game's knowledge.

The generic :class:`~dicegames.bots.rollout.RolloutBot` tries candidate moves on many
simulated continuations. This module gives it what it needs to know about the game:

* the **candidates** (:func:`close_calls`): the moves :func:`.hard_scores` puts within
  :data:`MARGIN` of its best; a capture or a horse brought out usually leaves one, played
  at once;
* the **policies** of the continuations: the bot itself plays :func:`.hard_policy` (fast,
  and the strongest fast policy we have), every opponent :func:`.heuristic_policy`, the
  ``medium`` bot, a fair model of a careful family player;
* the **default** move: ``hard``'s, kept unless another candidate beats it clearly (by
  ``confidence`` standard errors), so that the noise of a small budget costs little;
* :func:`evaluation`, the score of the position where a continuation stops: the bot's
  progress against the opponents' mean progress (a horse waiting in its corner counts
  :data:`.WAITING`), plus or minus :data:`WIN_VALUE` once somebody has won.

Measured against ``medium`` bots (rules.md, "Strategy and the bots"): at 60 continuations a
move it is level with ``hard``; at 200 it beats ``hard`` 1-on-1 (63.2% against 57.1% on the
same 1,000 games); in 4-player games a gain is not established.

:func:`value_search_bot` (the unlisted ``search-expert-60`` level) builds the same search on
``expert`` (:mod:`.value`) instead: candidates within :data:`MARGIN` of
:func:`.expert_scores`' best, ``expert``'s move as the default, ``expert`` playing the bot
in the continuations, and :func:`value_evaluation`, the learned win chance, scoring them.
At 60 continuations it measured level with ``expert`` itself (rules.md), so the ``search``
level stays built on ``hard``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from dicegames.bots.basic import Policy
from dicegames.bots.rollout import RolloutBot, SeatEvaluator, Shortlist
from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.petits_chevaux.board import HOME
from dicegames.games.petits_chevaux.data import ChevauxData, Phase
from dicegames.games.petits_chevaux.heuristics import (
    WAITING,
    hard_policy,
    hard_scores,
    heuristic_policy,
)
from dicegames.games.petits_chevaux.rules import PetitsChevaux
from dicegames.games.petits_chevaux.value import expert_policy, expert_scores, model_for

WIN_VALUE = 150.0
"""What winning is worth on top of the progress (in squares)."""


def worth(row: tuple[int, ...]) -> float:
    """A colour's progress: the sum over its horses, a waiting horse counting WAITING.

    Linear in progress: a convex worth (0.02 p² more per horse, favouring the leader as
    ``hard`` does) measured no better (rules.md)."""
    return sum(WAITING if progress == HOME else progress for progress in row)


def evaluation(state: State[Any, Any, Any], seat: Seat) -> float:
    """How well ``seat`` stands: its worth minus the opponents' mean worth, and the win."""
    data = state.data
    assert isinstance(data, ChevauxData)
    horses = data.horses
    mine = worth(horses[seat])
    others = sum(worth(row) for other, row in enumerate(horses) if other != seat)
    score = mine - others / (len(horses) - 1)
    if data.phase is Phase.OVER:
        score += WIN_VALUE if data.winner == seat else -WIN_VALUE
    return score


MARGIN = 30.0
"""Moves that ``hard`` scores more than this below its best are not simulated."""


def _within_margin(scores: Mapping[Any, float],
                   legal: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    """The legal moves scored within :data:`MARGIN` of the best score (all when unscored)."""
    if not scores:
        return legal
    best = max(scores.values())
    floor = best - MARGIN
    return tuple(move for move in legal if scores.get(move, best) >= floor)  # pass: kept


def close_calls(state: State[Any, Any, Any], seat: Seat,
                legal: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    """The legal moves that :func:`.hard_scores` puts within :data:`MARGIN` of its best."""
    game = state.game
    assert isinstance(game, PetitsChevaux)
    return _within_margin(hard_scores(game, state.data), legal)


DEFAULT_ROLLOUTS = 2000
"""Continuations per decision of the ``search`` level (its time limit usually comes first)."""

DEFAULT_TIME_LIMIT_MS = 900.0
"""The ``search`` level also stops thinking after this long (a busy machine)."""

MEASURED_ROLLOUTS = 60
"""The budget of the ``search-60`` level, the one the simulations measured."""


def search_bot(rng: random.Random, *, rollouts: int = DEFAULT_ROLLOUTS, horizon: int = 1,
               time_limit_ms: float | None = None, prune: bool = True,
               confidence: float | None = 2.0) -> RolloutBot:
    """The rollout bot with this game's policies and evaluation.

    Args:
        rng: the bot's only source of randomness.
        rollouts: continuations per decision, over all candidates (the budget).
        horizon: own turns played in each continuation before it is scored.
        time_limit_ms: also stop after this long (None: the budget alone, reproducible).
        prune: simulate only the moves ``hard`` scores within :data:`MARGIN` of its best.
        confidence: keep ``hard``'s move unless another beats it by this many standard
            errors over the shared continuations (None: play the best mean outright).
    """
    return _rollout_bot(rng, hard_policy, evaluation, close_calls, rollouts=rollouts,
                        horizon=horizon, time_limit_ms=time_limit_ms, prune=prune,
                        confidence=confidence, kernel_policies=("hard", "medium"))


def _rollout_bot(rng: random.Random, policy: Policy, evaluator: SeatEvaluator,
                 shortlist: Shortlist, *, rollouts: int, horizon: int,
                 time_limit_ms: float | None, prune: bool,
                 confidence: float | None,
                 kernel_policies: tuple[str, str] | None = None) -> RolloutBot:
    """The rollout bot playing ``policy`` itself (and as its default move), ``medium`` for
    the opponents, scoring continuations with ``evaluator`` (in the game's kernel when
    ``kernel_policies`` name its policies for them)."""
    return RolloutBot(rng, policy=policy, opponent_policy=heuristic_policy,
                      evaluator=evaluator, rollouts=rollouts, horizon=horizon,
                      time_limit_ms=time_limit_ms, shortlist=shortlist if prune else None,
                      default=policy if confidence is not None else None,
                      confidence=confidence or 0.0, kernel_policies=kernel_policies)


# ------------------------------------------------------------ the search with expert's knowledge


def value_evaluation(state: State[Any, Any, Any], seat: Seat) -> float:
    """``seat``'s learned win chance where a continuation stops (:mod:`.value`'s model for
    this player count); a finished game counts 1 for its winner and 0 for the others."""
    data = state.data
    assert isinstance(data, ChevauxData)
    if data.phase is Phase.OVER:
        return 1.0 if data.winner == seat else 0.0
    game = state.game
    assert isinstance(game, PetitsChevaux)
    chances = model_for(game.players).win_chances(game.colours, data.horses, data.player,
                                                  blocking=game.blocking)
    return chances[seat]


def expert_close_calls(state: State[Any, Any, Any], seat: Seat,
                       legal: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    """The legal moves that :func:`.expert_scores` puts within :data:`MARGIN` of its best
    (a move that wins at once is alone)."""
    game = state.game
    assert isinstance(game, PetitsChevaux)
    return _within_margin(expert_scores(game, state.data), legal)


def value_search_bot(rng: random.Random, *, rollouts: int = DEFAULT_ROLLOUTS,
                     horizon: int = 1, time_limit_ms: float | None = None,
                     prune: bool = True, confidence: float | None = 2.0) -> RolloutBot:
    """The rollout bot built on ``expert``: its candidates, its default move, ``expert``
    playing the bot in the continuations, and the learned win chance scoring them.

    The arguments are those of :func:`search_bot`.
    """
    return _rollout_bot(rng, expert_policy, value_evaluation, expert_close_calls,
                        rollouts=rollouts, horizon=horizon, time_limit_ms=time_limit_ms,
                        prune=prune, confidence=confidence)
