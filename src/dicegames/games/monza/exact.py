"""The ``exact`` part: each two-player level's exact winning chance against ``optimal``.

Read by the strength tables (:mod:`dicegames.strength`); the figures come from
:func:`.losses.exact_losses` (every own level, ``hard`` included, kept in the solutions' disk
cache), over :mod:`.evaluate`, which turns two fixed policies into a Markov chain over the
solver's states.
"""

from __future__ import annotations

from typing import Any

from dicegames.games.monza.evaluate import optimal_policy, red_chance
from dicegames.games.monza.losses import exact_losses
from dicegames.games.monza.solver import solution_for, supported
from dicegames.strength import Exact


def exact(game: Any) -> Exact | None:
    """Each own level's exact chance against ``optimal`` (as first and as second player),
    ``optimal``'s own, and the first player's chance under optimal play; None for a
    configuration the solver does not cover."""
    if supported(game.players, game.options, game.circuit) is not None or game.variant:
        return None  # the variant's levels are not evaluated yet (its solution is)
    losses = exact_losses(game)
    if losses is None:
        return None
    solution = solution_for(game)
    best = optimal_policy(solution)
    value = red_chance(solution, best, best)
    levels = {name: {"first": first, "second": second}
              for name, (first, second) in losses.items()}
    levels["optimal"] = {"first": value, "second": 1.0 - value}
    return {"value": value, "levels": levels}
