"""Differential tests: each adapter plays the engine's game. The same seed and the same
decisions give the same states and returns as the engine's match runner with
``RandomDice(random.Random(seed))``, and OpenSpiel's states match the engine move by move."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest

from dicegames import Session, games, make
from dicegames.bots import make_bot
from dicegames.core.match import RandomDice, play
from dicegames.core.model import PASS, Agent, Seat
from dicegames.core.registry import definition
from dicegames.envs.encoding import encoded_games, returns
from dicegames.envs.gymnasium import SingleSeatEnv
from dicegames.envs.openspiel import DiceState, load
from dicegames.envs.pettingzoo import raw_env

CONFIGS = [(spec.id, players) for spec in games() if spec.id in encoded_games()
           for players in sorted({spec.min_players, spec.max_players})]


def opponent(game_id: str) -> str:
    """The opponents' bot: the game's ``medium``, or the generic ``random`` for a game with no
    bots of its own (the toy game)."""
    return "medium" if definition(game_id).has("bots") else "random"


class Replay:
    """An agent that plays the moves it is given, in order, checking the seat."""

    def __init__(self, moves: list[tuple[Seat, Hashable]]) -> None:
        self.moves = [(seat, move) for seat, move in moves if move != PASS]  # play() passes

    def choose(self, state: Any, seat: Seat) -> Hashable:
        expected, move = self.moves.pop(0)
        assert expected == seat
        return move


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_plays_the_engine_game(game_id: str, players: int) -> None:
    seed = 17
    env = raw_env(game_id, players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves: list[tuple[Seat, Hashable]] = []
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        action_id = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        moves.append((seat, env.encoder.action(env.table.state, seat, action_id)))
        env.step(action_id)
    session = Session(make(game_id, players=players))
    replay = Replay(moves)
    result = play(session, [replay] * players, RandomDice(random.Random(seed)))
    assert result is not None and not replay.moves
    assert session.state == env.table.state
    assert list(rewards.values()) == pytest.approx(returns(session.state))


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_gymnasium_plays_the_engine_game(game_id: str, players: int) -> None:
    seed, seat = 5, players - 1
    env = SingleSeatEnv(game_id, players=players, seat=seat, opponents=opponent(game_id))
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    mine: list[tuple[Seat, Hashable]] = []
    terminated = False
    while not terminated:
        action_id = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        mine.append((seat, env.encoder.action(env.table.state, seat, action_id)))
        observation, reward, terminated, _, _ = env.step(action_id)
    game = make(game_id, players=players)
    agents: list[Agent] = [make_bot(game, opponent(game_id), random.Random(f"{seed}/1/{other}"))
                           for other in range(players)]
    agents[seat] = Replay(mine)
    session = Session(game)
    assert play(session, agents, RandomDice(random.Random(seed))) is not None
    assert session.state == env.table.state
    assert reward == pytest.approx(returns(session.state)[seat])


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_openspiel_follows_the_engine(game_id: str, players: int) -> None:
    """Every OpenSpiel move, written in notation and parsed by the engine, gives the same
    state; legal ids, observation tensors and returns agree with the encoder's."""
    game = load(game_id, players=players)
    encoder = game.encoder
    state = game.new_initial_state()
    engine = make(game_id, players=players).new_state()
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        assert isinstance(state, DiceState) and state.engine_state == engine
        player = state.current_player()
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            outcome = int(rng.choice(outcomes, p=probabilities))
            engine = engine.apply(state.action_to_string(player, outcome))
            state.apply_action(outcome)
            continue
        for seat in engine.current_players:
            assert state.legal_actions(seat) == encoder.legal_ids(engine, seat)
            tensor = np.asarray(state.observation_tensor(seat), np.float32)
            assert np.array_equal(tensor, encoder.observe(engine, seat))
        if state.is_simultaneous_node():
            joint = [int(rng.choice(state.legal_actions(seat))) for seat in range(players)]
            for seat in engine.current_players:
                engine = engine.apply(state.action_to_string(seat, joint[seat]), seat)
            state.apply_actions(joint)
        else:
            action = int(rng.choice(state.legal_actions()))
            engine = engine.apply(state.action_to_string(player, action), player)
            state.apply_action(action)
    assert engine.is_terminal
    assert state.returns() == pytest.approx(returns(engine))
