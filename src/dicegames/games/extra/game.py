"""EXTRA! as people play it: the pure rules of :mod:`.rules` bound to their presentation.
:class:`Extra` adds the score sheets drawn as text and as the web board, the log's sentences,
and the bots of :mod:`.heuristics`; :mod:`.rules` imports none of these (see
:mod:`dicegames.games.binding`), and the registry registers this class.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.game import State
from dicegames.core.model import BotLevel, JsonObject, Result, Seat
from dicegames.games.extra import render as text
from dicegames.games.extra import view as web
from dicegames.games.extra.data import Decision, ExtraData
from dicegames.games.extra.heuristics import hard_policy, medium_policy
from dicegames.games.extra.rules import ExtraRules, Roll
from dicegames.i18n import _


class Extra(ExtraRules):
    """:class:`ExtraRules` with its board, sentences and bots (the registered class)."""

    def render(self, state: State[ExtraData, Decision, Roll],
               names: Sequence[str] | None = None) -> str:
        """Every player's score sheet, like the paper pad, and the shared roll."""
        return text.render(state.data, self.columns, names, self.child_seats)

    def describe(self, state: State[ExtraData, Decision, Roll], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        after = None
        if seat is not None and isinstance(move, Decision):
            after = self.record(seat, state.data.sheets[seat], move)
        return text.describe(state.data, move, seat, names, after)

    def describe_summary(self, state: State[ExtraData, Decision, Roll], result: Result) -> str:
        """ "45 points (totals 45, 12)", in the current language."""
        scores = [sheet.score for sheet in state.data.sheets]
        best = max(scores)
        if self.players == 1:
            if best < 0:
                return _("{best} points: a negative total loses the solo game", best=best)
            return _("{best} points", best=best)
        return _("{best} points (totals {scores})", best=best,
                 scores=", ".join(str(score) for score in scores))

    def view(self, state: State[ExtraData, Decision, Roll]) -> JsonObject:
        """Every score sheet and the shared roll as JSON for the web board (see view.py)."""
        return web.view(self, state)

    def action_hints(self, state: State[ExtraData, Decision, Roll],
                     seat: Seat) -> list[JsonObject]:
        """The decisions with friendly labels and the sheet cells they write in."""
        return web.action_hints(self, state, seat)

    def bot_levels(self) -> tuple[BotLevel, ...]:
        """easy: random; medium: one-step heuristic; hard: a value function tuned by play."""
        return (
            BotLevel("easy", "a random legal decision", lambda g, rng: RandomBot(rng)),
            BotLevel("medium", "one step: the score of each row's next cross, a small cost "
                     "for starting rows, and the risk of filling an EXTRA column",
                     lambda g, rng: PolicyBot(medium_policy, rng)),
            BotLevel("hard", "looks to the end of its game: the exact expected number of rolls "
                     "left for its EXTRA columns and each row's expected final score, tuned "
                     "by simulated solo games", lambda g, rng: PolicyBot(hard_policy, rng)),
        )
