"""The ``trained`` level of Monza: its shipped weights and its engine bot.

The level's judgement lives in one place, the kernel (:mod:`.kernel_trained`): ``hard``'s
score of each end of a move plus learned weights times what the move leaves on the circuit.
The weights are data, ``trained_weights.json`` next to this module, with a format version
and the trainer's settings (``scripts/train_monza.py`` writes it). The engine bot
(:func:`trained_policy`) encodes the position and asks the kernel, so the bot and the kernel
policy play the same move by construction, compiled or not.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from dicegames.core.errors import DiceGamesError
from dicegames.core.game import Game, State
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
    """The weights of a weights file, in :data:`FEATURE_NAMES`' order.

    The file is a JSON object: ``format`` (:data:`FORMAT`), ``features`` (the names, checked
    against the code's), ``weights`` (one finite number per feature), and informative
    entries (``version``, ``trainer``, ``measured``)."""
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as error:
        raise TrainedWeightsError(f"Monza's trained weights are not valid JSON: "
                                  f"{error}") from None
    if not isinstance(spec, dict):
        raise TrainedWeightsError("Monza's trained weights must be a JSON object")
    if spec.get("format") != FORMAT:
        raise TrainedWeightsError(f"Monza's trained weights have format "
                                  f"{spec.get('format')!r}; this code reads format {FORMAT}")
    if spec.get("features") != list(FEATURE_NAMES):
        raise TrainedWeightsError("Monza's trained weights were fitted on other features; "
                                  "retrain them")
    values = spec.get("weights")
    if not isinstance(values, list) or len(values) != len(FEATURE_NAMES):
        raise TrainedWeightsError(
            f"Monza's trained weights must hold {len(FEATURE_NAMES)} numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool)
               and math.isfinite(v) for v in values):
        raise TrainedWeightsError("Monza's trained weights hold something other than "
                                  "finite numbers")
    return tuple(float(v) for v in values)


def weights_text(weights: Sequence[float], **info: Any) -> str:
    """The weights file for ``weights`` (what :func:`parse_weights` reads), with ``info``
    (version, trainer settings, measurements) kept beside them."""
    spec = {"format": FORMAT, **info, "features": list(FEATURE_NAMES),
            "weights": [round(float(w), 6) for w in weights]}
    return json.dumps(spec, indent=1) + "\n"


@cache
def shipped_weights() -> tuple[float, ...]:
    """The shipped weights (read once per process)."""
    try:
        text = resources.files("dicegames.games.monza").joinpath(
            WEIGHTS_FILE).read_text(encoding="utf-8")
    except OSError as error:
        raise TrainedWeightsError(f"cannot read Monza's trained weights {WEIGHTS_FILE}: "
                                  f"{error}") from None
    return parse_weights(text)


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
