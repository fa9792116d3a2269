"""The bots of EXTRA! (the ``bots`` part of its definition): random, the one-step and
whole-game policies of :mod:`.heuristics`, and hard's value with learned weights
(:mod:`.trained`).
"""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.extra.heuristics import hard_policy, medium_policy
from dicegames.games.extra.rules import ExtraRules
from dicegames.games.extra.trained import trained_policy


def levels(game: ExtraRules) -> tuple[BotLevel, ...]:
    """easy: random; medium: one-step heuristic; hard: a value function tuned by play;
    trained: hard's value function with weights fitted on simulated solo games."""
    return (
        BotLevel("easy", "a random legal decision", lambda g, rng: RandomBot(rng)),
        BotLevel("medium", "one step: the score of each row's next cross, a small cost "
                 "for starting rows, and the risk of filling an EXTRA column",
                 lambda g, rng: PolicyBot(medium_policy, rng)),
        BotLevel("hard", "looks to the end of its game: the exact expected number of rolls "
                 "left for its EXTRA columns and each row's expected final score, tuned "
                 "by simulated solo games", lambda g, rng: PolicyBot(hard_policy, rng)),
        BotLevel("trained", "stronger than hard: hard's look to the end of its game with "
                 "weights learned from millions of simulated solo games (a cost for starting "
                 "each row, and for each face written as a new EXTRA number)",
                 lambda g, rng: PolicyBot(trained_policy, rng)),
    )
