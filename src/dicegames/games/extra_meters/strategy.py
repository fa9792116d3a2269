"""The exact optimal strategy of two-player For a Few Extra Meters, as a chart's data (the
``solver`` part of its definition, drawn by the design report).

Published analyses of Pig (Neller and Presser, "Optimal Play of the Dice Game Pig", 2004)
draw the optimal policy as the boundary between "roll" and "hold" over both players'
scores and the turn total. Extra Meters adds the number of dice rolled this turn (a 6 still
moves the runner one square per die), so the boundary here is, for each number of dice
``k`` and each pair of positions (own ``a``, opponent's ``b``), the **stop threshold**: the
smallest running sum at which stopping is at least as good as rolling again. A player at
``(a, b)`` with ``k`` dice rolls while the sum is below it and stops from it on.

The figures come from the exact solution (:mod:`~dicegames.games.extra_meters.solver`), for
the player who starts the game (the two seats differ only under ``finish=same_round``).
"""

from __future__ import annotations

from typing import Any

from dicegames.core.game import Game

DICE_COUNTS = (3, 4, 5, 6)
"""The dice counts drawn: with fewer dice the optimal player never stops on the track."""


def stop_thresholds(track_length: int, finish: str, dice: tuple[int, ...] = DICE_COUNTS
                    ) -> dict[int, list[list[int | None]]]:
    """For each count ``k`` in ``dice``, ``grid[a][b]``: the least running sum of ``k`` dice
    at which seat 0 at ``a`` (the opponent at ``b``) should stop; ``None`` where it rolls at
    every sum ``k`` dice can show.
    """
    from dicegames.games.extra_meters.solver import solve

    solution = solve(track_length, finish)
    n = track_length
    grids: dict[int, list[list[int | None]]] = {k: [] for k in dice}
    for a in range(n + 1):
        rows: dict[int, list[int | None]] = {k: [] for k in dice}
        for b in range(n + 1):
            table = solution.turn_table(0, a, b)
            top = n - a
            after = [solution.after(0, a, b, d) for d in range(top + 2)]
            for k in dice:
                following = table[min(k + 1, top + 1)]
                passed = following[-1]
                threshold: int | None = None
                for total in range(k, 5 * k + 1):
                    later = sum(following[total + face] if total + face <= top else passed
                                for face in range(1, 6))
                    roll = (after[min(k + 1, top + 1)] + later) / 6
                    if after[min(total, top + 1)] >= roll:
                        threshold = total
                        break
                rows[k].append(threshold)
        for k in dice:
            grids[k].append(rows[k])
    return grids


def strategy_chart(game: Game[Any, Any, Any]) -> dict[str, Any] | None:
    """The strategy chart's data for two players (``None`` with more: no exact solution)."""
    if game.players != 2:
        return None
    length, finish = game.options["track_length"], game.options["finish"]
    assert isinstance(length, int) and isinstance(finish, str)
    return {"track_length": length, "finish": finish,
            "thresholds": {str(k): grid
                           for k, grid in stop_thresholds(length, finish).items()},
            "note": f"The chart starts at {DICE_COUNTS[0]} dice: with fewer dice rolled, "
                    f"the optimal player stops only when the sum reaches the finish, so "
                    f"those panels would show nothing else."}
