"""The ``trained`` level of Shortcut: its shipped weights and its engine bot.

The level's judgement lives in one place, the kernel (:mod:`.kernel_trained`): ``hard``'s
search over the turn, the end of the turn valued by ``hard``'s chance plus learned weights
times features of the exact two-player solution against each opponent. The weights are
data, ``trained_weights.json`` next to this module, with a format version and the trainer's
settings and measurements (``scripts/train_shortcut.py`` writes it). The engine bot
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

FEATURE_NAMES: tuple[str, ...] = ("pairs_product", "pairs_min", "pairs_mean", "grey")
"""What each learned weight multiplies (computed by :func:`.kernel_trained.features`; named
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
                                 error=TrainedWeightsError, owner='the')


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
    return parse_weights(read_packaged('dicegames.games.shortcut', WEIGHTS_FILE,
                                       error=TrainedWeightsError, owner='the'))


@lru_cache(maxsize=32)
def _kernel(game: Game[Any, Any, Any]) -> GameKernel:
    """The kernel of a configured game, built once (games are immutable and hashable)."""
    from dicegames.core.kernel import kernel_for

    kernel = kernel_for(game)
    assert kernel is not None  # the game's kernel plays every board and player count
    return kernel


def trained_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The ``trained`` bot: the move the kernel's ``trained`` policy plays (forced moves at
    once; ``rng`` is not drawn from)."""
    from dicegames.core.kernel import seed_rng

    legal = state.legal_actions(seat)
    if len(legal) == 1:
        only: Hashable = legal[0]
        return only
    kernel = _kernel(state.game)
    values = kernel.encode(state.data)
    code = kernel.choose(values, "trained", seed_rng(0))
    chosen: Hashable = kernel.action_of(values, code)
    return chosen
