"""Single-agent Gymnasium environments: one seat learns, the others are the game's bots.

>>> import gymnasium
>>> import dicegames.envs.gymnasium
>>> env = gymnasium.make("dicegames/ExtraMeters-v0", opponents="hard", track_length=20)
>>> observation, info = env.reset(seed=7)
>>> observation["observation"].shape, observation["action_mask"].tolist()
((11,), [1, 1])

Importing this module registers ``dicegames/ExtraMeters-v0``, ``dicegames/Shortcut-v0``,
``dicegames/PetitsChevaux-v0``, ``dicegames/Monza-v0`` and ``dicegames/Extra-v0``;
:class:`SingleSeatEnv` can also be built directly. The observation is a dict like the
PettingZoo environments' (the seat's vector from the game's encoder and the action mask,
docs/rl.md); ``action_masks()`` returns the mask too, as maskable learners expect. After
each action the opponents play and the dice roll (from the seed given to ``reset``) until
the learning seat decides again or the game is over; the reward comes at the end
(:func:`~dicegames.envs.encoding.returns`: +1 for a sole winner, -1/(n-1) for a loser).
An action outside the mask ends the episode as a loss, with ``info["illegal_action"]``
saying what was legal.

``reset()`` always returns a state where the learning seat acts (Gymnasium's contract): a
game the opponents finish before the learner's first decision is not an episode, so play
goes on with the next game (the same dice generator), and ``info["skipped"]`` counts such
games. Opponents are bot names or any callable policy: a function of the opponent's own
observation dict (the same as the learner's, seen from its seat) returning an action id,
such as the learner's own policy for self-play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, SupportsFloat

from dicegames.envs import require

require("gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402

from dicegames.bots import bot_levels, make_bot  # noqa: E402
from dicegames.core.errors import IllegalAction  # noqa: E402
from dicegames.core.model import Agent, Seat  # noqa: E402
from dicegames.core.registry import make  # noqa: E402
from dicegames.envs.encoding import encoded_games, returns, reward_range  # noqa: E402
from dicegames.envs.table import RENDER_MODES, Table, check_settings  # noqa: E402

ObsDict = dict[str, Any]

Policy = Callable[[ObsDict], Any]
"""An opponent given as a function: its observation dict in, an action id out."""

Opponent = str | Policy
"""An opponent: a bot name or a :data:`Policy`."""

MAX_SKIPPED = 10_000
"""Games in a row that may end before the learner decides, before ``reset()`` gives up."""


class PolicyAgent:
    """A callable policy seated as an opponent: it sees its own observation dict (the
    encoder's vector from its seat and its action mask) and returns an action id."""

    def __init__(self, policy: Policy, table: Table) -> None:
        self.policy = policy
        self.table = table

    def choose(self, state: Any, seat: Seat) -> Hashable:
        """The engine action of the id the policy returns for ``seat``.

        Raises:
            IllegalAction: the policy returned an id that is not legal for ``seat`` now.
        """
        encoder = self.table.encoder
        choice = self.policy({"observation": encoder.observe(state, seat),
                              "action_mask": encoder.mask(state, seat)})
        try:
            return encoder.action(state, seat, int(choice))
        except IllegalAction as error:
            raise IllegalAction(f"the opponent policy at seat {seat}: {error}") from error



def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``dicegames/ExtraMeters-v0``."""
    return "dicegames/" + "".join(part.capitalize() for part in game_id.split("-")) + "-v0"


class SingleSeatEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat of a game against bots (see the module docstring).

    Args:
        game_id: a registered game id or alias.
        players: the player count (the game's default when None).
        seat: the learning seat (0 starts).
        opponents: a bot name for every other seat (``easy``, ``medium``, ``hard``, the
            game's other levels, ``random``, ``mcts``) or a callable policy (:data:`Policy`),
            or one of those per other seat in seat order; by default ``medium``, or
            ``random`` for a game without a ``medium``.
        render_mode: None, ``"ansi"`` or ``"human"``.
        max_moves: truncate after this many decisions of all seats (None: no limit).
        **options: the game's options, e.g. ``track_length=20``.

    Raises:
        OptionError: an unknown game, option or bot; ValueError: a bad seat, render mode or
            ``max_moves``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(self, game_id: str, players: int | None = None, *, seat: Seat = 0,
                 opponents: Opponent | Sequence[Opponent] | None = None,
                 render_mode: str | None = None, max_moves: int | None = None,
                 **options: object) -> None:
        self.game = make(game_id, players, **options)
        count = self.game.players
        if not 0 <= seat < count:
            raise ValueError(f"seat {seat} is not at the table: {self.game.spec.id} with "
                             f"{count} players has seats 0 to {count - 1}")
        if opponents is None:
            known = {level.name for level in bot_levels(self.game)}
            opponents = "medium" if "medium" in known else "random"
        names: list[Opponent] = ([opponents] * (count - 1)
                                 if isinstance(opponents, str) or callable(opponents)
                                 else list(opponents))
        if len(names) != count - 1:
            raise ValueError(f"give one opponent for each of the {count - 1} other seats, "
                             f"not {len(names)}")
        check_settings(render_mode, max_moves)
        self.seat = seat
        self.opponent_names = {other: names[i] for i, other in
                               enumerate(s for s in range(count) if s != seat)}
        rng = random.Random(0)
        for name in self.opponent_names.values():
            if isinstance(name, str):
                make_bot(self.game, name, rng)  # an unknown bot fails here, not at reset
            elif not callable(name):
                raise ValueError(f"an opponent is a bot name or a callable policy, not "
                                 f"{name!r}")
        self.table = Table(self.game)
        self.encoder = self.table.encoder
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        self.loss = reward_range(count)[0]
        self.bots: dict[Seat, Agent] = {}
        self._bot_seed: int | str = random.Random().getrandbits(64)
        self._episodes = 0
        self._over = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Start a new game and play the opponents up to the learning seat's decision.

        A seed fixes the dice and the bots' choices; without one the dice go on from the
        last seed (or the system at first) and the bots from the episode count. A game
        that ends (or reaches ``max_moves``) before the learning seat decides is skipped:
        the next one starts, with the dice drawn on, until the learner has a decision;
        ``info["skipped"]`` says how many games were skipped (when any).

        Raises:
            RuntimeError: :data:`MAX_SKIPPED` games in a row ended before the learner
                decided (a seat that never decides).
        """
        super().reset(seed=seed)
        if seed is not None:
            self._bot_seed, self._episodes = seed, 0
        self.table.reset(seed)
        for skipped in range(MAX_SKIPPED):
            if skipped:
                self.table.reset()
            self._episodes += 1
            self.bots = {other: self._opponent(name, other)
                         for other, name in self.opponent_names.items()}
            self._play_opponents()
            if self.table.deciding == self.seat:
                self._over = False
                return self._observation(), ({"skipped": skipped} if skipped else {})
        raise RuntimeError(f"{MAX_SKIPPED} games in a row ended before seat {self.seat} "
                           "could decide")

    def _opponent(self, name: Opponent, seat: Seat) -> Agent:
        """The agent of an opponent seat for this episode (a bot seeded per episode)."""
        if isinstance(name, str):
            return make_bot(self.game, name,
                            random.Random(f"{self._bot_seed}/{self._episodes}/{seat}"))
        return PolicyAgent(name, self.table)

    def step(self, action: np.int64 | int) -> tuple[ObsDict, SupportsFloat, bool, bool,
                                                   dict[str, Any]]:
        """Play the learning seat's action, then the opponents' and the dice, up to its
        next decision or the end. Returns (observation, reward, terminated, truncated,
        info)."""
        table = self.table
        if self._over or table.deciding != self.seat:
            raise RuntimeError("the episode is over: call reset() before step()")
        try:
            table.act(self.seat, int(action))
        except IllegalAction as error:
            self._over = True
            return self._observation(), self.loss, True, False, {"illegal_action": str(error)}
        self._play_opponents()
        state = table.state
        terminated = state.is_terminal
        reward = returns(state)[self.seat] if terminated else 0.0
        truncated = (not terminated and self.max_moves is not None
                     and table.moves >= self.max_moves)
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learning seat now, as booleans."""
        return self.encoder.mask(self.table.state, self.seat).astype(bool)

    def render(self) -> str | None:
        """The board as plain text (``ansi``: returned; ``human``: printed)."""
        return self.table.render(self.render_mode)

    def _play_opponents(self) -> None:
        """Let the bots decide until the learning seat does or the game ends."""
        table = self.table
        while True:
            seat = table.deciding
            if seat is None or seat == self.seat:
                return
            if self.max_moves is not None and table.moves >= self.max_moves:
                return
            move = self.bots[seat].choose(table.state, seat)
            table.act(seat, self.encoder.action_id(move))

    def _observation(self) -> ObsDict:
        return self.table.observation(self.seat)


for _game_id in encoded_games():
    if env_id(_game_id) not in gymnasium.registry:
        gymnasium.register(env_id(_game_id), entry_point=f"{__name__}:SingleSeatEnv",
                           kwargs={"game_id": _game_id}, disable_env_checker=True)
