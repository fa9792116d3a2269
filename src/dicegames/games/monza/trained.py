"""The ``trained`` level of Monza: its shipped weights and its engine bot.

The level's judgement lives in one place, the kernel (:mod:`.kernel_trained`): ``hard``'s
score of each end of a move plus learned weights times what the move leaves on the circuit.
The weights are data, ``trained_weights.json`` next to this module, with a format version
and the trainer's settings (``scripts/train_monza.py`` writes it). The engine bot
(:func:`trained_policy`) encodes the position and asks the kernel, so the bot and the kernel
policy play the same move by construction, compiled or not.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.core.errors import DiceGamesError
from dicegames.core.game import Game, State
from dicegames.core.learned_weights import (
    feature_weights_text,
    parse_feature_weights,
    read_packaged,
)
from dicegames.core.model import Seat

if TYPE_CHECKING:
    from dicegames.core.kernel import GameKernel

FEATURE_NAMES: tuple[str, ...] = (
    "exposure", "exposure_loss", "exposure_value", "race_now", "pushed", "used", "gain", "lead",
)
"""What each learned weight multiplies (computed by :func:`.kernel_trained._learned`; named
here so that reading the weights needs no kernel)."""

WEIGHTS_FILE = "trained_weights.json"
"""The shipped weights, next to this module."""

FORMAT = 1
"""The version of the weights file's format this code reads."""


class TrainedWeightsError(DiceGamesError, ValueError):
    """The ``trained`` level's weights file is missing, corrupt or fitted on other
    features."""


def parse_weights(text: str) -> tuple[float, ...]:
    """The weights in ``text``, a weights file (:mod:`dicegames.core.learned_weights`'
    layout, this level's format and features).

    Raises:
        TrainedWeightsError: the text is not such a file (the message says what is wrong).
    """
    return parse_feature_weights(text, fmt=FORMAT, features=FEATURE_NAMES,
                                 error=TrainedWeightsError, owner="Monza's")


def weights_text(weights: Sequence[float], **info: Any) -> str:
    """The weights file for ``weights`` (what :func:`parse_weights` reads), with ``info``
    (version, trainer settings, measurements) kept beside them."""
    return feature_weights_text(weights, fmt=FORMAT, features=FEATURE_NAMES, **info)


@cache
def shipped_weights() -> tuple[float, ...]:
    """The shipped weights (read once per process).

    Raises:
        TrainedWeightsError: the file is missing or malformed.
    """
    return parse_weights(read_packaged('dicegames.games.monza', WEIGHTS_FILE,
                                       error=TrainedWeightsError, owner="Monza's"))


@lru_cache(maxsize=16)
def _kernel(game: Game[Any, Any, Any]) -> GameKernel:
    """The kernel of a configured game, built once (games are immutable and hashable), so
    that its hard tables are built once too."""
    from dicegames.core.kernel import kernel_for

    kernel = kernel_for(game)
    assert kernel is not None  # Monza's kernel plays every circuit and option set
    return kernel


def trained_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The ``trained`` bot: the move the kernel's ``trained`` policy plays (forced moves at
    once)."""
    from dicegames.core.kernel import seed_rng

    legal = state.legal_actions(seat)
    if len(legal) == 1:
        only: Hashable = legal[0]
        return only
    kernel = _kernel(state.game)
    values = kernel.encode(state.data)
    chosen: Hashable = kernel.action_of(values, kernel.choose(values, "trained", seed_rng(0)))
    return chosen


def trained_bot(game: Any, rng: random.Random) -> Any:
    """The trained bot (a :class:`~dicegames.bots.PolicyBot` over :func:`trained_policy`)."""
    from dicegames.bots import PolicyBot

    return PolicyBot(trained_policy, rng)


__all__ = ["FEATURE_NAMES", "FORMAT", "TrainedWeightsError", "parse_weights",
           "shipped_weights", "trained_bot", "trained_policy", "weights_text"]
