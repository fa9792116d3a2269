"""Game knowledge for the bots: capture chances, a position's worth, and two policies.

* :func:`capture_chance` is the probability that a lone horse on a track square is taken
  before its owner plays again: each opponent in turn rolls; a roll hits when one of their
  horses stands exactly that many squares behind on its own path with no barrage in the way
  (or, on a 6, when the square is their start square and they have a horse waiting); a 6
  rolls again, so a horse 7 to 12 squares behind also counts after a first 6.
* :func:`heuristic_policy` (``medium``) scores each move with the rules of thumb of the issue:
  capture, enter the stable, bring horses out, avoid ending within reach of an opponent,
  leave danger, make barrages, otherwise advance.
* :func:`hard_policy` (``hard``) weighs each move by what it changes in the player's expected
  loss to captures over all four horses (the exact one-round chances above: an expectation
  over every opponent's next rolls), plus weights tuned by simulation against ``medium``:
  capture, bring horses out, and run the leading horse home. Unlike ``medium`` it gives no
  bonus for barrages (by default they block their own colour too) or for entering the
  stable; what a barrage protects shows up in the expected loss.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from dicegames.core.game import State
from dicegames.core.model import PASS, Seat
from dicegames.games.petits_chevaux.board import (
    ENTRANCE,
    HOME,
    PATHS,
    START,
    TRACK_LENGTH,
    Colour,
)
from dicegames.games.petits_chevaux.data import HORSE_OF, Action, ChevauxData
from dicegames.games.petits_chevaux.moves import Blocking, Board, Horses, moved
from dicegames.games.petits_chevaux.rules import PetitsChevauxRules


def _blocked(board: Board, path: tuple[int, ...], seat: int, start: int, stop: int, *,
             blocking: Blocking) -> bool:
    """True when a barrage stands on the path strictly between progress start and stop."""
    count, owner = board.count, board.owner
    for step in range(start + 1, stop):
        square = path[step]
        if count[square] == 2 and (blocking.blocks_own or owner[square] != seat):
            return True
    return False


def capture_chance(colours: tuple[Colour, ...], horses: Horses, board: Board, seat: Seat,
                   square: int, *, blocking: Blocking) -> float:
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
                    board, path, other, progress, progress + distance, blocking=blocking):
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


def _threats(game: PetitsChevauxRules, horses: Horses, board: Board, seat: Seat,
             target: int) -> float:
    """How exposed a horse of ``seat`` is at progress ``target`` (0 when safe)."""
    if target > ENTRANCE or target == HOME:
        return 0.0
    square = PATHS[game.colours[seat]][target]
    if board.count[square] == 2 and not game.blocking.landing_captures:
        return 0.0
    return capture_chance(game.colours, horses, board, seat, square, blocking=game.blocking)


def heuristic_scores(game: PetitsChevauxRules, data: ChevauxData) -> dict[Action, float]:
    """The medium bot's score of every legal move (higher is better)."""
    seat = data.player
    row = data.horses[seat]
    board = game.board(data)
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


def _best(scores: dict[Action, float]) -> Hashable:
    """The move of highest score (the first on a tie), or ``pass`` when there is none."""
    if not scores:
        return PASS
    return max(scores, key=scores.__getitem__)


def heuristic_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The ``medium`` bot: the move with the best :func:`heuristic_scores` (ties: first)."""
    game = state.game
    assert isinstance(game, PetitsChevauxRules)
    return _best(heuristic_scores(game, state.data))


# ----------------------------------------------------------------------- hard

WAITING = -8.0
"""Worth of a horse in its corner stable, against 1 on its start square (it needs a 6)."""

RISK_WEIGHT = 1.0
"""Weight of the change in expected loss to captures (in squares of progress)."""

CAPTURE_BONUS = 100.0
"""Bonus for a capture (plus half the victims' progress)."""

OUT_BONUS = 50.0
"""Bonus for bringing a horse out."""

PROGRESS_WEIGHT = 0.15
"""Weight of the moved horse's new progress: favours running the leading horse home."""


def expected_loss(game: PetitsChevauxRules, horses: Horses, board: Board, seat: Seat) -> float:
    """The expected worth ``seat`` loses to captures before its next turn (lone horses)."""
    colours, blocking = game.colours, game.blocking
    path = PATHS[colours[seat]]
    loss = 0.0
    for progress in horses[seat]:
        if HOME < progress <= ENTRANCE:
            square = path[progress]
            if board.count[square] == 1 or blocking.landing_captures:
                loss += capture_chance(colours, horses, board, seat, square, blocking=blocking) * (
                    progress - WAITING)
    return loss


def hard_scores(game: PetitsChevauxRules, data: ChevauxData) -> dict[Action, float]:
    """The ``hard`` bot's score of every legal move (higher is better).

    Tuned bonuses (capture, bringing out, the moved horse's new progress) plus the
    change in expected loss to captures over **all** the player's horses: a move that breaks
    a barrage or leaves a horse behind in reach counts what it exposes, not only the horse
    that moves.
    """
    seat = data.player
    row = data.horses[seat]
    base = expected_loss(game, data.horses, game.board(data), seat)
    scores: dict[Action, float] = {}
    for action, target in game.moves(data, data.roll):
        horse = row.index(HOME) if action is Action.OUT else HORSE_OF[action]
        horses, captured = moved(game.colours, data.horses, seat, horse, target)
        after = Board(game.colours, horses)
        score = PROGRESS_WEIGHT * target
        if captured:
            score += CAPTURE_BONUS + sum(data.horses[s][h] for s, h in captured) / 2
        if action is Action.OUT:
            score += OUT_BONUS
        score += RISK_WEIGHT * (base - expected_loss(game, horses, after, seat))
        scores[action] = score
    return scores


def hard_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The best of :func:`hard_scores` (ties: first)."""
    game = state.game
    assert isinstance(game, PetitsChevauxRules)
    return _best(hard_scores(game, state.data))
