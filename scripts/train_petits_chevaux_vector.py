"""Train a small numpy policy on four-player Petits Chevaux against ``medium`` bots, at kernel
speed, with the vectorised environment (docs/rl.md, "Worked example: a numpy policy on
Petits Chevaux").

The learner sits at seat 0 against three ``medium`` bots played by the kernel, in
``--envs`` games side by side (:class:`dicegames.envs.vector.VectorEnv`). The policy is a
softmax over the legal actions of a linear function of the observation (255 numbers, 6
actions), the critic a linear value; both learn by one-step actor-critic (the TD error of
the critic weighs the policy gradient), every game's step at once as one numpy batch. Then
the learned policy (sampling, as trained) and the uniform random policy play ``--games``
games each against the same bots, and the script reports both win rates with their 95%
intervals (a fair share is 25%) and the training time::

    .venv/bin/python scripts/train_petits_chevaux_vector.py   # --steps 20000 --envs 512

numpy is all it needs besides dicegames (and numba, for the speed).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dicegames.envs.vector import VectorEnv

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Report:
    """What a training run measured."""

    steps: int
    """Batched steps of training (each one decision in every game)."""
    envs: int
    """Games side by side."""
    decisions: int
    """The learner's decisions in training: steps x envs."""
    games_trained: int
    """Games finished during training."""
    seconds: float
    """Training time (wall clock, the environment and the updates)."""
    win_rate: float
    """The learned policy's share of wins against three ``medium`` bots."""
    interval: tuple[float, float]
    """Its 95% Wilson interval."""
    random_rate: float
    """The uniform random policy's share against the same bots."""
    random_interval: tuple[float, float]
    """Its 95% Wilson interval."""
    games: int
    """Evaluation games of each policy."""


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share."""
    if games == 0:
        return (0.0, 1.0)
    z = 1.959964
    share = wins / games
    middle = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (
        1 + z * z / games)
    return (max(0.0, middle - half), min(1.0, middle + half))


class LinearPolicy:
    """A masked softmax over ``obs @ weights + bias``, and a linear value ``obs @ value``."""

    def __init__(self, size: int, actions: int) -> None:
        self.weights = np.zeros((size, actions))
        self.bias = np.zeros(actions)
        self.value = np.zeros(size)
        self.value_bias = 0.0

    def probabilities(self, observations: npt.NDArray[np.float32],
                      masks: npt.NDArray[np.int8]) -> Array:
        """Each row's action probabilities (zero outside its mask)."""
        logits = observations @ self.weights + self.bias
        logits = np.where(masks == 1, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        result: Array = odds / odds.sum(axis=1, keepdims=True)
        return result

    def sample(self, probabilities: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One action per row, drawn from its probabilities."""
        cumulative = probabilities.cumsum(axis=1)
        draws = rng.random((len(probabilities), 1)) * cumulative[:, -1:]
        chosen: npt.NDArray[np.int64] = (cumulative <= draws).sum(axis=1).astype(np.int64)
        capped: npt.NDArray[np.int64] = np.minimum(chosen, probabilities.shape[1] - 1)
        return capped

    def values(self, observations: npt.NDArray[np.float32]) -> Array:
        """The critic's value of each row."""
        result: Array = observations @ self.value + self.value_bias
        return result


def train(env: VectorEnv, policy: LinearPolicy, steps: int, rng: np.random.Generator, *,
          actor_rate: float = 0.05, critic_rate: float = 0.02) -> int:
    """One-step actor-critic for ``steps`` batched steps; the games finished."""
    observations, masks = env.reset()
    observations, masks = observations.copy(), masks.copy()
    finished = 0
    n = env.num_envs
    for _ in range(steps):
        probabilities = policy.probabilities(observations, masks)
        actions = policy.sample(probabilities, rng)
        before = policy.values(observations)
        following, next_masks, rewards, terminations = env.step(actions)
        after = np.where(terminations == 1, 0.0, policy.values(following))
        error = rewards + after - before
        finished += int(terminations.sum())
        policy.value += critic_rate / n * observations.T @ error
        policy.value_bias += critic_rate * float(error.mean())
        gradient = -probabilities
        gradient[np.arange(n), actions] += 1.0
        gradient *= error[:, None]
        policy.weights += actor_rate / n * observations.T @ gradient
        policy.bias += actor_rate * gradient.mean(axis=0)
        observations, masks = following.copy(), next_masks.copy()
    return finished


def win_rate(env: VectorEnv, choose: object, games: int, rng: np.random.Generator) -> int:
    """Wins of a policy in the first ``games`` games the environment finishes."""
    observations, masks = env.reset()
    wins = played = 0
    while played < games:
        actions = choose(observations, masks, rng)  # type: ignore[operator]
        observations, masks, rewards, terminations = env.step(actions)
        ended = np.flatnonzero(terminations)[: games - played]
        played += len(ended)
        wins += int((rewards[ended] == 1.0).sum())
    return wins


def run(steps: int, envs: int, games: int, seed: int) -> Report:
    """Train, then evaluate the learned and the random policy (see the module docstring)."""
    rng = np.random.default_rng(seed)
    env = VectorEnv("petits-chevaux", envs, 4, opponents="medium", seed=seed)
    policy = LinearPolicy(env.observation_size, env.num_actions)
    started = time.perf_counter()
    trained = train(env, policy, steps, rng)
    seconds = time.perf_counter() - started

    def learned(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8],
                draw: np.random.Generator) -> npt.NDArray[np.int64]:
        return policy.sample(policy.probabilities(observations, masks), draw)

    def uniform(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8],
                draw: np.random.Generator) -> npt.NDArray[np.int64]:
        chosen: npt.NDArray[np.int64] = (draw.random(masks.shape) * masks).argmax(axis=1)
        return chosen

    judge = VectorEnv("petits-chevaux", envs, 4, opponents="medium", seed=seed + 1)
    wins = win_rate(judge, learned, games, rng)
    baseline = win_rate(judge, uniform, games, rng)
    return Report(steps=steps, envs=envs, decisions=steps * envs, games_trained=trained,
                  seconds=seconds, win_rate=wins / games, interval=wilson(wins, games),
                  random_rate=baseline / games, random_interval=wilson(baseline, games),
                  games=games)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, train, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="batched training steps")
    parser.add_argument("--envs", type=int, default=512, help="games side by side")
    parser.add_argument("--games", type=int, default=4000, help="evaluation games per policy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    report = run(args.steps, args.envs, args.games, args.seed)
    low, high = report.interval
    r_low, r_high = report.random_interval
    print(f"Petits Chevaux, 4 players, the learner at seat 0 against 3 medium bots: "
          f"{report.decisions:,} learner decisions ({report.steps:,} steps x {report.envs} "
          f"games, {report.games_trained:,} games) in {report.seconds:.0f} s")
    print(f"learned linear policy: wins {report.win_rate:.1%} of {report.games:,} games "
          f"(95% interval {low:.1%} to {high:.1%}; a fair share is 25%)")
    print(f"uniform random policy: wins {report.random_rate:.1%} "
          f"(95% interval {r_low:.1%} to {r_high:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
