"""What people see of For a Few Extra Meters: the track drawn as text (:mod:`.render`) and as the
web board (:mod:`.view`), and the log's sentences, in the current language. The game's
definition declares :class:`ExtraMetersPresenter` as its ``presenter`` part; the rules
(:mod:`.rules`) import none of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.core.game import State
from dicegames.core.model import JsonObject, Result, Seat
from dicegames.core.presenter import Presenter
from dicegames.games.extra_meters import render as text
from dicegames.games.extra_meters import view as web
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.rules import ExtraMetersRules
from dicegames.i18n import _


class ExtraMetersPresenter(Presenter[ExtraMetersRules]):
    """The board as text and as the web board, and the log's sentences, of
    For a Few Extra Meters (the ``presenter`` part of its definition)."""

    def render(self, state: State[ExtraMetersData, Decision, int],
               names: Sequence[str] | None = None) -> str:
        """The track with every runner, and the dice of the current turn."""
        return text.render(state.data, self.game.track_length, names)

    def describe(self, state: State[ExtraMetersData, Decision, int], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        return text.describe(state.data, move, seat, names)

    def describe_summary(self, state: State[ExtraMetersData, Decision, int],
                         result: Result) -> str:
        """ "past square 50 in round 7", in the current language."""
        rounds = (state.data.turn + self.game.players - 1) // self.game.players
        return _("past square {square} in round {round}", square=self.game.track_length,
                 round=rounds)

    def describe_score(self, state: State[ExtraMetersData, Decision, int], result: Result,
                       seat: Seat) -> str:
        """ "square 37", "past the end (52)": where the seat's runner stands."""
        position = state.data.positions[seat]
        if position > self.game.track_length:
            return _("past the end ({number})", number=position)
        return _("start") if position == 0 else _("square {number}", number=position)

    def explain_result(self, state: State[ExtraMetersData, Decision, int], result: Result,
                       names: Sequence[str]) -> str:
        """The finish rule, and that the numbers are the squares the runners reached."""
        if self.game.options["finish"] == "same_round":
            return _("Every runner past square {last} by the end of that round wins. Beside "
                     "each name: the square the runner reached.", last=self.game.track_length)
        return _("The first runner past square {last} wins. Beside each name: the square the "
                 "runner reached.", last=self.game.track_length)

    def dice_note(self, state: State[ExtraMetersData, Decision, int]) -> str:
        """On a turn's first roll, where only 1 to 5 can be entered: a 6 is rolled again."""
        if state.data.phase is Phase.OPENING:
            return _("First roll of the turn: a 6 does not count. Roll again until the die "
                     "shows 1 to 5.")
        return ""

    def roll_dice(self, state: State[ExtraMetersData, Decision, int],
                  outcome: int) -> list[JsonObject]:
        """The turn's dice with this roll; a roll that ends the turn at once (the runner
        falls, or the game is over) clears them from the position, so they are kept here
        (where the default would show the last die alone)."""
        dice: list[JsonObject] = self.view(state.apply_unchecked(outcome))["dice"]
        return dice or [*web.dice(state.data), {"value": outcome, "label": str(outcome)}]

    def view(self, state: State[ExtraMetersData, Decision, int]) -> JsonObject:
        """The track, the runners and the turn's dice for the SVG board (see view.py)."""
        finish = self.game.options["finish"]
        assert isinstance(finish, str)
        game = self.game
        return web.view(state.data, game.track_length, finish, game.players, game.spec.id)

    def action_hints(self, state: State[ExtraMetersData, Decision, int],
                     seat: Seat) -> list[JsonObject]:
        """Roll (on the big die) and stop (on the ghost runner), with friendly labels."""
        return web.hints(state.data, state.legal_actions(seat), seat, self.game.track_length)
