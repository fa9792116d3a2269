"""Extra Meters' exact solution as arrays: what ``dicegames solve extra-meters`` writes.

The ``solution`` part of the game's definition: :func:`solution_tables` returns the arrays of
the solved configurations (two runners, either finish; three and four runners under
``finish=first`` up to :data:`.races.LARGEST_TRACK` squares), None for the others. The
layout (also in docs/rl.md), with ``N`` the track length:

Two runners (:mod:`.solver`):

- ``win`` ``(2, N+1, N+1)`` float64: ``win[seat, a, b]``, the chance that ``seat``, about to
  start a turn on square ``a`` with its rival on ``b``, wins under optimal play by both
  (``finish=first``: both rows are the same table, the seat does not matter);
- ``roll`` ``(2, N+1, N+3, N+1)`` bool: ``roll[seat, b, j, x]``, the optimal decision of
  ``seat`` at a decision with its rival on ``b``, where a 6 now would leave its runner on
  square ``j = a + k + 1`` (``k`` dice rolled this turn from square ``a``) and stopping
  reaches square ``x = a + s`` (``s`` their sum): True to roll again. Where ``x > N``
  stopping wins (the entry is absent: stop). Under ``same_round`` seat 1's last turn after
  seat 0 passed the end is not in the table: it rolls until its sum takes it past the end.

Three runners (:mod:`.races`):

- ``win`` ``(N+1, N+1, N+1, 3)``: ``win[a, b, c]``, the winning chances of the mover on
  ``a`` and of the next two runners in turn order, on ``b`` and ``c``;
- ``roll`` ``(N+1, N+1, N+3, N+1)``: ``roll[b, c, j, x]``, the mover's decision as above.

Four runners (:mod:`.races`): ``win`` ``(N+1, N+1, N+1, N+1, 4)`` likewise (216 MB on the
default track), and the decisions packed, as the solver keeps them (unpacked they would take
358 MB): ``roll_bits`` ``(N+1, N+1, N+1, N+3, (N+8)//8)`` uint8, where bit ``x % 8`` of
``roll_bits[b, c, d, j, x // 8]`` is ``roll[b, c, d, j, x]`` (``np.unpackbits(...,
bitorder="little")`` unpacks it).

Both files also hold ``players``, ``track_length``, ``finish`` and ``value`` (the first
player's winning chance at the start).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dicegames.games.extra_meters.races import race_solution
from dicegames.games.extra_meters.solver import solve


def _bits(mask: int, width: int) -> np.ndarray:
    """The low ``width`` bits of ``mask`` as booleans (bit x at index x)."""
    raw = np.frombuffer(mask.to_bytes((width + 7) // 8 or 1, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:width].astype(bool)


def solution_tables(game: Any) -> dict[str, Any] | None:
    """The exact solution's arrays for a configured game (see the module docstring), or
    None where the game is not solved (five runners or more; three or four under
    ``same_round`` or past the longest solved track)."""
    n = game.track_length
    finish = game.options["finish"]
    players = game.players
    if players == 2:
        solution = solve(n, finish)
        win = np.array([solution.tables[0], solution.tables[1]], dtype=np.float64)
        roll = np.zeros((2, n + 1, n + 3, n + 1), dtype=bool)
        for seat in (0, 1):
            for b in range(n + 1):
                for j in range(n + 3):
                    mask = solution.masks[seat][b][j]
                    if mask:
                        roll[seat, b, j] = _bits(mask, n + 1)
        value = solution.win_probability(0, 0, 0)
    else:
        race = race_solution(n, finish, players)
        if race is None:
            return None
        win = race.table
        value = float(win[(0,) * players][0])
        if players == 4:
            return {"players": players, "track_length": n, "finish": finish, "value": value,
                    "win": win, "roll_bits": race.decisions,
                    "summary": f"the first player wins {value:.4%} under optimal play"}
        roll = np.unpackbits(race.decisions, axis=-1, bitorder="little")[..., : n + 1]
        roll = roll.astype(bool)
    return {"players": players, "track_length": n, "finish": finish, "value": value,
            "win": win, "roll": roll,
            "summary": f"the first player wins {value:.4%} under optimal play"}
