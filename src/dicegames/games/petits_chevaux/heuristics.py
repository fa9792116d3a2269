"""Game knowledge for the bots: capture chances, a position's worth, and two policies.

* :func:`capture_chance` is the probability that a lone horse on a track square is taken
  before its owner plays again: each opponent in turn rolls; a roll hits when one of their
  horses stands exactly that many squares behind on its own path with no barrage in the way
  (or, on a 6, when the square is their start square and they have a horse waiting); a 6
  rolls again, so a horse 7 to 12 squares behind also counts after a first 6.
* :func:`heuristic_policy` (``medium``) scores each move with the rules of thumb of the issue:
  capture, enter the stable, bring horses out, avoid ending within reach of an opponent,
  leave danger, make barrages, otherwise advance.
* :func:`lookahead_policy` (``hard``) is a one-ply expectimax: it values each move by
  :func:`evaluate`, the player's equity (progress, with horses waiting valued below the start
  square and a bonus for safety in the stable) minus the expected loss from
  :func:`capture_chance`, against the opponents' equity; after a 6 it also averages over the
  next roll and the best reply to it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from dicegames.core.game import State
from dicegames.core.model import PASS, Hashable, Seat
from dicegames.games.petits_chevaux.board import (
    ENTRANCE,
    HOME,
    PATHS,
    START,
    TRACK_LENGTH,
    Colour,
)
from dicegames.games.petits_chevaux.data import HORSE_OF, Action, ChevauxData
from dicegames.games.petits_chevaux.moves import Blocking, Board, moved

if TYPE_CHECKING:
    from dicegames.games.petits_chevaux.rules import PetitsChevaux

Horses = tuple[tuple[int, ...], ...]


def _blocked(board: Board, path: tuple[int, ...], seat: int, start: int, stop: int,
             blocking: Blocking) -> bool:
    """True when a barrage stands on the path strictly between progress start and stop."""
    count, owner = board.count, board.owner
    for step in range(start + 1, stop):
        square = path[step]
        if count[square] == 2 and (blocking.blocks_own or owner[square] != seat):
            return True
    return False


def capture_chance(colours: tuple[Colour, ...], horses: Horses, board: Board, seat: Seat,
                   square: int, blocking: Blocking) -> float:
    """The chance that the lone horse of ``seat`` on track ``square`` is captured before
    ``seat`` plays again (every other seat has one turn first)."""
    survive = 1.0
    players = len(colours)
    for step in range(1, players):
        other = (seat + step) % players
        colour = colours[other]
        path = PATHS[colour]
        hits = [False] * 13
        for progress in horses[other]:
            if progress == HOME or progress >= ENTRANCE:
                continue
            distance = (square - path[progress]) % TRACK_LENGTH
            if 1 <= distance <= 12 and progress + distance <= ENTRANCE and not _blocked(
                    board, path, other, progress, progress + distance, blocking):
                hits[distance] = True
        six = hits[6] or (square == START[colour] and HOME in horses[other])
        first = sum(hits[1:6]) / 6
        if six:
            chance = first + 1 / 6
        else:
            again = sum(hits[d] or hits[d + 6] for d in range(1, 6)) / 6 + hits[12] / 6
            chance = first + again / 6
        survive *= 1.0 - chance
    return 1.0 - survive


# ----------------------------------------------------------------------- medium


def _threats(game: PetitsChevaux, horses: Horses, board: Board, seat: Seat, target: int) -> float:
    """How exposed a horse of ``seat`` is at progress ``target`` (0 when safe)."""
    if target > ENTRANCE or target == HOME:
        return 0.0
    square = PATHS[game.colours[seat]][target]
    if board.count[square] == 2 and not game.blocking.landing_captures:
        return 0.0
    return capture_chance(game.colours, horses, board, seat, square, game.blocking)


def heuristic_scores(game: PetitsChevaux, data: ChevauxData) -> dict[Action, float]:
    """The medium bot's score of every legal move (higher is better)."""
    seat = data.player
    row = data.horses[seat]
    board = Board(game.colours, data.horses)
    scores: dict[Action, float] = {}
    for action, target in game.moves(data, data.roll):
        horse = row.index(HOME) if action is Action.OUT else HORSE_OF[action]
        before = row[horse]
        horses, captured = moved(game.colours, data.horses, seat, horse, target)
        after = Board(game.colours, horses)
        score = target / 10
        if captured:
            score += 100 + sum(data.horses[s][h] for s, h in captured) / 2
        if action is Action.OUT:
            score += 50
        if target > ENTRANCE >= before:
            score += 60  # into the safety of the stable
        elif target > ENTRANCE:
            score += 20
        if target <= ENTRANCE and sum(p == target for p in horses[seat]) == 2:
            score += 25  # a barrage: safe, and in the opponents' way
        score -= 80 * _threats(game, horses, after, seat, target)
        score += 40 * _threats(game, data.horses, board, seat, before)
        scores[action] = score
    return scores


def heuristic_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The ``medium`` bot: the move with the best :func:`heuristic_scores` (ties: first)."""
    scores = heuristic_scores(state.game, state.data)
    if not scores:
        return PASS
    return max(scores, key=scores.__getitem__)


# ----------------------------------------------------------------------- hard

WAITING = -8.0
"""Worth of a horse in its corner stable, against 1 on the start square (it needs a 6)."""

TRACK_BONUS = 0.0
"""Extra worth of a horse on the track."""

STABLE_BONUS = 12.0
"""Extra worth of a horse in the stable, where it is safe."""

RIVALS = 0.5
"""Weight of the opponents' mean equity against the player's own."""

LEADER = 0.5
"""Weight of the leading opponent's equity."""

OPPONENT_RISK = 1.0
"""Whether the opponents' equity also counts the risk to their lone horses."""


def horse_worth(progress: int) -> float:
    """A horse's worth on its own: its progress, adjusted for waiting and safety."""
    if progress == HOME:
        return WAITING
    if progress > ENTRANCE:
        return progress + STABLE_BONUS
    return progress + TRACK_BONUS


def equity(game: PetitsChevaux, horses: Horses, board: Board, seat: Seat) -> float:
    """The worth of ``seat``'s horses, less the expected loss of each lone horse on the track
    before ``seat`` plays again (:func:`capture_chance`)."""
    colours, blocking = game.colours, game.blocking
    path = PATHS[colours[seat]]
    total = 0.0
    for progress in horses[seat]:
        worth = horse_worth(progress)
        if HOME < progress <= ENTRANCE:
            square = path[progress]
            if board.count[square] == 1 or blocking.landing_captures:
                worth -= capture_chance(colours, horses, board, seat, square, blocking) * (
                    worth - WAITING)
        total += worth
    return total


def evaluate(game: PetitsChevaux, horses: Horses, seat: Seat) -> float:
    """The worth of a position for ``seat`` just after its move (the opponents play next):
    its :func:`equity` against the opponents' (mean and leader)."""
    board = Board(game.colours, horses)
    mine = equity(game, horses, board, seat)
    if OPPONENT_RISK:
        others = [equity(game, horses, board, s) for s in range(len(horses)) if s != seat]
    else:
        others = [sum(horse_worth(p) for p in horses[s]) for s in range(len(horses))
                  if s != seat]
    return mine - RIVALS * sum(others) / len(others) - LEADER * max(others)


def _best_static(game: PetitsChevaux, data: ChevauxData, die: int) -> float:
    """The best :func:`evaluate` over the moves of ``die`` (or of not moving)."""
    seat = data.player
    row = data.horses[seat]
    best = None
    for action, target in game.moves(data, die):
        horse = row.index(HOME) if action is Action.OUT else HORSE_OF[action]
        horses, _ = moved(game.colours, data.horses, seat, horse, target)
        value = evaluate(game, horses, seat)
        if best is None or value > best:
            best = value
    return evaluate(game, data.horses, seat) if best is None else best


def lookahead_values(game: PetitsChevaux, data: ChevauxData) -> dict[Hashable, float]:
    """The ``hard`` bot's value of every legal action (see the module docstring)."""
    seat = data.player
    row = data.horses[seat]
    values: dict[Hashable, float] = {}
    again = data.roll == 6 and not (game.three_sixes and data.sixes == 2)
    options = [(action, target) for action, target in game.moves(data, data.roll)]
    for action, target in options:
        horse = row.index(HOME) if action is Action.OUT else HORSE_OF[action]
        horses, _ = moved(game.colours, data.horses, seat, horse, target)
        if again and len(options) > 1:
            after = ChevauxData(horses, seat, data.turn, data.phase, 0, data.sixes)
            values[action] = sum(_best_static(game, after, die) for die in range(1, 7)) / 6
        else:
            values[action] = evaluate(game, horses, seat)
    return values


def lookahead_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The ``hard`` bot: the action with the best :func:`lookahead_values` (ties: first)."""
    values = lookahead_values(state.game, state.data)
    if not values:
        return PASS
    return max(values, key=values.__getitem__)
