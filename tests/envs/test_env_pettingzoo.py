"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests, every game and
player count, and behave as documented (masks, the shared roll, truncation, errors)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dicegames import games
from dicegames.core.errors import IllegalAction
from dicegames.envs.pettingzoo import DiceGameEnv, env, raw_env

CONFIGS = [(spec.id, players) for spec in games()
           for players in range(spec.min_players, spec.max_players + 1)]

DICT_OBSERVATION = ("Observation is not a NumPy array",
                    "Observation space for each agent probably should be")
"""PettingZoo's warnings about dict observations (its own board games are exempted by name);
any other warning fails the test."""


@pytest.fixture
def strict_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in DICT_OBSERVATION:
            warnings.filterwarnings("ignore", message=message)
        yield


@pytest.mark.usefixtures("strict_warnings")
@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_api_and_seed(game_id: str, players: int) -> None:
    api_test(env(game_id, players=players), num_cycles=150)
    seed_test(lambda: env(game_id, players=players), num_cycles=150)


def _play_to_end(table: DiceGameEnv, seed: int) -> list[str]:
    """Play random legal moves (seeded) to the end; the agents selected, in order."""
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    order = []
    for agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        order.append(agent)
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(rng.choice(legal)))
    return order


def test_rewards_at_the_end_sum_to_zero() -> None:
    table = raw_env("extra-meters", players=3, track_length=12)
    table.reset(seed=3)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
        else:
            table.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert sorted(totals.values()) == pytest.approx([-0.5, -0.5, 1.0])
    assert table.agents == []


def test_shared_roll_each_seat_in_turn() -> None:
    table = raw_env("extra", players=3)
    table.reset(seed=5)
    state = table.table.state
    assert state.current_players == (0, 1, 2)
    roll = state.data.roll
    for seat, agent in enumerate(table.possible_agents):
        assert table.agent_selection == agent
        masks = [int(table.observe(a)["action_mask"].sum() > 0)
                 for a in table.possible_agents]
        assert masks == [0] * seat + [1] * (3 - seat)  # the seats yet to decide on it
        observation = table.observe(agent)["observation"]
        views = table.encoder.views(observation)
        assert views["deciding"].tolist() == [1.0] * (3 - seat) + [0.0] * seat
        assert table.table.state.data.roll == roll  # the roll waits for every seat
        table.step(int(np.flatnonzero(table.observe(agent)["action_mask"])[0]))
    assert table.table.state.data.turn == 2  # all three recorded, the dice rolled again


def test_same_seed_same_game_other_seed_other_game() -> None:
    first = _play_to_end(raw_env("petits-chevaux", players=3), seed=11)
    again = _play_to_end(raw_env("petits-chevaux", players=3), seed=11)
    other = _play_to_end(raw_env("petits-chevaux", players=3), seed=12)
    assert first == again
    assert first != other


def test_max_moves_truncates() -> None:
    table = raw_env("shortcut", players=2, max_moves=5)
    table.reset(seed=1)
    steps = 0
    for _ in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            assert truncated and not terminated
            table.step(None)
            continue
        steps += 1
        table.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert steps == 5


def test_illegal_action_says_what_is_legal() -> None:
    table = raw_env("extra-meters")
    table.reset(seed=0)
    with pytest.raises(IllegalAction, match=r"out of range.*0 to 1; legal now: 0 \(roll\)"):
        table.step(7)
    table = raw_env("petits-chevaux")
    table.reset(seed=0)
    mask = table.observe(table.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction, match="is not legal for seat"):
        table.step(illegal)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="render_mode 'rgb' is not supported"):
        raw_env("monza", render_mode="rgb")
    with pytest.raises(ValueError, match="max_moves must be a positive"):
        raw_env("monza", max_moves=0)
    with pytest.raises(ValueError, match="monza is for 2 to 6 players"):
        raw_env("monza", players=7)
    with pytest.raises(ValueError, match="has no option 'laps'"):
        raw_env("monza", laps=3)


def test_render_ansi_is_plain_text() -> None:
    table = raw_env("extra-meters", render_mode="ansi")
    table.reset(seed=2)
    text = table.render()
    assert isinstance(text, str) and "Player 1" in text
    assert "[/" not in text  # rich markup is gone
