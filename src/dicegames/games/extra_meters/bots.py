"""The bots of For a Few Extra Meters (the ``bots`` part of its definition): random, the
threshold rule of :mod:`.heuristics`, and the exact solutions of :mod:`.solver` (two
runners) and :mod:`.race3` (three).
"""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.extra_meters.heuristics import threshold_policy
from dicegames.games.extra_meters.race3 import LARGEST_TRACK, hard_policy
from dicegames.games.extra_meters.rules import ExtraMetersRules
from dicegames.games.extra_meters.solver import HAVE_NUMPY, optimal_policy


def levels(game: ExtraMetersRules) -> tuple[BotLevel, ...]:
    """easy: random; medium: the threshold rule; hard: the exact race solution."""
    levels = [
        BotLevel("easy", "rolls or stops at random", lambda g, rng: RandomBot(rng)),
        BotLevel("medium", "rolls while one more roll gains on average (sum < 16 + dice),"
                 " stops when stopping wins", lambda g, rng: PolicyBot(threshold_policy, rng)),
    ]
    if game.players == 2:
        perfect = ("plays perfectly: the exact solution of the two-player race (a table "
                   "computed once: 0.03 s for 50 squares, 0.3 s for 200 with numpy)")
        levels += [
            BotLevel("hard", perfect, lambda g, rng: PolicyBot(optimal_policy, rng)),
            BotLevel("optimal", perfect, lambda g, rng: PolicyBot(optimal_policy, rng)),
        ]
        return tuple(levels)
    duel = "plays the exact two-runner race against the leading opponent"
    if game.players == 3 and game.options["finish"] == "first" and (
            game.track_length <= LARGEST_TRACK and HAVE_NUMPY):
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
