"""What people see of EXTRA!: the score sheets drawn as text (:mod:`.render`) and as the
web board (:mod:`.view`), and the log's sentences, in the current language. The game's
definition declares :class:`ExtraPresenter` as its ``presenter`` part; the rules
(:mod:`.rules`) import none of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.core.game import State
from dicegames.core.model import JsonObject, Result, Seat
from dicegames.core.presenter import Presenter
from dicegames.core.text import counted
from dicegames.games.extra import render as text
from dicegames.games.extra import view as web
from dicegames.games.extra.data import Decision, ExtraData
from dicegames.games.extra.rules import ExtraRules, Roll
from dicegames.i18n import N_, _


class ExtraPresenter(Presenter[ExtraRules]):
    """The board as text and as the web board, and the log's sentences, of
    EXTRA! (the ``presenter`` part of its definition)."""

    def render(self, state: State[ExtraData, Decision, Roll],
               names: Sequence[str] | None = None) -> str:
        """Every player's score sheet, like the paper pad, and the shared roll."""
        return text.render(state.data, self.game.columns, names, self.game.child_seats)

    def describe(self, state: State[ExtraData, Decision, Roll], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        after = None
        if seat is not None and isinstance(move, Decision):
            after = self.game.record(seat, state.data.sheets[seat], move)
        return text.describe(state.data, move, seat, names, after)

    def describe_summary(self, state: State[ExtraData, Decision, Roll], result: Result) -> str:
        """ "45 points (totals 45, 12)", in the current language."""
        scores = [sheet.score for sheet in state.data.sheets]
        best = max(scores)
        if self.game.players == 1:
            if best < 0:
                return _("{best} points: a negative total loses the solo game", best=best)
            return _("{best} points", best=best)
        return _("{best} points (totals {scores})", best=best,
                 scores=", ".join(str(score) for score in scores))

    def describe_score(self, state: State[ExtraData, Decision, Roll], result: Result,
                       seat: Seat) -> str:
        """ "45 points": the sheet's total."""
        return counted(int(result.scores[seat]), N_("1 point"), N_("{count} points"))

    def explain_result(self, state: State[ExtraData, Decision, Roll], result: Result,
                       names: Sequence[str]) -> str:
        """The highest total wins; the numbers are the sheets' totals."""
        if self.game.players == 1:
            return _("A total of 0 or more wins the solo game. The number is the score "
                     "sheet's total.")
        return _("The highest total on the score sheet wins; equal totals share the win. "
                 "Beside each name: that player's total.")

    def view(self, state: State[ExtraData, Decision, Roll]) -> JsonObject:
        """Every score sheet and the shared roll as JSON for the web board (see view.py)."""
        return web.view(self.game, state)

    def action_hints(self, state: State[ExtraData, Decision, Roll],
                     seat: Seat) -> list[JsonObject]:
        """The decisions with friendly labels and the sheet cells they write in."""
        return web.action_hints(self.game, state, seat)
