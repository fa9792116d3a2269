"""The post-game review: every decision of a finished game judged by the strongest estimate.

For each decision with a real choice (more than one legal move) the review gives the win
chance each move leaves the mover (:mod:`~dicegames.analysis.estimate`: exact for Extra
Meters, the learned value for Petits Chevaux, rollouts elsewhere), the move played, its
cost (the best move's chance minus the played move's), and a verdict in the manner of chess
sites: ``best`` (no cost), ``good``, ``inaccuracy`` (2 points or more), ``mistake`` (5 or
more) or ``blunder`` (15 or more). A cost within the estimate's noise (at most twice the
standard error of the difference) is ``uncertain``: the estimate cannot tell the move from
the best one, so it is neither praised nor flagged.

The rollout estimate samples each decision only until it is decided
(:meth:`~dicegames.analysis.estimate.Rollouts.choices`), in the game's kernel, so even a
six-player EXTRA! game is reviewed in a few seconds.

The win-chance curve (the "evaluation graph") is each seat's chance before the first move
and after every reviewed decision, ending at the result (each winner's share of the win
after the last move).

:func:`review_steps` yields the decisions one by one, so a front end can show the review as
it grows (the web app's replay page does); :func:`review` collects them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.estimate import Estimate, Estimator, estimator_for
from dicegames.core.errors import DiceGamesError
from dicegames.core.session import Session

INACCURACY, MISTAKE, BLUNDER = 0.02, 0.05, 0.15
"""The cost (in win chance, 0..1) from which a move is an inaccuracy, a mistake, a blunder."""

FLAGGED = ("mistake", "blunder")
"""The verdicts a review flags (shown as notes on the replay page)."""


class ReviewError(DiceGamesError, ValueError):
    """A game cannot be reviewed (it is not finished)."""


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One legal move of a decision and the mover's win chance after it."""

    move: str
    chance: float
    error: float | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"move": self.move, "chance": self.chance, "error": self.error}


@dataclass(frozen=True, slots=True)
class MoveReview:
    """The judgement of one decision.

    Attributes:
        index: the move's index in the record's ``moves`` (0-based).
        seat: the deciding seat; ``turn``: the turn count at the decision.
        played: the move played (notation); ``best``: the move the estimate prefers.
        choices: every legal move with the mover's chance after it, best first.
        cost: the best chance minus the played move's chance (0 when the best was played).
        chances: every seat's win chance after the move played; ``error`` its standard
            error (0 exact, ``None`` for a learned model).
        verdict: ``best``, ``good``, ``uncertain``, ``inaccuracy``, ``mistake`` or
            ``blunder``.
    """

    index: int
    seat: int
    turn: int
    played: str
    best: str
    choices: tuple[ChoiceValue, ...]
    cost: float
    chances: tuple[float, ...]
    error: float | None
    verdict: str

    @property
    def flagged(self) -> bool:
        """True for a mistake or a blunder."""
        return self.verdict in FLAGGED

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"index": self.index, "seat": self.seat, "turn": self.turn,
                "played": self.played, "best": self.best, "cost": self.cost,
                "verdict": self.verdict, "flagged": self.flagged,
                "chances": list(self.chances), "error": self.error,
                "choices": [choice.to_json() for choice in self.choices]}


@dataclass(frozen=True, slots=True)
class GameReview:
    """The review of one finished game (see the module docstring)."""

    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    kind: str
    description: str
    start: tuple[float, ...]
    moves: tuple[MoveReview, ...]
    winners: tuple[int, ...]
    total_moves: int
    end: tuple[float, ...] = ()
    """Every seat's share of the result (1 split among the winners): the curve's last
    point."""

    def curve(self) -> list[tuple[int, tuple[float, ...]]]:
        """(move index, every seat's chance): the start (index 0), then each decision, then
        the result after the last move."""
        return curve_points(self.start, self.moves, self.total_moves, self.end)

    def mistakes(self, limit: int = 3) -> list[MoveReview]:
        """The flagged moves, costliest first, at most ``limit``."""
        flagged = [move for move in self.moves if move.flagged]
        return sorted(flagged, key=lambda move: (-move.cost, move.index))[:limit]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: the settings, the estimate, every decision, the curve."""
        return {"game": self.game, "options": self.options, "players": list(self.players),
                "estimate": {"kind": self.kind, "description": self.description},
                "start": list(self.start), "winners": list(self.winners),
                "total_moves": self.total_moves,
                "moves": [move.to_json() for move in self.moves],
                "mistakes": [move.index for move in self.mistakes()],
                "curve": [{"index": index, "chances": list(chances)}
                          for index, chances in self.curve()]}


def curve_points(start: tuple[float, ...], moves: Sequence[MoveReview], total_moves: int,
                 end: tuple[float, ...]) -> list[tuple[int, tuple[float, ...]]]:
    """The win-chance curve (see :meth:`GameReview.curve`); ``start`` or ``end`` empty: that
    point is not known yet (a review still under way)."""
    points = [(0, start)] if start else []
    points += [(move.index + 1, move.chances) for move in moves]
    if end and (not points or points[-1][0] < total_moves):
        points.append((total_moves, end))
    return points


def verdict(cost: float, noise: float | None) -> str:
    """The verdict of a move that cost ``cost``, measured with standard error ``noise``."""
    if cost <= 1e-9:
        return "best"
    if noise is not None and cost <= 2 * noise:
        return "uncertain"
    if cost >= BLUNDER:
        return "blunder"
    if cost >= MISTAKE:
        return "mistake"
    if cost >= INACCURACY:
        return "inaccuracy"
    return "good"


def _noise(first: Estimate, second: Estimate) -> float | None:
    """The standard error of the difference of two estimates (None when unknown)."""
    if first.error is None or second.error is None:
        return None
    return math.hypot(first.error, second.error)


def judge(session: Session, index: int, estimator: Estimator) -> MoveReview | None:
    """The review of move ``index`` of ``session``; None for dice and forced moves."""
    entry = session.moves[index]
    if entry.seat is None:
        return None
    state = session.states[index]
    seat = entry.seat
    legal = state.legal_actions(seat)
    if len(legal) < 2:
        return None
    played: Hashable = session.game.parse(state, entry.text, seat)
    values = estimator.choices(state, seat)
    ranked = sorted(values.items(), key=lambda item: -item[1].chances[seat])
    best_action, best = ranked[0]
    mine = values[played]
    cost = max(0.0, best.chances[seat] - mine.chances[seat])
    return MoveReview(
        index=index, seat=seat, turn=state.turn.number, played=str(played),
        best=str(best_action) if cost > 1e-9 else str(played),
        choices=tuple(ChoiceValue(str(action), estimate.chances[seat], estimate.error)
                      for action, estimate in ranked),
        cost=cost, chances=mine.chances, error=mine.error,
        verdict=verdict(cost, _noise(best, mine)))


def _check_finished(session: Session) -> None:
    if not session.state.is_terminal:
        raise ReviewError(f"only a finished game can be reviewed, and this {session.game.spec.id} "
                          f"game stops after move {len(session.moves)}, before its end")


def review_steps(session: Session, estimator: Estimator | None = None) -> Iterator[MoveReview]:
    """The reviewed decisions of a finished game, in order, one at a time.

    Raises:
        ReviewError: the game is not finished.
    """
    _check_finished(session)
    estimator = estimator or estimator_for(session.game)
    for index in range(len(session.moves)):
        judged = judge(session, index, estimator)
        if judged is not None:
            yield judged


def review(session: Session, estimator: Estimator | None = None,
           progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Review every decision of a finished game (see the module docstring).

    ``progress`` is called with (moves looked at, moves in the game) after each decision.

    Raises:
        ReviewError: the game is not finished.
    """
    _check_finished(session)
    estimator = estimator or estimator_for(session.game)
    moves: list[MoveReview] = []
    total = len(session.moves)
    for judged in review_steps(session, estimator):
        moves.append(judged)
        if progress is not None:
            progress(judged.index + 1, total)
    return GameReview(
        game=session.game.spec.id, options=dict(session.game.options),
        players=tuple(player.name for player in session.players),
        kind=estimator.kind, description=estimator.description,
        start=estimator.position(session.states[0]).chances, moves=tuple(moves),
        winners=session.state.result.winners, total_moves=total,
        end=session.state.result.returns())
