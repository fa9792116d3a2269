"""The game-design report: the figures ``dicegames analyse GAME`` draws and prints.

From seeded simulated games of one configured game, :func:`build_report` measures:

* **seat advantage**: each seat's share of wins with its 95% Wilson interval, with the
  game's best bot in every seat and with random play in every seat;
* **game length** in turns and in real decisions per game (histograms, mean, median, the
  10th and 90th percentiles, shortest and longest);
* **decisions and branching**: real choices and forced moves per game, the mean number of
  legal moves at a real choice;
* **luck vs skill**: a round robin of every fast listed bot level and ``random`` (two-player
  games, seats rotated), the Bradley-Terry ladder on the Elo scale with intervals
  (:mod:`~dicegames.analysis.ratings`), how often the best beats the weakest and how often
  random beats the best;
* **drama**: lead changes per game, how far into the game the winner takes the lead for
  good, how often the player behind at half-time wins, the leader measured by the best
  estimate the game has (:mod:`~dicegames.analysis.estimate`);
* for two-player Extra Meters, the exact optimal strategy (:mod:`~dicegames.analysis.
  strategy`).

Every run draws its games from a seed derived from the master seed and the run's name, so
the same seed gives the same report, whatever runs the games (:mod:`~dicegames.analysis.
cluster`).
"""

from __future__ import annotations

import hashlib
import itertools
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.cluster import per_batch_for, run_tasks
from dicegames.analysis.estimate import estimator_for
from dicegames.analysis.ratings import Rating, bradley_terry
from dicegames.analysis.simulate import bot_name, simulate
from dicegames.analysis.stats import histogram_mean, histogram_median, wilson_interval
from dicegames.analysis.traced import GameTrace, TraceTask, trace_block
from dicegames.bots import bot_levels
from dicegames.core.chance import sample
from dicegames.core.errors import OptionError
from dicegames.core.game import Game
from dicegames.core.model import NodeKind
from dicegames.core.registry import configure

TRACE_BLOCK = 25
"""Games per traced task (small: a task measuring the leader by rollouts is slow)."""

SLOW_DECISION_S = 0.1
"""A bot thinking longer than this per decision is left out of the default ladder (it would
take hours); name it with ``ladder=`` to include it anyway."""

DRAMA_GAMES = 100
"""Games whose leader is measured turn by turn when the estimate is rollouts (the exact and
learned estimates measure every game)."""


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

    @staticmethod
    def of(values: Sequence[int]) -> Lengths:
        """The distribution of ``values`` (at least one)."""
        ordered = sorted(values)
        histogram = dict(sorted(Counter(ordered).items()))
        n = len(ordered)
        return Lengths(histogram, histogram_mean(histogram), histogram_median(histogram),
                       ordered[(n - 1) // 10], ordered[(9 * (n - 1)) // 10],
                       ordered[0], ordered[-1])

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (histogram keys as strings, as JSON wants)."""
        return {"mean": self.mean, "median": self.median, "p10": self.p10, "p90": self.p90,
                "shortest": self.shortest, "longest": self.longest,
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
    """The figures of one configured game (see the module docstring)."""

    game: str
    name: str
    options: dict[str, Any]
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    seats_best: tuple[Share, ...]
    seats_random: tuple[Share, ...]
    turns: Lengths
    decisions: Lengths
    forced_per_game: float
    branching: float
    ladder: tuple[Rating, ...]
    pairings: tuple[Pairing, ...]
    best_vs_weakest: Pairing | None
    random_vs_best: Pairing | None
    drama: Drama | None
    strategy: dict[str, Any] | None
    notes: tuple[str, ...] = field(default=())
    elapsed_s: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data (no timings: the same seed gives the same JSON)."""
        def pairing(item: Pairing | None) -> dict[str, Any] | None:
            return item.to_json() if item else None
        return {
            "game": self.game, "name": self.name, "options": self.options,
            "players": self.players, "games": self.games, "seed": self.seed,
            "bots": list(self.bots),
            "seat_advantage": {"best": [s.to_json() for s in self.seats_best],
                               "random": [s.to_json() for s in self.seats_random]},
            "length": {"turns": self.turns.to_json(), "decisions": self.decisions.to_json()},
            "choices": {"decisions_per_game": self.decisions.mean,
                        "forced_per_game": self.forced_per_game,
                        "branching": self.branching},
            "skill": {"ladder": [r.to_json() for r in self.ladder],
                      "pairings": [p.to_json() for p in self.pairings],
                      "best_vs_weakest": pairing(self.best_vs_weakest),
                      "random_vs_best": pairing(self.random_vs_best)},
            "drama": self.drama.to_json() if self.drama else None,
            "strategy": self.strategy, "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- the runs


def decision_time(game: Game[Any, Any, Any], level: str, samples: int = 3) -> float:
    """Median seconds ``level`` takes for a decision, from positions reached by random play."""
    factory = {item.name: item.factory for item in reversed(bot_levels(game))}[level]
    bot = factory(game, random.Random(0))
    rng = random.Random(1)
    state = game.new_state()
    times: list[float] = []
    while len(times) < samples and not state.is_terminal:
        if state.node.kind is NodeKind.CHANCE:
            state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
            continue
        seat = state.node.players[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            began = time.perf_counter()
            bot.choose(state, seat)
            times.append(time.perf_counter() - began)
        state = state.apply_unchecked(rng.choice(legal), seat)
    return statistics.median(times) if times else 0.0


def default_ladder(game: Game[Any, Any, Any]) -> tuple[list[str], list[str]]:
    """``random`` and every listed level fast enough for a report; and the notes on those
    left out."""
    names = ["random"]
    notes = []
    for level in bot_levels(game):
        if not level.listed or level.name in names:
            continue
        seconds = decision_time(game, level.name)
        if seconds > SLOW_DECISION_S:
            notes.append(f"the {level.name} bot (about {seconds:.1f} s a decision) is left "
                         f"out of the ladder; name it with --ladder to include it")
            continue
        names.append(level.name)
    return names, notes


def _trace(game: Game[Any, Any, Any], bots: Sequence[str], games: int, seed: int, *,
           drama_until: int, jobs: int, scheduler: str | None,
           progress: Callable[[int], None]) -> list[GameTrace]:
    tasks = [TraceTask(game.spec.id, game.players, dict(game.options), tuple(bots), seed,
                       start, min(games, start + TRACE_BLOCK), drama_until)
             for start in range(0, games, TRACE_BLOCK)]
    traces: list[GameTrace] = []
    for block in run_tasks(trace_block, tasks, jobs=jobs, scheduler=scheduler,
                           per_batch=per_batch_for(TRACE_BLOCK, 500)):
        traces.extend(block)
        progress(len(block))
    return traces


def seat_shares(traces: Sequence[GameTrace], players: int) -> tuple[Share, ...]:
    """Each seat's share of the games won (a shared win counts 1/k)."""
    wins = [0.0] * players
    for trace in traces:
        for seat in trace.winners:
            wins[seat] += 1 / len(trace.winners)
    return tuple(Share.of(w, len(traces)) for w in wins)


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
    duel = game if game.players == 2 else configure(game.spec.id, 2, game.options)
    wins = [[0.0] * len(names) for _ in names]
    pairings = []
    for i, first in enumerate(names):
        for j in range(i + 1, len(names)):
            second = names[j]
            done = [0]

            def step(count: int, done: list[int] = done) -> None:
                progress(count - done[0])
                done[0] = count
            result = simulate(duel, [first, second], games, sub_seed(seed, f"{first}-{second}"),
                              rotate=True, jobs=jobs, scheduler=scheduler, progress=step)
            a, b = result.per_player
            wins[i][j] += a.wins
            wins[j][i] += b.wins
            pairings.append(Pairing(first, second, Share.of(a.wins, games)))
    return bradley_terry(names, wins), pairings


def _pairing(pairings: Sequence[Pairing], first: str, second: str) -> Pairing | None:
    for pairing in pairings:
        if (pairing.first, pairing.second) == (first, second):
            return pairing
        if (pairing.first, pairing.second) == (second, first):
            share = pairing.result
            return Pairing(first, second, Share.of(share.games - share.wins, share.games))
    return None


def _bot(spec: str, game: Game[Any, Any, Any]) -> str:
    """:func:`bot_name`, its error worded for a report."""
    try:
        return bot_name(spec, game)
    except OptionError as error:
        raise OptionError(str(error).replace("simulate needs", "the report needs", 1)) from None


def report_name(game: Game[Any, Any, Any]) -> str:
    """``Game name, 2 players, option=value...`` for titles."""
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    return f"{game.spec.name}, {game.players} players" + (f" ({options})" if options else "")


def build_report(game: Game[Any, Any, Any], *, games: int = 200, seed: int = 0,
                 players: Sequence[str] | None = None, bots: Sequence[str] | None = None,
                 jobs: int = 1, scheduler: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> DesignReport:
    """Measure the design report of ``game`` (see the module docstring).

    Args:
        games: games per run (the best bots' run, the random run, each ladder pairing).
        seed: the master seed; the same seed gives the same report.
        players: the bot in each seat of the main run (default: the best ladder bot in
            every seat).
        bots: the ladder's bots, the reference first (default: ``random`` and every listed
            level fast enough; see :data:`SLOW_DECISION_S`).
        jobs, scheduler: where the games run (:func:`~dicegames.analysis.cluster.run_tasks`).
        progress: called with (games played, games in all).

    Raises:
        OptionError: an unknown bot, a person among the players, the wrong number of
            players, fewer than 2 ladder bots, or ``games`` below 1.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"the number of games must be a whole number of at least 1, "
                          f"not {games!r}")
    began = time.perf_counter()
    notes: list[str] = []
    if bots is None:
        ladder_names, notes = default_ladder(game)
    else:
        ladder_names = list(dict.fromkeys(_bot(b, game) for b in bots))
        if len(ladder_names) < 2:
            raise OptionError("the ladder needs at least two different bots, e.g. "
                              "random,medium")
    best = ladder_names[-1]
    if players is None:
        seat_bots = [best] * game.players
    else:
        seat_bots = [_bot(p, game) for p in players]
        if len(seat_bots) != game.players:
            raise OptionError(f"this {game.spec.id} game is set up for {game.players} "
                              f"players, but {len(seat_bots)} bots were given")
    estimator = estimator_for(game, 1)
    drama_until = games if estimator.kind != "rollouts" else min(games, DRAMA_GAMES)
    pairs = len(ladder_names) * (len(ladder_names) - 1) // 2
    total = games * (2 + pairs)
    done = [0]

    def tick(count: int) -> None:
        done[0] += count
        if progress is not None:
            progress(done[0], total)

    main = _trace(game, seat_bots, games, sub_seed(seed, "main"), drama_until=drama_until,
                  jobs=jobs, scheduler=scheduler, progress=tick)
    randoms = _trace(game, ["random"] * game.players, games, sub_seed(seed, "random"),
                     drama_until=0, jobs=jobs, scheduler=scheduler, progress=tick)
    if len(ladder_names) > 1:
        ratings, pairings = _ladder(game, ladder_names, games, seed, jobs=jobs,
                                    scheduler=scheduler, progress=tick)
    else:  # a game with no bots of its own: random has nobody to be rated against
        ratings, pairings = [], []
        notes.append("no skill ladder: the game offers no bots of its own, only random")
    ranked = sorted((r for r in ratings if r.name != "random"), key=lambda r: -r.elo)
    strongest = ranked[0].name if ranked else best
    weakest = ranked[-1].name if len(ranked) > 1 else None
    decisions = sum(t.decisions for t in main)
    lead = drama(main, estimator.kind)
    if lead is None:
        notes.append("lead changes are not measured: no measured game had a single winner")
    from dicegames.analysis.strategy import strategy_for

    return DesignReport(
        game=game.spec.id, name=report_name(game), options=dict(game.options),
        players=game.players, games=games, seed=seed, bots=tuple(seat_bots),
        seats_best=seat_shares(main, game.players),
        seats_random=seat_shares(randoms, game.players),
        turns=Lengths.of([t.turns for t in main]),
        decisions=Lengths.of([t.decisions for t in main]),
        forced_per_game=statistics.fmean(t.forced for t in main),
        branching=sum(t.options for t in main) / decisions if decisions else 0.0,
        ladder=tuple(ratings), pairings=tuple(pairings),
        best_vs_weakest=_pairing(pairings, strongest, weakest) if weakest else None,
        random_vs_best=_pairing(pairings, "random", strongest),
        drama=lead, strategy=strategy_for(game),
        notes=tuple(notes), elapsed_s=time.perf_counter() - began)
