"""Environments for learning agents: PettingZoo, Gymnasium and OpenSpiel adapters.

Needs the optional extra ``rl`` (``pip install 'dicegames[rl]'``: numpy, gymnasium,
pettingzoo, open-spiel). The three adapters share one observation design and one integer
action space per game (:mod:`dicegames.envs.encoding`; each game's encoder is the
``encoder`` part of its definition, ``games/<game>/encoder.py``), and resolve the dice
from a seed exactly as :class:`~dicegames.core.match.RandomDice` does, so a seeded
environment replays like the engine. See docs/rl.md.

- :mod:`dicegames.envs.pettingzoo`: ``env("monza", players=4)``, an AEC environment;
- :mod:`dicegames.envs.gymnasium`: ``SingleSeatEnv("extra-meters", opponents="hard")``,
  one seat learns against the game's bots;
- :mod:`dicegames.envs.openspiel`: ``load("extra-meters", track_length=10)``, the games as
  registered OpenSpiel Python games with explicit chance nodes.
"""

from __future__ import annotations

import importlib
from types import ModuleType

EXTRA_HINT = "pip install 'dicegames[rl]'"
"""How to install what the environments need."""


def require(module: str) -> ModuleType:
    """Import ``module``, or fail with a message naming the extra that provides it.

    Raises:
        ModuleNotFoundError: the module is missing; the message says what to install.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        package = module.split(".", maxsplit=1)[0]
        raise ModuleNotFoundError(
            f"dicegames.envs needs {package}, from the optional extra [rl]: {EXTRA_HINT}"
        ) from error


require("numpy")
