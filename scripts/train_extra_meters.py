"""Train a tabular Q-learning agent on Extra Meters with OpenSpiel, compare it with the exact
solution.

The worked example of docs/rl.md. Two of OpenSpiel's tabular Q-learners
(``open_spiel.python.algorithms.tabular_qlearner``) play each other on a short track through
``open_spiel.python.rl_environment``, each keyed on its observation vector (the game's
encoder, docs/rl.md); the environment's chance sampler rolls the dice. Then the greedy
learned policy plays the exact solution (:mod:`dicegames.games.extra_meters.solver`, the
``optimal`` bot) from both seats, and the script reports:

- the exact chance that the first player wins when both play optimally (the solver's);
- the learner's score against the optimal player over the evaluation games, seats
  alternating: 50% is the best anyone can do, with its 95% Wilson interval;
- how often the learner's decision is the optimal one, over the decisions it met there
  (only decisions where roll and stop differ in value are counted).

Needs the extra ``rl``. ``python scripts/train_extra_meters.py`` (track 10, 40,000 episodes,
seed 0: about 4 minutes on a busy two-core machine) printed, in November 2026, the figures
quoted in docs/rl.md; the test suite runs it with 300 episodes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

import numpy as np
from open_spiel.python import rl_environment, rl_tools
from open_spiel.python.algorithms import tabular_qlearner

from dicegames.analysis import wilson_interval
from dicegames.envs.openspiel import DiceState, load
from dicegames.games.extra_meters.data import Decision
from dicegames.games.extra_meters.solver import optimal_policy, solution_for, solve


@dataclass(frozen=True)
class Report:
    """What one run measured."""

    track_length: int
    episodes: int
    seconds: float
    optimal_first_player: float
    score: float
    score_interval: tuple[float, float]
    agreement: float
    decisions: int

    def lines(self) -> list[str]:
        """The report as text lines."""
        low, high = self.score_interval
        return [
            f"Extra Meters, track {self.track_length}: tabular Q-learning, "
            f"{self.episodes:,} self-play episodes in {self.seconds:.0f} s",
            f"exact solution: the first player wins {self.optimal_first_player:.2%} "
            "when both play optimally",
            f"learner against the optimal player, seats alternating: {self.score:.1%} "
            f"(95% interval {low:.1%} to {high:.1%}; 50% is the best possible)",
            f"learner's decisions that are optimal: {self.agreement:.1%} of "
            f"{self.decisions:,} (where roll and stop differ in value)",
        ]


def train(track_length: int, episodes: int, seed: int) -> list[tabular_qlearner.QLearner]:
    """Self-play tabular Q-learning: one learner per seat."""
    np.random.seed(seed)  # the learners' exploration draws from numpy's global generator
    game = load("extra-meters", track_length=track_length)
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    schedule = rl_tools.LinearSchedule(0.5, 0.02, episodes * 6)
    agents = [tabular_qlearner.QLearner(player_id=seat, num_actions=game.num_distinct_actions(),
                                        step_size=0.1, epsilon_schedule=schedule)
              for seat in range(2)]
    for _ in range(episodes):
        time_step = env.reset()
        acted: set[int] = set()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            acted.add(seat)
            time_step = env.step([agents[seat].step(time_step).action])
        for seat in acted:  # a seat that never moved (the first runner won at once) has
            agents[seat].step(time_step)  # nothing to learn, and must not be stepped
    return agents


def evaluate(agents: list[tabular_qlearner.QLearner], track_length: int, games: int,
             seed: int) -> tuple[float, int, int]:
    """Greedy learners against the optimal bot, seats alternating: the learner's total
    score (1 a win), its optimal decisions and its decisions that count."""
    game = load("extra-meters", track_length=track_length)
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed + 1))
    rng = random.Random(seed)
    score, agreed, counted = 0.0, 0, 0
    for index in range(games):
        learner = index % 2
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            state = env.get_state
            assert isinstance(state, DiceState)
            best = optimal_policy(state.engine_state, seat, rng)
            if seat == learner:
                action = agents[seat].step(time_step, is_evaluation=True).action
                values = solution_for(state.engine_state).decision_values(
                    state.engine_state.data)
                if abs(values[Decision.ROLL] - values[Decision.STOP]) > 1e-9:
                    counted += 1
                    agreed += state.action_to_string(seat, action) == str(best)
            else:
                action = game.encoder.action_id(best)
            time_step = env.step([action])
        score += (time_step.rewards[learner] + 1) / 2
    return score, agreed, counted


def run(track_length: int = 10, episodes: int = 40_000, games: int = 4_000,
        seed: int = 0) -> Report:
    """Train, evaluate, and return the report."""
    start = time.perf_counter()
    agents = train(track_length, episodes, seed)
    seconds = time.perf_counter() - start
    score, agreed, counted = evaluate(agents, track_length, games, seed)
    return Report(track_length, episodes, seconds,
                  solve(track_length).win_probability(0, 0, 0), score / games,
                  wilson_interval(score, games), agreed / max(counted, 1), counted)


def main(argv: list[str] | None = None) -> int:
    """The command line: print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--track-length", type=int, default=10, help="squares (default 10)")
    parser.add_argument("--episodes", type=int, default=40_000,
                        help="self-play training episodes (default 40,000)")
    parser.add_argument("--games", type=int, default=4_000,
                        help="evaluation games against the optimal player (default 4,000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = parser.parse_args(argv)
    report = run(args.track_length, args.episodes, args.games, args.seed)
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
