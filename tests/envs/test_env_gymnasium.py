"""The single-seat Gymnasium environments pass Gymnasium's env checker for every game and
player count, and behave as documented (bots, masks, illegal actions, errors)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dicegames import games
from dicegames.core.errors import IllegalAction, OptionError
from dicegames.core.registry import definition
from dicegames.envs.encoding import encoded_games
from dicegames.envs.gymnasium import SingleSeatEnv, env_id

CONFIGS = [(spec.id, players) for spec in games() if spec.id in encoded_games()
           for players in range(spec.min_players, spec.max_players + 1)]


def opponent(game_id: str) -> str:
    """The opponents' bot: the game's ``medium``, or the generic ``random`` for a game with no
    bots of its own (the toy game)."""
    return "medium" if definition(game_id).has("bots") else "random"


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_check_env(game_id: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(env_id(game_id), players=players, seat=players - 1,
                         opponents=opponent(game_id))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns about anything doubtful
        check_env(env.unwrapped)
    assert "Player 1" in capsys.readouterr().out  # the human render mode printed the board


def _episode(env: SingleSeatEnv, seed: int) -> tuple[list[int], float]:
    """Play the first legal action each time; the actions and the final reward."""
    observation, _ = env.reset(seed=seed)
    actions: list[int] = []
    while True:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        assert env.action_masks()[action]
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        assert info == {}
        if terminated or truncated:
            return actions, float(reward)


def test_plays_to_the_end_against_bots() -> None:
    env = SingleSeatEnv("extra-meters", opponents="hard", track_length=15)
    actions, reward = _episode(env, seed=4)
    assert set(actions) == {0}  # always rolling, the first legal action
    assert reward in (-1.0, 1.0)
    assert env.table.state.is_terminal
    assert _episode(env, seed=4) == (actions, reward)  # the same seed, the same game
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_each_opponent_its_own_bot() -> None:
    env = SingleSeatEnv("monza", players=3, seat=1, opponents=["easy", "hard"])
    assert env.opponent_names == {0: "easy", 2: "hard"}
    _, reward = _episode(env, seed=1)
    assert reward in (1.0, -0.5, 0.25)  # a win, a loss, or a win shared with one other


def test_illegal_action_loses() -> None:
    env = SingleSeatEnv("petits-chevaux", players=4, opponents="easy")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1 / 3, True, False)
    assert "is not legal for seat 0 here; legal now:" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_max_moves_truncates() -> None:
    env = SingleSeatEnv("shortcut", max_moves=4)
    observation, _ = env.reset(seed=2)
    truncated = terminated = False
    steps = 0
    while not (truncated or terminated):
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, terminated, truncated, _ = env.step(action)
        steps += 1
    assert truncated and not terminated and env.table.moves >= 4 and steps <= 4
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat 2 is not at the table"):
        SingleSeatEnv("extra-meters", seat=2)
    with pytest.raises(ValueError, match="one opponent for each of the 2 other seats"):
        SingleSeatEnv("monza", players=3, opponents=["easy"])
    with pytest.raises(OptionError, match="has no bot 'grandmaster'"):
        SingleSeatEnv("extra", opponents="grandmaster")
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not supported"):
        SingleSeatEnv("extra", render_mode="rgb_array")


@pytest.mark.parametrize(("players", "seat", "length"), [(2, 1, 20), (4, 3, 10)])
def test_reset_always_returns_a_decision(players: int, seat: int, length: int) -> None:
    """The issue's cases: opponents seated before the learner often win before it decides;
    reset() then plays on with the next game (today's code returned a finished game with an
    all-zero mask in about a third of the resets)."""
    env = SingleSeatEnv("extra-meters", players=players, seat=seat, track_length=length,
                        opponents="hard")
    skipped = 0
    for seed in range(150):
        observation, info = env.reset(seed=seed)
        assert observation["action_mask"].any()
        assert env.table.deciding == seat and not env.table.state.is_terminal
        skipped += info.get("skipped", 0)
        observation, *_ = env.step(1)  # stop: a legal action, so step() never raises
    assert skipped > 0  # the case arose, and was handled


def test_make_vec_steps_where_the_learner_sits_last() -> None:
    vector = gymnasium.make_vec(env_id("extra-meters"), num_envs=3, seat=1, track_length=20,
                                opponents="hard")
    observations, _ = vector.reset(seed=0)
    playing = np.ones(3, dtype=bool)
    for _ in range(40):  # today's code crashed on the first step
        assert observations["action_mask"][playing].any(axis=1).all()
        observations, _, terminated, truncated, _ = vector.step(np.ones(3, dtype=np.int64))
        playing = ~(terminated | truncated)  # a finished game shows its last state once
    vector.close()


def test_callable_opponents() -> None:
    seen: list[np.ndarray] = []

    def roller(observation: dict[str, np.ndarray]) -> int:
        seen.append(observation["action_mask"])
        return 0  # roll

    env = SingleSeatEnv("extra-meters", opponents=roller, track_length=20)
    _, reward = _episode(env, seed=3)
    assert seen and all(mask.tolist() == [1, 1] for mask in seen)
    assert reward in (-1.0, 1.0)
    mixed = SingleSeatEnv("extra-meters", players=3, opponents=[roller, "medium"])
    assert mixed.opponent_names[2] == "medium"
    _episode(mixed, seed=5)


def test_self_play_with_the_learners_policy() -> None:
    """The learner's own policy plays the other seats: the first legal id everywhere."""

    def first_legal(observation: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[0])

    env = SingleSeatEnv("petits-chevaux", players=4, seat=2, opponents=first_legal)
    _, reward = _episode(env, seed=11)
    assert reward in (1.0, -1 / 3)


def test_an_opponent_policy_playing_an_illegal_id_is_named() -> None:
    env = SingleSeatEnv("petits-chevaux", players=2, seat=1, opponents=lambda obs: 5)
    with pytest.raises(IllegalAction, match="the opponent policy at seat 0"):
        for seed in range(20):
            _episode(env, seed=seed)
    with pytest.raises(ValueError, match="a bot name or a callable policy"):
        SingleSeatEnv("extra-meters", opponents=[3])  # type: ignore[list-item]
