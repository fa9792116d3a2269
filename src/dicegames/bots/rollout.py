"""Monte Carlo rollout policy improvement: a one-move search over simulated continuations.

At a decision with several legal moves the :class:`RolloutBot` plays each candidate, then
simulates many continuations of the game from the position it leads to, and picks the
candidate with the best mean outcome (Tesauro and Galperin's "on-line policy improvement",
1996). In each continuation the dice are sampled from the exact chance distributions, the
bot's own seat plays an injected fast ``policy`` and every other seat an injected
``opponent_policy`` (a model of the opponents), until the bot has played ``horizon`` more
turns of its own; the position reached at the start of its next turn is then scored by an
injected ``evaluator`` (terminal positions too). This module imports no game: the policies
and the evaluator carry the game knowledge.

Four devices make a small budget go far:

* **common random numbers**: continuation ``i`` of every candidate draws its dice from the
  same seed, so in games whose dice do not depend on the moves (most race games) every
  candidate meets exactly the same rolls, and the comparison between candidates is paired;
* **successive halving**: the budget is spent in rounds, and after each round the worse
  half of the candidates is dropped, so the close contenders get most of the continuations;
* an optional **shortlist**: the game names the moves worth simulating (for example those a
  fast policy scores close to its best); when one is left it is played at once;
* an optional **default** policy: its move stands unless another beats it by more than
  ``confidence`` standard errors of the paired difference, so that a noisy estimate does
  not override good judgement by chance (the search then only corrects that policy).

The choice depends only on the position, the bot's generator, and the budget (when no time
limit is set): the same seed gives the same moves.

**Continuations** are the rollout primitive's (:func:`dicegames.core.rollout.rollout`, with a
:class:`~dicegames.core.rollout.Horizon`): seeded with the continuation's seed, the dice and
the policies draw from separate generators. When the game has a bulk kernel
(:mod:`dicegames.core.kernel`) and ``kernel_policies`` names the kernel policies that play
exactly as ``policy`` and ``opponent_policy``, the primitive plays them in the kernel from
the candidate's position (the same horizon, dice from the kernel's generator seeded with the
same per-continuation seed, so the comparison stays paired); only the final position is
decoded for the evaluator.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from dicegames.bots.basic import Policy, PolicyBot
from dicegames.core.game import Game, State
from dicegames.core.model import Agent, Seat
from dicegames.core.rollout import MAX_MOVES, BotSpec, Horizon, Plan, plan, rollout

SeatEvaluator = Callable[[State[Any, Any, Any], Seat], float]
"""How good a position (terminal or not) is for one seat; higher is better."""

Shortlist = Callable[[State[Any, Any, Any], Seat, tuple[Hashable, ...]], tuple[Hashable, ...]]
"""The candidates worth simulating among the legal moves (a game's quick judgement)."""


class RolloutBot:
    """Picks the legal move whose simulated continuations score best (see module docstring).

    Args:
        rng: the only source of randomness (continuation seeds are drawn from it).
        policy: how the bot's own seat plays in the continuations (fast: it is called
            thousands of times a decision).
        evaluator: the score of the position where a continuation stops, for the bot's seat.
        opponent_policy: how every other seat plays in the continuations (default: ``policy``).
        rollouts: the budget: continuations per decision, over all candidates.
        horizon: own turns the bot plays in a continuation before it is scored; 0 scores
            the position at the start of its next turn, after every opponent has played once.
        time_limit_ms: also stop after this many milliseconds (checked between
            continuations; the candidates compared always share the same continuations).
            None: the budget is ``rollouts`` alone, and the choice is reproducible.
        shortlist: optional pruning before any simulation: the moves worth comparing
            (for example those a fast policy scores close to its best); one left is played
            at once.
        default: optional policy whose move stands unless the continuations show another
            move better with confidence (the search then only corrects that policy).
        confidence: how many standard errors of the paired difference (over the shared
            continuations) another move must win by to replace the ``default`` move.
        max_rollout_moves: safety cap on the moves of one continuation (the rollout
            primitive's :data:`~dicegames.core.rollout.MAX_MOVES`); a continuation cut
            there is scored where it stopped.
        kernel_policies: the game kernel's names of ``policy`` and ``opponent_policy``
            (e.g. ``("hard", "medium")``): continuations then run in the kernel when the
            game has one that plays both (see the module docstring).
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        policy: Policy,
        evaluator: SeatEvaluator,
        opponent_policy: Policy | None = None,
        rollouts: int = 200,
        horizon: int = 1,
        time_limit_ms: float | None = None,
        shortlist: Shortlist | None = None,
        default: Policy | None = None,
        confidence: float = 2.0,
        max_rollout_moves: int = MAX_MOVES,
        kernel_policies: tuple[str, str] | None = None,
    ) -> None:
        if rollouts < 1:
            raise ValueError("a rollout bot needs at least one continuation per decision")
        if horizon < 0:
            raise ValueError("the horizon is a number of own turns, at least 0")
        self.rng = rng
        self.policy = policy
        self.opponent_policy: Policy = opponent_policy or policy
        self.evaluator = evaluator
        self.rollouts = rollouts
        self.horizon = horizon
        self.time_limit_ms = time_limit_ms
        self.shortlist = shortlist
        self.default = default
        self.confidence = confidence
        self.max_rollout_moves = max_rollout_moves
        self.kernel_policies = kernel_policies
        own, others = kernel_policies or (None, None)
        self._own = BotSpec(own, _policy_factory(self.policy))
        self._others = BotSpec(others, _policy_factory(self.opponent_policy))
        self.last_rollouts = 0
        """Continuations simulated for the last decision (0 when the move was forced)."""

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """The legal move of ``seat`` with the best mean continuation score.

        With a ``default`` policy, its move is kept unless another one beats it by more
        than ``confidence`` standard errors of the paired difference.
        """
        legal: tuple[Hashable, ...] = state.legal_actions(seat)
        self.last_rollouts = 0
        if len(legal) > 1 and self.shortlist is not None:
            legal = self.shortlist(state, seat, legal)
        if len(legal) == 1:
            return legal[0]
        keep = -1
        if self.default is not None:
            preferred = self.default(state, seat, self.rng)
            keep = legal.index(preferred) if preferred in legal else -1
        deadline = (time.perf_counter() + self.time_limit_ms / 1000
                    if self.time_limit_ms is not None else math.inf)
        children = [state.apply_unchecked(action, seat) for action in legal]
        values: list[list[float]] = [[] for _ in legal]
        alive = list(range(len(legal)))
        rounds = max(1, math.ceil(math.log2(len(legal))))
        for round_index in range(rounds):
            left = self.rollouts - self.last_rollouts
            share = max(1, left // ((rounds - round_index) * len(alive)))
            for _ in range(share):
                if values[alive[0]] and time.perf_counter() > deadline:
                    break
                seed = self.rng.getrandbits(64)
                for index in alive:
                    values[index].append(self._continue(children[index], seat, seed))
                self.last_rollouts += len(alive)
            if len(alive) > 2 and round_index < rounds - 1:
                ranked = sorted(alive, key=lambda index: -sum(values[index]))
                kept = ranked[:math.ceil(len(alive) / 2)]
                if keep >= 0 and keep not in kept:
                    kept[-1] = keep
                alive = sorted(kept)
            if time.perf_counter() > deadline:
                break
        best = max(alive, key=lambda index: (sum(values[index]), -index))
        if keep < 0 or best == keep or not _beats(values[best], values[keep],
                                                  self.confidence):
            return legal[best if keep < 0 else keep]
        return legal[best]

    def _bots(self, game: Game[Any, Any, Any], seat: Seat) -> list[BotSpec]:
        """The continuations' bot of every seat: ``policy`` for ``seat``, the opponents'."""
        return [self._own if s == seat else self._others for s in range(game.players)]

    def plan(self, state: State[Any, Any, Any], seat: Seat) -> Plan:
        """How the continuations of ``seat`` from ``state`` are played (kernel or engine)."""
        return plan(state.game, [bot.name for bot in self._bots(state.game, seat)])

    def _continue(self, state: State[Any, Any, Any], seat: Seat, seed: int,
                  use_kernel: bool = True) -> float:
        """Play on from ``state`` with the generators of ``seed`` and score where it stops."""
        ending = rollout(state, self._bots(state.game, seat), seed, self.max_rollout_moves,
                         horizon=Horizon(seat, self.horizon), use_kernel=use_kernel)
        return self.evaluator(ending.state, seat)


def _policy_factory(policy: Policy) -> Callable[[Game[Any, Any, Any], random.Random], Agent]:
    """The bot factory of an injected policy: a :class:`PolicyBot` on the seat's generator."""
    return lambda game, rng: PolicyBot(policy, rng)


def _beats(challenger: list[float], incumbent: list[float], confidence: float) -> bool:
    """True when the paired mean difference exceeds ``confidence`` standard errors."""
    count = min(len(challenger), len(incumbent))
    if count < 2:
        return False
    differences = [challenger[i] - incumbent[i] for i in range(count)]
    mean = sum(differences) / count
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return mean > confidence * math.sqrt(variance / count)


def mean_scores(bot: RolloutBot, state: State[Any, Any, Any], seat: Seat,
                actions: Sequence[Hashable], rollouts: int) -> dict[Hashable, float]:
    """The mean continuation score of each of ``actions`` over the same ``rollouts`` seeds.

    For analysis and tests: what the bot would compare, without halving.
    """
    seeds = [bot.rng.getrandbits(64) for _ in range(rollouts)]
    scores: dict[Hashable, float] = {}
    for action in actions:
        child = state.apply_unchecked(action, seat)
        scores[action] = sum(bot._continue(child, seat, seed) for seed in seeds) / rollouts
    return scores
