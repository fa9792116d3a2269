"""The bots of Shortcut (the ``bots`` part of its definition): random, the fixed rule and
the turn's expectimax of :mod:`.heuristics`.
"""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.shortcut.rules import ShortcutRules


def levels(game: ShortcutRules) -> tuple[BotLevel, ...]:
    """easy: random; medium: a fixed rule; hard: expectimax over the turn; optimal: the
    exact solution, where it covers the game (two players, a board of a solvable size; see
    :mod:`.solver`)."""
    from dicegames.games.shortcut.heuristics import HardBot, medium_policy
    from dicegames.games.shortcut.optimal import OPTIMAL_DOC, OptimalBot, covered

    found: tuple[BotLevel, ...] = (
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
    if covered(game):
        found += (BotLevel("optimal", OPTIMAL_DOC, OptimalBot),)
    return found
