"""The ``exact`` part: each two-player level's exact winning chance against ``optimal``.

Read by the strength tables (:mod:`dicegames.strength`); the figures come from
:func:`.solver_evaluate.exact_losses`, which turns each level and the optimal player into a
Markov chain over the solver's states.
"""

from __future__ import annotations

from typing import Any

from dicegames.games.shortcut.solver import board_arrays, solve
from dicegames.games.shortcut.solver_evaluate import exact_losses, first_wins, optimal_policy
from dicegames.strength import Exact


def exact(game: Any) -> Exact | None:
    """Each level's chance against ``optimal`` as first and as second player (``optimal``
    itself: the game's value and its complement), and the first player's chance when both
    play optimally; None for a configuration the solver does not cover."""
    found = exact_losses(game)
    if found is None:
        return None
    best = optimal_policy(solve(game.board))
    value = first_wins(board_arrays(game.board), game.board.start, best, best)
    levels = {name: {"first": first, "second": second}
              for name, (first, second) in found.items()}
    levels["optimal"] = {"first": value, "second": 1.0 - value}
    return {"value": value, "levels": levels}
