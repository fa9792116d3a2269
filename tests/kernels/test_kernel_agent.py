"""Engine games whose deterministic bots decide through the kernel: the very same games."""

from __future__ import annotations

import pytest

import dicegames
from dicegames.bots import bot_spec
from dicegames.core import kernel
from dicegames.core.kernel_agent import KernelAgent, kernel_agents
from dicegames.core.rollout import engine_streams, game_seed, play_out


@pytest.mark.parametrize(("game_id", "players", "bots"),
                         [("shortcut", 3, ["hard", "medium", "easy"]),
                          ("monza", 2, ["hard", "hard"]),
                          ("extra", 2, ["hard", "medium"])])
def test_kernel_agents_play_the_engine_bots_games(game_id: str, players: int,
                                                  bots: list[str]) -> None:
    game = dicegames.make(game_id, players=players)
    for index in range(3):
        endings = []
        for fast in (False, True):
            dice, rngs = engine_streams(game_seed(7, index), players)
            agents = [bot_spec(game, name).build(game, rng)
                      for name, rng in zip(bots, rngs, strict=True)]
            if fast:
                agents = kernel_agents(game, bots, agents)
                kinds = [isinstance(agent, KernelAgent) for agent in agents]
                assert kinds == [kernel.HAVE_NUMBA and name != "easy" for name in bots]
            endings.append(play_out(game.new_state(), agents, dice))
        assert endings[0].state.data == endings[1].state.data
        assert endings[0].moves == endings[1].moves


def test_random_and_kernel_less_bots_stay_on_the_engine() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    _dice, rngs = engine_streams(1, 2)
    agents = [bot_spec(game, name).build(game, rng)
              for name, rng in zip(["medium", "search-60"], rngs, strict=True)]
    assert kernel_agents(game, ["medium", "search-60"], agents) == agents
