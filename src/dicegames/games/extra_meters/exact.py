"""The ``exact`` part: each two-runner level's exact winning chance against ``optimal``.

Read by the strength tables (:mod:`dicegames.strength`); the figures come from
:mod:`.exploit`, which evaluates two fixed policies exactly over the dice.
"""

from __future__ import annotations

from typing import Any

from dicegames.games.extra_meters.exploit import bot_policy, evaluate
from dicegames.strength import Exact

LEVELS = ("easy", "medium", "hard", "optimal")
"""The levels :func:`~.exploit.bot_policy` knows."""


def exact(game: Any) -> Exact | None:
    """Each level's chance against ``optimal`` as first and as second runner, and the first
    runner's chance when both play optimally; None beyond two runners under
    ``finish=first``."""
    if game.players != 2 or game.options["finish"] != "first":
        return None
    n = game.track_length
    best = bot_policy(n, "optimal")
    levels = {name: {"first": evaluate(n, bot_policy(n, name), best),
                     "second": 1.0 - evaluate(n, best, bot_policy(n, name))}
              for name in LEVELS}
    return {"value": evaluate(n, best, best), "levels": levels}
