"""The ``trained`` level of EXTRA!: its weights file, its sheet value and its engine bot.

``trained`` judges a decision as ``hard`` does (:func:`.heuristics.hard_value`): by the sheet
it leaves, the exact expected number of rolls left for the EXTRA columns, each started row's
expected final score under a Poisson number of further crosses, a bonus per roll left, costs
for started rows and for writing a new EXTRA number. Where ``hard`` has four hand-tuned
numbers (one cost for every started row, one focus, one roll bonus, one cost per face), the
trained level has :data:`WEIGHT_NAMES`: the focus, the roll bonus, **a start cost per row**
(starting the 2 costs the rolls it takes far more than starting the 7) and a cost per face,
fitted by ``scripts/train_extra.py`` (the cross-entropy method over whole solo games in the
kernel, common random numbers). With :func:`hard_weights` it plays exactly as ``hard``.

The weights are data, ``trained_weights.json`` next to this module, with a format version,
the trainer's settings and its measurement (:func:`parse_weights` refuses a malformed file
with a clear :class:`TrainedWeightsError`). The kernel's ``trained`` policy
(:mod:`.kernel_trained`) repeats :func:`trained_value`'s float operations in the same order,
so the engine bot below and the kernel make the same choice at every decision (checked step
by step in ``tests/kernels/test_extra_trained.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from dicegames.core.errors import DiceGamesError
from dicegames.core.game import State
from dicegames.core.learned_weights import (
    feature_weights_text,
    parse_feature_weights,
    read_packaged,
)
from dicegames.core.model import Seat
from dicegames.games.extra.data import SUMS, Decision, ExtraData, Sheet
from dicegames.games.extra.heuristics import (
    AVAILABLE,
    HARD_FOCUS,
    HARD_NEW_NUMBER_COST,
    HARD_ROLL_BONUS,
    HARD_START_COST,
    SheetRules,
    _best,
    expected_row,
    sheet_rolls_left,
)

W_FOCUS, W_ROLL_BONUS, W_START, W_NEW = 0, 1, 2, 2 + len(SUMS)
"""Where each weight sits: the focus, the bonus per roll left, the start cost of rows 2..12,
then the cost of writing each face 1..6 as a new EXTRA number."""

WEIGHT_NAMES: tuple[str, ...] = (
    "focus", "roll_bonus", *(f"start_{total}" for total in SUMS),
    *(f"new_{face}" for face in range(1, 7)))
"""What each weight is, in order (the weights file names them, so a file fitted on another
model is refused)."""

WEIGHTS = len(WEIGHT_NAMES)
"""The number of weights."""

WEIGHTS_FILE = "trained_weights.json"
"""The shipped weights, next to this module."""

FORMAT = 1
"""The version of the weights file's format this code reads."""

LIMIT = 1e6
"""The largest magnitude a weight may have (a larger one is a broken file, not a model)."""


class TrainedWeightsError(DiceGamesError, ValueError):
    """The ``trained`` level's weights file is missing, corrupt or fitted on another
    model."""


def hard_weights() -> tuple[float, ...]:
    """``hard``'s tuning as weights: the trained model's starting point (it plays as hard)."""
    return (HARD_FOCUS, HARD_ROLL_BONUS, *(HARD_START_COST,) * len(SUMS),
            *HARD_NEW_NUMBER_COST)


def parse_weights(text: str) -> tuple[float, ...]:
    """The weights of a weights file, in :data:`WEIGHT_NAMES`' order.

    The file is a JSON object: ``format`` (:data:`FORMAT`), ``names`` (checked against
    :data:`WEIGHT_NAMES`), ``weights`` (one finite number per name, the focus positive), and
    informative entries (``version``, ``trainer``, ``measured``).

    Raises:
        TrainedWeightsError: the text is not such a file.
    """
    values = parse_feature_weights(text, fmt=FORMAT, features=WEIGHT_NAMES,
                                   error=TrainedWeightsError, owner="the EXTRA!", key="names",
                                   limit=LIMIT)
    if not values[W_FOCUS] > 0:
        raise TrainedWeightsError("the EXTRA! trained weights' focus must be positive")
    return values


def weights_text(weights: Sequence[float], **info: Any) -> str:
    """The weights file for ``weights`` (what :func:`parse_weights` reads), with ``info``
    (version, trainer settings, measurements) kept beside them."""
    return feature_weights_text(weights, fmt=FORMAT, features=WEIGHT_NAMES, key="names",
                                **info)


@cache
def shipped_weights() -> tuple[float, ...]:
    """The shipped weights (read once per process)."""
    text = read_packaged("dicegames.games.extra", WEIGHTS_FILE, error=TrainedWeightsError,
                         owner="the EXTRA!")
    return parse_weights(text)


def trained_value(sheet: Sheet, columns: tuple[int, int, int], child_extra: bool,
                  weights: Sequence[float]) -> float:
    """The trained estimate of the final score of ``sheet``: :func:`.heuristics.hard_value`
    with a start cost per row (the kernel repeats these operations in this order)."""
    left = sheet_rolls_left(sheet, columns, child_extra)
    started = [i for i, c in enumerate(sheet.rows) if c or sheet.noted >> i & 1]
    share, cost = 0.0, 0.0
    for index in started:
        share += AVAILABLE[index]
        cost += weights[W_START + index]
    value = weights[W_ROLL_BONUS] * left - cost
    for index in started:
        mean = left * min(AVAILABLE[index], weights[W_FOCUS] * AVAILABLE[index] / share)
        value += expected_row(index, sheet.rows[index], round(mean, 2))
    return value


def decision_value(game: SheetRules, seat: Seat, sheet: Sheet, decision: Decision,
                   weights: Sequence[float]) -> float:
    """The trained value of ``decision``: the sheet it leaves, less the cost of a new
    EXTRA number."""
    after = game.record(seat, sheet, decision)
    cost = weights[W_NEW + decision.extra - 1] if decision.column >= 0 else 0.0
    return trained_value(after, game.columns, game.child_extra(seat), weights) - cost


def trained_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Decision:
    """The ``trained`` bot's choice: the decision of best :func:`decision_value` under the
    shipped weights (the first on a tie)."""
    game = cast("SheetRules", state.game)
    data = state.data
    assert isinstance(data, ExtraData)
    sheet = data.sheets[seat]
    weights = shipped_weights()
    return _best(state, seat, lambda d: decision_value(game, seat, sheet, d, weights))
