"""The bots of For a Few Extra Meters (the ``bots`` part of its definition): random, the
threshold rule of :mod:`.heuristics`, and the exact solutions of :mod:`.solver` (two
runners) and :mod:`.races` (three and four).
"""

from __future__ import annotations

import random
from typing import Any

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.game import Game
from dicegames.core.model import BotLevel
from dicegames.games.extra_meters.heuristics import threshold_policy
from dicegames.games.extra_meters.race3 import hard_policy
from dicegames.games.extra_meters.races import covers, exact_policy
from dicegames.games.extra_meters.rules import ExtraMetersRules
from dicegames.games.extra_meters.solver import optimal_policy


def solved(game: ExtraMetersRules) -> bool:
    """Whether the race of three or four runners is solved for this game
    (:func:`.races.covers`)."""
    return covers(game.track_length, str(game.options["finish"]), game.players)


def levels(game: ExtraMetersRules) -> tuple[BotLevel, ...]:
    """easy: random; medium: the threshold rule; hard: the exact race solution (two and
    three runners) or the duel with the leader; optimal: the exact solution wherever one
    exists (two runners; three and four under ``finish=first``)."""
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
    exact = ("plays the exact solution of the race: each runner maximising its own chance "
             "to win, stopping when rolling on gains nothing (a table computed once and kept "
             "on disk)")
    if game.players == 3 and solved(game):
        levels.append(BotLevel(
            "hard", "plays perfectly: the exact solution of the three-runner race (each "
            "runner maximising its own chance to win; a table computed once, about 1 s)",
            lambda g, rng: PolicyBot(hard_policy, rng)))
        levels.append(BotLevel("duel", f"{duel} (hard's former three-runner play)",
                               lambda g, rng: PolicyBot(optimal_policy, rng),
                               listed=False))
    else:
        levels.append(BotLevel("hard", duel, lambda g, rng: PolicyBot(optimal_policy, rng)))
    if solved(game):
        levels.append(BotLevel("optimal", exact, _optimal_bot))
    return tuple(levels)


def _optimal_bot(game: Game[Any, Any, Any], rng: random.Random) -> PolicyBot:
    """The exact bot of three or four runners. Its table is built (or read from the disk
    cache) at its first decision, not here: the web app builds a match's bots on its event
    loop and its decisions in a worker thread, and the four-runner table takes seconds."""
    return PolicyBot(exact_policy, rng)
