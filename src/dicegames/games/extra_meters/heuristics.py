"""Game knowledge for the bots: the one-step look-ahead (threshold) policy.

One more roll turns the running sum S of k dice into S + face (faces 1..5, mean 3) with
probability 5/6, or ends the turn with k + 1 squares with probability 1/6. Rolling gains in
expectation while 5/6 (S + 3) + (k + 1)/6 > S, that is while S < 16 + k. The policy rolls
while that holds, and stops at once when stopping passes the last square (winning the game,
or securing a share of it under ``finish=same_round``).
"""

from __future__ import annotations

import random
from typing import Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData


def should_roll(data: ExtraMetersData, track_length: int) -> bool:
    """The one-step look-ahead rule: roll while one more roll gains on average."""
    total, count = sum(data.dice), len(data.dice)
    if data.positions[data.player] + total > track_length:
        return False
    return total < 16 + count


def threshold_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The medium bot's choice: :func:`should_roll` as an action."""
    data = state.data
    assert isinstance(data, ExtraMetersData)
    length = state.game.options["track_length"]
    assert isinstance(length, int)
    return Decision.ROLL if should_roll(data, length) else Decision.STOP
