"""The ``exact`` part: each two-player level's exact winning chance against ``optimal``.

Read by the strength tables (:mod:`dicegames.strength`); the figures come from
:func:`.losses.exact_losses` (every own level, ``hard`` included, kept in the solutions' disk
cache), over :mod:`.evaluate` (or :mod:`.evaluate_variant` with ``variant_last_colour``),
which turns two fixed policies into a Markov chain over the solver's states.
"""

from __future__ import annotations

from typing import Any

from dicegames.games.monza.data import START
from dicegames.games.monza.evaluate import optimal_policy, red_chance
from dicegames.games.monza.losses import exact_losses
from dicegames.games.monza.solver import exact_solution, solution_for, supported
from dicegames.strength import Exact


def exact(game: Any) -> Exact | None:
    """Each own level's exact chance against ``optimal`` (as first and as second player),
    ``optimal``'s own, and the first player's chance under optimal play; None for a
    configuration the solver does not cover."""
    if supported(game.players, game.options, game.circuit) is not None:
        return None
    losses = exact_losses(game)
    if losses is None:
        return None
    if game.variant:  # the solution's own value (its chain gives it back to 1e-15)
        value = exact_solution(game).turn_start((START, START), 0, False, 0)
    else:
        solution = solution_for(game)
        best = optimal_policy(solution)
        value = red_chance(solution, best, best)
    levels = {name: {"first": first, "second": second}
              for name, (first, second) in losses.items()}
    levels["optimal"] = {"first": value, "second": 1.0 - value}
    return {"value": value, "levels": levels}
