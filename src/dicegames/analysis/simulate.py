"""Bot-versus-bot simulation: many seeded games, win shares with confidence intervals.

:func:`simulate` plays ``games`` games of one configured game between bots and reports, for
each player entry, the share of wins with a 95% Wilson interval, the mean score, and how long
the games lasted. It is the engine behind ``dicegames simulate`` and is meant for designers
tuning options and researchers comparing bots.

Reproducibility is the point: every game gets its own seed derived from the master seed and
the game's index, and from it fresh bots and fresh dice. The same seed therefore gives the
same report (timings aside) whether the games run in one process or in several, in whatever
order the workers finish.

Every game is played by the rollout primitive (:mod:`dicegames.core.rollout`): no
:class:`~dicegames.Session`, no events, no notation; moves go through
:meth:`State.apply_unchecked` after a cheap legality check of each bot's choice, and the
dice and each seat's bot draw from their own generators derived from the game's seed.

When the game has a bulk kernel (:mod:`dicegames.core.kernel`) and every bot plays exactly
like one of its policies, whole blocks of games are played by the kernel instead
(:func:`dicegames.core.rollout.playouts`, :mod:`dicegames.analysis.fast`), compiled by numba
when installed; the report says which path played (``engine``). Both paths play the same
rules and bots, with different dice streams, so their figures agree within their intervals;
each is reproducible from the seed.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.stats import histogram_mean, histogram_median, wilson_interval
from dicegames.bots import bot_levels, bot_spec, make_bot
from dicegames.core.errors import OptionError
from dicegames.core.game import Game
from dicegames.core.model import Agent
from dicegames.core.options import OptionValue
from dicegames.core.registry import configure
from dicegames.core.rollout import (
    MAX_MOVES,
    RolloutError,
    game_seed,
    plan,
    play_out,
    rollout,
    runaway,
)

DEFAULT_MAX_MOVES = MAX_MOVES
"""Moves (rolls and decisions) after which a game counts as runaway and the run stops: the
one move cap of :mod:`dicegames.core.rollout`."""

MAX_CHUNK = 500
"""The most games one unit of work holds (also the most games between progress calls)."""


SimulationError = RolloutError
"""A simulated game misbehaved: it ran past the move limit or a bot chose an illegal move
(the rollout primitive's :class:`~dicegames.core.rollout.RolloutError`, by its older name).

This points at a bug in a game's rules or a bot, not at the caller's input.
"""


def whole(number: float) -> int | float:
    """``number`` as an ``int`` when it is a whole number, so JSON says 57156, not 57156.0.

    >>> whole(57156.0), whole(12.5)
    (57156, 12.5)
    """
    return int(number) if float(number).is_integer() else number


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """How one player entry fared over the whole run.

    Attributes:
        label: the player spec as given, e.g. ``"bot:medium"``.
        games: games this entry played (every game: each entry plays each game).
        wins: games won; a win shared by k winners counts 1/k.
        win_share: ``wins / games``.
        ci_low, ci_high: the 95% Wilson score interval of ``win_share``.
        mean_score: the mean of the game's score for this entry (see ``Result.scores``).
    """

    label: str
    games: int
    wins: float
    win_share: float
    ci_low: float
    ci_high: float
    mean_score: float

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data: ``wins`` is an integer when it is whole (no
        shared wins), shares and means are floats."""
        return {"label": self.label, "games": self.games, "wins": whole(self.wins),
                "win_share": self.win_share, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "mean_score": self.mean_score}


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """The outcome of :func:`simulate`.

    Attributes:
        game: the game id.
        options: the game's option values.
        players: the player specs as given, one per entry.
        games: games played.
        seed: the master seed.
        rotate: whether seats rotated from game to game.
        per_player: one :class:`PlayerStats` per entry of ``players``, in the given order.
        mean_turns, median_turns: game length in turns (the final ``state.turn.number``).
        elapsed_s: wall-clock seconds for the whole run (process start-up included).
        games_per_s: ``games / elapsed_s``.
        no_winner: games that ended without any winner.
        engine: which path played the games, e.g. ``"compiled kernel (numba)"``, or
            ``"engine (bot 'search' has no kernel policy)"``.
    """

    game: str
    options: dict[str, OptionValue]
    players: tuple[str, ...]
    games: int
    seed: int
    rotate: bool
    per_player: tuple[PlayerStats, ...]
    mean_turns: float
    median_turns: float
    elapsed_s: float
    games_per_s: float
    no_winner: int = 0
    engine: str = "engine"

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (plain dicts, lists, numbers and strings).

        Counts are integers (``games``, ``no_winner``, each player's ``wins`` unless a
        shared win made it fractional, ``median_turns`` unless it falls between two games);
        shares, intervals, means and times are floats. The fields are the attributes above,
        with ``per_player`` a list of :meth:`PlayerStats.to_json` objects.
        """
        return {
            "game": self.game,
            "options": dict(self.options),
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "rotate": self.rotate,
            "per_player": [stats.to_json() for stats in self.per_player],
            "mean_turns": self.mean_turns,
            "median_turns": whole(self.median_turns),
            "no_winner": self.no_winner,
            "engine": self.engine,
            "elapsed_s": self.elapsed_s,
            "games_per_s": self.games_per_s,
        }


# --------------------------------------------------------------------------- the work


@dataclass(frozen=True, slots=True)
class _Task:
    """A contiguous block of games; plain data, so it pickles for spawned workers."""

    game_id: str
    options: dict[str, OptionValue]
    players: int
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int
    rotate: bool
    max_moves: int
    policies: tuple[str, ...] | None = None
    """The kernel policy of each entry when the kernel plays the block (see ``fast``)."""


@dataclass(slots=True)
class _Tally:
    """Sums over a block of games, per player entry; merged in block order."""

    wins: list[float]
    scores: list[float]
    turns: Counter[int] = field(default_factory=Counter)
    no_winner: int = 0

    @staticmethod
    def empty(entries: int) -> _Tally:
        """A tally of no games."""
        return _Tally([0.0] * entries, [0.0] * entries)

    def add(self, other: _Tally) -> None:
        """Fold ``other`` (the next block) into this tally."""
        for entry, (wins, score) in enumerate(zip(other.wins, other.scores, strict=True)):
            self.wins[entry] += wins
            self.scores[entry] += score
        self.turns.update(other.turns)
        self.no_winner += other.no_winner


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How one simulated game ended.

    Attributes:
        winners: the winning seats (empty when nobody won).
        scores: the game's score per seat.
        turns: the final turn count (``state.turn.number`` of the finished game).
        moves: states applied: every roll of the dice and every decision, passes included.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    turns: int
    moves: int


def play_one(
    game: Game[Any, Any, Any],
    agents: Sequence[Agent],
    rng: random.Random,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> GameOutcome:
    """Play one game from the start with built ``agents`` (by seat) and say how it ended.

    The engine loop of the rollout primitive (:func:`dicegames.core.rollout.play_out`):
    ``rng`` rolls the dice exactly as ``RandomDice`` does; a forced ``pass`` is played
    without asking the agent.

    Raises:
        SimulationError: the game did not end within ``max_moves`` moves, or an agent chose
            an action that is not legal.
    """
    ending = play_out(game.new_state(), agents, rng, max_moves)
    if ending.capped:
        raise runaway(game, max_moves)
    state = ending.state
    result = state.result
    return GameOutcome(result.winners, result.scores, state.turn.number, ending.moves or 0)


def _run_block(game: Game[Any, Any, Any], task: _Task) -> _Tally:
    """Play games ``task.start`` to ``task.stop - 1`` and tally them per entry.

    Game ``i`` is the rollout primitive's with the seed ``game_seed(seed, i)`` from the
    start, entry ``j`` in seat ``(j + shift) % n``.
    """
    if task.policies is not None:
        return _run_kernel_block(game, task)
    entries = task.players
    specs = [bot_spec(game, name) for name in task.bots]
    tally = _Tally.empty(entries)
    first = game.new_state()
    for index in range(task.start, task.stop):
        shift = index % entries if task.rotate else 0
        # Entry j sits in seat (j + shift) % n, so seat s holds entry (s - shift) % n.
        entry_of_seat = [(seat - shift) % entries for seat in range(entries)]
        ending = rollout(first, [specs[entry] for entry in entry_of_seat],
                         game_seed(task.seed, index), task.max_moves, use_kernel=False)
        if ending.capped:
            raise runaway(game, task.max_moves)
        state = ending.state
        result = state.result
        if result.winners:
            share = 1.0 / len(result.winners)
            for seat in result.winners:
                tally.wins[entry_of_seat[seat]] += share
        else:
            tally.no_winner += 1
        for seat, score in enumerate(result.scores):
            tally.scores[entry_of_seat[seat]] += score
        tally.turns[state.turn.number] += 1
    return tally


def _run_kernel_block(game: Game[Any, Any, Any], task: _Task) -> _Tally:
    """The block played by the game's kernel (see :mod:`dicegames.analysis.fast`)."""
    from dicegames.analysis.fast import play_block

    assert task.policies is not None
    sums = play_block(game, task.bots, task.seed, task.start, task.stop, rotate=task.rotate)
    if sums.longest > task.max_moves:
        raise runaway(game, task.max_moves, "kernel or its bots")
    return _Tally(sums.wins, sums.scores, sums.turns, sums.no_winner)


_WORKER_GAMES: dict[tuple[str, int, tuple[tuple[str, OptionValue], ...]], Game[Any, Any, Any]] = {}


def _worker(task: _Task) -> _Tally:
    """Entry point of a worker process: rebuild the game once, then play the block."""
    key = (task.game_id, task.players, tuple(sorted(task.options.items())))
    game = _WORKER_GAMES.get(key)
    if game is None:
        game = _WORKER_GAMES[key] = configure(task.game_id, task.players, task.options)
    return _run_block(game, task)


def _blocks(games: int) -> int:
    """Games per block: about 1% of the run, between 1 and :data:`MAX_CHUNK`.

    Depends on ``games`` only, so the blocks, and the order their sums are added in, are
    the same for any number of processes: floating-point totals then agree to the last bit.
    """
    return max(1, min(MAX_CHUNK, math.ceil(games / 100)))


KERNEL_CHUNK = 20_000
"""The most games one block of kernel games holds."""


def _kernel_blocks(games: int) -> int:
    """Games per kernel block: about 1% of the run, between 1 and :data:`KERNEL_CHUNK`."""
    return max(1, min(KERNEL_CHUNK, math.ceil(games / 100)))


# --------------------------------------------------------------------------- the API


def bot_name(spec: str, game: Game[Any, Any, Any]) -> str:
    """The bot name in a player spec: ``"bot:medium"`` or a bare ``"medium"``.

    Raises:
        OptionError: the spec is a person (``human``...) or names no bot of ``game``; the
            message lists the bots.
    """
    text = spec.strip().lower()
    if text.startswith("bot:"):
        name = text.removeprefix("bot:").strip()
        make_bot(game, name, random.Random(0))  # raises the listing error for unknown bots
        return name
    names = [level.name for level in bot_levels(game)]
    if text in names:
        return text
    raise OptionError(
        f"simulate needs bots only, and {spec!r} is not a bot; write each player as "
        f"bot:<name>, with the bots of {game.spec.id}: {', '.join(names)}"
    )


def simulate(
    game: Game[Any, Any, Any],
    players: Sequence[str],
    games: int,
    seed: int,
    *,
    rotate: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    scheduler: str | None = None,
    kernel: bool = True,
) -> SimulationReport:
    """Play ``games`` seeded games between bots and report win shares per player entry.

    Args:
        game: the configured game (from :func:`dicegames.make`).
        players: one spec per seat, ``"bot:<name>"`` or a bare bot name (see
            :func:`dicegames.bots.bot_levels`).
        games: how many games to play (at least 1).
        seed: the master seed; the same seed gives the same report, timings aside.
        rotate: when true, game ``i`` seats entry ``j`` in seat ``(j + i) % n``, so the
            first player's advantage is spread evenly over the entries.
        jobs: worker processes (1 = play here; 0 = one per CPU). The report does not
            depend on it.
        progress: called with the number of games finished so far, at most about a
            hundred times per run and always once at the end.
        max_moves: moves after which a single game counts as runaway.
        scheduler: the address of a Dask scheduler (``tcp://host:8786``) whose workers play
            the games instead (see :mod:`dicegames.analysis.cluster`); ``jobs`` is then
            ignored. The report does not depend on it either.
        kernel: play through the game's bulk kernel when every bot has a kernel policy
            (False: always the engine loop). The report's ``engine`` says which played.

    Raises:
        OptionError: a player is not a bot, a bot is unknown, the number of players does
            not match the game, or ``games``/``jobs`` is out of range.
        SimulationError: a game did not end or a bot chose an illegal move.
    """
    if isinstance(players, str):
        raise OptionError("players must be a list of specs such as ['bot:medium', 'bot:easy']")
    labels = tuple(players)
    if len(labels) != game.players:
        given = f"{len(labels)} player spec{'' if len(labels) == 1 else 's'}"
        raise OptionError(
            f"this {game.spec.id} game is set up for {game.players} players, but {given} "
            f"{'was' if len(labels) == 1 else 'were'} given"
        )
    bots = tuple(bot_name(label, game) for label in labels)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"the number of games must be a whole number of at least 1, "
                          f"not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"the seed must be a whole number, not {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"jobs must be a whole number of processes (0 = one per CPU), "
                          f"not {jobs!r}")
    if max_moves < 1:
        raise OptionError(f"max_moves must be at least 1, not {max_moves!r}")
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    how = plan(game, bots, kernel)
    size = _blocks(games) if how.kernel is None else _kernel_blocks(games)
    tasks = [
        _Task(game.spec.id, dict(game.options), game.players, bots, seed, start,
              min(games, start + size), rotate, max_moves,
              how.policies)
        for start in range(0, games, size)
    ]
    workers = min(workers, len(tasks))
    if workers > 1 or scheduler is not None:
        _check_rebuildable(game)

    began = time.perf_counter()
    total = _Tally.empty(game.players)
    done = 0
    if scheduler is not None:
        from dicegames.analysis.cluster import dask_map, per_batch_for
        blocks: Iterator[_Tally] = dask_map(_worker, tasks, scheduler, per_batch_for(size))
    else:
        blocks = _results(game, tasks, workers)
    for block in blocks:
        total.add(block)
        done += sum(block.turns.values())
        if progress is not None:
            progress(done)
    elapsed = time.perf_counter() - began

    per_player = []
    for entry, label in enumerate(labels):
        wins = total.wins[entry]
        low, high = wilson_interval(min(float(games), wins), games)
        per_player.append(PlayerStats(label, games, wins, wins / games, low, high,
                                      total.scores[entry] / games))
    return SimulationReport(
        game=game.spec.id, options=dict(game.options), players=labels, games=games,
        seed=seed, rotate=rotate, per_player=tuple(per_player),
        mean_turns=histogram_mean(total.turns), median_turns=histogram_median(total.turns),
        elapsed_s=elapsed, games_per_s=games / max(elapsed, 1e-9),
        no_winner=total.no_winner, engine=how.description,
    )


def _check_rebuildable(game: Game[Any, Any, Any]) -> None:
    """Make sure worker processes can rebuild ``game`` from the registry by id and options."""
    try:
        rebuilt = configure(game.spec.id, game.players, game.options)
    except OptionError as error:
        raise OptionError(f"jobs > 1 needs a registered game, rebuilt in each worker by id and "
                          f"options, but: {error}; use jobs=1") from None
    if type(rebuilt) is not type(game):
        raise OptionError(f"jobs > 1 needs a registered game, and {game.spec.id!r} is "
                          f"registered to another class; use jobs=1")


def _results(game: Game[Any, Any, Any], tasks: list[_Task], workers: int) -> Iterator[_Tally]:
    """The tallies of ``tasks`` in task order, played here or by ``workers`` processes.

    Workers are spawned (not forked), so this is safe in threaded programs and on every
    platform; each worker rebuilds the game from its id and options, and ends when this
    process ends (:func:`dicegames.core.workers.process_pool`). A worker that dies
    (killed, out of memory, or unable to start) stops the run with a clear error instead of
    hanging it.
    """
    if workers <= 1:
        for task in tasks:
            yield _run_block(game, task)
        return
    # Only runs with several jobs pay for these imports.
    from concurrent.futures.process import BrokenProcessPool

    from dicegames.core.workers import process_pool

    executor = process_pool(workers)
    try:
        yield from executor.map(_worker, tasks)
    except BrokenProcessPool as error:
        raise SimulationError(
            f"a simulation worker process stopped unexpectedly ({error}); if the program "
            f"runs from standard input or an interactive session, run it from a file or "
            f"use jobs=1"
        ) from None
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
