"""How many seeded games ended, seat by seat: the design report's main runs, kernel-backed.

:func:`run_outcomes` plays ``games`` whole games of one configured game with one bot per
seat (no rotation: the report measures the seats) through the rollout primitive's
:func:`~dicegames.core.rollout.playouts`, so the game's bulk kernel plays them whenever it
plays every seat's bot (tens of thousands of games a second) and the engine otherwise. It
keeps, for each seat:

* **sole wins**, and apart from them the games that ended in a **shared win** (several
  winners, each counted there and not as a win) or with **no winner**: a figure that counts
  a shared win as 1/k to each winner would show two identical EXTRA! bots, who see the same
  rolls and choose alike, as "seat 1 wins 50%" when nobody ever beat anybody. That split
  share is kept too (``split``): it is what an exact solution's win chance means, and the
  fair measure of seat order when some wins are shared;
* the **rank distribution** (``Result.from_scores``' ranks: winners 1, the others by
  score, equal scores sharing a rank);
* the **score difference**: the seat's score minus the mean of the other seats' scores,
  with its mean and 95% interval (how seat order shows in a game where wins are often
  shared);
* each game's length in turns.

Blocks of games are plain data (:class:`OutcomeTask`), so they run here, in worker
processes or on a Dask cluster with the same sums; a block's games depend only on the
master seed and the block's first game. The runs stop cleanly on Ctrl-C: what finished is
kept (:class:`Outcomes` ``complete`` says whether every game was played).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.cluster import per_batch_for, run_tasks
from dicegames.analysis.fast import block_seed
from dicegames.analysis.stats import Z_95, wilson_interval
from dicegames.analysis.traced import task_game
from dicegames.bots import bot_spec
from dicegames.core.game import Game
from dicegames.core.kernel import to_list
from dicegames.core.options import OptionValue
from dicegames.core.rollout import MAX_MOVES, plan, playouts, runaway

KERNEL_BLOCK = 1000
"""Games per block when the kernel plays (a progress step of a fraction of a second)."""

ENGINE_BLOCK = 25
"""Games per block when the engine plays."""


@dataclass(frozen=True, slots=True)
class OutcomeTask:
    """A block of games ``start..stop-1`` with ``bots`` (one bot name per seat)."""

    game_id: str
    players: int
    options: dict[str, OptionValue]
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int


@dataclass(slots=True)
class OutcomeSums:
    """The sums of a block (or of a whole run), merged in block order."""

    players: int
    games: int = 0
    sole: list[int] = field(default_factory=list)
    shared_seat: list[int] = field(default_factory=list)
    credit: list[float] = field(default_factory=list)
    shared: int = 0
    no_winner: int = 0
    ranks: list[list[int]] = field(default_factory=list)
    difference: list[float] = field(default_factory=list)
    difference_squares: list[float] = field(default_factory=list)
    turns: Counter[int] = field(default_factory=Counter)
    longest: int = 0

    def __post_init__(self) -> None:
        n = self.players
        self.sole = self.sole or [0] * n
        self.shared_seat = self.shared_seat or [0] * n
        self.credit = self.credit or [0.0] * n
        self.ranks = self.ranks or [[0] * n for _ in range(n)]
        self.difference = self.difference or [0.0] * n
        self.difference_squares = self.difference_squares or [0.0] * n

    def add_game(self, winners: Sequence[int], scores: Sequence[float], turns: int) -> None:
        """Count one game: ``winners`` one flag per seat, ``scores`` per seat."""
        n = self.players
        self.games += 1
        won = [seat for seat in range(n) if winners[seat]]
        if not won:
            self.no_winner += 1
        elif len(won) == 1:
            self.sole[won[0]] += 1
            self.credit[won[0]] += 1.0
        else:
            self.shared += 1
            for seat in won:
                self.shared_seat[seat] += 1
                self.credit[seat] += 1.0 / len(won)
        for seat, rank in enumerate(ranks_of(won, scores)):
            self.ranks[seat][rank - 1] += 1
        total = math.fsum(scores)
        if n > 1:
            for seat in range(n):
                gap = scores[seat] - (total - scores[seat]) / (n - 1)
                self.difference[seat] += gap
                self.difference_squares[seat] += gap * gap
        self.turns[turns] += 1

    def add(self, other: OutcomeSums) -> None:
        """Fold ``other`` (the next block) into these sums."""
        self.games += other.games
        self.shared += other.shared
        self.no_winner += other.no_winner
        for seat in range(self.players):
            self.sole[seat] += other.sole[seat]
            self.shared_seat[seat] += other.shared_seat[seat]
            self.credit[seat] += other.credit[seat]
            self.difference[seat] += other.difference[seat]
            self.difference_squares[seat] += other.difference_squares[seat]
            for rank in range(self.players):
                self.ranks[seat][rank] += other.ranks[seat][rank]
        self.turns.update(other.turns)
        self.longest = max(self.longest, other.longest)


def ranks_of(winners: Sequence[int], scores: Sequence[float]) -> list[int]:
    """Each seat's rank: the winners 1, the others by score (equal scores share a rank),
    as :meth:`dicegames.core.model.Result.from_scores` ranks them."""
    ranks = [0] * len(scores)
    for seat in winners:
        ranks[seat] = 1
    rest = sorted((s for s in range(len(scores)) if s not in winners), key=lambda s: -scores[s])
    first = 2 if winners else 1
    previous: float | None = None
    current = first
    for position, seat in enumerate(rest):
        if previous is None or scores[seat] != previous:
            current = first + position
        ranks[seat] = current
        previous = scores[seat]
    return ranks


def outcome_block(task: OutcomeTask) -> OutcomeSums:
    """Play the games of ``task`` (the unit of work of the report's main runs)."""
    game = task_game(task.game_id, task.players, task.options)
    specs = [bot_spec(game, name) for name in task.bots]
    count = task.stop - task.start
    result = playouts(game.new_state(), specs, count, block_seed(task.seed, task.start, 0))
    winners, scores = to_list(result.winners), to_list(result.scores)
    turns, moves = to_list(result.turns), to_list(result.moves)
    n = task.players
    sums = OutcomeSums(n)
    for g in range(count):
        sums.add_game(winners[g * n:(g + 1) * n], [float(s) for s in scores[g * n:(g + 1) * n]],
                      int(turns[g]))
    sums.longest = max((int(m) for m in moves), default=0)
    return sums


@dataclass(frozen=True, slots=True)
class Mean:
    """A mean with its 95% interval (normal approximation, the sample's spread)."""

    mean: float
    low: float
    high: float

    @staticmethod
    def of(total: float, squares: float, count: int) -> Mean:
        """The mean of ``count`` values from their sum and sum of squares."""
        if count == 0:
            return Mean(0.0, 0.0, 0.0)
        mean = total / count
        variance = max(0.0, squares / count - mean * mean) * count / max(1, count - 1)
        half = Z_95 * math.sqrt(variance / count)
        return Mean(mean, mean - half, mean + half)

    def to_json(self) -> dict[str, float]:
        """JSON-ready data."""
        return {"mean": self.mean, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Outcomes:
    """A run's figures (see the module docstring).

    Attributes:
        bots: the bot of each seat.
        games: games played (fewer than ``asked`` when the run was interrupted).
        sums: the raw sums (sole wins, shared wins, ranks, score differences, turns).
        engine: which path played (the rollout primitive's plan description).
    """

    bots: tuple[str, ...]
    asked: int
    sums: OutcomeSums
    engine: str

    @property
    def games(self) -> int:
        """Games played."""
        return self.sums.games

    @property
    def complete(self) -> bool:
        """Whether every game asked for was played."""
        return self.sums.games >= self.asked

    def share(self, count: float) -> dict[str, float]:
        """``count`` games as a share of the run, with its 95% Wilson interval."""
        games = max(1, self.games)
        low, high = wilson_interval(min(float(games), count), games)
        return {"count": count, "share": count / games, "low": low, "high": high}

    @property
    def decided(self) -> bool:
        """Whether at least one game had a sole winner (else seat shares measure nothing)."""
        return sum(self.sums.sole) > 0

    def score_differences(self) -> list[Mean]:
        """Each seat's mean score minus the others' mean, with its interval."""
        sums = self.sums
        return [Mean.of(sums.difference[s], sums.difference_squares[s], sums.games)
                for s in range(sums.players)]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        sums = self.sums
        games = max(1, sums.games)
        return {
            "bots": list(self.bots), "games": sums.games, "asked": self.asked,
            "engine": self.engine,
            "sole": [self.share(w) for w in sums.sole],
            "shared": self.share(sums.shared),
            "shared_by_seat": [self.share(w) for w in sums.shared_seat],
            "split": [self.share(w) for w in sums.credit],
            "no_winner": self.share(sums.no_winner),
            "ranks": [[count / games for count in row] for row in sums.ranks],
            "score_difference": [m.to_json() for m in self.score_differences()],
        }


def run_outcomes(game: Game[Any, Any, Any], bots: Sequence[str], games: int, seed: int, *,
                 jobs: int = 1, scheduler: str | None = None,
                 progress: Callable[[int], None] | None = None) -> Outcomes:
    """Play ``games`` games with ``bots[s]`` in seat ``s`` and sum how they ended.

    ``progress`` gets the number of games finished in each block as it finishes. Ctrl-C
    (``KeyboardInterrupt``) stops the run: the blocks already finished are returned
    (``complete`` False) and the interrupt is raised again only when none finished.

    Raises:
        RolloutError: a game ran past the move cap (a bug in the rules or a bot).
    """
    how = plan(game, bots)
    size = KERNEL_BLOCK if how.kernel is not None else ENGINE_BLOCK
    tasks = [OutcomeTask(game.spec.id, game.players, dict(game.options), tuple(bots), seed,
                         start, min(games, start + size))
             for start in range(0, games, size)]
    total = OutcomeSums(game.players)
    try:
        for block in run_tasks(outcome_block, tasks, jobs=jobs, scheduler=scheduler,
                               per_batch=per_batch_for(size)):
            if block.longest > MAX_MOVES:
                raise runaway(game, MAX_MOVES, "kernel or its bots")
            total.add(block)
            if progress is not None:
                progress(block.games)
    except KeyboardInterrupt:
        if total.games == 0:
            raise
    return Outcomes(tuple(bots), games, total, how.description)
