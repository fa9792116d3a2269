"""Jeu des Petits Chevaux as vectors: every horse's progress, the track seen from one's own
start square, the die to play.

Actions: ``0`` pass, ``1`` out (a horse leaves the corner stable on a 6), ``2 + h`` moves
the player's own horse ``h + 1`` (``r1``..``r4`` for red, ``b1``..``b4`` for blue...).
Chance outcomes: a die's face ``f`` is ``f - 1``; the draw for the first player is
``6 + s`` for the colour of seat ``s``.
"""

from __future__ import annotations

from collections.abc import Hashable

from dicegames.core.model import PASS, Seat
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, Field, Vector, one_hot, scaled
from dicegames.games.petits_chevaux.board import FINAL, PATHS, TRACK_LENGTH
from dicegames.games.petits_chevaux.data import HORSE_OF, Action, ChevauxData, Phase
from dicegames.games.petits_chevaux.rules import PetitsChevauxRules

FACES = 6
"""Die faces; the draw's outcome ids come after them."""


class PetitsChevauxEncoder(Encoder):
    """Observation fields and ids of Jeu des Petits Chevaux (see docs/rl.md)."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        assert isinstance(game, PetitsChevauxRules)
        self.colours = game.colours
        p = self.players
        self.fields = (
            Field("progress", (p, 4), "per seat, horses 1 to 4: progress along the colour's "
                  f"path / {FINAL} (0 in the corner stable, 1/{FINAL} on the start square, "
                  f"56/{FINAL} on the stable entrance, 1 on stable square 6)"),
            Field("track", (p, TRACK_LENGTH), "per seat, its horses on each of the 56 track "
                  "squares / 2 (a barrage is 1); squares counted from the observer's start "
                  "square"),
            Field("to_move", (p,), "one-hot: the seat whose turn it is"),
            Field("phase", (len(Phase),), "one-hot: draw for first player, roll, move, over"),
            Field("die", (FACES,), "one-hot: the die to play (move phase)"),
            Field("sixes", (1,), "6s rolled in a row this turn / 3, at most 1"),
        )
        self.num_actions = 2 + 4
        self.num_outcomes = FACES + p

    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        data = state.data
        assert isinstance(data, ChevauxData)
        start = PATHS[self.colours[seat]][1]
        for other, row in enumerate(data.horses):
            place = self.relative(seat, other)
            path = PATHS[self.colours[other]]
            for horse, progress in enumerate(row):
                views["progress"][place, horse] = progress / FINAL
                square = path[progress]
                if square >= 0:
                    views["track"][place, (square - start) % TRACK_LENGTH] += 0.5
        one_hot(views["to_move"], self.relative(seat, data.player))
        one_hot(views["phase"], int(data.phase))
        one_hot(views["die"], data.roll - 1)
        views["sixes"][0] = scaled(data.sixes, 3)

    def action_id(self, action: Hashable) -> int:
        """``pass`` 0, ``out`` 1, a horse move ``2 + horse index``."""
        if action == PASS:
            return 0
        if action is Action.OUT:
            return 1
        assert isinstance(action, Action)
        return 2 + HORSE_OF[action]

    def action_name(self, action_id: int) -> str:
        """``pass``, ``out`` or ``horse N``."""
        return ("pass", "out")[action_id] if action_id < 2 else f"horse {action_id - 1}"

    def outcome_id(self, outcome: Hashable) -> int:
        """A face ``f`` is ``f - 1``; the draw of seat ``s``'s colour is ``6 + s``."""
        if isinstance(outcome, int):
            return outcome - 1
        return FACES + next(s for s, c in enumerate(self.colours) if c.label == outcome)

    def outcome_name(self, outcome_id: int) -> str:
        """A die's face, or the colour drawn to play first."""
        if outcome_id < FACES:
            return str(outcome_id + 1)
        return self.colours[outcome_id - FACES].label
