"""The simplest bots: uniformly random, and a bot that follows an injected policy."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from dicegames.core.chance import below
from dicegames.core.game import State
from dicegames.core.model import Seat

Policy = Callable[[State[Any, Any, Any], Seat, random.Random], Hashable]
"""Game knowledge as a function: the action a seat should take in a state."""


def random_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """A uniformly random legal action (the action ``rng.choice`` would pick)."""
    legal = state.legal_actions(seat)
    action: Hashable = legal[below(rng, len(legal))]
    return action


class RandomBot:
    """Plays a uniformly random legal action."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """A uniformly random legal action of ``seat`` (what :func:`random_policy` picks,
        without its call: this bot plays the random playouts)."""
        legal = state.legal_actions(seat)
        action: Hashable = legal[below(self.rng, len(legal))]
        return action


class PolicyBot:
    """Plays whatever an injected policy (a game's heuristic) says."""

    def __init__(self, policy: Policy, rng: random.Random) -> None:
        self.policy = policy
        self.rng = rng

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """The policy's action for ``seat``."""
        return self.policy(state, seat, self.rng)
