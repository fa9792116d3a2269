"""The exact three-runner race: the names of the first three-runner solver, kept for its
callers, over :mod:`.races` (which solves three and four runners alike).

``solve_three(n)`` is ``solve_race(3, n)``; a solution's ``chances(a, b, c)`` gives (mover,
next, last) and ``rolls(data)`` the stored decision. Ties go to stopping (see :mod:`.races`).
"""

from __future__ import annotations

import random
from typing import Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.races import LARGEST_TRACK as _LARGEST
from dicegames.games.extra_meters.races import RaceSolution, exact_policy, race_solution, solve_race

LARGEST_TRACK = _LARGEST[3]
"""The longest track solved for three runners (see :data:`.races.LARGEST_TRACK`)."""

ThreeRunnerSolution = RaceSolution
"""The three-runner solution is a :class:`.races.RaceSolution` of three runners."""


def three_runner_solution(length: int, finish: str, players: int) -> RaceSolution | None:
    """The exact solution for a game's options when it has three runners, else None."""
    return race_solution(length, finish, players) if players == 3 else None


def solve_three(track_length: int) -> RaceSolution:
    """The exact three-runner solution of a track under ``finish=first`` (cached)."""
    return solve_race(3, track_length)


def hard_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The three-runner ``hard`` bot: the exact solution where it is solved, else the
    two-runner duel with the leading opponent (:func:`.solver.optimal_policy`)."""
    data = state.data
    assert isinstance(data, ExtraMetersData) and data.phase is Phase.DECIDE
    return exact_policy(state, seat, rng)
