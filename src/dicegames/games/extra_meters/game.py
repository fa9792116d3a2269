"""For a Few Extra Meters as people play it: the pure rules of :mod:`.rules` bound to their
presentation. :class:`ExtraMeters` adds the track drawn as text and as the web board, the log's
sentences, and the bots (the threshold rule, the exact solution); :mod:`.rules` imports none of
these (see :mod:`dicegames.games.binding`), and the registry registers this class.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.game import State
from dicegames.core.model import BotLevel, JsonObject, Result, Seat
from dicegames.games.extra_meters import render as text
from dicegames.games.extra_meters import view as web
from dicegames.games.extra_meters.data import Decision, ExtraMetersData
from dicegames.games.extra_meters.heuristics import threshold_policy
from dicegames.games.extra_meters.race3 import LARGEST_TRACK, hard_policy
from dicegames.games.extra_meters.rules import ExtraMetersRules
from dicegames.games.extra_meters.solver import HAVE_NUMPY, optimal_policy
from dicegames.i18n import _


class ExtraMeters(ExtraMetersRules):
    """:class:`ExtraMetersRules` with its board, sentences and bots (the registered class)."""

    def render(self, state: State[ExtraMetersData, Decision, int],
               names: Sequence[str] | None = None) -> str:
        """The track with every runner, and the dice of the current turn."""
        return text.render(state.data, self.track_length, names)

    def describe(self, state: State[ExtraMetersData, Decision, int], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        return text.describe(state.data, move, seat, names)

    def describe_summary(self, state: State[ExtraMetersData, Decision, int],
                         result: Result) -> str:
        """ "past square 50 in round 7", in the current language."""
        rounds = (state.data.turn + self.players - 1) // self.players
        return _("past square {square} in round {round}", square=self.track_length,
                 round=rounds)

    def roll_dice(self, state: State[ExtraMetersData, Decision, int],
                  outcome: int) -> list[JsonObject]:
        """The turn's dice with this roll; a roll that ends the turn at once (the runner
        falls, or the game is over) clears them from the position, so they are kept here
        (where the default would show the last die alone)."""
        dice: list[JsonObject] = self.view(state.apply_unchecked(outcome))["dice"]
        return dice or [*web.dice(state.data), {"value": outcome, "label": str(outcome)}]

    def view(self, state: State[ExtraMetersData, Decision, int]) -> JsonObject:
        """The track, the runners and the turn's dice for the SVG board (see view.py)."""
        finish = self.options["finish"]
        assert isinstance(finish, str)
        return web.view(state.data, self.track_length, finish, self.players, self.spec.id)

    def action_hints(self, state: State[ExtraMetersData, Decision, int],
                     seat: Seat) -> list[JsonObject]:
        """Roll (on the big die) and stop (on the ghost runner), with friendly labels."""
        return web.hints(state.data, state.legal_actions(seat), seat, self.track_length)

    def bot_levels(self) -> tuple[BotLevel, ...]:
        """easy: random; medium: the threshold rule; hard: the exact race solution."""
        levels = [
            BotLevel("easy", "rolls or stops at random", lambda g, rng: RandomBot(rng)),
            BotLevel("medium", "rolls while one more roll gains on average (sum < 16 + dice),"
                     " stops when stopping wins", lambda g, rng: PolicyBot(threshold_policy, rng)),
        ]
        if self.players == 2:
            perfect = ("plays perfectly: the exact solution of the two-player race (a table "
                       "computed once: 0.03 s for 50 squares, 0.3 s for 200 with numpy)")
            levels += [
                BotLevel("hard", perfect, lambda g, rng: PolicyBot(optimal_policy, rng)),
                BotLevel("optimal", perfect, lambda g, rng: PolicyBot(optimal_policy, rng)),
            ]
            return tuple(levels)
        duel = "plays the exact two-runner race against the leading opponent"
        if self.players == 3 and self.options["finish"] == "first" and (
                self.track_length <= LARGEST_TRACK and HAVE_NUMPY):
            levels.append(BotLevel(
                "hard", "plays perfectly: the exact solution of the three-runner race (each "
                "runner maximising its own chance to win; a table computed once, about 1 s)",
                lambda g, rng: PolicyBot(hard_policy, rng)))
            levels.append(BotLevel("duel", f"{duel} (hard's former three-runner play)",
                                   lambda g, rng: PolicyBot(optimal_policy, rng),
                                   listed=False))
        else:
            levels.append(BotLevel("hard", duel, lambda g, rng: PolicyBot(optimal_policy, rng)))
        return tuple(levels)
