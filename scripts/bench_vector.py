"""The vectorised environment's speed beside the PettingZoo environment's (docs/performance.md).

For each game with a vectorised environment, at its default options (Petits Chevaux with four
players), both environments play random legal moves for every seat, one process on one core:

- **PettingZoo**: ``dicegames.envs.pettingzoo.env`` through its ``agent_iter`` loop, each
  agent's step one decision (the policy draws among the mask's ones with numpy);
- **vector**: :class:`dicegames.envs.vector.VectorEnv` with every seat the learner's
  (``opponents="self"``), so that each row's step is also one decision, ``--envs`` rows (the
  policy: the largest of precomputed noise times the mask, one numpy expression a step).

Both count decisions per second of CPU time of this process (``time.process_time``: one
core's work, whatever else the machine runs; the environments are single-threaded); the runs
alternate (``--rounds``), and the medians and their ratio are printed (the aim of issue 26:
at least 100x). A third figure, the vector
environment against the kernel's ``medium`` bots, counts the learner's steps only (each one
also plays the opponents' turns in the compiled loop).

    .venv/bin/python scripts/bench_vector.py          # --seconds 2 --rounds 5 --envs 4096
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from dicegames.core.registry import definition
from dicegames.envs.pettingzoo import env as pettingzoo_env
from dicegames.envs.vector import SELF, VectorEnv, vector_games

PLAYERS = {"petits-chevaux": 4}
"""Player counts other than the game's default (the issue's four-player Petits Chevaux)."""


def pettingzoo_rate(game_id: str, players: int, seconds: float) -> float:
    """Decisions per second of the PettingZoo environment with random agents."""
    rng = np.random.default_rng(0)
    table = pettingzoo_env(game_id, players=players)
    decisions = 0
    started = time.process_time()
    seed = 0
    while time.process_time() - started < seconds:
        table.reset(seed=seed)
        seed += 1
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            table.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
    return decisions / (time.process_time() - started)


def vector_rate(game_id: str, players: int, envs: int, seconds: float,
                opponents: str) -> float:
    """Steps per second (times the rows) of the vectorised environment."""
    env = VectorEnv(game_id, envs, players, opponents=opponents, seed=0)
    _, masks = env.reset()
    noise = np.random.default_rng(0).random((16, envs, env.num_actions))
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        _, masks, _, _ = env.step((noise[steps % 16] * masks).argmax(axis=1))
        steps += 1
    return steps * envs / (time.process_time() - started)


def measure(seconds: float, rounds: int, envs: int) -> list[dict[str, Any]]:
    """Interleaved runs for every game; medians and the ratio."""
    rows: list[dict[str, Any]] = []
    for game_id in vector_games():
        players = PLAYERS.get(game_id, definition(game_id).spec.default_players)
        vector_rate(game_id, players, envs, 0.2, SELF)  # compile and warm up first
        vector_rate(game_id, players, envs, 0.2, "medium")
        runs: dict[str, list[float]] = {"pettingzoo": [], "vector": [], "medium": []}
        timed: dict[str, Callable[[], float]] = {
            "pettingzoo": partial(pettingzoo_rate, game_id, players, seconds),
            "vector": partial(vector_rate, game_id, players, envs, seconds, SELF),
            "medium": partial(vector_rate, game_id, players, envs, seconds, "medium"),
        }
        for _ in range(rounds):
            for name, run in timed.items():
                runs[name].append(run())
        medians = {name: statistics.median(values) for name, values in runs.items()}
        rows.append({"game": game_id, "players": players, **medians,
                     "ratio": medians["vector"] / medians["pettingzoo"]})
    return rows


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a run")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved runs of each")
    parser.add_argument("--envs", type=int, default=4096, help="rows of the vector env")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'players':>7} {'PettingZoo':>12} {'vector':>12} {'ratio':>7} "
          f"{'vs medium':>12}   (decisions per CPU second, medians of {args.rounds} "
          "interleaved runs)")
    for row in measure(args.seconds, args.rounds, args.envs):
        print(f"{row['game']:<16} {row['players']:>7} {row['pettingzoo']:>12,.0f} "
              f"{row['vector']:>12,.0f} {row['ratio']:>6.0f}x {row['medium']:>12,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
