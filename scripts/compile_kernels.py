"""Compile every registered game's bulk kernel into the on-disk cache, on a few processes.

    python scripts/compile_kernels.py [--jobs N]

numba compiles a kernel the first time it runs (half a minute to a few minutes of CPU per
game) and keeps the machine code in the cache folder of :mod:`dicegames.core.kernel_cache`.
A test run that starts cold would otherwise compile the same kernels in several processes at
once (each pytest-xdist worker, each test server); `make test` runs this first, so they all
load the cached code. For each game, in parts that run on separate processes
(:data:`PARTS`): it plays a few games, and a rollout, with each policy the kernel offers,
from the game's default configuration and each player count, which compiles every function
a playout or a rollout calls; it has each policy choose at a decision and takes one step
through the step methods (what engine bots and the differential tests call: Petits
Chevaux's choice, compiled in a test process, cost two minutes of CPU there); and it steps
the game's vectorised environment (:mod:`dicegames.envs.vector`) when it has one. Without
numba it does nothing and says so.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from dicegames.core import kernel
from dicegames.core.registry import definition, definitions, make


def first_decision(game_id: str, players: int) -> Any:
    """The engine state of the game's first decision, every chance taking its first outcome
    (None when the game ends first)."""
    state = make(game_id, players=players).new_state()
    while state.is_chance:
        state = state.apply(state.chance_outcomes()[0][0])
    return None if state.is_terminal else state


def step_by_hand(found: kernel.GameKernel, game_id: str, players: int) -> None:
    """One chance outcome and one action through the kernel's step methods (compiled where
    the kernel compiles them), as the differential tests and engine bots call them."""
    start = make(game_id, players=players).new_state()
    if start.is_chance:
        values = found.encode(start.data)
        found.apply_outcome(values, found.outcome_code(values, start.chance_outcomes()[0][0]))
    state = first_decision(game_id, players)
    if state is not None:
        values = found.encode(state.data)
        found.apply_action(values, found.legal(values)[0])


def step_the_vector(found: kernel.GameKernel, game_id: str, players: int) -> None:
    """Reset and step the game's vectorised environment once, which compiles its step (the
    policies are an argument of it: one policy compiles it for all)."""
    from dicegames.envs.vector import VectorEnv

    env = VectorEnv(game_id, 2, players, opponents=found.policies[0], seed=1)
    _, masks = env.reset()
    env.step(masks.argmax(axis=1))


PARTS = ("playouts", "rollouts", "choices", "vector")
"""What one process compiles of a game (:func:`compile_part`): whole games, rollouts,
choices and steps, the vectorised environment. Apart, so that a game whose compiled
functions each take minutes (Petits Chevaux) spreads over the processes. Playouts and
rollouts are apart too: a playout calls the game's loop from compiled code with constant
arguments, which numba types as literals, so the loop is compiled for them and again for
a rollout's plain integers (passing plain integers from the playouts compiles it once, but
cost Petits Chevaux' random playouts 6% of their speed: docs/performance.md)."""


def kernels_of(game_id: str) -> tuple[dict[int, kernel.GameKernel], list[int]]:
    """The game's kernel at each player count it has one for, and the counts every policy
    plays at (the smallest and the default)."""
    spec = definition(game_id).spec
    counts = sorted({spec.min_players, spec.default_players})
    others = [n for n in range(spec.min_players, spec.max_players + 1) if n not in counts]
    kernels = {}
    for players in [*counts, *others]:
        found = kernel.kernel_for(make(game_id, players=players))
        if found is not None:
            kernels[players] = found
    return kernels, counts


def compile_part(game_id: str, part: str) -> tuple[str, str, float]:
    """Compile one of the :data:`PARTS` of ``game_id``'s kernel: the seconds it took.

    ``playouts`` and ``rollouts``: every policy plays a few games, or a rollout, at the
    smallest and the default player count; a policy that covers neither (an exact solution
    of three or four runners, of two players only) plays at the smallest count it covers
    (its tables refuse the others with ValueError). A policy that covers no player count at
    its default options is an error. ``choices``: every policy chooses at the first decision
    of the same counts, and one chance outcome and one action go through the step methods.
    ``vector``: the vectorised environment, when the game has one, resets and steps once."""
    began = time.perf_counter()
    kernels, counts = kernels_of(game_id)
    if not kernels:
        return game_id, part, time.perf_counter() - began
    smallest = min(kernels)
    if part == "vector":
        if definition(game_id).has("vector"):
            step_the_vector(kernels[smallest], game_id, smallest)
        return game_id, part, time.perf_counter() - began
    if part == "choices":
        step_by_hand(kernels[smallest], game_id, smallest)
    for policy in type(kernels[smallest]).policies:
        played = False
        for players, found in kernels.items():
            if played and players not in counts:
                break
            start = make(game_id, players=players).new_state()
            try:
                if part == "playouts":
                    found.playouts(start.data, [policy] * players, 4, seed=1)
                elif part == "rollouts":
                    found.rollout(found.encode(start.data), [policy] * players, seed=1)
                else:
                    decision = first_decision(game_id, players)
                    if decision is not None:
                        found.choose(found.encode(decision.data), policy, kernel.seed_rng(1))
            except ValueError:  # the policy does not cover this player count
                continue
            played = True
        if not played:
            raise ValueError(f"{game_id}: the kernel policy {policy!r} covers no player count")
    return game_id, part, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    """Compile the kernels of every registered game that has one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    if not kernel.HAVE_NUMBA:
        print(f"nothing to compile: {kernel.why_not_compiled()}")
        return 0
    games = [d.id for d in definitions() if d.has("kernel")]
    units = [(game_id, part) for game_id in games for part in PARTS]
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for game_id, part, seconds in pool.map(compile_part, *zip(*units, strict=True)):
            print(f"{game_id} ({part}): {seconds:.1f} s")
    print(f"kernels compiled in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
