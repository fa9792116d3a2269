"""The vectorised environment (dicegames.envs.vector) against the single-seat Gymnasium
environment: the same games, step for step, on the same seeds.

The single environment is given the vector row's dice (a generator that draws as the kernel
draws: ``randrange(n)`` is the kernel's ``below``, which is what the engine's exact sampler
asks of a generator that is not ``random.Random``), and its opponents are either the same
deterministic bots the kernel policies restate or, in self-play, callables that replay the
vector environment's choices. Every observation, mask, reward and termination must agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from dicegames.core.kernel import below
from dicegames.envs.gymnasium import SingleSeatEnv
from dicegames.envs.vector import SELF, VectorEnv, row_words, vector_games


class KernelDice:
    """A dice generator for the engine's sampler that draws as the kernels do."""

    def __init__(self, words: list[int]) -> None:
        self.words = np.asarray(words, dtype=np.int64)

    def randrange(self, n: int) -> int:
        return int(below(self.words, n))


Step = tuple[int, int, np.ndarray, np.ndarray, float, bool, np.ndarray]
"""One recorded step of a row: seat to play, action, observation, mask, reward, terminated,
every seat's return (when terminated)."""


def record(env: VectorEnv, steps: int, seed: int) -> list[list[Step]]:
    """Play ``steps`` steps with random legal actions; each row's steps in order."""
    rng = np.random.default_rng(seed)
    observations, masks = env.reset(seed=seed)
    rows: list[list[Step]] = [[] for _ in range(env.num_envs)]
    for _ in range(steps):
        before = (env.to_play.copy(), observations.copy(), masks.copy())
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        observations, masks, rewards, terminations = env.step(actions)
        for row in range(env.num_envs):
            rows[row].append((int(before[0][row]), int(actions[row]), before[1][row],
                              before[2][row], float(rewards[row]), bool(terminations[row]),
                              env.final_returns[row].copy()))
            if terminations[row]:  # the reward is the acting seat's return
                assert rewards[row] == env.final_returns[row, before[0][row]]
    return rows


def replay(game_id: str, steps: list[Step], *, seat: int, seed: int, row: int,
           opponents: Any, **settings: Any) -> None:
    """Play a row's recorded steps in the single environment and compare each one."""
    queue: Iterator[Step] = iter(steps)
    current: list[Step] = []

    def next_step() -> Step:
        step = next(queue)
        current[:] = [step]
        return step

    def replayed(observation: dict[str, np.ndarray]) -> int:
        to_play, action, vector_obs, mask, *_ = next_step()
        assert to_play != seat
        np.testing.assert_array_equal(observation["observation"], vector_obs)
        np.testing.assert_array_equal(observation["action_mask"], mask)
        return action

    env = SingleSeatEnv(game_id, seat=seat, opponents=replayed if opponents == SELF
                        else opponents, **settings)
    env.table.rng = KernelDice(row_words(seed, row)[0])  # type: ignore[assignment]
    observation, _ = env.reset()
    try:
        while True:
            to_play, action, vector_obs, mask, *_ = next_step()
            assert to_play == seat
            np.testing.assert_array_equal(observation["observation"], vector_obs)
            np.testing.assert_array_equal(observation["action_mask"], mask)
            observation, got, done, truncated, _ = env.step(action)
            assert not truncated
            if opponents == SELF and not done and env.table.deciding is None:
                pytest.fail("the single environment ended where the vector one did not")
            # the last recorded step of this decision (an opponent's, in self-play) carries
            # the game's end, and the learner's return
            *_, ended, final = current[0]
            assert done == ended
            assert np.float32(got) == (final[seat] if done else 0.0)
            if done:
                observation, _ = env.reset()
    except StopIteration:
        return


@pytest.mark.parametrize(("players", "seat", "opponents", "length"),
                         [(2, 0, "hard", 20), (2, 1, "hard", 20), (3, 2, "medium", 15),
                          (4, 3, "hard", 10)])
def test_extra_meters_against_kernel_bots(players: int, seat: int, opponents: str,
                                          length: int) -> None:
    env = VectorEnv("extra-meters", 6, players, seat=seat, opponents=opponents,
                    track_length=length)
    rows = record(env, 120, seed=5)
    assert sum(step[5] for row in rows for step in row) > 20  # many games ended and restarted
    for row, steps in enumerate(rows):
        replay("extra-meters", steps, seat=seat, seed=5, row=row, opponents=opponents,
               players=players, track_length=length)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_petits_chevaux_self_play(players: int) -> None:
    env = VectorEnv("petits-chevaux", 3, players, seat=0, opponents=SELF)
    rows = record(env, 700, seed=2)
    assert any(step[5] for row in rows for step in row)
    for row, steps in enumerate(rows):
        replay("petits-chevaux", steps, seat=0, seed=2, row=row, opponents=SELF,
               players=players)


def test_the_game_list_and_errors() -> None:
    assert set(vector_games()) >= {"extra-meters", "petits-chevaux"}
    with pytest.raises(ValueError, match="has no vectorised environment"):
        VectorEnv("monza", 2)
    with pytest.raises(ValueError, match="does not play 'mcts'"):
        VectorEnv("extra-meters", 2, opponents="mcts")
    env = VectorEnv("extra-meters", 2, seed=1)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step([0, 0])
    env.reset()
    with pytest.raises(ValueError, match="one action per game: 2, not 3"):
        env.step([0, 0, 0])
    pc = VectorEnv("petits-chevaux", 2, 4, seed=1)
    _, masks = pc.reset()
    illegal = int(np.flatnonzero(masks[1] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal in game 1"):
        pc.step([int(masks[0].argmax()), illegal])
