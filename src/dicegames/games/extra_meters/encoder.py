"""For a Few Extra Meters as vectors: runners, the turn's dice, roll or stop.

Actions: ``0`` roll, ``1`` stop. Chance outcomes: a die's face ``f`` is ``f - 1`` (the
opening die shows 1..5, a further roll 1..6).
"""

from __future__ import annotations

from collections.abc import Hashable

from dicegames.core.model import Seat
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, Field, Vector, one_hot, scaled
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase

ACTIONS = (Decision.ROLL, Decision.STOP)
"""The action ids: ``ACTIONS[i]`` is action i."""


class ExtraMetersEncoder(Encoder):
    """Observation fields and ids of For a Few Extra Meters (see docs/rl.md)."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        length = game.options["track_length"]
        assert isinstance(length, int)
        self.track_length = length
        p = self.players
        self.fields = (
            Field("position", (p,), "each runner's square / (track_length + 1): 1 once past "
                  "the last square"),
            Field("to_move", (p,), "one-hot: the seat whose turn it is"),
            Field("phase", (len(Phase),), "one-hot: opening roll, decide, further roll, over"),
            Field("turn_sum", (1,), "sum of this turn's dice / (track_length + 1), at most 1"),
            Field("turn_dice", (1,), "dice rolled this turn / (track_length + 1), at most 1"),
            Field("stop_passes", (1,), "1 when stopping now would take the mover past the "
                  "last square"),
        )
        self.num_actions = len(ACTIONS)
        self.num_outcomes = 6

    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        data = state.data
        assert isinstance(data, ExtraMetersData)
        scale = self.track_length + 1
        for other, square in enumerate(data.positions):
            views["position"][self.relative(seat, other)] = scaled(square, scale)
        one_hot(views["to_move"], self.relative(seat, data.player))
        one_hot(views["phase"], int(data.phase))
        total = sum(data.dice)
        views["turn_sum"][0] = scaled(total, scale)
        views["turn_dice"][0] = scaled(len(data.dice), scale)
        views["stop_passes"][0] = float(data.positions[data.player] + total > self.track_length)

    def action_id(self, action: Hashable) -> int:
        """``roll`` is 0, ``stop`` is 1."""
        return ACTIONS.index(Decision(str(action)))

    def action_name(self, action_id: int) -> str:
        """``roll`` or ``stop``."""
        return str(ACTIONS[action_id])

    def outcome_id(self, outcome: Hashable) -> int:
        """A die face ``f`` is ``f - 1``."""
        assert isinstance(outcome, int)
        return outcome - 1

    def outcome_name(self, outcome_id: int) -> str:
        """The die's face: ``outcome_id + 1``."""
        return str(outcome_id + 1)

    def key(self, state: AnyState) -> str:
        """The runners, whose turn, the phase and the turn's sum and count of dice.

        The order of the dice and the turn counter do not matter to the future, and neither
        does how far past the end anything is: a runner past the last square, a sum that
        would take the mover past it, and a count of dice whose bust would (a 6 moves one
        square a die) are each shown capped, so states with the same future share a key and
        the keys are finitely many (OpenSpiel's value iteration needs both).
        """
        data = state.data
        assert isinstance(data, ExtraMetersData)
        end = self.track_length
        room = max(0, end - data.positions[data.player])  # squares the mover may still cover
        total = min(sum(data.dice), room + 1)
        count = min(len(data.dice), room)
        positions = " ".join(str(min(p, end + 1)) for p in data.positions)
        return (f"runners {positions}; seat {data.player} {data.phase.name.lower()}; "
                f"sum {total} of {count} dice")
