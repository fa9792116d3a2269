"""Post-game reviews for the replay page, computed in the background.

``GET /api/matches/{id}/review`` starts the review of a finished match (once) and answers at
once with what is done so far; the page asks again until ``status`` is ``done``, drawing the
win-chance curve and the notes on flagged moves as they come in.

The review runs on one dedicated worker thread (never on the event loop, and never more than
one at a time, so reviews cannot starve the bots' threads), on a copy of the match's moves
taken under its lock, replayed from the match's first state (a match set up from a
``position`` starts there). Reviews are kept per match and revision (an undo after the end
starts a new one), the most recent :data:`KEEP` of them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.estimate import estimator_for
from dicegames.analysis.review import MoveReview, review_steps
from dicegames.core.game import State
from dicegames.core.session import PlayerInfo, Session
from dicegames.i18n import use

KEEP = 64
"""Reviews kept in memory (the oldest is dropped, and recomputed if asked again)."""

ROLLOUTS = 16
"""Continuations per move where the estimate is rollouts (the terminal uses 32)."""


@dataclass
class ReviewJob:
    """One match's review as it grows (written by the worker thread, read by requests)."""

    players: tuple[str, ...]
    total: int
    kind: str = ""
    description: str = ""
    start: tuple[float, ...] = ()
    moves: list[MoveReview] = field(default_factory=list)
    status: str = "queued"
    error: str = ""
    looked_at: int = 0

    def to_json(self) -> dict[str, Any]:
        """What is known so far: the estimate, the judged moves, the curve, the mistakes."""
        moves = list(self.moves)  # a snapshot: the worker may append meanwhile
        curve = ([{"index": 0, "chances": list(self.start)}] if self.start else []) + [
            {"index": move.index + 1, "chances": list(move.chances)} for move in moves]
        return {"status": self.status, "error": self.error, "done": self.looked_at,
                "total": self.total, "players": list(self.players),
                "estimate": {"kind": self.kind, "description": self.description},
                "moves": [move.to_json() for move in moves], "curve": curve,
                "mistakes": [move.index for move in moves if move.flagged]}


def _run(job: ReviewJob, players: tuple[PlayerInfo, ...], start: State[Any, Any, Any],
         moves: list[tuple[int | None, str]], stop: threading.Event) -> None:
    """Replay the moves from the match's ``start`` state (its position, when it was set up
    from one; the state knows its game) into a private session and review it, filling
    ``job`` in (until ``stop`` is set: the server is shutting down)."""
    try:
        job.status = "running"
        game = start.game
        session = Session(game, players, start=start)
        for seat, text in moves:
            session.apply(text, seat)
        estimator = estimator_for(game, ROLLOUTS)
        job.kind, job.description = estimator.kind, estimator.description
        job.start = estimator.position(session.states[0]).chances
        for move in review_steps(session, estimator):
            if stop.is_set():
                job.status, job.error = "failed", "the server stopped"
                return
            job.moves.append(move)
            job.looked_at = move.index + 1
        job.looked_at = job.total
        job.status = "done"
    except Exception as error:  # a bug in a game or bot: say so, keep the server up
        job.status, job.error = "failed", f"the review failed: {error}"


def with_labels(review: dict[str, Any], session: Session, lang: str) -> dict[str, Any]:
    """``review`` (:meth:`ReviewJob.to_json`) with each flagged move's played and best move
    as their choice buttons read in ``lang`` (``played_label``, ``best_label``; the
    notation when the game has no label for it), so the replay page's notes speak the
    viewer's language. Cheap: only flagged moves, the game's own hint labels."""
    moves = []
    with use(lang):
        for move in review["moves"]:
            if not move["flagged"] or move["index"] >= len(session.moves):
                moves.append(move)
                continue
            state = session.states[move["index"]]
            labels = {hint["move"]: hint["label"]
                      for hint in session.game.action_hints(state, move["seat"])}
            moves.append({**move, "played_label": labels.get(move["played"], move["played"]),
                          "best_label": labels.get(move["best"], move["best"])})
    return {**review, "moves": moves}


class Reviews:
    """The server's reviews (see the module docstring)."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[tuple[str, int], ReviewJob] = OrderedDict()
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
        self._stop = threading.Event()

    def get(self, match_id: str, revision: int, session: Session) -> ReviewJob:
        """The review of ``session`` (a finished match at ``revision``), started if new.

        The caller holds the match's lock: the moves are copied here, the work is queued.
        """
        key = (match_id, revision)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                self._jobs.move_to_end(key)
                return job
            moves = [(entry.seat, entry.text) for entry in session.moves]
            job = ReviewJob(tuple(p.name for p in session.players), len(moves))
            self._jobs[key] = job
            while len(self._jobs) > KEEP:
                self._jobs.popitem(last=False)
        self._worker.submit(_run, job, session.players, session.states[0], moves, self._stop)
        return job

    def close(self) -> None:
        """Stop the worker: queued reviews are dropped, the running one stops at its next
        move."""
        self._stop.set()
        self._worker.shutdown(wait=False, cancel_futures=True)
