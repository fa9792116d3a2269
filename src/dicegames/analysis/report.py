"""The game-design report: the figures ``dicegames analyse GAME`` draws and prints.

From seeded simulated games of one configured game, :func:`build_report` measures:

* **seat advantage**: each seat's share of sole wins with its 95% Wilson interval, and
  apart from them the shared wins and the games nobody won, with the game's best bot in
  every seat and with random play in every seat (:mod:`~dicegames.analysis.outcomes`:
  10,000 games a run by default, through the game's bulk kernel); each seat's rank
  distribution and score difference, which judge seat order where wins are often shared;
  the exact values beside them where the game is solved;
* **game length** in turns (the main run) and in real decisions per game (a traced sample);
* **decisions and branching**: real choices and forced moves per game, the mean number of
  legal moves at a real choice (the traced sample);
* **luck vs skill**: a round robin of ``random`` and every listed level the kernel plays,
  each bot once (:mod:`~dicegames.analysis.ladder`), two-player games, seats rotated; the
  Bradley-Terry ladder on the Elo scale with intervals (:mod:`~dicegames.analysis.ratings`),
  how often the best beats the weakest and how often random beats the best;
* **drama** and **game metrics**: lead changes, comebacks, and Browne's metrics as Ludii
  reports them (:mod:`~dicegames.analysis.metrics`), the leader measured by the best
  estimate the game has (:mod:`~dicegames.analysis.estimate`);
* for a solved game, the exact optimal strategy (:mod:`~dicegames.analysis.strategy`).

Every run draws its games from a seed derived from the master seed and the run's name, so
the same seed gives the same report, whatever runs the games (:mod:`~dicegames.analysis.
cluster`). Ctrl-C stops the runs and the report of what was done is built (``interrupted``).
"""

from __future__ import annotations

import hashlib
import itertools
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.cluster import per_batch_for, run_tasks
from dicegames.analysis.estimate import estimator_for
from dicegames.analysis.ladder import (
    Ladder,
    default_ladder,
    duel_of,
    expected_seconds,
    named_ladder,
    report_bot,
)
from dicegames.analysis.metrics import game_metrics
from dicegames.analysis.naming import options_label
from dicegames.analysis.outcomes import Outcomes, run_outcomes
from dicegames.analysis.ratings import Rating, bradley_terry
from dicegames.analysis.simulate import simulate
from dicegames.analysis.stats import histogram_mean, histogram_median, wilson_interval
from dicegames.analysis.traced import GameTrace, TraceTask, trace_block
from dicegames.core.errors import OptionError
from dicegames.core.game import Game

DEFAULT_GAMES = 10_000
"""Games of each run by default: win shares within about ±1 point."""

TRACE_BLOCK = 25
"""Games per traced task (small: a task measuring the leader by rollouts is slow)."""

TRACED_GAMES = 500
"""Games traced move by move on the engine (choices, branching, the leader at each turn)."""

DRAMA_GAMES = {"learned": 300, "rollouts": 200}
"""Traced games whose leader is measured turn by turn, by the kind of estimate (the exact
estimate costs nothing and measures every traced game)."""


def sub_seed(seed: int, name: str) -> int:
    """The master seed of the run ``name`` of a report with master ``seed``."""
    digest = hashlib.blake2b(f"dicegames-report:{seed}:{name}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big")


@dataclass(frozen=True, slots=True)
class Share:
    """A share of games with its 95% Wilson interval."""

    wins: float
    games: int
    share: float
    low: float
    high: float

    @staticmethod
    def of(wins: float, games: int) -> Share:
        """The share ``wins / games`` and its interval."""
        low, high = wilson_interval(min(float(games), wins), games)
        return Share(wins, games, wins / games, low, high)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"wins": self.wins, "games": self.games, "share": self.share,
                "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Lengths:
    """A distribution of whole numbers (turns or decisions per game)."""

    histogram: dict[int, int]
    mean: float
    median: float
    p10: int
    p90: int
    shortest: int
    longest: int
    sd: float = 0.0

    @staticmethod
    def of(values: Sequence[int]) -> Lengths:
        """The distribution of ``values`` (at least one)."""
        return Lengths.from_histogram(Counter(values))

    @staticmethod
    def from_histogram(counts: Counter[int] | dict[int, int]) -> Lengths:
        """The distribution of a histogram (value -> count, at least one)."""
        histogram = dict(sorted(counts.items()))
        n = sum(histogram.values())
        ordered = list(itertools.chain.from_iterable([v] * c for v, c in histogram.items()))
        mean = histogram_mean(histogram)
        sd = (sum(c * (v - mean) ** 2 for v, c in histogram.items()) / (n - 1)) ** 0.5 \
            if n > 1 else 0.0
        return Lengths(histogram, mean, histogram_median(histogram),
                       ordered[(n - 1) // 10], ordered[(9 * (n - 1)) // 10],
                       ordered[0], ordered[-1], sd)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (histogram keys as strings, as JSON wants)."""
        return {"mean": self.mean, "median": self.median, "p10": self.p10, "p90": self.p90,
                "shortest": self.shortest, "longest": self.longest, "sd": self.sd,
                "games": sum(self.histogram.values()),
                "histogram": {str(k): v for k, v in self.histogram.items()}}


@dataclass(frozen=True, slots=True)
class Drama:
    """Lead changes and comebacks over the games whose leader was measured."""

    games: int
    estimate: str
    lead_changes: Lengths
    winner_settles: float
    behind_at_half_wins: Share | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"games": self.games, "estimate": self.estimate,
                "lead_changes": self.lead_changes.to_json(),
                "winner_settles": self.winner_settles,
                "behind_at_half_wins": (self.behind_at_half_wins.to_json()
                                        if self.behind_at_half_wins else None)}


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pair of the round robin: ``first``'s share of wins against ``second``."""

    first: str
    second: str
    result: Share

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"first": self.first, "second": self.second, **self.result.to_json()}


@dataclass(frozen=True, slots=True)
class DesignReport:
    """The figures of one configured game (see the module docstring).

    ``seats_best`` and ``seats_random`` count sole wins (a shared win is in ``main`` /
    ``randoms`` apart); ``traced`` is the number of games traced move by move (``decisions``,
    ``branching``, ``drama`` and the metrics that need a state evaluation come from them).
    """

    game: str
    name: str
    options: dict[str, Any]
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    main: Outcomes
    randoms: Outcomes | None
    seats_best: tuple[Share, ...]
    seats_random: tuple[Share, ...]
    turns: Lengths
    decisions: Lengths | None
    traced: int
    forced_per_game: float
    branching: float
    ladder: tuple[Rating, ...]
    pairings: tuple[Pairing, ...]
    same_as: dict[str, tuple[str, ...]]
    skipped: tuple[dict[str, str], ...]
    best_vs_weakest: Pairing | None
    random_vs_best: Pairing | None
    drama: Drama | None
    metrics: dict[str, Any]
    exact: dict[str, Any] | None
    strategy: dict[str, Any] | None
    notes: tuple[str, ...] = field(default=())
    interrupted: bool = False
    elapsed_s: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data (no timings: the same seed gives the same JSON)."""
        def pairing(item: Pairing | None) -> dict[str, Any] | None:
            return item.to_json() if item else None
        return {
            "game": self.game, "name": self.name, "options": self.options,
            "players": self.players, "games": self.games, "seed": self.seed,
            "bots": list(self.bots), "interrupted": self.interrupted,
            "seat_advantage": {"best": [s.to_json() for s in self.seats_best],
                               "random": [s.to_json() for s in self.seats_random]},
            "outcomes": {"best": self.main.to_json(),
                         "random": self.randoms.to_json() if self.randoms else None},
            "exact": self.exact,
            "length": {"turns": self.turns.to_json(),
                       "decisions": self.decisions.to_json() if self.decisions else None},
            "choices": {"decisions_per_game": self.decisions.mean if self.decisions else 0.0,
                        "forced_per_game": self.forced_per_game,
                        "branching": self.branching, "games": self.traced},
            "skill": {"ladder": [r.to_json() for r in self.ladder],
                      "pairings": [p.to_json() for p in self.pairings],
                      "same_as": {k: list(v) for k, v in self.same_as.items()},
                      "skipped": list(self.skipped),
                      "best_vs_weakest": pairing(self.best_vs_weakest),
                      "random_vs_best": pairing(self.random_vs_best)},
            "drama": self.drama.to_json() if self.drama else None,
            "metrics": self.metrics,
            "strategy": self.strategy, "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- the runs


def _trace(game: Game[Any, Any, Any], bots: Sequence[str], games: int, seed: int, *,
           drama_until: int, jobs: int, scheduler: str | None,
           progress: Callable[[int], None]) -> list[GameTrace]:
    tasks = [TraceTask(game.spec.id, game.players, dict(game.options), tuple(bots), seed,
                       start, min(games, start + TRACE_BLOCK), drama_until)
             for start in range(0, games, TRACE_BLOCK)]
    traces: list[GameTrace] = []
    try:
        for block in run_tasks(trace_block, tasks, jobs=jobs, scheduler=scheduler,
                               per_batch=per_batch_for(TRACE_BLOCK, 500)):
            traces.extend(block)
            progress(len(block))
    except KeyboardInterrupt:
        if not traces:
            raise
    return traces


def sole_shares(outcomes: Outcomes) -> tuple[Share, ...]:
    """Each seat's share of sole wins in a run."""
    games = max(1, outcomes.games)
    return tuple(Share.of(w, games) for w in outcomes.sums.sole)


def drama(traces: Sequence[GameTrace], estimate: str) -> Drama | None:
    """Lead changes and comebacks of the games with measured leaders."""
    measured = [t for t in traces if t.leaders and len(t.winners) == 1]
    if not measured:
        return None
    changes: list[int] = []
    settles: list[float] = []
    comebacks = judged = 0
    for trace in measured:
        known = [seat for seat in trace.leaders if seat >= 0]
        changes.append(sum(1 for a, b in itertools.pairwise(known) if a != b))
        winner = trace.winners[0]
        turns = len(trace.leaders)
        settled = turns  # the first turn of the winner's final run in the lead
        while settled > 0 and trace.leaders[settled - 1] == winner:
            settled -= 1
        settles.append(settled / turns)
        half = trace.leaders[(turns - 1) // 2]
        if half >= 0:
            judged += 1
            comebacks += half != winner
    return Drama(len(measured), estimate, Lengths.of(changes), statistics.fmean(settles),
                 Share.of(comebacks, judged) if judged else None)


def _ladder(game: Game[Any, Any, Any], names: Sequence[str], games: int, seed: int, *,
            jobs: int, scheduler: str | None, progress: Callable[[int], None]
            ) -> tuple[list[Rating], list[Pairing]]:
    """The round robin; on Ctrl-C, the pairings finished (and no ratings unless all are)."""
    duel = duel_of(game)
    wins = [[0.0] * len(names) for _ in names]
    pairings: list[Pairing] = []
    try:
        for i, first in enumerate(names):
            for j in range(i + 1, len(names)):
                second = names[j]
                done = [0]

                def step(count: int, done: list[int] = done) -> None:
                    progress(count - done[0])
                    done[0] = count
                result = simulate(duel, [first, second], games,
                                  sub_seed(seed, f"{first}-{second}"), rotate=True, jobs=jobs,
                                  scheduler=scheduler, progress=step)
                a, b = result.per_player
                wins[i][j] += a.wins
                wins[j][i] += b.wins
                pairings.append(Pairing(first, second, Share.of(a.wins, games)))
    except KeyboardInterrupt:
        return [], pairings
    return bradley_terry(names, wins), pairings


def _pairing(pairings: Sequence[Pairing], first: str, second: str) -> Pairing | None:
    for pairing in pairings:
        if (pairing.first, pairing.second) == (first, second):
            return pairing
        if (pairing.first, pairing.second) == (second, first):
            share = pairing.result
            return Pairing(first, second, Share.of(share.games - share.wins, share.games))
    return None


@dataclass(slots=True)
class _Runs:
    """What the report's runs played (up to a Ctrl-C)."""

    main: Outcomes
    randoms: Outcomes | None = None
    traces: list[GameTrace] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    pairings: list[Pairing] = field(default_factory=list)
    interrupted: bool = False


def _runs(game: Game[Any, Any, Any], seat_bots: Sequence[str], names: Sequence[str], *,
          games: int, traced: int, seed: int, drama_until: int, jobs: int,
          scheduler: str | None, tick: Callable[[int], None]) -> _Runs:
    """The main run, the random run, the traced games and the ladder, in that order; Ctrl-C
    ends them and keeps what finished (``interrupted``)."""
    where: dict[str, Any] = {"jobs": jobs, "scheduler": scheduler}
    runs = _Runs(run_outcomes(game, seat_bots, games, sub_seed(seed, "main"), progress=tick,
                              **where))
    pairs = len(names) * (len(names) - 1) // 2
    try:
        if not runs.main.complete:
            raise KeyboardInterrupt
        runs.randoms = run_outcomes(game, ["random"] * game.players, games,
                                    sub_seed(seed, "random"), progress=tick, **where)
        if not runs.randoms.complete:
            raise KeyboardInterrupt
        if traced:
            runs.traces = _trace(game, seat_bots, traced, sub_seed(seed, "main"),
                                 drama_until=drama_until, progress=tick, **where)
            if len(runs.traces) < traced:
                raise KeyboardInterrupt
        if pairs:
            runs.ratings, runs.pairings = _ladder(game, names, games, seed, progress=tick,
                                                  **where)
            if len(runs.pairings) < pairs:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        runs.interrupted = True
    return runs


def report_name(game: Game[Any, Any, Any]) -> str:
    """``Game name, 2 players (option=value...)`` for titles; a custom board or circuit by
    its first comment line and a short hash (:mod:`~dicegames.analysis.naming`)."""
    options = options_label(game)
    return f"{game.spec.name}, {game.players} players" + (f" ({options})" if options else "")


def exact_figures(game: Game[Any, Any, Any]) -> dict[str, Any] | None:
    """The exact seat shares under optimal play, where the game's estimator is exact."""
    estimator = estimator_for(game, 1)
    if estimator.kind != "exact":
        return None
    return {"seat_advantage": list(estimator.position(game.new_state()).chances),
            "description": estimator.description}


def _seconds(value: float) -> str:
    return f"{value / 60:.0f} minutes" if value >= 120 else f"{value:.0f} s"


def build_report(game: Game[Any, Any, Any], *, games: int = DEFAULT_GAMES, seed: int = 0,
                 players: Sequence[str] | None = None, bots: Sequence[str] | None = None,
                 jobs: int = 1, scheduler: str | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 announce: Callable[[str], None] | None = None,
                 traced: int = TRACED_GAMES) -> DesignReport:
    """Measure the design report of ``game`` (see the module docstring).

    Args:
        games: games per run (the main run, the random run, each ladder pairing).
        seed: the master seed; the same seed gives the same report.
        players: the bot in each seat of the main run (default: the best ladder bot in
            every seat).
        bots: the ladder's bots, the reference first (default: ``random`` and every listed
            level the kernel plays, each bot once; :mod:`~dicegames.analysis.ladder`).
        jobs, scheduler: where the games run (:func:`~dicegames.analysis.cluster.run_tasks`).
        progress: called with (games played, games in all).
        announce: told, before a run the kernel cannot play, how long it should take.
        traced: games traced move by move (at most ``games``).

    Ctrl-C during the runs ends them; the report of what was done is returned with
    ``interrupted`` set (``KeyboardInterrupt`` goes on only when nothing was done).

    Raises:
        OptionError: an unknown bot, a person among the players, the wrong number of
            players, fewer than 2 ladder bots, or ``games`` below 1.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"the number of games must be a whole number of at least 1, "
                          f"not {games!r}")
    began = time.perf_counter()
    notes: list[str] = []
    ladder: Ladder = default_ladder(game) if bots is None else named_ladder(game, bots)
    names = list(ladder.names)
    best = names[-1]
    if players is None:
        seat_bots = [best] * game.players
    else:
        seat_bots = [report_bot(p, game) for p in players]
        if len(seat_bots) != game.players:
            raise OptionError(f"this {game.spec.id} game is set up for {game.players} "
                              f"players, but {len(seat_bots)} bots were given")
    traced = max(0, min(traced, games))
    if announce is not None:
        _announce(game, seat_bots, names, games=games, announce=announce)
    estimator = estimator_for(game, 1)
    drama_until = min(traced, DRAMA_GAMES.get(estimator.kind, traced))
    pairs = len(names) * (len(names) - 1) // 2 if len(names) > 1 else 0
    total = games * (2 + pairs) + traced
    done = [0]

    def tick(count: int) -> None:
        done[0] += count
        if progress is not None:
            progress(done[0], total)

    runs = _runs(game, seat_bots, names, games=games, traced=traced, seed=seed,
                 drama_until=drama_until, jobs=jobs, scheduler=scheduler, tick=tick)
    main, randoms, traces = runs.main, runs.randoms, runs.traces
    ratings, pairings = runs.ratings, runs.pairings
    if runs.interrupted:
        notes.append(f"interrupted (Ctrl-C) after {done[0]:,} of {total:,} games: the "
                     f"figures below cover the games played; the sections left empty were "
                     f"not reached")
    elif len(names) < 2:  # a game with no bots of its own: random has nobody to rate against
        notes.append("no skill ladder: the game offers no bots of its own, only random")
    ranked = sorted((r for r in ratings if r.name != "random"), key=lambda r: -r.elo)
    strongest = ranked[0].name if ranked else best
    weakest = ranked[-1].name if len(ranked) > 1 else None
    decisions = sum(t.decisions for t in traces)
    lead = drama(traces, estimator.kind)
    if traces and lead is None:
        notes.append("lead changes are not measured: no measured game had a single winner")
    if not main.decided:
        notes.append(f"no game of the main run had a sole winner ({main.sums.shared:,} "
                     f"shared wins, {main.sums.no_winner:,} without a winner): the seats' "
                     f"win shares measure nothing, so seat order is judged by ranks and "
                     f"score differences")
    from dicegames.analysis.strategy import strategy_for

    return DesignReport(
        game=game.spec.id, name=report_name(game), options=dict(game.options),
        players=game.players, games=games, seed=seed, bots=tuple(seat_bots),
        main=main, randoms=randoms,
        seats_best=sole_shares(main),
        seats_random=sole_shares(randoms) if randoms else (),
        turns=Lengths.from_histogram(main.sums.turns),
        decisions=Lengths.of([t.decisions for t in traces]) if traces else None,
        traced=len(traces),
        forced_per_game=statistics.fmean(t.forced for t in traces) if traces else 0.0,
        branching=sum(t.options for t in traces) / decisions if decisions else 0.0,
        ladder=tuple(ratings), pairings=tuple(pairings), same_as=ladder.same_as,
        skipped=tuple(s.to_json() for s in ladder.skipped),
        best_vs_weakest=_pairing(pairings, strongest, weakest) if weakest else None,
        random_vs_best=_pairing(pairings, "random", strongest),
        drama=lead, metrics=game_metrics(traces, main, sorted(main.sums.turns.items())),
        exact=exact_figures(game), strategy=strategy_for(game),
        notes=tuple(notes), interrupted=runs.interrupted, elapsed_s=time.perf_counter() - began)


def _announce(game: Game[Any, Any, Any], seat_bots: Sequence[str], names: Sequence[str], *,
              games: int, announce: Callable[[str], None]) -> None:
    """Say how long the runs the kernel cannot play should take, before they start."""
    slow = expected_seconds(game, seat_bots, games)
    duel = duel_of(game)
    ladder_s = 0.0
    for first, second in itertools.combinations(names, 2):
        ladder_s += expected_seconds(duel, [first, second], games) or 0.0
    if slow is None and not ladder_s:
        return
    parts = []
    if slow is not None:
        parts.append(f"the main run ({', '.join(dict.fromkeys(seat_bots))}) about "
                     f"{_seconds(slow)}")
    if ladder_s:
        parts.append(f"the ladder about {_seconds(ladder_s)}")
    announce(f"Some bots have no kernel policy and play on the engine: expect "
             f"{' and '.join(parts)} for {games:,} games a run (Ctrl-C writes the report "
             f"of what is done).")
