"""Analysis within a time budget: a hint's best move so far, a review's decisions by slices.

The web server answers every hint within two seconds and finishes a review within ten,
whatever the board (a 26 x 99 Shortcut board makes the hard bot's planner run for a
minute). The functions here therefore never trust a computation to be quick:

* :func:`hint_within` asks the game's hint bot (:func:`dicegames.bots.adviser`) for its
  move within a share of the budget, then estimates the win chance of the choices by paired
  rollouts until the deadline: the answer is the hint bot's move with its estimate and 95%
  interval, or, when the bot could not answer in time, the best choice by the rollouts so
  far (played out by the fallback bot, ``random``, which needs no preparation). ``complete`` says
  whether the bot answered and every choice got its full count of rollouts.
* :func:`review_part` judges a slice of a finished game's decisions, each with its share of
  the time left (:class:`BudgetedRollouts` stop at the deadline after at least one
  continuation per choice); the decisions that got fewer continuations than asked are
  reported as approximate.

A computation that does not look at the clock itself (a bot's search, a game's planner) is
bounded by :func:`within`: in an analysis worker process (:mod:`dicegames.web.pool`) it arms
a timer whose signal raises :class:`OutOfTime` in the middle of the work; elsewhere (the
main thread of a command, a test) it only checks the clock when the block ends.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import signal
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.estimate import (
    Estimate,
    Estimator,
    Rollouts,
    Tally,
    estimator_for,
    terminal_estimate,
)
from dicegames.analysis.review import MoveReview, judge
from dicegames.analysis.stats import wilson_interval
from dicegames.bots import FALLBACK_LEVEL, adviser, rollout_level
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.core.registry import configure
from dicegames.core.session import PlayerInfo, Session

ADVISER_SHARE = 0.5
"""The share of a hint's budget the hint bot may take before the rollouts decide alone."""

HINT_ROLLOUTS = 60
"""Rollouts per choice after which a hint's estimate is complete."""


class OutOfTime(BaseException):
    """Raised inside a :func:`within` block whose deadline passed (a BaseException so that
    no ``except Exception`` in a game or a bot can swallow it)."""


_timer = {"enabled": False, "armed": False}
"""Whether :func:`within` may use the process's interval timer (only in analysis workers,
which run their jobs on the main thread), and whether it is armed now."""


def _on_alarm(signum: int, frame: object) -> None:
    if _timer["armed"]:
        _timer["armed"] = False
        raise OutOfTime("the time budget ran out")


def enable_timer() -> None:
    """Let :func:`within` interrupt work by ``SIGALRM`` (called once in a worker process's
    main thread)."""
    signal.signal(signal.SIGALRM, _on_alarm)
    _timer["enabled"] = True


@contextlib.contextmanager
def within(deadline: float) -> Iterator[None]:
    """Run the block until ``deadline`` (``time.monotonic()``), raising :class:`OutOfTime`
    when it runs past it (see the module docstring)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise OutOfTime("the time budget ran out")
    if not _timer["enabled"]:
        yield
        if time.monotonic() > deadline:
            raise OutOfTime("the time budget ran out")
        return
    _timer["armed"] = True
    signal.setitimer(signal.ITIMER_REAL, left)
    try:
        yield
    finally:
        _timer["armed"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)


# --------------------------------------------------------------------------- games

_GAMES: OrderedDict[str, Game[Any, Any, Any]] = OrderedDict()
"""Configured games by their settings, so a worker's caches (a board's planner) last from
one job to the next."""


def game_of(game_id: str, players: int, options: Mapping[str, Any]) -> Game[Any, Any, Any]:
    """The configured game (the same object for the same settings, the last 16 kept)."""
    key = json.dumps([game_id, players, options], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = configure(game_id, players, dict(options))
        while len(_GAMES) > 16:
            _GAMES.popitem(last=False)
    _GAMES.move_to_end(key)
    return game


# --------------------------------------------------------------------------- hints


@dataclass(frozen=True, slots=True)
class QuickHint:
    """The answer of :func:`hint_within`.

    Attributes:
        move: the suggested move, in notation.
        bot: the level of the bot that chose it, or the rollouts' bot when the hint bot ran
            out of time.
        estimate: the deciding seat's estimated win chance after ``move`` (None: no
            rollout finished in time).
        low, high: its 95% interval (0 and 1 when unknown; equal when exact).
        rollouts: games played after ``move`` (0 when exact).
        exact: the chances are the solved game's.
        complete: the hint bot answered and every choice got :data:`HINT_ROLLOUTS`.
    """

    move: str
    bot: str
    estimate: float | None
    low: float
    high: float
    rollouts: int
    exact: bool
    complete: bool

    def to_json(self) -> dict[str, Any]:
        """The fields a web hint adds (see ``docs/web-api.md``)."""
        return {"move": self.move, "bot": self.bot, "estimate": self.estimate,
                "interval": [self.low, self.high], "rollouts": self.rollouts,
                "exact": self.exact, "complete": self.complete}


@dataclass(frozen=True, slots=True)
class HintJob:
    """What :func:`hint_within` is asked.

    Attributes:
        game_id, players, options: the configured game.
        position: the state, in the game's position notation.
        seat: the seat deciding there.
        seed: the seed of the bots and the dice (the match's version: the same hint twice).
        longest: seconds of work at most, whatever the deadline.
        rollouts: games per choice after which the estimate is complete.
    """

    game_id: str
    players: int
    options: Mapping[str, Any]
    position: str
    seat: Seat
    seed: int
    longest: float = math.inf
    rollouts: int = HINT_ROLLOUTS


def hint_within(job: HintJob, *, deadline: float) -> QuickHint:
    """The best move for the job's seat found by ``deadline`` (monotonic clock) and within
    ``job.longest`` seconds, with its estimate (see the module docstring)."""
    start = time.monotonic()
    deadline = min(deadline, start + job.longest)
    game = game_of(job.game_id, job.players, job.options)
    state = game.from_position(job.position)
    seat, seed, rollouts = job.seat, job.seed, job.rollouts
    legal = state.legal_actions(seat)
    level, bot = adviser(game, random.Random(seed))
    move: Hashable | None = None
    try:
        with within(start + (deadline - start) * ADVISER_SHARE):
            move = bot.choose(state, seat)
    except OutOfTime:
        move = None
    answered = move is not None
    exact = _exact(state, seat) if answered else None
    if exact is not None and move is not None:
        chance = exact[move]
        return QuickHint(str(move), level, chance, chance, chance, 0, True, True)
    # On the engine: a timer cuts this work off at the deadline, and a kernel's first
    # compilation (minutes on a fresh install) cut off every time would never finish.
    runner = Rollouts(game, rollouts, seed, rollout_level(game) if move is not None
                      else FALLBACK_LEVEL, use_kernel=False)
    children = {action: state.apply_unchecked(action, seat) for action in legal}
    if move is not None:  # the bot's move first: it gets the first rollouts
        children = {move: children[move], **children}
    wins = dict.fromkeys(children, 0.0)
    count = dict.fromkeys(children, 0)
    with contextlib.suppress(OutOfTime):
        for index in range(rollouts):
            for action, child in children.items():
                with within(deadline):
                    outcome = runner.play_out(child, index)
                wins[action] += outcome[seat]
                count[action] += 1
    if move is None:
        played = [action for action in children if count[action]]
        move = max(played, key=lambda a: (wins[a] / count[a], -legal.index(a))) if played \
            else legal[0]
        level = runner.level
    n = count[move]
    done = answered and all(value >= rollouts for value in count.values())
    if n == 0:
        return QuickHint(str(move), level, None, 0.0, 1.0, 0, False, False)
    low, high = wilson_interval(min(wins[move], n), n)
    return QuickHint(str(move), level, wins[move] / n, low, high, n, False, done)


def _exact(state: State[Any, Any, Any], seat: Seat) -> Mapping[Hashable, float] | None:
    """The game's exact win chances per choice, when the one estimator has them here."""
    estimator = estimator_for(state.game, learned=False)
    if estimator.kind != "exact":
        return None
    return {action: estimate.chances[seat]
            for action, estimate in estimator.choices(state, seat).items()}


# --------------------------------------------------------------------------- reviews


class BudgetedRollouts(Rollouts):
    """:class:`~dicegames.analysis.estimate.Rollouts` that stop at :attr:`deadline`.

    Every position gets at least one continuation; the candidates of a decision are played
    round by round (continuation ``i`` of each, then ``i + 1``), so they always share the
    same number of continuations and the same seeds. :attr:`fewest` is the smallest count
    since it was last reset. An estimate cut short states the worst case's standard error
    (``0.5 / sqrt(n)``) when its sample's is smaller, so that no verdict rests on a lucky
    handful of continuations.

    When even one continuation per choice does not fit in the time, :attr:`only` names the
    choices to estimate (the move played and the hint bot's): the others are left out.
    :attr:`pace` is the running mean of the seconds one continuation takes.
    """

    def __init__(self, game: Game[Any, Any, Any], rollouts: int, seed: int = 0) -> None:
        super().__init__(game, rollouts, seed)
        self.deadline = math.inf
        self.fewest = rollouts
        self.only: set[Hashable] | None = None
        self.pace: float | None = None

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """Every seat's chance from ``state``, within the deadline."""
        return self._estimates({None: state})[None]

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The chances after each legal action, within the deadline."""
        return self._estimates({action: state.apply_unchecked(action, seat)
                                for action in state.legal_actions(seat)
                                if self.only is None or action in self.only})

    def _estimates(self, states: Mapping[Hashable, State[Any, Any, Any]]
                   ) -> dict[Hashable, Estimate]:
        players = self._game.players
        result: dict[Hashable, Estimate] = {key: terminal_estimate(state)
                                            for key, state in states.items()
                                            if state.is_terminal}
        going = {key: state for key, state in states.items() if key not in result}
        tallies = {key: Tally(players) for key in going}
        n = 0
        while going and n < self.rollouts and (n == 0 or time.monotonic() < self.deadline):
            began = time.monotonic()
            for key, state in going.items():
                tallies[key].add(self.play_out(state, n))
            pace = (time.monotonic() - began) / len(going)
            self.pace = pace if self.pace is None else 0.8 * self.pace + 0.2 * pace
            n += 1
        if going:
            self.fewest = min(self.fewest, n)
        for key, tally in tallies.items():
            estimate = tally.estimate()
            if n < self.rollouts:  # a few continuations say little: the worst case's error
                estimate = Estimate(estimate.chances,
                                    max(estimate.error or 0.0, 0.5 / math.sqrt(n)))
            result[key] = estimate
        return result


_SESSIONS: OrderedDict[str, Session] = OrderedDict()
"""Finished games being reviewed, replayed once per worker (the last 4 kept)."""


@dataclass(frozen=True, slots=True)
class ReviewPart:
    """What :func:`review_part` found.

    Attributes:
        moves: the judged decisions of the slice (forced moves and dice left out), each
            with whether its estimate got fewer continuations than asked (approximate).
        kind, description: the estimate used (see :class:`~dicegames.analysis.estimate.
            Estimator`).
        start: every seat's chance before the first move, when the slice begins at 0.
    """

    moves: tuple[tuple[MoveReview, bool], ...]
    kind: str
    description: str
    start: tuple[float, ...] | None


@dataclass(frozen=True, slots=True)
class ReviewSlice:
    """What :func:`review_part` is asked.

    Attributes:
        key: names the game and its moves (a worker replays it once for all its slices).
        game_id, options, players: the configured game and the players' names.
        position: the position the game started from (None: the start of the game).
        moves: every move of the finished game, ``(seat or None for dice, notation)``.
        first, stop: the slice: moves ``first`` to ``stop - 1``.
        rollouts: continuations per choice where the estimate is rollouts and time allows.
        budget: seconds the slice should take (every choice still gets one continuation).
    """

    key: str
    game_id: str
    options: Mapping[str, Any]
    players: tuple[str, ...]
    position: str | None
    moves: tuple[tuple[int | None, str], ...]
    first: int = 0
    stop: int = 0
    rollouts: int = 16
    budget: float = math.inf


def review_part(part: ReviewSlice, *, deadline: float) -> ReviewPart:
    """Judge the slice's moves of a finished game within ``part.budget`` seconds (and by
    ``deadline``), sharing the time left equally among its decisions."""
    deadline = min(deadline, time.monotonic() + part.budget)
    session = _SESSIONS.get(part.key)
    if session is None:
        game = game_of(part.game_id, len(part.players), part.options)
        origin = game.from_position(part.position) if part.position is not None else None
        session = Session(game, [PlayerInfo(name) for name in part.players], start=origin)
        for seat, text in part.moves:
            session.apply(text, seat)
        _SESSIONS[part.key] = session
        while len(_SESSIONS) > 4:
            _SESSIONS.popitem(last=False)
    _SESSIONS.move_to_end(part.key)
    first, stop, rollouts = part.first, part.stop, part.rollouts
    estimator: Estimator = estimator_for(session.game, rollouts)
    budgeted = BudgetedRollouts(session.game, rollouts) if isinstance(estimator, Rollouts) \
        else None
    estimator = budgeted or estimator
    decisions = [index for index in range(first, stop) if _decides(session, index)]
    begin = None
    if first == 0:
        if budgeted is not None:
            budgeted.deadline = time.monotonic() + (deadline - time.monotonic()) / (
                len(decisions) + 1)
        begin = estimator.position(session.states[0]).chances
    judged: list[tuple[MoveReview, bool]] = []
    for done, index in enumerate(decisions):
        if budgeted is not None:
            left = (deadline - time.monotonic()) / (len(decisions) - done)
            budgeted.deadline = time.monotonic() + left
            budgeted.fewest = rollouts
            budgeted.only = _shortlist(session, index, budgeted.pace, left)
        move = judge(session, index, estimator)
        if move is not None:
            judged.append((move, budgeted is not None and (
                budgeted.fewest < rollouts or budgeted.only is not None)))
    return ReviewPart(tuple(judged), estimator.kind, estimator.description, begin)


def _shortlist(session: Session, index: int, pace: float | None,
               share: float) -> set[Hashable] | None:
    """The choices worth a continuation at decision ``index`` when one continuation of
    every legal choice (at ``pace`` seconds each) would not fit in ``share`` seconds: the
    move played and the hint bot's choice; None when all fit."""
    state = session.states[index]
    seat = session.moves[index].seat
    assert seat is not None
    legal = state.legal_actions(seat)
    if pace is None or pace * len(legal) <= share or len(legal) <= 2:
        return None
    played = session.game.parse(state, session.moves[index].text, seat)
    bot = adviser(session.game, random.Random(index))[1]
    return {played, bot.choose(state, seat)}


def _decides(session: Session, index: int) -> bool:
    """True when move ``index`` was a person's or a bot's choice among several."""
    seat = session.moves[index].seat
    return seat is not None and len(session.states[index].legal_actions(seat)) > 1
