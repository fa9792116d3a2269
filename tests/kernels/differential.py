"""Differential checks shared by every kernel's tests: the engine and a kernel, step by step.

:func:`walk` plays one game on both at once with the same dice and the same decisions,
checking at every step that the kernel decodes to the engine's data, agrees on who acts, on
the legal actions (in order) and on the code mapping, and that encoding the engine's data
afresh round-trips. :func:`compare_shares` checks that win shares and mean lengths of the
kernel's own playouts and of engine games agree within their sampling noise.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from dicegames.analysis.simulate import play_one
from dicegames.bots import make_bot
from dicegames.core.chance import sample
from dicegames.core.game import Game, State
from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    GameKernel,
    seed_rng,
    to_list,
)
from dicegames.core.model import NodeKind

Chooser = Callable[[State[Any, Any, Any], int, random.Random], Hashable]
"""How the walk picks each decision (default: uniformly among the legal actions)."""


def _kind(state: State[Any, Any, Any]) -> int:
    kind = state.node.kind
    if kind is NodeKind.CHANCE:
        return KIND_CHANCE
    return KIND_TERMINAL if kind is NodeKind.TERMINAL else KIND_DECISION


def walk(game: Game[Any, Any, Any], kernel: GameKernel, rng: random.Random, *,
         chooser: Chooser | None = None,
         policies: Sequence[tuple[str, str]] = (), max_steps: int = 100_000,
         start: State[Any, Any, Any] | None = None, whole_array: bool = False) -> int:
    """Play one game on the engine and the kernel in lockstep; the steps taken.

    ``policies`` are ``(kernel policy, engine bot name)`` pairs of deterministic policies:
    at every decision each must pick the same action on both sides. ``start`` is the state
    to start from (the game's first state by default). ``whole_array``: also check the
    kernel's whole array against a fresh encoding of the engine's data at every step, for a
    kernel whose array holds nothing but what its encoding computes (rows it keeps
    incrementally, such as an occupancy, included).
    """
    state = game.new_state() if start is None else start
    values = kernel.encode(state.data)
    bots = [(name, make_bot(game, bot, random.Random(0))) for name, bot in policies]
    whims = seed_rng(0)
    for step in range(max_steps):
        assert kernel.decode(values) == state.data, f"step {step}"
        assert kernel.decode(kernel.encode(state.data)) == state.data
        if whole_array:  # what the kernel keeps incrementally, a fresh encoding computes
            assert to_list(values) == to_list(kernel.encode(state.data)), f"step {step}"
        kind = _kind(state)
        assert kernel.kind(values) == kind, f"step {step}: {state.data}"
        if kind == KIND_TERMINAL:
            return step
        if kind == KIND_CHANCE:
            outcome = sample(state.chance_outcomes(), rng)
            code = kernel.outcome_code(values, outcome)
            assert kernel.outcome_of(values, code) == outcome
            values = kernel.apply_outcome(values, code)
            state = state.apply(outcome)
            continue
        seat = state.current_players[0]
        legal = state.legal_actions(seat)
        codes = kernel.legal(values)
        assert [kernel.action_of(values, c) for c in codes] == list(legal), state.data
        for name, bot in bots:
            chosen = kernel.action_of(values, kernel.choose(values, name, whims))
            assert chosen == bot.choose(state, seat), (name, state.data)
        action = (chooser or _uniform)(state, seat, rng)
        code = kernel.action_code(values, action)
        assert kernel.action_of(values, code) == action
        values = kernel.apply_action(values, code)
        state = state.apply(action, seat)
    raise AssertionError("the walk did not end")


def half_bot(game: Game[Any, Any, Any], bot: str = "medium") -> Chooser:
    """A chooser that plays ``bot``'s move half the time and a uniformly random one
    otherwise, so that walks visit the states the bot's play reaches, and the others."""
    player = make_bot(game, bot, random.Random(0))

    def choose(state: State[Any, Any, Any], seat: int, rng: random.Random) -> Hashable:
        if rng.random() < 0.5:
            return player.choose(state, seat)
        return _uniform(state, seat, rng)

    return choose


def _uniform(state: State[Any, Any, Any], seat: int, rng: random.Random) -> Hashable:
    action: Hashable = rng.choice(state.legal_actions(seat))
    return action


def engine_games(game: Game[Any, Any, Any], bots: Sequence[str], games: int,
                 seed: int) -> tuple[list[float], float]:
    """Win shares per seat and the mean final turn of ``games`` engine games."""
    rng = random.Random(seed)
    wins = [0.0] * game.players
    turns = 0
    for _ in range(games):
        agents = [make_bot(game, bot, random.Random(rng.getrandbits(64))) for bot in bots]
        outcome = play_one(game, agents, random.Random(rng.getrandbits(64)))
        for seat in outcome.winners:
            wins[seat] += 1 / len(outcome.winners)
        turns += outcome.turns
    return [w / games for w in wins], turns / games


def kernel_games(kernel: GameKernel, policies: Sequence[str], games: int,
                 seed: int) -> tuple[list[float], float, list[int]]:
    """Win shares per seat, the mean final turn and the turns of kernel playouts."""
    result = kernel.playouts(kernel.game.new_state().data, policies, games, seed)
    players = result.players
    wins = [0.0] * players
    for g in range(games):
        winners = result.winners_of(g)
        for seat in winners:
            wins[seat] += 1 / len(winners)
    turns = [int(t) for t in result.turns]
    return [w / games for w in wins], sum(turns) / games, turns


def assert_close(kernel_share: float, kernel_n: int, engine_share: float, engine_n: int, *,
                 label: str, z: float = 4.5) -> None:
    """Two proportions agree within ``z`` standard errors of their difference."""
    pooled = (kernel_share * kernel_n + engine_share * engine_n) / (kernel_n + engine_n)
    error = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / kernel_n + 1 / engine_n))
    assert abs(kernel_share - engine_share) <= z * error, (label, kernel_share, engine_share)


def compare_shares(game: Game[Any, Any, Any], kernel: GameKernel, policies: Sequence[str],
                   bots: Sequence[str], *, kernel_n: int, engine_n: int, seed: int) -> None:
    """Win shares and mean game length agree between kernel playouts and engine games."""
    k_shares, k_turns, turns = kernel_games(kernel, policies, kernel_n, seed)
    e_shares, e_turns = engine_games(game, bots, engine_n, seed)
    for seat in range(game.players):
        assert_close(k_shares[seat], kernel_n, e_shares[seat], engine_n, label=f"seat {seat}")
    mean = sum(turns) / kernel_n
    sd = math.sqrt(sum((t - mean) ** 2 for t in turns) / (kernel_n - 1))
    error = sd * math.sqrt(1 / kernel_n + 1 / engine_n)
    assert abs(k_turns - e_turns) <= 4.5 * error, ("turns", k_turns, e_turns)
