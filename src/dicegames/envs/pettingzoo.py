"""The five games as PettingZoo AEC environments.

>>> from dicegames.envs.pettingzoo import env
>>> table = env("monza", players=4)
>>> table.reset(seed=1)
>>> observation, reward, terminated, truncated, info = table.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((308,), True)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order; ``player_0`` starts). Each
observation is a dict: ``observation``, the seat's float32 vector from the game's encoder
(docs/rl.md), and ``action_mask``, an int8 vector with a 1 for each legal action id
(all zeros for a seat with nothing to decide now). The dice are rolled inside the
environment from the seed given to ``reset`` (as the engine's ``RandomDice`` rolls them).
When several seats decide on one roll (EXTRA!), they are selected one after the other in
seat order and the roll applies once the last has decided; none of them sees the others'
choices (their masks show they have a choice to make, and the field ``deciding`` says who
still has to make it). Rewards come at the end (:func:`dicegames.envs.encoding.returns`: +1
for a sole winner, -1/(n-1) for each loser). An illegal action raises
:class:`~dicegames.core.errors.IllegalAction` naming the legal ids.
"""

from __future__ import annotations

from typing import Any

from dicegames.envs import require

require("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from dicegames.core.registry import make  # noqa: E402
from dicegames.envs.encoding import returns  # noqa: E402
from dicegames.envs.table import RENDER_MODES, Table, check_settings  # noqa: E402

ObsDict = dict[str, Any]



class DiceGameEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """One of the games as an AEC environment (see the module docstring).

    Args:
        game_id: a registered game id or alias.
        players: the player count (the game's default when None).
        render_mode: None, ``"ansi"`` (``render()`` returns the board as plain text) or
            ``"human"`` (prints it).
        max_moves: truncate the episode after this many decisions (None: play to the end).
        **options: the game's options, e.g. ``track_length=20``.
    """

    def __init__(self, game_id: str, players: int | None = None, *,
                 render_mode: str | None = None, max_moves: int | None = None,
                 **options: object) -> None:
        super().__init__()
        check_settings(render_mode, max_moves)
        self.game = make(game_id, players, **options)
        self.table = Table(self.game)
        self.encoder = self.table.encoder
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.metadata = {"render_modes": list(RENDER_MODES), "is_parallelizable": False,
                         "name": f"dicegames_{self.game.spec.id.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.players)]
        observation = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (self.encoder.num_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.encoder.num_actions)
                              for agent in self.possible_agents}
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed`` fixes the dice; ``options`` is accepted and unused)."""
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation vector and action mask."""
        return self.table.observation(self._seat[agent])

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None for an agent whose episode has ended).

        Raises:
            IllegalAction: the action is not legal now; the message lists what is.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is playing: give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        self.table.act(self._seat[agent], int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        state = self.table.state
        if state.is_terminal:
            for seat_agent, reward in zip(self.possible_agents, returns(state), strict=True):
                self.rewards[seat_agent] = reward
                self.terminations[seat_agent] = True
        elif self.max_moves is not None and self.table.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        """Select the deciding seat; once the game is over, the next agent to be removed."""
        seat = self.table.deciding
        if seat is not None and not self.truncations[self.possible_agents[seat]]:
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        """The board as plain text (``ansi``: returned; ``human``: printed)."""
        return self.table.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game_id: str, players: int | None = None, **kwargs: Any) -> DiceGameEnv:
    """The environment without PettingZoo's wrappers."""
    return DiceGameEnv(game_id, players, **kwargs)


def env(game_id: str, players: int | None = None, **kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment wrapped in PettingZoo's order checks, the usual entry point.

    ``env("monza", players=4)``; options as keywords (``track_length=20``), plus
    ``render_mode`` and ``max_moves`` (see :class:`DiceGameEnv`).
    """
    return wrappers.OrderEnforcingWrapper(DiceGameEnv(game_id, players, **kwargs))
