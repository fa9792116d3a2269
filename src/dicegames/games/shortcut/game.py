"""Shortcut as people play it: the pure rules of :mod:`.rules` bound to their presentation.
:class:`Shortcut` adds the grid drawn as text and as the web board, the log's sentences, and the
bots of :mod:`.heuristics`; :mod:`.rules` imports none of these (see
:mod:`dicegames.games.binding`), and the registry registers this class.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.game import State
from dicegames.core.model import BotLevel, JsonObject, Result, Seat
from dicegames.games.shortcut import render as text
from dicegames.games.shortcut import view as web
from dicegames.games.shortcut.data import Phase, ShortcutData
from dicegames.games.shortcut.rules import Action, ShortcutRules
from dicegames.i18n import _


class Shortcut(ShortcutRules):
    """:class:`ShortcutRules` with its board, sentences and bots (the registered class)."""

    def render(self, state: State[ShortcutData, Action, int],
               names: Sequence[str] | None = None) -> str:
        """The grid with road numbers, grey cells, cars and (when choosing) destinations."""
        data = state.data
        marked = (frozenset(c.index for c in self.destinations(data))
                  if data.phase in (Phase.CHOOSE, Phase.PUSH_TO) else frozenset())
        return text.render(self.board, data, names, marked)

    def describe(self, state: State[ShortcutData, Action, int], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        return text.describe(self.board, state.data, move, names)

    def describe_summary(self, state: State[ShortcutData, Action, int],
                         result: Result) -> str:
        """ "first on the finish in round 5", in the current language."""
        rounds = (state.data.turn + self.players - 1) // self.players
        return _("first on the finish in round {round}", round=rounds)

    def view(self, state: State[ShortcutData, Action, int]) -> JsonObject:
        """The grid, cars, turn, signs and dice for the web board (see :mod:`.view`)."""
        return web.view(self, state.data, state.is_chance)

    def static_board(self) -> JsonObject:
        """The grid: every cell with its kind, road number and notation (:mod:`.view`)."""
        return web.static_board(self)

    def moving_view(self, state: State[ShortcutData, Action, int]) -> JsonObject:
        """The view without the grid: cars, turn, signs, destinations and dice."""
        return web.moving_view(self, state.data, state.is_chance)

    def action_hints(self, state: State[ShortcutData, Action, int],
                     seat: Seat) -> list[JsonObject]:
        """Each legal choice with a friendly label and the cell or sign it is clicked on."""
        return web.hints(self, state.data, seat, state.legal_actions(seat))

    def bot_levels(self) -> tuple[BotLevel, ...]:
        """easy: random; medium: a fixed rule; hard: expectimax over the turn."""
        from dicegames.games.shortcut.heuristics import HardBot, medium_policy

        return (
            BotLevel("easy", "a uniformly random legal choice", lambda g, rng: RandomBot(rng)),
            BotLevel("medium", "a fixed rule: the road, except the shortcut next to the "
                     "grey field where crossing saves 8 road squares or more (pressing until "
                     "the total is 3, then stopping on the cell in range nearest the finish), "
                     "pushes across the grey, a push one square from the finish and the "
                     "shortcut two or three squares from it",
                     lambda g, rng: PolicyBot(medium_policy, rng)),
            BotLevel("hard", "expectimax over the whole turn (every roll, press and "
                     "destination, exact probabilities), scoring the end of the turn by its "
                     "chance to win the race (turn-count distributions of every car under "
                     "the best solo play); a few ms per move", lambda g, rng: HardBot(rng)),
        )
