"""Rollout and MCTS bots on the kernel path: used when it plays their policies, same meaning."""

from __future__ import annotations

import random
import statistics

import dicegames
from dicegames.bots import MCTSBot, make_bot
from dicegames.bots.rollout import RolloutBot
from dicegames.games.petits_chevaux.data import ChevauxData, Phase
from dicegames.games.petits_chevaux.heuristics import heuristic_policy
from dicegames.games.petits_chevaux.search import evaluation, search_bot

MIDGAME = ChevauxData(((0, 12, 30, 0), (5, 0, 0, 44)), 0, 30, Phase.MOVE, 4)


def test_kernel_continuations_score_as_engine_continuations() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    state = game.state_from(MIDGAME)
    child = state.apply("r3")
    bot = search_bot(random.Random(1))
    assert bot.plan(state, 0).kernel is not None
    fast = [bot._continue(child, 0, seed) for seed in range(1_500)]
    slow = [bot._continue(child, 0, seed, use_kernel=False) for seed in range(300)]
    error = (statistics.variance(fast) / 1_500 + statistics.variance(slow) / 300) ** 0.5
    assert abs(statistics.fmean(fast) - statistics.fmean(slow)) < 4.5 * error


def test_the_search_level_uses_the_kernel_and_stays_reproducible() -> None:
    game = dicegames.make("petits-chevaux", players=4)
    one = make_bot(game, "search-60", random.Random(9))
    two = make_bot(game, "search-60", random.Random(9))
    searched = 0
    for die in range(1, 7):
        state = game.state_from(ChevauxData(((0, 12, 30, 3), (5, 0, 0, 44), (1, 0, 0, 0),
                                             (20, 26, 0, 0)), 0, 30, Phase.MOVE, die))
        assert isinstance(one, RolloutBot) and one.plan(state, 0).kernel is not None
        assert one.choose(state, 0) == two.choose(state, 0)
        searched += one.last_rollouts
    assert searched > 0
    expert_search = make_bot(game, "search-expert-60", random.Random(9))
    assert isinstance(expert_search, RolloutBot) and expert_search.plan(state, 0).kernel is None


def test_without_kernel_names_the_rollout_bot_uses_the_engine() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    bot = RolloutBot(random.Random(0), policy=heuristic_policy, evaluator=evaluation)
    assert bot.plan(game.state_from(MIDGAME), 0).kernel is None
    unknown = RolloutBot(random.Random(0), policy=heuristic_policy, evaluator=evaluation,
                         kernel_policies=("medium", "clever"))
    assert unknown.plan(game.state_from(MIDGAME), 0).kernel is None


def test_mcts_rolls_out_in_the_kernel_and_plays_legal_moves() -> None:
    game = dicegames.make("extra-meters", track_length=20)
    bot = MCTSBot(random.Random(2), simulations=300)
    state = game.new_state().apply("3")
    assert bot.plan(state).kernel is not None
    rewards = bot._rollout(state)
    assert sorted(rewards) == [0.0, 1.0]
    assert bot.choose(state, 0) in state.legal_actions()
    custom = MCTSBot(random.Random(2), rollout=lambda s, seat, rng: s.legal_actions(seat)[0])
    assert custom.plan(state).kernel is None
    named = MCTSBot(random.Random(2), rollout=lambda s, seat, rng: s.legal_actions(seat)[0],
                    kernel_policy="threshold")
    assert named.plan(state).kernel is not None
