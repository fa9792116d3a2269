"""Win-chance estimates of a position, by the strongest means each game offers.

A review judges every decision and a design report measures who leads; both ask the same
question: *from this position, how likely is each seat to win?* Three answers, strongest
first:

* ``exact``: a solved game (two-player For a Few Extra Meters): the chance under optimal
  play from here on, no error;
* ``learned``: a fitted win-chance model (Petits Chevaux's): instant, its error is the
  model's (not a sampling error);

  both are a game's ``estimator`` part (:mod:`dicegames.core.definition`; the shapes
  :class:`Estimate` and :class:`Estimator` live in :mod:`dicegames.core.estimates`);
* ``rollouts``: every other game: up to ``n`` continuations played to the end by the
  game's ``medium`` bot in every seat (``random`` where it has none), dice and bots seeded,
  with the standard error of the mean; each is a :func:`dicegames.core.rollout.rollout`,
  played by the game's kernel when it plays that bot.
  Candidates of one decision share their continuations' seeds (common random numbers), so
  their differences are measured far more sharply than each chance alone, and sampling a
  decision stops once it is decided (:meth:`Rollouts.choices`).

This is the one estimator of the package: hints (:mod:`.hint`, :mod:`.anytime`), reviews
(:mod:`.review`) and the design report's traced games (:mod:`.traced`) all take it from
:func:`estimator_for`, which picks the strongest that fits a game, and tally continuations
with :class:`Tally`. Estimates depend only on the position and the estimator's seed: the
same review twice gives the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.stats import wilson_interval
from dicegames.bots import bot_spec, rollout_level
from dicegames.core.estimates import Estimate as Estimate  # noqa: PLC0414 (re-exported)
from dicegames.core.estimates import Estimator as Estimator  # noqa: PLC0414
from dicegames.core.estimates import terminal_estimate as terminal_estimate  # noqa: PLC0414
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.core.registry import definition_of
from dicegames.core.rollout import game_seed, plan, rollout

DEFAULT_ROLLOUTS = 32
"""Continuations per position (or per candidate move) of the rollout estimate."""

ROUND = 8
"""Continuations a choice gets at a time while a decision is being decided."""

DECIDED = 2.0
"""A choice is decided against the leader once their paired difference is this many
standard errors from zero (or exactly zero in every continuation: the two lead to the same
games), after at least :data:`FIRST_DECIDED` continuations."""

FIRST_DECIDED = ROUND
"""Continuations of both before a choice may be decided against the leader."""

# --------------------------------------------------------------------------- tallies


@dataclass(slots=True)
class Tally:
    """Running sums of the continuations from one state: each seat's return (1 split among
    the winners) and its square, and how many continuations were played."""

    players: int
    sums: list[float] = field(default_factory=list)
    squares: list[float] = field(default_factory=list)
    count: int = 0

    def __post_init__(self) -> None:
        self.sums = self.sums or [0.0] * self.players
        self.squares = self.squares or [0.0] * self.players

    def add(self, returns: tuple[float, ...]) -> None:
        """Count one continuation's returns."""
        for seat, value in enumerate(returns):
            self.sums[seat] += value
            self.squares[seat] += value * value
        self.count += 1

    def mean(self, seat: int) -> float:
        """The share of the continuations ``seat`` won."""
        return self.sums[seat] / self.count

    def error(self, seat: int) -> float:
        """The standard error of ``seat``'s mean (0 with fewer than two continuations)."""
        n = self.count
        if n < 2:
            return 0.0
        variance = max(0.0, (self.squares[seat] - n * self.mean(seat) ** 2) / (n - 1))
        return math.sqrt(variance / n)

    def interval(self, seat: int) -> tuple[float, float]:
        """The 95% Wilson interval of ``seat``'s share."""
        return wilson_interval(min(self.sums[seat], self.count), self.count)

    def estimate(self) -> Estimate:
        """Every seat's mean, with the largest standard error."""
        return Estimate(tuple(self.mean(seat) for seat in range(self.players)),
                        max(self.error(seat) for seat in range(self.players)))


# --------------------------------------------------------------------------- rollouts


class Rollouts:
    """Any game, by up to ``n`` seeded continuations played out by ``level`` bots in every
    seat.

    Each continuation is the rollout primitive's (:func:`dicegames.core.rollout.rollout`):
    the game's kernel plays it when it plays the ``level`` bot, the engine otherwise.
    Continuation ``i`` of every position and candidate uses the seed ``game_seed(seed, i)``:
    the candidates of a decision meet the same dice as far as their moves allow.
    """

    kind = "rollouts"

    def __init__(self, game: Game[Any, Any, Any], rollouts: int = DEFAULT_ROLLOUTS,
                 seed: int = 0, level: str | None = None, *, use_kernel: bool = True) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        self.level = level or rollout_level(game)
        self.rollouts = rollouts
        self.seed = seed
        self.use_kernel = use_kernel
        """False: always the engine (a caller whose deadline must not wait for a kernel's
        first compilation)."""
        self._bots = [bot_spec(game, self.level)] * game.players
        self._game = game
        self.description = (f"up to {rollouts} continuations played out by the {self.level} "
                            f"bot, with the standard error of their mean")

    def play_out(self, state: State[Any, Any, Any], index: int) -> tuple[float, ...]:
        """Every seat's return at the end of continuation ``index`` from ``state``.

        Where the kernel plays the bots, the continuation is the first game of a one-game
        :meth:`~dicegames.core.kernel.GameKernel.playouts` with the seed
        :func:`~dicegames.core.rollout.rollout` would take: the same game, without decoding
        the final state (half the cost of a continuation of EXTRA!).
        """
        if state.is_terminal:
            return state.result.returns()
        seed = game_seed(self.seed, index)
        how = plan(self._game, [bot.name for bot in self._bots], self.use_kernel)
        if how.kernel is None or how.policies is None:
            return rollout(state, self._bots, seed, use_kernel=False).returns()
        won = how.kernel.playouts(state.data, how.policies, 1, seed).winners
        flags = [int(won[seat]) for seat in range(self._game.players)]
        share = 1.0 / sum(flags) if any(flags) else 0.0
        return tuple(share * flag for flag in flags)

    def tally(self, state: State[Any, Any, Any], count: int,
              into: Tally | None = None) -> Tally:
        """``into`` (a new tally by default) with ``count`` more continuations from
        ``state``: those numbered from its count on, so tallies of sibling states stay
        paired."""
        tally = into if into is not None else Tally(self._game.players)
        for index in range(tally.count, tally.count + count):
            tally.add(self.play_out(state, index))
        return tally

    def position(self, state: State[Any, Any, Any]) -> Estimate:
        """The mean outcome of the continuations, with the largest standard error."""
        if state.is_terminal:
            return terminal_estimate(state)
        return self.tally(state, self.rollouts).estimate()

    def choices(self, state: State[Any, Any, Any], seat: Seat) -> dict[Hashable, Estimate]:
        """The continuations' mean after each legal action (paired seeds), sampling
        until the decision is decided (:meth:`race`) or every action has had
        :attr:`rollouts` continuations."""
        tallies = self.race({action: state.apply_unchecked(action, seat)
                             for action in state.legal_actions(seat)}, seat)
        return {action: tally.estimate() for action, tally in tallies.items()}

    def race(self, states: Mapping[Hashable, State[Any, Any, Any]], seat: Seat,
             limit: int | None = None) -> dict[Hashable, Tally]:
        """Paired continuations from each of ``states`` (the candidates of one decision),
        :data:`ROUND` at a time, until at most ``limit`` (default :attr:`rollouts`).

        A candidate stops getting continuations once it is decided against the leader
        (the candidate with the highest mean for ``seat``; see :data:`DECIDED`), and the
        race ends when every other candidate is. A finished game costs nothing to play
        out: its every continuation is its result, with no error.
        """
        limit = self.rollouts if limit is None else limit
        tallies = {key: Tally(self._game.players) for key in states}
        returns: dict[Hashable, list[float]] = {key: [] for key in states}
        live = dict(states)
        played = 0
        while (len(live) > 1 and played < limit) or played == 0:
            step = min(ROUND, limit - played)
            for key, state in live.items():
                for index in range(played, played + step):
                    value = self.play_out(state, index)
                    tallies[key].add(value)
                    returns[key].append(value[seat])
            played += step
            leader = max(tallies, key=lambda key: tallies[key].mean(seat))
            if leader in live:
                live = {key: state for key, state in live.items() if key == leader
                        or not _decided(returns[leader], returns[key], played)}
        return tallies


def _decided(leader: list[float], other: list[float], played: int) -> bool:
    """Whether the paired differences of two candidates' first ``played`` continuations
    settle which is better (see :data:`DECIDED`)."""
    n = min(played, len(leader), len(other))
    if n < FIRST_DECIDED:
        return False
    differences = [a - b for a, b in zip(leader[:n], other[:n], strict=True)]
    mean = math.fsum(differences) / n
    variance = math.fsum((d - mean) ** 2 for d in differences) / (n - 1)
    if variance == 0.0:
        return True
    return abs(mean) > DECIDED * math.sqrt(variance / n)


def estimator_for(game: Game[Any, Any, Any], rollouts: int = DEFAULT_ROLLOUTS,
                  seed: int = 0, *, learned: bool = True) -> Estimator:
    """The strongest estimate for ``game``: its definition's ``estimator`` part (exact or,
    when ``learned``, learned) when it covers this configuration, else rollouts."""
    factory = definition_of(game).part("estimator")
    found: Estimator | None = factory(game) if factory is not None else None
    if found is None or (found.kind == "learned" and not learned):
        return Rollouts(game, rollouts, seed)
    return found
