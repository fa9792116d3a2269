"""The shared observation and action design: one :class:`Encoder` per game.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) sees a game through its encoder, so the
three agree on what an agent observes and which integer names which move:

- **Observation**: a fixed-size ``float32`` vector per seat, the concatenation of named
  fields (:class:`Field`), every value in ``[0, 1]``. Seats are always *relative*: row 0 of
  a per-seat field is the observing seat, row 1 the next seat in play order, and so on, so
  one policy can play any seat. :meth:`Encoder.views` gives the named fields as numpy views
  onto the vector (what OpenSpiel's observers call ``dict``).
- **Actions**: a fixed range ``0 .. num_actions - 1`` per configured game. Each engine
  action has one stable id (:meth:`Encoder.action_id`), no two legal actions of a state share
  one, and :meth:`Encoder.legal_ids` lists them sorted (the action mask's ones).
- **Dice**: chance outcomes get ids too (``0 .. num_outcomes - 1``), for OpenSpiel's
  explicit chance nodes.
- **Returns**: :func:`returns` turns the engine's result into zero-sum rewards.

docs/rl.md documents each game's fields and action ids; a test checks it names them all.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from math import prod
from typing import Any

import numpy as np
import numpy.typing as npt

from dicegames.core.errors import IllegalAction
from dicegames.core.game import Game, State
from dicegames.core.model import Seat

Vector = npt.NDArray[np.float32]
"""An observation: a flat float32 vector."""

AnyState = State[Any, Any, Any]
AnyGame = Game[Any, Any, Any]


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of an observation.

    Attributes:
        name: the field's name (the key of its view, documented in docs/rl.md).
        shape: its shape; per-seat fields have the player count first (relative seats).
        doc: what the values mean, one line.
    """

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        """How many numbers the field takes in the vector."""
        return prod(self.shape)


def one_hot(view: Vector, index: int) -> None:
    """Set ``view[index]`` to 1 (``view`` is already zeroed); a negative index sets nothing."""
    if index >= 0:
        view[index] = 1.0


def scaled(value: float, scale: float) -> float:
    """``value / scale`` clipped to ``[0, 1]`` (counts that may run past their usual range)."""
    return min(1.0, max(0.0, value / scale))


def returns(state: AnyState) -> tuple[float, ...]:
    """Zero-sum rewards of a finished game, the same in every adapter.

    With ``n >= 2`` players each seat gets ``(n * share - 1) / (n - 1)``, where ``share`` is
    its part of the win (1 for a sole winner, 1/k for each of k tied winners, 0 for a loser):
    a sole winner gets +1, every loser -1/(n-1), so two players get +1 and -1, and the
    rewards always sum to 0. With one player (EXTRA!'s solo game) a win is +1, a loss -1.
    """
    shares = state.result.returns()
    n = len(shares)
    if n == 1:
        return (2.0 * shares[0] - 1.0,)
    return tuple((n * share - 1.0) / (n - 1) for share in shares)


def reward_range(players: int) -> tuple[float, float]:
    """The lowest and highest reward :func:`returns` can give."""
    return (-1.0, 1.0) if players == 1 else (-1.0 / (players - 1), 1.0)


class Encoder(ABC):
    """A configured game's observation fields, action ids and chance outcome ids.

    Subclasses set ``fields``, ``num_actions`` and ``num_outcomes`` in ``__init__`` and
    implement :meth:`_write`, :meth:`action_id`, :meth:`action_name` and
    :meth:`outcome_id`.
    """

    fields: tuple[Field, ...]
    num_actions: int
    num_outcomes: int
    wait_id: int | None = None
    """The id of *wait*: at a node where several seats decide at once, the only action of a
    seat that does not decide (OpenSpiel's simultaneous nodes); set by the encoders of the
    games whose definition is ``simultaneous``."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.players = game.players
        self._outcomes: dict[int, tuple[object, dict[int, tuple[Hashable, float]]]] = {}

    # ------------------------------------------------------------------ observation

    @property
    def size(self) -> int:
        """The length of the observation vector."""
        return sum(field.size for field in self.fields)

    def views(self, vector: Vector) -> dict[str, Vector]:
        """The named fields as shaped numpy views onto ``vector`` (writes go through)."""
        result: dict[str, Vector] = {}
        offset = 0
        for field in self.fields:
            result[field.name] = vector[offset:offset + field.size].reshape(field.shape)
            offset += field.size
        return result

    def observe(self, state: AnyState, seat: Seat) -> Vector:
        """The observation of ``state`` by ``seat``: a new float32 vector of :attr:`size`."""
        vector = np.zeros(self.size, dtype=np.float32)
        self.write(state, seat, vector)
        return vector

    def write(self, state: AnyState, seat: Seat, vector: Vector) -> None:
        """Fill ``vector`` (any float32 array of :attr:`size`) with ``seat``'s observation."""
        vector.fill(0.0)
        self._write(state, seat, self.views(vector))

    def relative(self, seat: Seat, other: Seat) -> int:
        """``other``'s row in ``seat``'s per-seat fields (0 for ``seat`` itself)."""
        return (other - seat) % self.players

    @abstractmethod
    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        """Fill the zeroed field views with ``seat``'s observation of ``state``."""

    # ------------------------------------------------------------------ actions

    @abstractmethod
    def action_id(self, action: Hashable) -> int:
        """The stable integer of an engine action (independent of the state)."""

    @abstractmethod
    def action_name(self, action_id: int) -> str:
        """A short description of an action id, for people (``"roll"``, ``"step to m5"``)."""

    def legal(self, state: AnyState, seat: Seat) -> dict[int, Hashable]:
        """The legal actions of deciding ``seat`` keyed by id, in ascending id order."""
        found = {self.action_id(action): action for action in state.legal_actions(seat)}
        return dict(sorted(found.items()))

    def legal_ids(self, state: AnyState, seat: Seat) -> list[int]:
        """The ids of ``seat``'s legal actions, ascending; empty when ``seat`` does not decide."""
        if state.is_terminal or state.is_chance or seat not in state.current_players:
            return []
        return list(self.legal(state, seat))

    def mask(self, state: AnyState, seat: Seat) -> npt.NDArray[np.int8]:
        """The action mask of ``seat``: 1 for each legal action id, else 0."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_ids(state, seat)] = 1
        return mask

    def action(self, state: AnyState, seat: Seat, action_id: int) -> Hashable:
        """The engine action ``action_id`` names for ``seat`` in ``state``.

        Raises:
            IllegalAction: the id is out of range or not legal here; the message lists the
                legal ids with their meaning.
        """
        legal = self.legal(state, seat)
        if action_id in legal:
            return legal[action_id]
        listing = ", ".join(f"{i} ({legal[i]})" for i in legal)
        if not 0 <= action_id < self.num_actions:
            raise IllegalAction(f"action {action_id} is out of range: {self.game.spec.id} "
                                f"actions are 0 to {self.num_actions - 1}; legal now: {listing}")
        raise IllegalAction(f"action {action_id} ({self.action_name(action_id)}) is not legal "
                            f"for seat {seat} here; legal now: {listing}")

    # ------------------------------------------------------------------ chance

    @abstractmethod
    def outcome_id(self, outcome: Hashable) -> int:
        """The stable integer of a chance outcome, in ``0 .. num_outcomes - 1``."""

    @abstractmethod
    def outcome_name(self, outcome_id: int) -> str:
        """The notation of the outcome an id stands for (``"5"``, ``"rryyyg"``)."""

    def outcomes(self, state: AnyState) -> dict[int, tuple[Hashable, float]]:
        """The chance outcomes of ``state`` keyed by id (ascending), with float probabilities.

        Cached per distribution object (the games reuse constant distributions), keeping
        the object alive so its id is not reused.
        """
        distribution = state.chance_outcomes()
        cached = self._outcomes.get(id(distribution))
        if cached is not None and cached[0] is distribution:
            return cached[1]
        found = {self.outcome_id(outcome): (outcome, float(p)) for outcome, p in distribution}
        result = dict(sorted(found.items()))
        if len(self._outcomes) > 256:
            self._outcomes.clear()
        self._outcomes[id(distribution)] = (distribution, result)
        return result

    # ------------------------------------------------------------------ state key

    def key(self, state: AnyState) -> str:
        """One line that tells apart any two states whose futures differ.

        OpenSpiel's perfect-information algorithms (value iteration) merge states by their
        string; the default is the engine data's repr, turn counter included.
        """
        return repr(state.data)


# ------------------------------------------------------------------------------ lookup


def encoder_for(game: AnyGame) -> Encoder:
    """The encoder of a configured game: its definition's ``encoder`` part, built for it.

    Raises:
        ValueError: the game declares no encoder; the message lists the games that do.
    """
    from dicegames.core.registry import definition_of

    factory = definition_of(game).part("encoder")
    if factory is None:
        raise ValueError(f"{game.spec.id} has no learning environment yet; these games "
                         f"have one: {', '.join(encoded_games())}")
    encoder: Encoder = factory(game)
    return encoder


def encoded_games() -> tuple[str, ...]:
    """The ids of the registered games that declare an encoder, in registration order."""
    from dicegames.core.registry import definitions

    return tuple(found.id for found in definitions() if found.has("encoder"))
