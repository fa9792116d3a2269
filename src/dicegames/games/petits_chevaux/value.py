"""A learned position value for Petits Chevaux: who is likely to win from here.

The hand-tuned move scores of :mod:`.heuristics` judge one move at a time; they cannot weigh
the 4-player race as a whole (who leads, who is about to be caught, whose turn it is). This
module does, with a model fitted on recorded games (``scripts/train_petits_chevaux.py``):

* :func:`features` describes the position **from one player's point of view**, with the same
  code for 2, 3 and 4 players and the same numbers whatever seat the player sits in: its
  horses' progress (sorted, leader first), what is left to run, horses waiting and in the
  stable, how exposed its lone horses are (opposing horses 1-6 and 7-12 squares behind with
  no barrage between, an opponent's start square while that opponent has a horse waiting),
  the lone opposing horses it threatens, its barrages and the horses they hold up, and how
  many opponents play before it does;
* :class:`ValueModel` turns each player's features into a strength ``s`` (a one-hidden-layer
  network plus a linear part), and the players' win chances are the softmax of those
  strengths: they always sum to 1 and the same model shape fits any player count;
* :func:`expert_policy`, the ``expert`` bot, adds to ``hard``'s score of each move the win
  chance of the position the move leaves (a move that wins at once first). The value alone
  (the training script's ``value`` bot) measured only level with ``hard``; the sum beats it
  (rules.md, "Strategy and the bots").

The weights are data (``value_weights.json`` next to this module, one model per player
count), loaded once, checked, and evaluated in plain Python: numpy is only needed to train
them. A decision takes about 0.3 ms with four players.
"""

from __future__ import annotations

import json
import math
import operator
import random
from collections.abc import Hashable, Sequence
from functools import cache
from importlib import resources
from typing import Any

from dicegames.core.errors import DiceGamesError
from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.petits_chevaux.board import (
    ENTRANCE,
    FINAL,
    HOME,
    PATHS,
    START,
    TRACK_LENGTH,
    Colour,
)
from dicegames.games.petits_chevaux.data import ChevauxData, Phase
from dicegames.games.petits_chevaux.heuristics import hard_scores
from dicegames.games.petits_chevaux.moves import WINNING, Blocking, Board, Horses
from dicegames.games.petits_chevaux.rules import PetitsChevauxRules

FEATURE_NAMES: tuple[str, ...] = (
    "plays_next", "one_before", "two_before", "three_before",
    "lead", "second", "third", "last",
    "lead_sq", "second_sq", "third_sq", "last_sq",
    "to_go", "waiting", "in_stable", "placed", "on_track", "home_stretch",
    "exposed_near", "exposed_far", "exposed_start",
    "worth_near", "worth_far", "worth_start", "lone",
    "threat_near", "threat_far", "threat_worth",
    "barrages", "held_up", "held_back",
)
"""What each entry of :func:`features` measures (see there)."""

FEATURES = len(FEATURE_NAMES)
"""Length of a feature vector."""

TO_GO = float(sum(WINNING))
"""Squares a player must run from the start (every horse waiting) to finish: 242."""


def _placed(row: Sequence[int]) -> int:
    """Horses on their definitive stable squares: 6, then 5, 4, 3 filled from the inside."""
    placed = 0
    stable = set(row)
    while placed < 4 and FINAL - placed in stable:
        placed += 1
    return placed


def features(colours: tuple[Colour, ...], horses: Horses, mover: Seat, seat: Seat,
             board: Board | None = None, *,
             blocking: Blocking | None = None) -> list[float]:
    """The position seen by ``seat`` when ``mover`` rolls next, as :data:`FEATURE_NAMES`.

    Every entry depends only on the horses' places relative to ``seat``'s own path and on
    how many opponents play before ``seat``, so the same position seen from another seat
    (the colours turned round the board) gives the same numbers. Progress is divided by
    :data:`.FINAL` and counts of horses by 4, so the entries stay near 0..1.

    Args:
        colours: the colours in play, by seat.
        horses: every seat's four progress values.
        mover: the seat that rolls next.
        seat: the player whose point of view is taken.
        board: the track occupancy of ``horses`` (computed when None; pass it to share it
            between the players of one position).
        blocking: the barrage options (only ``blocks_own`` matters here; default rules when
            None).
    """
    if board is None:
        board = Board(colours, horses)
    blocks_own = True if blocking is None else blocking.blocks_own
    players = len(colours)
    row = horses[seat]
    order = sorted(row, reverse=True)
    before = (seat - mover) % players
    out: list[float] = [0.0] * FEATURES
    out[before] = 1.0
    for rank in range(4):
        share = order[rank] / FINAL
        out[4 + rank] = share
        out[8 + rank] = share * share
    out[12] = (TO_GO - sum(min(p, FINAL) for p in row)) / TO_GO
    out[13] = row.count(HOME) / 4
    out[14] = sum(p > ENTRANCE for p in row) / 4
    out[15] = _placed(row) / 4
    out[16] = sum(HOME < p <= ENTRANCE for p in row) / 4
    out[17] = sum(ENTRANCE - 12 < p <= ENTRANCE for p in row) / 4
    out[18:31] = _contacts(colours, horses, seat, board, blocks_own)
    return out


def _contacts(colours: tuple[Colour, ...], horses: Horses, seat: Seat, board: Board,
              blocks_own: bool) -> list[float]:
    """The entries of :func:`features` from ``exposed_near`` on: what ``seat``'s horses on
    the track risk, threaten and hold up."""
    players = len(colours)
    count, owner = board.count, board.owner
    row = horses[seat]
    path = PATHS[colours[seat]]
    waiting_starts = [PATHS[colours[other]][1] for other in range(players)
                      if other != seat and HOME in horses[other]]
    near = far = start = worth_near = worth_far = worth_start = lone = 0.0
    threat_near = threat_far = threat_worth = 0.0
    barrages = held_up = held_back = 0.0
    for progress in row:
        if progress == HOME or progress > ENTRANCE:
            continue
        square = path[progress]
        share = progress / FINAL
        if count[square] == 2:
            barrages += 0.5
            # Opposing horses 1-6 squares behind this barrage cannot pass it.
            for distance in range(1, 7):
                behind = (square - distance) % TRACK_LENGTH
                if count[behind] and owner[behind] != seat:
                    held_up += 0.5
        else:
            lone += 1
            close, distant = _hunters(colours, board, seat, square)
            near += close
            far += distant
            worth_near += close * share
            worth_far += distant * share
            if square in waiting_starts:
                start += 1
                worth_start += share
        # Lone opposing horses this horse can reach (no barrage on the way).
        for distance in range(1, 13):
            if progress + distance > ENTRANCE:
                break
            ahead = path[progress + distance]
            if count[ahead] == 2:
                if distance <= 6:
                    held_back += 1
                if blocks_own or owner[ahead] != seat:
                    break
            elif count[ahead] == 1 and owner[ahead] != seat:
                other = owner[ahead]
                victim = (ahead - START[colours[other]]) % TRACK_LENGTH + 1
                if distance <= 6:
                    threat_near += 1
                    threat_worth += victim / FINAL
                else:
                    threat_far += 1
    return [near / 4, far / 4, start, worth_near, worth_far, worth_start, lone / 4,
            threat_near / 4, threat_far / 4, threat_worth, barrages, held_up / 4,
            held_back / 4]


def _hunters(colours: tuple[Colour, ...], board: Board, seat: Seat,
             square: int) -> tuple[int, int]:
    """Squares 1-6 and 7-12 behind ``square`` holding opposing horses that could land on it
    (no barrage between, not past their own stable entrance): ``(near, far)``."""
    count, owner = board.count, board.owner
    near = far = 0
    for distance in range(1, 13):
        behind = (square - distance) % TRACK_LENGTH
        if count[behind]:
            other = owner[behind]
            if other != seat and (
                    (behind - START[colours[other]]) % TRACK_LENGTH + 1 + distance <= ENTRANCE):
                if distance <= 6:
                    near += 1
                else:
                    far += 1
            if count[behind] == 2:
                break
    return near, far


VALUE_WEIGHT = 1000.0
"""Default points of :func:`.hard_scores` that one unit of win chance is worth in
:func:`expert_scores` (a model's ``weight`` entry overrides it): 10 points a percentage
point (a capture is worth about 100 + half the victim's progress to ``hard``). The shipped
4-player model uses 1000, the 2- and 3-player ones 300 (measured against 150-2500,
rules.md)."""


class WeightsError(DiceGamesError, ValueError):
    """The weights file of the value model is missing, corrupt, or does not fit the features."""


class ValueModel:
    """Win chances from features: the softmax over players of each player's strength.

    A player's strength is ``w·x + v·tanh(A x + b)`` on its feature vector ``x`` (features
    are standardised first with the stored means and scales). Nothing here needs numpy.

    The JSON form has the entries ``features`` (:data:`FEATURE_NAMES`, checked: weights
    fitted on other features are refused), ``mean`` and ``scale`` (per feature), ``linear``
    (``w``), ``hidden`` (the rows of ``A``), ``bias`` (``b``), ``out`` (``v``) and
    optionally ``weight`` (see :data:`VALUE_WEIGHT`) and ``players`` (informative).
    """

    __slots__ = ("hidden", "linear", "mean", "out", "scale", "shift", "weight")

    def __init__(self, spec: dict[str, Any]) -> None:
        """Build the model from its JSON form; raises :class:`WeightsError` if it is wrong."""
        try:
            names = spec["features"]
            self.mean = _floats(spec["mean"], FEATURES, "mean")
            self.scale = _floats(spec["scale"], FEATURES, "scale")
            self.linear = _floats(spec["linear"], FEATURES, "linear")
            rows = spec["hidden"]
            if not isinstance(rows, list):
                raise WeightsError("'hidden' must be a list of rows")
            self.hidden = [_floats(row, FEATURES, "hidden row") for row in rows]
            self.shift = _floats(spec["bias"], len(rows), "bias")
            self.out = _floats(spec["out"], len(rows), "out")
            self.weight = _floats([spec.get("weight", VALUE_WEIGHT)], 1, "weight")[0]
        except KeyError as missing:
            raise WeightsError(f"the value weights lack the entry {missing}") from None
        except TypeError as error:
            raise WeightsError(f"the value weights are malformed: {error}") from None
        if list(names) != list(FEATURE_NAMES):
            raise WeightsError("the value weights were fitted on other features "
                               f"({len(names)} named); retrain them")
        if any(s <= 0 for s in self.scale):
            raise WeightsError("the value weights have a non-positive feature scale")

    def strength(self, x: Sequence[float]) -> float:
        """The strength of one player whose features are ``x`` (higher is better)."""
        z = [(xi - m) / s for xi, m, s in zip(x, self.mean, self.scale, strict=True)]
        total = math.fsum(w * zi for w, zi in zip(self.linear, z, strict=True))
        for row, b, v in zip(self.hidden, self.shift, self.out, strict=True):
            # map(operator.mul) is the hot loop's fastest pure-Python dot product (the
            # lengths were checked when the model was loaded).
            total += v * math.tanh(b + sum(map(operator.mul, row, z)))
        return total

    def win_chances(self, colours: tuple[Colour, ...], horses: Horses, mover: Seat, *,
                    blocking: Blocking | None = None) -> list[float]:
        """Every seat's chance to win when ``mover`` rolls next; they sum to 1."""
        board = Board(colours, horses)
        strengths = [self.strength(features(colours, horses, mover, seat, board,
                                            blocking=blocking))
                     for seat in range(len(colours))]
        top = max(strengths)
        weights = [math.exp(s - top) for s in strengths]
        total = sum(weights)
        return [w / total for w in weights]


def _floats(values: object, length: int, what: str) -> list[float]:
    """``values`` as ``length`` finite floats, or a :class:`WeightsError` naming ``what``."""
    if not isinstance(values, list) or len(values) != length:
        raise WeightsError(f"the value weights' {what} must be a list of {length} numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise WeightsError(f"the value weights' {what} holds something other than numbers")
    floats = [float(v) for v in values]
    if not all(math.isfinite(v) for v in floats):
        raise WeightsError(f"the value weights' {what} holds a non-finite number")
    return floats


WEIGHTS_FILE = "value_weights.json"
"""The fitted weights, next to this module: ``{"models": {"2": model, "3": model, "4": model}}``,
one model per player count it was fitted on (see :class:`ValueModel` for a model's
entries)."""


def parse_weights(text: str) -> dict[int, ValueModel]:
    """The models of a weights file by player count; :class:`WeightsError` when corrupt."""
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as error:
        raise WeightsError(f"the value weights are not valid JSON: {error}") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("models"), dict):
        raise WeightsError("the value weights must be a JSON object with a 'models' object")
    models: dict[int, ValueModel] = {}
    for players, model in spec["models"].items():
        if players not in ("2", "3", "4"):
            raise WeightsError(f"the value weights have a model for {players!r} players")
        if not isinstance(model, dict):
            raise WeightsError(f"the value model for {players} players must be an object")
        models[int(players)] = ValueModel(model)
    if not models:
        raise WeightsError("the value weights hold no model")
    return models


@cache
def shipped_models() -> dict[int, ValueModel]:
    """The shipped models by player count (loaded once per process)."""
    try:
        text = resources.files("dicegames.games.petits_chevaux").joinpath(
            WEIGHTS_FILE).read_text(encoding="utf-8")
    except OSError as error:
        raise WeightsError(f"cannot read the value weights {WEIGHTS_FILE}: {error}") from None
    return parse_weights(text)


def model_for(players: int, models: dict[int, ValueModel] | None = None) -> ValueModel:
    """The model fitted on ``players`` players, else the one of the nearest larger count
    (three players use the 4-player model unless a 3-player one is shipped)."""
    models = shipped_models() if models is None else models
    for count in (players, *range(players + 1, 5), *range(players - 1, 1, -1)):
        if count in models:
            return models[count]
    raise WeightsError(f"no value model fits {players} players")


def move_values(game: PetitsChevauxRules, data: ChevauxData,
                model: ValueModel | None = None) -> dict[Hashable, float]:
    """The mover's win chance after each of its legal moves (infinity for a move that wins,
    so that nothing rounds to it)."""
    model = model or model_for(game.players)
    seat = data.player
    values: dict[Hashable, float] = {}
    for action in game._legal_actions(data, seat):
        after = game._apply_action(data, seat, action)
        if after.phase is Phase.OVER:
            values[action] = math.inf
            continue
        chances = model.win_chances(game.colours, after.horses, after.player,
                                    blocking=game.blocking)
        values[action] = chances[seat]
    return values


def expert_scores(game: PetitsChevauxRules, data: ChevauxData,
                  model: ValueModel | None = None) -> dict[Hashable, float]:
    """The ``expert`` bot's score of every legal move: ``hard``'s score plus the model's
    ``weight`` times the win chance the move leaves it (a win scores infinity).

    ``hard``'s tuned bonuses see the move (a capture, a horse brought out, the risk to each
    of its horses); the learned value sees the whole race (who leads, whose turn comes).
    Alone, the value plays about as well as ``hard``; together they play better."""
    model = model or model_for(game.players)
    values = move_values(game, data, model)
    return {action: score + model.weight * values[action]
            for action, score in hard_scores(game, data).items()}


def expert_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The ``expert`` bot: the best of :func:`expert_scores` (forced moves at once; ties:
    the first)."""
    game = state.game
    assert isinstance(game, PetitsChevauxRules)
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        only: Hashable = legal[0]
        return only
    scores = expert_scores(game, state.data)
    best: Hashable = max(scores, key=scores.__getitem__)
    return best
