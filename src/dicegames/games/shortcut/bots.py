"""The bots of Shortcut (the ``bots`` part of its definition): random, the fixed rule and
the turn's expectimax of :mod:`.heuristics`, the learned level of :mod:`.trained` and the
exact solution of :mod:`.optimal`.
"""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.shortcut.rules import ShortcutRules

TRAINED_DOC = ("hard's search over the whole turn, the end of the turn valued by hard's "
               "chance plus learned weights for the exact two-player chance against each "
               "opponent, fitted on simulated games against hard players")
"""The trained level's line (any player count, on a board the two-player solution covers)."""


def levels(game: ShortcutRules) -> tuple[BotLevel, ...]:
    """easy: random; medium: a fixed rule; hard: expectimax over the turn; optimal: the
    exact solution, where it covers the game (two players, a board of a solvable size; see
    :mod:`.solver`); trained (:mod:`.trained`, listed before optimal, which it does not
    reach), on any board that solution covers, at any player count."""
    from dicegames.games.shortcut.heuristics import HardBot, medium_policy
    from dicegames.games.shortcut.optimal import OPTIMAL_DOC, OptimalBot, covered
    from dicegames.games.shortcut.solver import supported
    from dicegames.games.shortcut.trained import trained_policy

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
    if supported(2, game.board) is None:
        found += (BotLevel("trained", TRAINED_DOC,
                           lambda g, rng: PolicyBot(trained_policy, rng)),)
    if covered(game):
        found += (BotLevel("optimal", OPTIMAL_DOC, OptimalBot),)
    return found
