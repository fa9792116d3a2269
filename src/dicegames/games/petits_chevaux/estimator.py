"""Petits Chevaux's learned win chances (the ``estimator`` part of its definition, read by
reviews and the design report): the ``expert`` bot's fitted value model."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from dicegames.core.estimates import Estimate, Estimator, terminal_estimate
from dicegames.core.game import Game, State
from dicegames.core.model import Seat


class LearnedPetitsChevaux:
    """Petits Chevaux by its learned win-chance model (the ``expert`` bot's value)."""

    kind = "learned"
    description = ("the learned win-chance model of the expert bot (a fitted estimate: its "
                   "error is the model's, not a sampling error)")

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        from dicegames.games.petits_chevaux.value import model_for

        self._game: Any = game
        self._model = model_for(game.players)

    def _after(self, data: Any) -> tuple[float, ...]:
        game = self._game
        return tuple(self._model.win_chances(game.colours, data.horses, data.player,
                                             blocking=game.blocking))

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """At a roll: the model; at a decision: the model after the mover's best move."""
        if state.is_terminal:
            return terminal_estimate(state)
        if state.is_chance:
            return Estimate(self._after(state.data), None)
        seat = state.node.players[0]
        options = self.choices(state, seat)
        return max(options.values(), key=lambda estimate: estimate.chances[seat])

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The model's chances after each legal move (a winning move wins outright)."""
        result: dict[Hashable, Estimate] = {}
        for action in state.legal_actions(seat):
            after = state.apply_unchecked(action, seat)
            result[action] = (terminal_estimate(after) if after.is_terminal
                              else Estimate(self._after(after.data), None))
        return result


def estimator(game: Game[Any, Any, Any]) -> Estimator:
    """The learned estimate, for every player count."""
    return LearnedPetitsChevaux(game)
