"""The bots of Petits Chevaux: random, the heuristic player, and the risk-aware look-ahead."""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.petits_chevaux.heuristics import heuristic_policy, lookahead_policy


def levels() -> tuple[BotLevel, ...]:
    """easy, medium and hard."""
    return (
        BotLevel("easy", "a random legal move", lambda g, rng: RandomBot(rng)),
        BotLevel("medium", "rules of thumb: capture, enter the stable, bring horses out, keep "
                 "out of reach, make barrages", lambda g, rng: PolicyBot(heuristic_policy, rng)),
        BotLevel("hard", "one-ply expectimax on progress and the exact chance of each horse "
                 "being captured before its next turn (a few ms a move)",
                 lambda g, rng: PolicyBot(lookahead_policy, rng)),
    )
