"""Post-game reviews for the replay page, computed in the background within a budget.

``GET /api/matches/{id}/review`` starts the review of a finished match (once) and answers at
once with what is done so far; the page asks again until ``status`` is ``done``, drawing the
win-chance curve and the notes on flagged moves as they come in.

A review is an asyncio task that hands the game to the analysis pool (:mod:`.pool`) in
slices of :data:`SLICE_MOVES` moves, each with its share of :data:`BUDGET` (so hints asked
meanwhile wait at most one slice for a worker). Every decision gets at least one rollout per
choice and more while its share of the time lasts; where even that would not fit, only the
move played and the hint bot's choice are compared. So even a six-player EXTRA! game is
reviewed within the budget; a decision that got fewer than :data:`ROLLOUTS` continuations,
or not every choice, is marked ``approximate``. A review nobody asks about for :data:`IDLE`
seconds is ``cancelled`` (its client left), as is one cancelled by ``DELETE``; asking again
resumes it where it stopped. The game is replayed from the match's first state (a match set
up from a ``position`` starts there).
Each running review counts against its starter's concurrency limit (:mod:`.work`).

Reviews are kept per match and revision (an undo after the end starts a new one), the most
recent :data:`KEEP` of them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field, replace
from typing import Any

from dicegames.analysis.anytime import ReviewPart, ReviewSlice, review_part
from dicegames.analysis.review import MoveReview, curve_points
from dicegames.core.session import Session
from dicegames.i18n import use
from dicegames.web.pool import AnalysisPool, Busy, JobFailed
from dicegames.web.work import ClientLimit

KEEP = 64
"""Reviews kept in memory (the oldest is dropped, and recomputed if asked again)."""

ROLLOUTS = 16
"""Continuations per choice where the estimate is rollouts and time allows (the terminal
uses 32)."""

BUDGET = 6.0
"""Seconds a review may take from its start (a resumed review gets a new budget for the
rest)."""

SLICE_MOVES = 6
"""Moves handed to a worker at a time."""

LONGEST_SLICE = 0.5
"""Seconds of worker time one slice should take at most (hints wait about that long for a
worker at worst); its decisions still get one continuation per choice each."""

SLICE_LIMIT = 10.0
"""Seconds after which a slice is stopped as failed (a bot or game gone astray)."""

LANES = 2
"""Slices of one review worked on at once (hints go before them: :mod:`.pool`)."""

IDLE = 5.0
"""Seconds without a request for the review after which it is cancelled."""

log = logging.getLogger("dicegames.web")


@dataclass
class ReviewJob:
    """One match's review as it grows (written by its task, read by requests)."""

    players: tuple[str, ...]
    total: int
    end: tuple[float, ...] = ()
    kind: str = ""
    description: str = ""
    start: tuple[float, ...] = ()
    moves: list[MoveReview] = field(default_factory=list)
    approximate: set[int] = field(default_factory=set)
    status: str = "queued"
    error: str = ""
    looked_at: int = 0
    slices: set[int] = field(default_factory=set)
    asked: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None

    def add(self, first: int, stop: int, part: ReviewPart) -> None:
        """The slice of moves ``first`` to ``stop - 1`` is reviewed: keep its decisions in
        order; ``looked_at`` counts the moves reviewed without a gap from the start."""
        self.kind, self.description = part.kind, part.description
        if part.start is not None:
            self.start = part.start
        for move, approximate in part.moves:
            if approximate:
                self.approximate.add(move.index)
        self.moves = sorted([*self.moves, *(move for move, _ in part.moves)],
                            key=lambda move: move.index)
        self.slices.add(first)
        while self.looked_at < self.total and self.looked_at in self.slices:
            self.looked_at = min(self.total, self.looked_at + SLICE_MOVES)

    def to_json(self) -> dict[str, Any]:
        """What is known so far: the estimate, the judged moves, the curve, the mistakes."""
        moves = list(self.moves)
        end = self.end if self.status == "done" else ()
        curve = [{"index": index, "chances": list(chances)}
                 for index, chances in curve_points(self.start, moves, self.total, end)]
        return {"status": self.status, "error": self.error, "done": self.looked_at,
                "total": self.total, "players": list(self.players),
                "estimate": {"kind": self.kind, "description": self.description},
                "approximate": bool(self.approximate),
                "moves": [{**move.to_json(), "approximate": move.index in self.approximate}
                          for move in moves], "curve": curve,
                "mistakes": [move.index for move in moves if move.flagged]}


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
                      for hint in session.presenter.action_hints(state, move["seat"])}
            moves.append({**move, "played_label": labels.get(move["played"], move["played"]),
                          "best_label": labels.get(move["best"], move["best"])})
    return {**review, "moves": moves}


class Reviews:
    """The server's reviews (see the module docstring)."""

    def __init__(self, pool: AnalysisPool, limits: ClientLimit) -> None:
        self._jobs: OrderedDict[tuple[str, int], ReviewJob] = OrderedDict()
        self._games: dict[tuple[str, int], ReviewSlice] = {}
        self._pool = pool
        self._limits = limits

    def get(self, match_id: str, revision: int, session: Session, client: str) -> ReviewJob:
        """The review of ``session`` (a finished match at ``revision``), started if new and
        resumed if it was cancelled.

        The caller holds the match's lock: the moves are copied here, the work is queued.

        Raises:
            TooBusy: ``client`` has too much in flight to start it.
        """
        key = (match_id, revision)
        job = self._jobs.get(key)
        if job is not None:
            self._jobs.move_to_end(key)
            job.asked = time.monotonic()
            if job.status == "cancelled":
                self._start(key, job, client)
            return job
        moves = tuple((entry.seat, entry.text) for entry in session.moves)
        game = session.game
        job = ReviewJob(tuple(p.name for p in session.players), len(moves),
                        session.state.result.returns() if session.state.is_terminal else ())
        self._games[key] = ReviewSlice(f"{match_id}/{revision}", game.spec.id,
                                       dict(game.options), job.players, session.position,
                                       moves, rollouts=ROLLOUTS)
        self._start(key, job, client)
        self._jobs[key] = job
        while len(self._jobs) > KEEP:
            old_key, old = self._jobs.popitem(last=False)
            self._games.pop(old_key, None)
            if old.task is not None:
                old.task.cancel()
        return job

    def active(self) -> int:
        """Reviews queued or running now."""
        return sum(1 for job in self._jobs.values() if job.status in ("queued", "running"))

    def cancel(self, match_id: str, revision: int) -> ReviewJob | None:
        """Stop the review of that match and revision, if one runs (asking resumes it)."""
        job = self._jobs.get((match_id, revision))
        if job is not None and job.task is not None:
            job.task.cancel()
        return job

    def _start(self, key: tuple[str, int], job: ReviewJob, client: str) -> None:
        self._limits.acquire(client, "review")
        job.status, job.error = "queued", ""
        job.task = asyncio.get_running_loop().create_task(
            self._drive(job, self._games[key], client))

    async def _drive(self, job: ReviewJob, game: ReviewSlice, client: str) -> None:
        """Review the game slice by slice, :data:`LANES` slices at a time (see the module
        docstring)."""
        try:
            await self._pool.ready()  # the first review: the workers' start is not its budget
            job.status = "running"
            began = time.monotonic()
            todo = deque(first for first in range(0, job.total, SLICE_MOVES)
                         if first not in job.slices)
            lanes = [asyncio.ensure_future(self._lane(job, game, todo, began))
                     for _ in range(LANES)]
            try:
                await asyncio.gather(*lanes)
            finally:
                for lane in lanes:
                    lane.cancel()
            job.status = "done" if len(job.slices) * SLICE_MOVES >= job.total else "cancelled"
        except asyncio.CancelledError:
            job.status = "cancelled"
            raise
        except JobFailed as error:
            job.status, job.error = "failed", f"the review failed: {error}"
        except TimeoutError:
            job.status, job.error = "failed", (f"the review failed: a part of it took more "
                                               f"than {SLICE_LIMIT:g} s")
        except (OSError, EOFError):  # its worker died (and was replaced): ask again
            job.status, job.error = "cancelled", ""
        except Exception as error:  # a bug: say so, keep the server up
            log.exception("a review failed")
            job.status, job.error = "failed", f"the review failed: {error}"
        finally:
            self._limits.release(client)

    async def _lane(self, job: ReviewJob, game: ReviewSlice, todo: deque[int],
                    began: float) -> None:
        """Review the next slice of ``todo`` until none is left or nobody asks any more."""
        while todo:
            if time.monotonic() - job.asked > IDLE:
                return
            first = todo.popleft()
            stop = min(job.total, first + SLICE_MOVES)
            moves_left = stop - first + sum(min(SLICE_MOVES, job.total - other)
                                            for other in todo)
            left = max(0.0, began + BUDGET - time.monotonic())
            share = min(LONGEST_SLICE, left * LANES * (stop - first) / moves_left)
            try:
                part: ReviewPart = await self._pool.run(
                    review_part, replace(game, first=first, stop=stop, budget=share),
                    deadline=time.monotonic() + SLICE_LIMIT)
            except Busy:  # hints took every worker: try again (until nobody asks)
                todo.appendleft(first)
                await asyncio.sleep(0.1)
                continue
            job.add(first, stop, part)

    def close(self) -> None:
        """Cancel every running review (the server is stopping)."""
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
