"""Compiled helpers shared by the games' vectorised steps (``games/<game>/vector_kernel.py``).

Only kernel modules import this one (numba is chosen when it is first imported, see
:mod:`dicegames.core.kernel`). The rewards are :func:`dicegames.envs.encoding.returns`
restated over winner flags.
"""

from __future__ import annotations

from typing import Any

from dicegames.core.kernel import njit_inline

LEARNER = -1
"""The policy code of a learning seat in the compiled steps (re-exported by
:mod:`dicegames.envs.vector`)."""


@njit_inline
def write_returns(flags: Any, at: int, players: int, out: Any) -> None:
    """Each seat's zero-sum return into ``out`` from its winner flag ``flags[at + seat]`` (1
    for each winning seat): :func:`~dicegames.envs.encoding.returns`."""
    winners = 0
    for seat in range(players):
        winners += flags[at + seat]
    for seat in range(players):
        share = 0.0
        if flags[at + seat] and winners > 0:
            share = 1.0 / winners
        if players == 1:
            out[seat] = 2.0 * share - 1.0
        else:
            out[seat] = (players * share - 1.0) / (players - 1)


@njit_inline
def relative(seat: int, other: int, players: int) -> int:
    """``other``'s row in ``seat``'s per-seat fields (:meth:`.encoding.Encoder.relative`)."""
    return (other - seat) % players


@njit_inline
def scaled(value: float, scale: float) -> float:
    """``value / scale`` clipped to ``[0, 1]`` (:func:`.encoding.scaled`)."""
    x = value / scale
    if x < 0.0:
        return 0.0
    if x > 1.0:
        return 1.0
    return x


__all__ = ["LEARNER", "relative", "scaled", "write_returns"]
