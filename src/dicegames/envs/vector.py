"""A vectorised environment over the bulk kernels: N games stepped in one compiled call.

>>> from dicegames.envs.vector import VectorEnv
>>> env = VectorEnv("extra-meters", 1024, opponents="medium", seed=0)
>>> observations, masks = env.reset()
>>> observations.shape, masks.shape
((1024, 11), (1024, 2))
>>> observations, masks, rewards, terminations = env.step(masks.argmax(axis=1))

Where :class:`~dicegames.envs.gymnasium.SingleSeatEnv` walks one game through the engine in
Python, this environment keeps N games as rows of the game's kernel array (one ``int64`` row a
game, :mod:`dicegames.core.kernel`) and moves all of them in one call of a compiled function:
the learner's actions, then the dice and the opponents' kernel policies until a learning seat
decides again, then the observations and action masks of every row. Nothing goes through
Python per game, which is what makes it two orders of magnitude faster (docs/rl.md,
docs/performance.md).

- **Encoding**: the observations, action ids and rewards are the game's encoder's
  (:mod:`dicegames.envs.encoding`, docs/rl.md), bit for bit: the observation of row ``i`` is
  ``encoder.observe(state, to_play[i])`` of the engine state the row stands for, and a test
  checks it against the single environment on every step.
- **Opponents**: per other seat, a bot name the game's kernel plays (``easy``, ``medium``,
  ``hard``..., see :meth:`~dicegames.core.kernel.GameKernel.policy_of`), or ``"self"``: that
  seat is the learner's too, so one batched policy plays several seats (self-play); then
  :attr:`VectorEnv.to_play` says whose observation each row is (relative seats, so the same
  policy fits every seat).
- **Rewards and auto-reset**: the return of a finished game (:func:`~.encoding.returns`)
  goes to the seat that made the game's last learner decision, in :attr:`rewards <step>`,
  and every seat's return is in :attr:`VectorEnv.final_returns`; the row's termination flag is
  set and the row already holds the next game's first decision (same-step auto-reset, as
  EnvPool does). As in the Gymnasium environment, a game the opponents finish before any
  learning seat decides is skipped.
- **Seeds**: row ``i`` draws its dice and its random policies from two kernel generators
  (:func:`~dicegames.core.kernel.seed_words`) seeded from ``seed`` and ``i``, so a seed
  replays exactly, with or without numba.

A game offers this environment by declaring the ``vector`` part of its definition: a
:class:`VectorGame` subclass (``games/<game>/vector.py``) naming its compiled ``step``
function (``games/<game>/vector_kernel.py``, over the game's kernel).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from dicegames.core.kernel import GameKernel, kernel_for, seed_words
from dicegames.core.registry import definition_of, definitions, make
from dicegames.envs.encoding import AnyGame, Encoder, encoder_for, reward_range
from dicegames.envs.vector_kernel import LEARNER

SELF = "self"
"""The opponent name of a seat the learner's own batched policy plays."""


Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.int8]


class VectorGame(ABC):
    """A game's part of the vectorised environment: its kernel, tables and compiled step.

    The compiled ``step`` function (:attr:`compiled_step`) has this signature, the same for
    every game::

        step(states, tables, policies, actions, dice, whims, work, start,
             observations, masks, rewards, terminations, to_play, final) -> None

    ``states`` is ``(N, kernel size)`` int64, ``policies`` the kernel policy code of each seat
    (:data:`LEARNER` for a learning seat), ``actions`` the encoder's action id per row (-1: no
    action, the rows are fresh from ``start``), ``dice`` and ``whims`` ``(N, 4)`` generator
    words; the outputs are filled in place (see :meth:`VectorEnv.step`).
    """

    compiled_step: ClassVar[Callable[..., None]]

    def __init__(self, game: AnyGame, kernel: GameKernel) -> None:
        self.game = game
        self.kernel = kernel

    @abstractmethod
    def tables(self, policies: Sequence[int]) -> Any:
        """The kernel's tables for these seat policy codes (:data:`LEARNER` for learners)."""

    def work(self) -> Any:
        """The scratch arrays the compiled step needs (None by default)."""
        return None

    def start(self) -> npt.NDArray[np.int64]:
        """The kernel array of a new game."""
        return np.asarray(self.kernel.encode(self.game.new_state().data), dtype=np.int64)


def row_words(seed: int, row: int) -> tuple[list[int], list[int]]:
    """The generator words of row ``row`` under ``seed``: its dice's and its random
    policies' (:func:`~dicegames.core.kernel.seed_words`)."""
    return seed_words(seed * 2**20 + 2 * row), seed_words(seed * 2**20 + 2 * row + 1)


def vector_games() -> tuple[str, ...]:
    """The ids of the registered games that offer the vectorised environment."""
    return tuple(found.id for found in definitions() if found.has("vector"))


class VectorEnv:
    """N games of one configured game against kernel policies, stepped in one call.

    Args:
        game_id: a registered game id or alias (one of :func:`vector_games`).
        num_envs: games played side by side (rows).
        players: the player count (the game's default when None).
        seat: the learning seat.
        opponents: a bot name the kernel plays, or ``"self"``, for every other seat, or one
            per other seat in seat order; by default ``medium``.
        seed: the seed of every row's generators (None: drawn from the system).
        **options: the game's options.

    Raises:
        ValueError: the game has no vectorised environment or no kernel for these options,
            a bot the kernel does not play, a bad seat or count; OptionError: a bad option.
    """

    def __init__(self, game_id: str, num_envs: int, players: int | None = None, *,
                 seat: int = 0, opponents: str | Sequence[str] = "medium",
                 seed: int | None = None, **options: object) -> None:
        self.game: AnyGame = make(game_id, players, **options)
        count = self.game.players
        part = definition_of(self.game).part("vector")
        kernel = kernel_for(self.game)
        if part is None or kernel is None:
            raise ValueError(f"{self.game.spec.id} has no vectorised environment for these "
                             f"options; these games have one: {', '.join(vector_games())}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if not 0 <= seat < count:
            raise ValueError(f"seat {seat} is not at the table: seats 0 to {count - 1}")
        names = [opponents] * (count - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != count - 1:
            raise ValueError(f"give one opponent for each of the {count - 1} other seats, "
                             f"not {len(names)}")
        codes = [LEARNER] * count
        for other, name in zip((s for s in range(count) if s != seat), names, strict=True):
            if name == SELF:
                continue
            policy = kernel.policy_of(name)
            if policy is None:
                raise ValueError(f"the {self.game.spec.id} kernel does not play {name!r} here; "
                                 f"it plays {', '.join(kernel.policies)} (and {SELF!r})")
            codes[other] = kernel.policies.index(policy)
        self.vector: VectorGame = part(self.game, kernel)
        self.encoder: Encoder = encoder_for(self.game)
        self.num_envs = num_envs
        self.seat = seat
        self.players = count
        self.learners = tuple(s for s in range(count) if codes[s] == LEARNER)
        self.policies = np.asarray(codes, dtype=np.int64)
        self.tables = self.vector.tables(codes)
        self.work = self.vector.work()
        self.start = self.vector.start()
        self.observation_size = self.encoder.size
        self.num_actions = self.encoder.num_actions
        self.reward_range = reward_range(count)
        n = num_envs
        self.states = np.zeros((n, len(self.start)), dtype=np.int64)
        self.dice = np.zeros((n, 4), dtype=np.int64)
        self.whims = np.zeros((n, 4), dtype=np.int64)
        self.observations: Observations = np.zeros((n, self.observation_size), np.float32)
        self.masks: Masks = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros(n, np.float32)
        self.terminations = np.zeros(n, np.int8)
        self.to_play = np.zeros(n, np.int64)
        self.final_returns = np.zeros((n, count), np.float32)
        """Every seat's return of the game a row finished on the last step (where its
        termination flag is set)."""
        self._seed = seed
        self._ready = False

    def reset(self, seed: int | None = None) -> tuple[Observations, Masks]:
        """Start a new game in every row and play up to a learning seat's decision.

        Returns the observations ``(N, size)`` float32 and action masks ``(N, actions)``
        int8 (arrays the environment reuses: copy them to keep them).
        """
        if seed is None:
            entropy = np.random.SeedSequence().entropy
            assert isinstance(entropy, int)
            seed = self._seed if self._seed is not None else entropy % 2**63
        self._seed = None
        for row in range(self.num_envs):
            self.dice[row], self.whims[row] = row_words(seed, row)
        self.states[:] = self.start
        self.to_play[:] = self.seat
        self._call(np.full(self.num_envs, -1, dtype=np.int64))
        self._ready = True
        return self.observations, self.masks

    def step(self, actions: npt.ArrayLike) -> tuple[Observations, Masks,
                                                    npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Play every row's action, then the dice and opponents up to the next decision.

        Returns ``(observations, masks, rewards, terminations)``: a row whose game ended
        has its termination flag set, the return of the seat that acted in ``rewards``
        (every seat's in :attr:`final_returns`), and already shows the next game's first
        decision; other rows have reward 0.

        Raises:
            RuntimeError: :meth:`reset` was not called.
            ValueError: the wrong number of actions, or an action outside a row's mask (the
                message names the first such row and its legal ids).
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"give one action per game: {self.num_envs}, not {chosen.size}")
        inside = (chosen >= 0) & (chosen < self.num_actions)
        legal = inside.copy()
        legal[inside] = self.masks[np.flatnonzero(inside), chosen[inside]] == 1
        if not legal.all():
            row = int(np.flatnonzero(~legal)[0])
            allowed = np.flatnonzero(self.masks[row]).tolist()
            raise ValueError(f"action {int(chosen[row])} is not legal in game {row}; "
                             f"legal there: {allowed}")
        self._call(chosen)
        return self.observations, self.masks, self.rewards, self.terminations

    def _call(self, actions: npt.NDArray[np.int64]) -> None:
        """One call of the game's compiled step over every row."""
        self.vector.compiled_step(self.states, self.tables, self.policies, actions, self.dice,
                                  self.whims, self.work, self.start, self.observations,
                                  self.masks, self.rewards, self.terminations, self.to_play,
                                  self.final_returns)

    def engine_data(self, row: int) -> Any:
        """The engine data of row ``row``'s game now (for tests and inspection)."""
        return self.vector.kernel.decode(self.states[row])


__all__ = ["LEARNER", "SELF", "VectorEnv", "VectorGame", "row_words", "vector_games"]
