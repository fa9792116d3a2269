"""What people see of Shortcut: the grid drawn as text (:mod:`.render`) and as the
web board (:mod:`.view`), and the log's sentences, in the current language. The game's
definition declares :class:`ShortcutPresenter` as its ``presenter`` part; the rules
(:mod:`.rules`) import none of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.core.game import State
from dicegames.core.model import JsonObject, Result, Seat
from dicegames.core.presenter import Presenter
from dicegames.core.text import counted
from dicegames.games.shortcut import render as text
from dicegames.games.shortcut import view as web
from dicegames.games.shortcut.data import Phase, ShortcutData
from dicegames.games.shortcut.rules import Action, ShortcutRules
from dicegames.i18n import N_, _


class ShortcutPresenter(Presenter[ShortcutRules]):
    """The board as text and as the web board, and the log's sentences, of
    Shortcut (the ``presenter`` part of its definition)."""

    def render(self, state: State[ShortcutData, Action, int],
               names: Sequence[str] | None = None) -> str:
        """The grid with road numbers, grey cells, cars and (when choosing) destinations."""
        data = state.data
        marked = (frozenset(c.index for c in self.game.destinations(data))
                  if data.phase in (Phase.CHOOSE, Phase.PUSH_TO) else frozenset())
        return text.render(self.game.board, data, names, marked)

    def describe(self, state: State[ShortcutData, Action, int], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        return text.describe(self.game.board, state.data, move, names)

    def describe_summary(self, state: State[ShortcutData, Action, int],
                         result: Result) -> str:
        """ "first on the finish in round 5", in the current language."""
        rounds = (state.data.turn + self.game.players - 1) // self.game.players
        return _("first on the finish in round {round}", round=rounds)

    def describe_score(self, state: State[ShortcutData, Action, int], result: Result,
                       seat: Seat) -> str:
        """ "on the finish", "4 steps from the finish" (the score is minus those steps)."""
        steps = -int(result.scores[seat])
        if steps <= 0:
            return _("on the finish")
        return counted(steps, N_("1 step from the finish"), N_("{count} steps from the finish"))

    def explain_result(self, state: State[ShortcutData, Action, int], result: Result,
                       names: Sequence[str]) -> str:
        """The finish rule, and that the numbers are the steps left."""
        return _("The first car on the finish wins. Beside each name: how many steps that car "
                 "still had to go.")

    def view(self, state: State[ShortcutData, Action, int]) -> JsonObject:
        """The grid, cars, turn, signs and dice for the web board (see :mod:`.view`)."""
        return web.view(self.game, state.data, state.is_chance)

    def static_board(self) -> JsonObject:
        """The grid: every cell with its kind, road number and notation (:mod:`.view`)."""
        return web.static_board(self.game)

    def moving_view(self, state: State[ShortcutData, Action, int]) -> JsonObject:
        """The view without the grid: cars, turn, signs, destinations and dice."""
        return web.moving_view(self.game, state.data, state.is_chance)

    def action_hints(self, state: State[ShortcutData, Action, int],
                     seat: Seat) -> list[JsonObject]:
        """Each legal choice with a friendly label and the cell or sign it is clicked on."""
        return web.hints(self.game, state.data, seat, state.legal_actions(seat))
