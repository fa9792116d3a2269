"""The ``exact`` part: each two-player level's exact winning chance against ``optimal``.

Read by the strength tables (:mod:`dicegames.strength`); the figures come from
:mod:`.evaluate`, which turns two fixed policies into a Markov chain over the solver's
states.
"""

from __future__ import annotations

from typing import Any

from dicegames.games.monza.evaluate import optimal_policy, red_chance, table
from dicegames.games.monza.solver import solution_for, supported
from dicegames.strength import Exact


def exact(game: Any) -> Exact | None:
    """Each level :func:`~.evaluate.policies` covers against ``optimal`` (as first and as
    second player) and the first player's chance under optimal play; None for a
    configuration the solver does not cover."""
    if supported(game.players, game.options, game.circuit) is not None:
        return None
    solution = solution_for(game)
    best = optimal_policy(solution)
    levels = {name: {"first": chances["first"], "second": chances["second"]}
              for name, chances in table(solution).items()}
    return {"value": red_chance(solution, best, best), "levels": levels}
