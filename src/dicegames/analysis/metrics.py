"""Browne's game-evaluation metrics, as Ludii reports them, measured on a report's games.

Browne's thesis (C. Browne, *Automatic Generation and Evaluation of Recombination Games*,
QUT, 2008, chapter 5) measures a game's quality from self-play; Ludii (Piette et al.,
"Ludii - The Ludemic General Game System", ECAI 2020) computes the standard ones from its
trials. The definitions, their sources and how each is read here are in docs/analysis.md;
in short, with the **state evaluation** being every seat's win chance by the best estimate
the game has (exact, learned or rollouts: :mod:`~dicegames.analysis.estimate`) at the
start of each turn:

* **decisiveness** (Ludii's *DecisivenessMoves*): the share of a game's turns played after
  its winner's chance first reached the decisiveness threshold (0 when it never did: the
  game was decided only at the end). Ludii's *DecisivenessThreshold* is the highest chance
  any eventual loser reached; in a dice game some loser always came back from near
  certainty, so that threshold is about 1 and every game scores 0. The threshold here is
  fixed, :data:`DECISIVE` (90%), and the share of games a player lost after reaching it is
  reported beside (``reversals``);
* **drawishness**: the share of games without a sole winner (draws and shared wins);
* **duration**: turns per game (Ludii's *DurationTurns*);
* **branching factor**: legal moves per decision, over every decision (Ludii's
  *BranchingFactorAverage*) and over the real choices;
* **drama** (Ludii's *DramaAverage*): over the turns where the eventual winner is not
  ahead, the leader's chance minus the winner's, averaged in each game (0 in a game the
  winner always led), then over the games;
* **lead changes** (Ludii's *LeadChange*): how often the leader (the seat with the highest
  chance, level turns skipped) changes, as a share of the game's turns after the first;
* **uncertainty** (Browne's criterion: the outcome should stay in doubt): the normalised
  entropy of the win chances, averaged over a game's turns (1: every seat level, 0: the
  outcome is certain), then over the games;
* **first-move advantage** (Ludii's *AdvantageP1*, as a gap): seat 1's share of the wins,
  a shared win split among its winners (as Ludii counts a draw half), minus the seats' mean
  share (``1/n`` when every game has a winner), from the main run.

Every per-game figure keeps its mean, standard deviation and game count, so two reports'
figures can be compared with intervals (:mod:`~dicegames.analysis.compare`).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.outcomes import Outcomes
from dicegames.analysis.stats import Z_95
from dicegames.analysis.traced import TIE_EPSILON, GameTrace

DECISIVE = 0.9
"""The win chance from which a game counts as decided (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Figure:
    """A metric over games: its mean, standard deviation and the games it covers."""

    name: str
    mean: float
    sd: float
    games: int

    @staticmethod
    def of(name: str, values: Sequence[float]) -> Figure:
        """The figure of per-game ``values``."""
        if not values:
            return Figure(name, 0.0, 0.0, 0)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return Figure(name, statistics.fmean(values), sd, len(values))

    @property
    def half_width(self) -> float:
        """The half width of the mean's 95% interval (normal approximation)."""
        return Z_95 * self.sd / math.sqrt(self.games) if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, with the mean's 95% interval (within 0 and 1, where every
        metric of this module lies)."""
        return {"name": self.name, "mean": self.mean, "sd": self.sd, "games": self.games,
                "low": max(0.0, self.mean - self.half_width),
                "high": min(1.0, self.mean + self.half_width)}


def _winner(trace: GameTrace) -> int | None:
    return trace.winners[0] if len(trace.winners) == 1 else None


def decisiveness(traces: Sequence[GameTrace]) -> tuple[Figure, float] | None:
    """The decisiveness figure, and the share of games a player lost after reaching
    :data:`DECISIVE` (None without measured single-winner games)."""
    measured = [t for t in traces if t.chances and _winner(t) is not None]
    if not measured:
        return None
    values = []
    reversals = 0
    for trace in measured:
        winner = _winner(trace)
        assert winner is not None
        turns = len(trace.chances)
        first = next((i for i, turn in enumerate(trace.chances) if turn[winner] >= DECISIVE),
                     turns)
        values.append((turns - first) / turns)
        reversals += any(turn[seat] >= DECISIVE for turn in trace.chances
                         for seat in range(len(turn)) if seat != winner)
    return Figure.of("decisiveness", values), reversals / len(measured)


def drama(traces: Sequence[GameTrace]) -> Figure | None:
    """The drama figure (None without measured single-winner games)."""
    values = []
    for trace in traces:
        winner = _winner(trace)
        if not trace.chances or winner is None:
            continue
        gaps = [max(turn) - turn[winner] for turn in trace.chances
                if max(turn) - turn[winner] > TIE_EPSILON]
        values.append(statistics.fmean(gaps) if gaps else 0.0)
    return Figure.of("drama", values) if values else None


def lead_change_rate(traces: Sequence[GameTrace]) -> Figure | None:
    """Lead changes as a share of each game's turns after the first."""
    values = []
    for trace in traces:
        if not trace.leaders:
            continue
        known = [seat for seat in trace.leaders if seat >= 0]
        changes = sum(1 for a, b in itertools.pairwise(known) if a != b)
        values.append(changes / max(1, len(trace.leaders) - 1))
    return Figure.of("lead changes", values) if values else None


def entropy(chances: Sequence[float]) -> float:
    """The entropy of ``chances`` over log(n): 1 when all are level, 0 when one is certain."""
    n = len(chances)
    total = math.fsum(chances)
    if n < 2 or total <= 0:
        return 0.0
    return -math.fsum(p / total * math.log(p / total) for p in chances if p > 0) / math.log(n)


def uncertainty(traces: Sequence[GameTrace]) -> Figure | None:
    """The mean normalised entropy of the win chances over each game's turns."""
    values = [statistics.fmean(entropy(turn) for turn in t.chances) for t in traces
              if t.chances]
    return Figure.of("uncertainty", values) if values else None


def game_metrics(traces: Sequence[GameTrace], main: Outcomes,
                 turns: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """Every metric of the module docstring, JSON-ready.

    ``traces``: the traced games (their ``chances`` measured or not); ``main``: the main
    run; ``turns``: its turn histogram as (turns, games) pairs.
    """
    n = main.sums.players
    games = max(1, main.games)
    first = main.share(main.sums.credit[0])
    even = sum(main.sums.credit) / n / games
    undecided = main.share(main.sums.shared + main.sums.no_winner)
    count = sum(c for _, c in turns)
    mean_turns = sum(t * c for t, c in turns) / max(1, count)
    spread = math.sqrt(sum(c * (t - mean_turns) ** 2 for t, c in turns) / max(1, count - 1))
    decisions = sum(t.decisions + t.forced for t in traces)
    all_moves = sum(t.options + t.forced for t in traces)
    choices = sum(t.decisions for t in traces)
    found = decisiveness(traces)
    measured = {name: figure.to_json() if figure else None for name, figure in (
        ("drama", drama(traces)), ("lead_changes", lead_change_rate(traces)),
        ("uncertainty", uncertainty(traces)))}
    return {
        "decisiveness": ({**found[0].to_json(), "threshold": DECISIVE, "reversals": found[1]}
                         if found else None),
        "drawishness": {**undecided, "draws": main.share(main.sums.no_winner)["share"],
                        "shared": main.share(main.sums.shared)["share"]},
        "duration": {"mean": mean_turns, "sd": spread, "games": count,
                     "low": mean_turns - Z_95 * spread / math.sqrt(max(1, count)),
                     "high": mean_turns + Z_95 * spread / math.sqrt(max(1, count))},
        "branching": {"all": all_moves / decisions if decisions else 0.0,
                      "choices": (sum(t.options for t in traces) / choices) if choices else 0.0,
                      "games": len(traces)},
        **measured,
        "first_move_advantage": ({"share": first["share"], "even": even,
                                  "gap": first["share"] - even,
                                  "low": first["low"] - even, "high": first["high"] - even,
                                  "games": games} if main.decided else None),
        "first_seat_score_gap": main.score_differences()[0].to_json(),
    }
