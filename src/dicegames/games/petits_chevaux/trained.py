"""The ``trained`` level of Petits Chevaux: its shipped weights and its engine bot.

The level's judgement lives in one place, the kernel (:mod:`.kernel_trained`): a small
neural network, trained by self-play (TD(lambda), in the manner of TD-Gammon), values the
position each move leaves. The weights are data, ``trained_weights.json`` next to this
module, with a format version and the trainer's settings and measurements
(``scripts/train_petits_chevaux_td.py --write`` writes it). The engine
bot (:func:`trained_policy`) encodes the position and asks the kernel, so the bot and the
kernel policy play the same move by construction, compiled or not.
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

INPUTS = 4 * 63 + 5
"""The network's inputs (:mod:`.kernel_trained`): 63 progress squares for each of four
relative seats, four expected losses and a play-again flag. Named here so that reading the
weights needs no kernel."""

WEIGHTS_FILE = "trained_weights.json"
"""The shipped weights, next to this module."""

FORMAT = 2
"""The version of the weights file's format this code reads (1 was a linear correction to
``hard``'s score, replaced by the network)."""

MAX_HIDDEN = 256
"""The most hidden units a weights file may ask for (the shipped network has far fewer):
a bound on what a corrupt or hostile file makes the kernel allocate and compute."""


def layout(hidden: int) -> int:
    """The length of the flat weight array of a network with ``hidden`` units."""
    return hidden * (INPUTS + 2) + 1


def hidden_of(length: int) -> int:
    """The hidden units of a flat weight array of ``length`` floats (-1: no such network)."""
    if length < layout(1) or (length - 1) % (INPUTS + 2) != 0:
        return -1
    return (length - 1) // (INPUTS + 2)


COUNTS = (2, 3, 4)
"""The player counts the level plays: each has its own network (the position of a race of
two is not that of a race of four)."""

Networks = dict[int, tuple[float, ...]]
"""The flat weights of each player count's network."""


class TrainedWeightsError(DiceGamesError, ValueError):
    """The ``trained`` level's weights file is missing, corrupt or for another network."""


def _network(entry: Any, count: int) -> tuple[float, ...]:
    """The flat weights of one player count's entry of a weights file (checked)."""
    where = f"the trained weights for {count} players"
    if not isinstance(entry, dict):
        raise TrainedWeightsError(f"{where} must be a JSON object")
    hidden = entry.get("hidden")
    if not isinstance(hidden, int) or isinstance(hidden, bool) or not 1 <= hidden <= MAX_HIDDEN:
        raise TrainedWeightsError(f"{where}: the hidden units must be a whole number from 1 "
                                  f"to {MAX_HIDDEN}, not {hidden!r}")
    values = entry.get("weights")
    if not isinstance(values, list) or len(values) != layout(hidden):
        raise TrainedWeightsError(f"{where} must hold {layout(hidden)} numbers for {hidden} "
                                  f"hidden units")
    if not all(isinstance(v, int | float) and not isinstance(v, bool)
               and math.isfinite(v) for v in values):
        raise TrainedWeightsError(f"{where} hold something other than finite numbers")
    return tuple(float(v) for v in values)


def parse_weights(text: str, counts: Sequence[int] = COUNTS) -> Networks:
    """The networks of a weights file, by player count; each of ``counts`` must be there.

    The file is a JSON object: ``format`` (:data:`FORMAT`), ``inputs`` (checked against
    :data:`INPUTS`), ``networks`` (an object from the player count, as text, to a network:
    ``hidden``, 1 to :data:`MAX_HIDDEN` units, and ``weights``, exactly :func:`layout` finite
    numbers, with informative entries beside them: ``trainer``, ``measured``), and
    informative entries (``version``)."""
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as error:
        raise TrainedWeightsError(f"the trained weights are not valid JSON: {error}") from None
    if not isinstance(spec, dict):
        raise TrainedWeightsError("the trained weights must be a JSON object")
    if spec.get("format") != FORMAT:
        raise TrainedWeightsError(f"the trained weights have format {spec.get('format')!r}; "
                                  f"this code reads format {FORMAT}")
    if spec.get("inputs") != INPUTS:
        raise TrainedWeightsError(f"the trained weights are for a network over "
                                  f"{spec.get('inputs')!r} inputs; this code has {INPUTS}: "
                                  f"retrain them")
    networks = spec.get("networks")
    if not isinstance(networks, dict):
        raise TrainedWeightsError("the trained weights must hold 'networks', an object from "
                                  "the player count to its network")
    unknown = sorted(set(networks) - {str(count) for count in COUNTS})
    if unknown:
        raise TrainedWeightsError(f"the trained weights have networks for {', '.join(unknown)}"
                                  f" players; the game has {', '.join(map(str, COUNTS))}")
    found: Networks = {}
    for count in counts:
        if str(count) not in networks:
            raise TrainedWeightsError(f"the trained weights have no network for {count} "
                                      f"players")
        found[count] = _network(networks[str(count)], count)
    return found


def weights_text(networks: dict[int, Sequence[float]], *,
                 notes: dict[int, dict[str, Any]] | None = None, **info: Any) -> str:
    """The weights file for ``networks`` (flat weights by player count; what
    :func:`parse_weights` reads), with ``info`` (version) beside them and ``notes`` (by
    player count: trainer settings, measurements) beside each network. The weights are
    written with 6 decimals, and the level plays what is written."""
    entries: dict[str, Any] = {}
    for count, weights in sorted(networks.items()):
        hidden = hidden_of(len(weights))
        if hidden < 1:
            raise ValueError(f"{len(weights)} weights are no network over {INPUTS} inputs")
        entries[str(count)] = {**(notes or {}).get(count, {}), "hidden": hidden,
                               "weights": [round(float(w), 6) for w in weights]}
    spec = {"format": FORMAT, **info, "inputs": INPUTS, "networks": entries}
    return json.dumps(spec, separators=(",", ":")) + "\n"


@cache
def shipped_weights() -> Networks:
    """The shipped networks, by player count (read once per process)."""
    try:
        text = resources.files("dicegames.games.petits_chevaux").joinpath(
            WEIGHTS_FILE).read_text(encoding="utf-8")
    except OSError as error:
        raise TrainedWeightsError(f"cannot read the trained weights {WEIGHTS_FILE}: "
                                  f"{error}") from None
    return parse_weights(text)


@lru_cache(maxsize=32)
def _kernel(game: Game[Any, Any, Any]) -> GameKernel:
    """The kernel of a configured game, built once (games are immutable and hashable)."""
    from dicegames.core.kernel import kernel_for

    kernel = kernel_for(game)
    assert kernel is not None  # the game's kernel plays every option set
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
    code = kernel.choose(values, "trained", seed_rng(0))
    chosen: Hashable = kernel.action_of(values, code)
    return chosen
