"""The bots of Petits Chevaux: random, rules of thumb, the risk-weighing player, the same with
a learned win chance (``expert``, see :mod:`.value`), the same with learned weights played
by the kernel (``trained``, see :mod:`.trained`), and a search.

The search bot (``search``) tries each close candidate move on simulated continuations (see
:mod:`.search`); its budget is a constructor argument, so simulations can run it at a few
milliseconds a move while people play against it at about one second a move.
"""

from __future__ import annotations

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.model import BotLevel
from dicegames.games.petits_chevaux.heuristics import hard_policy, heuristic_policy
from dicegames.games.petits_chevaux.search import (
    DEFAULT_ROLLOUTS,
    DEFAULT_TIME_LIMIT_MS,
    MEASURED_ROLLOUTS,
    search_bot,
    value_search_bot,
)
from dicegames.games.petits_chevaux.trained import trained_policy
from dicegames.games.petits_chevaux.value import expert_policy


def levels(game: object = None) -> tuple[BotLevel, ...]:
    """easy: random; medium: rules of thumb; hard: exact capture risk and tuned weights;
    expert: hard plus a win chance learned from simulated games; trained: a network valuing
    the position each move leaves, trained by TD(lambda) on millions of kernel games (one
    network per player count) and played by the kernel (:mod:`.trained`), the strongest
    level measured; search: ``hard`` corrected by simulated continuations, about 0.1 s a
    move; search-60: the same on the small budget its measurements use; search-expert-60
    (unlisted): the search built on expert, an experiment. (The ``bots`` part of the
    definition: the same levels for every configuration, so ``game`` is not read.)"""
    return (
        BotLevel("easy", "a random legal move", lambda g, rng: RandomBot(rng)),
        BotLevel("medium", "rules of thumb: capture, enter the stable, bring horses out, keep "
                 "out of reach, make barrages", lambda g, rng: PolicyBot(heuristic_policy, rng)),
        BotLevel("hard", "weighs the exact chance of each of its horses being captured before "
                 "its next turn, captures, runs its leading horse home (weights tuned by "
                 "simulation; well under 1 ms a move)",
                 lambda g, rng: PolicyBot(hard_policy, rng)),
        BotLevel("expert", "hard's judgement of each move plus the chance to win the position "
                 "it leaves, as a small network fitted on thousands of simulated games "
                 "estimates it (about 0.3 ms a move)",
                 lambda g, rng: PolicyBot(expert_policy, rng)),
        BotLevel("trained", "a small neural network judges the position each move leaves and "
                 "plays the best; it learned by playing millions of games against medium "
                 "players (temporal-difference learning, as the backgammon program TD-Gammon "
                 "did)",
                 lambda g, rng: PolicyBot(trained_policy, rng)),
        BotLevel("search", "plays hard's move unless simulated continuations (every opponent "
                 "playing medium) show another close move clearly better; 2,000 continuations "
                 "(about 0.1 s a move in the compiled kernel, at most 0.9 s), at once when "
                 "the move is forced or obvious",
                 lambda g, rng: search_bot(rng, rollouts=DEFAULT_ROLLOUTS,
                                           time_limit_ms=DEFAULT_TIME_LIMIT_MS)),
        BotLevel("search-60", "the search bot on a small budget: 60 continuations a move "
                 "(about 10 ms a move with two players, 45 ms with four), no time limit, so "
                 "simulations are reproducible",
                 lambda g, rng: search_bot(rng, rollouts=MEASURED_ROLLOUTS), listed=False),
        BotLevel("search-expert-60", "the search built on expert instead of hard (expert's "
                 "candidates and default move, expert playing itself in the continuations, "
                 "scored by the learned win chance), 60 continuations a move, no time limit; "
                 "an experiment, not measurably stronger than expert",
                 lambda g, rng: value_search_bot(rng, rollouts=MEASURED_ROLLOUTS),
                 listed=False),
    )
