"""Chance-aware Monte Carlo tree search for any registered game, with any number of players.

The tree alternates decision nodes (UCT on the acting seat's mean reward, so each seat plays
for itself: max^n) and chance nodes (outcomes sampled by their exact probabilities). Leaves
are valued by a rollout with an injected policy, by default uniformly random. Game knowledge
comes in only through that policy and an optional evaluator; this module imports no game.
Several seats deciding on one roll are searched one after the other, as the engine applies
them.

Each leaf's rollout is the rollout primitive's (:func:`dicegames.core.rollout.rollout`),
seeded by a draw from the bot's generator (its dice and its policy then draw from separate
generators). When the game has a bulk kernel (:mod:`dicegames.core.kernel`) that plays the
rollout policy (by default the random one, the kernel's ``random``), the primitive plays it
in the kernel from the leaf's position and only the final position is decoded.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from dicegames.bots.basic import Policy, PolicyBot, random_policy
from dicegames.core.chance import sample
from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.core.rollout import MAX_MOVES, BotSpec, Plan, plan, rollout

Evaluator = Callable[[State[Any, Any, Any]], tuple[float, ...]]
"""Estimated reward per seat of a non-terminal state (used when a rollout is cut short)."""


class _Node:
    __slots__ = ("children", "seat", "state", "totals", "untried", "visits")

    def __init__(self, state: State[Any, Any, Any], players: int, rng: random.Random,
                 seat: Seat | None = None) -> None:
        self.state = state
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict[Hashable, _Node] = {}
        self.seat: Seat | None = None
        self.untried: list[Hashable] = []
        if not state.is_terminal and not state.is_chance:
            self.seat = state.current_players[0] if seat is None else seat
            self.untried = list(state.legal_actions(self.seat))
            rng.shuffle(self.untried)


class MCTSBot:
    """UCT search with chance sampling and rollouts.

    Args:
        rng: the only source of randomness.
        simulations: playouts per decision (the budget when ``time_limit_ms`` is None).
        time_limit_ms: stop searching after this many milliseconds (and after
            ``simulations`` playouts, whichever comes first).
        rollout: the policy that plays out games from a leaf (default: random).
        exploration: the UCT constant.
        max_rollout_moves: a rollout longer than this is cut and scored by ``evaluator``
            (or as a shared draw when there is none); the rollout primitive's cap,
            :data:`~dicegames.core.rollout.MAX_MOVES`, unless set.
        evaluator: optional estimate of each seat's reward at a cut-off state.
        kernel_policy: the game kernel's name of the rollout policy (default ``"random"``
            when ``rollout`` is None); rollouts then run in the kernel where the game has
            one that plays it. None: always the engine.
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        simulations: int = 1000,
        time_limit_ms: float | None = None,
        rollout: Policy | None = None,
        exploration: float = 1.0,
        max_rollout_moves: int = MAX_MOVES,
        evaluator: Evaluator | None = None,
        kernel_policy: str | None = None,
    ) -> None:
        if simulations < 1:
            raise ValueError("MCTS needs at least one simulation per move")
        self.rng = rng
        self.simulations = simulations
        self.time_limit_ms = time_limit_ms
        self.rollout_policy: Policy = rollout or random_policy
        self.exploration = exploration
        self.max_rollout_moves = max_rollout_moves
        self.evaluator = evaluator
        self.kernel_policy = kernel_policy if rollout is not None else kernel_policy or "random"
        policy = self.rollout_policy
        self._bot = BotSpec(self.kernel_policy, lambda game, rng: PolicyBot(policy, rng))

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """Search from ``state`` and return the most visited action of ``seat``."""
        legal: tuple[Hashable, ...] = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        players = state.game.players
        root = _Node(state, players, self.rng, seat)
        deadline = (time.perf_counter() + self.time_limit_ms / 1000
                    if self.time_limit_ms is not None else math.inf)
        for done in range(self.simulations):
            if done and time.perf_counter() > deadline:
                break
            self._simulate(root, players)
        best: Hashable = max(root.children, key=lambda action: root.children[action].visits)
        return best

    def _simulate(self, root: _Node, players: int) -> None:
        node = root
        path = [root]
        while not node.state.is_terminal:
            if node.state.is_chance:
                outcome = sample(node.state.chance_outcomes(), self.rng)
                child = node.children.get(outcome)
                if child is None:
                    child = _Node(node.state.apply_unchecked(outcome), players, self.rng)
                    node.children[outcome] = child
                node = child
                path.append(node)
                continue
            if node.untried:
                action = node.untried.pop()
                child = _Node(node.state.apply_unchecked(action, node.seat), players, self.rng)
                node.children[action] = child
                path.append(child)
                node = child
                break
            node = self._select(node)
            path.append(node)
        rewards = self._rollout(node.state)
        for visited in path:
            visited.visits += 1
            for seat in range(players):
                visited.totals[seat] += rewards[seat]

    def _select(self, node: _Node) -> _Node:
        assert node.seat is not None
        seat = node.seat
        log_visits = math.log(node.visits)
        best: _Node | None = None
        best_score = -math.inf
        for child in node.children.values():
            score = (child.totals[seat] / child.visits
                     + self.exploration * math.sqrt(log_visits / child.visits))
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def plan(self, state: State[Any, Any, Any]) -> Plan:
        """How the rollouts from ``state`` are played (kernel or engine)."""
        return plan(state.game, [self._bot.name] * state.game.players)

    def _rollout(self, state: State[Any, Any, Any]) -> tuple[float, ...]:
        if state.is_terminal:
            return state.result.returns()
        players = state.game.players
        ending = rollout(state, [self._bot] * players, self.rng.getrandbits(64),
                         self.max_rollout_moves)
        state = ending.state
        if state.is_terminal:
            return state.result.returns()
        if self.evaluator is not None:
            return self.evaluator(state)
        return (1.0 / players,) * players
