"""Games played with a trace: what a design report measures beyond who won.

:func:`dicegames.core.rollout.rollout` is the fast path and says only how a game ended. A design
report also needs, per game, how many decisions were real choices and how many were forced,
how wide the real choices were, and who led at the start of every turn. :func:`trace_block`
plays a block of seeded games with that bookkeeping; the seeds, the dice and the bots are
derived exactly as :func:`dicegames.analysis.simulate` derives them, so a traced game of
index ``i`` is the game ``simulate`` would play with the same master seed.

The leader at a turn's start is the seat with the highest win chance by an
:class:`~dicegames.analysis.estimate.Estimator` (exact, learned or rollouts); ``-1`` when
several seats share the highest chance. Tasks are plain data, so they run in worker
processes or on a Dask cluster (:mod:`dicegames.analysis.cluster`) with the same result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dicegames.analysis.estimate import Estimator, estimator_for
from dicegames.bots import bot_spec
from dicegames.core.game import Game, State
from dicegames.core.kernel_agent import kernel_agents
from dicegames.core.model import NodeKind
from dicegames.core.options import OptionValue
from dicegames.core.registry import configure
from dicegames.core.rollout import MAX_MOVES, engine_streams, game_seed, play_out, runaway

DRAMA_ROLLOUTS = 8
"""Continuations per turn when the leader is measured by rollouts (a coarse but cheap
estimate; the exact and learned estimates cost nothing extra)."""

TIE_EPSILON = 1e-9
"""Win chances closer than this count as level (nobody leads)."""


@dataclass(frozen=True, slots=True)
class GameTrace:
    """One traced game.

    Attributes:
        winners: the winning seats; ``turns``: the final turn count.
        decisions: decisions with a real choice (two or more legal moves).
        forced: decisions with a single legal move (passes included).
        options: the legal moves summed over the real choices (their mean is the branching).
        leaders: the leading seat at the start of each turn (``-1``: level), or empty when
            the leader was not measured for this game.
        chances: every seat's win chance by the estimator at the start of each turn (beside
            ``leaders``; the design report's game metrics read them), or empty.
    """

    winners: tuple[int, ...]
    turns: int
    decisions: int
    forced: int
    options: int
    leaders: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class TraceTask:
    """A block of games ``start..stop-1``: plain data, so it pickles for any worker.

    ``bots`` holds one bot name per seat; ``drama_until``: games with an index below it
    measure the leader at each turn's start.
    """

    game_id: str
    players: int
    options: dict[str, OptionValue]
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int
    drama_until: int
    max_moves: int = MAX_MOVES


def leader(chances: tuple[float, ...]) -> int:
    """The seat with the highest chance, or -1 when several share it."""
    top = max(chances)
    leaders = [seat for seat, chance in enumerate(chances) if chance >= top - TIE_EPSILON]
    return leaders[0] if len(leaders) == 1 else -1


def trace_game(game: Game[Any, Any, Any], task: TraceTask, index: int,
               estimator: Estimator | None) -> GameTrace:
    """Play game ``index`` of ``task`` and trace it (``estimator``: measure the leader).

    The game is the rollout primitive's engine loop (:func:`dicegames.core.rollout.
    play_out`) with the generators :func:`~dicegames.core.rollout.rollout` derives from
    ``game_seed(seed, index)``: the game ``simulate`` plays on the engine. A bot the kernel
    plays by a deterministic policy decides through the kernel (the same choices:
    :mod:`dicegames.core.kernel_agent`).
    """
    dice, rngs = engine_streams(game_seed(task.seed, index), game.players)
    agents = kernel_agents(game, task.bots, [bot_spec(game, name).build(game, rng)
                                             for name, rng in zip(task.bots, rngs, strict=True)])
    counts = {"decisions": 0, "forced": 0, "options": 0, "turn": 0}
    leaders: list[int] = []
    chances: list[tuple[float, ...]] = []

    def watch(state: State[Any, Any, Any]) -> None:
        node = state.node
        if node.kind is NodeKind.TERMINAL:
            return
        if estimator is not None and state.turn.number != counts["turn"]:
            counts["turn"] = state.turn.number
            chances.append(estimator.position(state).chances)
            leaders.append(leader(chances[-1]))
        if node.kind is NodeKind.DECISION:
            legal = state.legal_actions(node.players[0])
            if len(legal) == 1:
                counts["forced"] += 1
            else:
                counts["decisions"] += 1
                counts["options"] += len(legal)

    ending = play_out(game.new_state(), agents, dice, task.max_moves, watch=watch)
    if ending.capped:
        raise runaway(game, task.max_moves)
    state = ending.state
    return GameTrace(state.result.winners, state.turn.number, counts["decisions"],
                     counts["forced"], counts["options"], tuple(leaders), tuple(chances))


_GAMES: dict[tuple[str, int, tuple[tuple[str, OptionValue], ...]], Game[Any, Any, Any]] = {}


def task_game(game_id: str, players: int, options: dict[str, OptionValue]) -> Game[Any, Any, Any]:
    """The configured game of a task, built once per process."""
    key = (game_id, players, tuple(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = configure(game_id, players, options)
    return game


def trace_block(task: TraceTask) -> list[GameTrace]:
    """Play and trace the games of ``task`` (the unit of work of a report's runs)."""
    game = task_game(task.game_id, task.players, task.options)
    estimator = (estimator_for(game, DRAMA_ROLLOUTS, task.seed)
                 if task.drama_until > task.start else None)
    return [trace_game(game, task, index, estimator if index < task.drama_until else None)
            for index in range(task.start, task.stop)]
