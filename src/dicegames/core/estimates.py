"""Win-chance estimates: what a game's ``estimator`` part answers, and the common shape of
every estimate (:mod:`dicegames.analysis.estimate` picks and plays them).

Kept in the engine so that a game folder can declare an exact or learned estimator (the
``estimator`` part of its :class:`~dicegames.core.definition.GameDefinition`: a function
``game -> Estimator | None``) without importing the analysis package.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from dicegames.core.game import State
from dicegames.core.model import Seat


@dataclass(frozen=True, slots=True)
class Estimate:
    """Every seat's chance to win, and the standard error of each (0 when exact).

    ``error`` is ``None`` for the learned model: it has a fitting error, but no sampling
    error this program can state.
    """

    chances: tuple[float, ...]
    error: float | None = 0.0


class Estimator(Protocol):
    """How a game's positions are judged; see the module docstring."""

    kind: str
    """``"exact"``, ``"learned"`` or ``"rollouts"``."""

    description: str
    """One sentence for people: what the estimate is and how sure it is."""

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Every seat's chance to win from ``state``."""
        ...

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The estimate after each of ``seat``'s legal actions at ``state``."""
        ...


def terminal_estimate(state: State[Any, Any, Any]) -> Estimate:
    """The finished game's outcome: 1 split among the winners, exact."""
    return Estimate(state.result.returns(), 0.0)


__all__ = ["Estimate", "Estimator", "terminal_estimate"]
