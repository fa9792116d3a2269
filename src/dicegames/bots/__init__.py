"""Generic bots. They never import a game: game knowledge arrives as injected policies.

:func:`make_bot` builds a bot by name for a game: first the game's own levels (``easy``,
``medium``, ``hard``...), then the generic ``random`` and ``mcts``.
"""

from __future__ import annotations

import random
from typing import Any

from dicegames.bots.basic import Policy, PolicyBot, RandomBot, random_policy
from dicegames.bots.mcts import MCTSBot
from dicegames.core.errors import UnknownBot
from dicegames.core.game import Game
from dicegames.core.model import Agent, BotLevel
from dicegames.core.rollout import BotSpec

GENERIC: tuple[BotLevel, ...] = (
    BotLevel("random", "a uniformly random legal move", lambda game, rng: RandomBot(rng),
             listed=False),
    BotLevel("mcts", "Monte Carlo tree search with random playouts, about 0.5 s a move",
             lambda game, rng: MCTSBot(rng, simulations=100_000, time_limit_ms=500),
             listed=False),
)
"""Bots every game has; not listed in the web app's picker (each game's ``easy`` is random
too, and random playouts make ``mcts`` weaker than the games' own ``hard``)."""


def own_levels(game: Game[Any, Any, Any]) -> tuple[BotLevel, ...]:
    """The bots ``game`` offers itself (its definition's ``bots`` part; none without one)."""
    from dicegames.core.registry import definition_of

    levels = definition_of(game).part("bots")
    return tuple(levels(game)) if levels is not None else ()


def bot_levels(game: Game[Any, Any, Any]) -> tuple[BotLevel, ...]:
    """Every bot available for ``game``: its own levels first (:func:`own_levels`), then
    the generic ones."""
    own = own_levels(game)
    names = {level.name for level in own}
    return own + tuple(level for level in GENERIC if level.name not in names)


def make_bot(game: Game[Any, Any, Any], name: str, rng: random.Random) -> Agent:
    """Build the bot called ``name`` for ``game``, drawing randomness only from ``rng``.

    Raises:
        UnknownBot: no such bot; the message lists the available ones.
    """
    levels = bot_levels(game)
    for level in levels:
        if level.name == name.strip().lower():
            return level.factory(game, rng)
    known = ", ".join(level.name for level in levels)
    raise UnknownBot(f"{game.spec.id} has no bot {name!r}; the bots are: {known}")


def bot_spec(game: Game[Any, Any, Any], name: str) -> BotSpec:
    """The bot called ``name`` for ``game`` as a rollout takes it (see
    :func:`dicegames.core.rollout.rollout`): its level name, which the game's kernel may
    play, and its factory.

    Raises:
        OptionError: no such bot; the message lists the available ones.
    """
    wanted = name.strip().lower()
    for level in bot_levels(game):
        if level.name == wanted:
            return BotSpec(level.name, level.factory)
    make_bot(game, name, random.Random(0))  # raises the listing error
    raise AssertionError("unreachable")  # pragma: no cover


ROLLOUT_LEVEL = "medium"
"""The bot that plays every seat of the rollouts an estimate or a hint is made of: fast,
and sensible where the game has one."""

FALLBACK_LEVEL = "random"
"""The one fallback bot: it plays a game's rollouts when the game has no :data:`ROLLOUT_LEVEL`,
gives hints when it has none of :data:`HINT_LEVELS`, and plays a hint's rollouts when the
hint bot ran out of time (it needs no preparation). Every game has it."""


def rollout_level(game: Game[Any, Any, Any]) -> str:
    """The bot of ``game``'s rollouts: :data:`ROLLOUT_LEVEL`, else :data:`FALLBACK_LEVEL`."""
    names = {level.name for level in bot_levels(game)}
    return ROLLOUT_LEVEL if ROLLOUT_LEVEL in names else FALLBACK_LEVEL


HINT_LEVELS = ("expert", "hard", "medium")
"""The bots asked for a hint, strongest first: a game's hint comes from the first of these
levels it has (they answer in milliseconds; search levels would keep a person waiting)."""


def adviser(game: Game[Any, Any, Any], rng: random.Random) -> tuple[str, Agent]:
    """The bot that gives hints for ``game`` (see :data:`HINT_LEVELS`) and its level name.

    A game with none of those levels is advised by ``random``, which at least names a legal
    move. ``rng`` is the adviser's own generator: asking for a hint never changes the game.
    """
    names = {level.name for level in bot_levels(game)}
    level = next((name for name in HINT_LEVELS if name in names), FALLBACK_LEVEL)
    return level, make_bot(game, level, rng)


__all__ = ["FALLBACK_LEVEL", "GENERIC", "HINT_LEVELS", "ROLLOUT_LEVEL", "MCTSBot", "Policy",
           "PolicyBot", "RandomBot", "adviser", "bot_levels", "bot_spec", "make_bot",
           "own_levels", "random_policy", "rollout_level"]
