"""Generic bots. They never import a game: game knowledge arrives as injected policies.

:func:`make_bot` builds a bot by name for a game: first the game's own levels (``easy``,
``medium``, ``hard``...), then the generic ``random`` and ``mcts``.
"""

from __future__ import annotations

import random
from typing import Any

from dicegames.bots.basic import Policy, PolicyBot, RandomBot, random_policy
from dicegames.bots.mcts import MCTSBot
from dicegames.core.errors import OptionError
from dicegames.core.game import Game
from dicegames.core.model import Agent, BotLevel

GENERIC: tuple[BotLevel, ...] = (
    BotLevel("random", "a uniformly random legal move", lambda game, rng: RandomBot(rng),
             listed=False),
    BotLevel("mcts", "Monte Carlo tree search with random playouts, about 0.5 s a move",
             lambda game, rng: MCTSBot(rng, simulations=100_000, time_limit_ms=500),
             listed=False),
)
"""Bots every game has; not listed in the web app's picker (each game's ``easy`` is random
too, and random playouts make ``mcts`` weaker than the games' own ``hard``)."""


def bot_levels(game: Game[Any, Any, Any]) -> tuple[BotLevel, ...]:
    """Every bot available for ``game``: its own levels first, then the generic ones."""
    own = game.bot_levels()
    names = {level.name for level in own}
    return own + tuple(level for level in GENERIC if level.name not in names)


def make_bot(game: Game[Any, Any, Any], name: str, rng: random.Random) -> Agent:
    """Build the bot called ``name`` for ``game``, drawing randomness only from ``rng``.

    Raises:
        OptionError: no such bot; the message lists the available ones.
    """
    levels = bot_levels(game)
    for level in levels:
        if level.name == name.strip().lower():
            return level.factory(game, rng)
    known = ", ".join(level.name for level in levels)
    raise OptionError(f"{game.spec.id} has no bot {name!r}; the bots are: {known}")


__all__ = ["GENERIC", "MCTSBot", "Policy", "PolicyBot", "RandomBot", "bot_levels", "make_bot",
           "random_policy"]
