"""The bots of Petits Chevaux: random, the rule-of-thumb player, and the risk-weighing player."""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.petits_chevaux.heuristics import hard_policy, heuristic_policy


def levels() -> tuple[BotLevel, ...]:
    """easy: random; medium: rules of thumb; hard: exact capture risk and tuned weights."""
    return (
        BotLevel("easy", "a random legal move", lambda g, rng: RandomBot(rng)),
        BotLevel("medium", "rules of thumb: capture, enter the stable, bring horses out, keep "
                 "out of reach, make barrages", lambda g, rng: PolicyBot(heuristic_policy, rng)),
        BotLevel("hard", "weighs the exact chance of each of its horses being captured before "
                 "its next turn, captures, runs its leading horse home (weights tuned by "
                 "simulation; well under 1 ms a move)",
                 lambda g, rng: PolicyBot(hard_policy, rng)),
    )
