"""Compile every registered game's bulk kernel into the on-disk cache, one process per game.

    python scripts/compile_kernels.py [--jobs N]

numba compiles a kernel the first time it runs (about half a minute of CPU per game) and
keeps the machine code in the cache folder of :mod:`dicegames.core.kernel_cache`. A test
run that starts cold would otherwise compile the same kernels in several processes at once
(each pytest-xdist worker, each test server); `make test` runs this first, so they all load
the cached code. It plays a few games with each policy the kernel offers, from the game's
default configuration and each player count, which compiles every function a playout,
a rollout or a choice calls. Without numba it does nothing and says so.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from dicegames.core import kernel
from dicegames.core.registry import definition, definitions, make


def compile_one(game_id: str) -> tuple[str, float]:
    """Play a few kernel games of ``game_id`` with every policy: the seconds it took.

    Every policy plays at the smallest and the default player count; a policy that covers
    neither (an exact solution of three or four runners, of two players only) plays at the
    smallest count it covers (its tables refuse the others with ValueError). A policy that
    covers no player count at its default options is an error."""
    began = time.perf_counter()
    spec = definition(game_id).spec
    counts = sorted({spec.min_players, spec.default_players})
    others = [n for n in range(spec.min_players, spec.max_players + 1) if n not in counts]
    kernels = {}
    for players in [*counts, *others]:
        found = kernel.kernel_for(make(game_id, players=players))
        if found is not None:
            kernels[players] = found
    if not kernels:
        return game_id, time.perf_counter() - began
    for policy in type(next(iter(kernels.values()))).policies:
        played = False
        for players, found in kernels.items():
            if played and players not in counts:
                break
            start = make(game_id, players=players).new_state()
            try:
                found.playouts(start.data, [policy] * players, 4, seed=1)
            except ValueError:  # the policy does not cover this player count
                continue
            found.rollout(found.encode(start.data), [policy] * players, seed=1)
            played = True
        if not played:
            raise ValueError(f"{game_id}: the kernel policy {policy!r} covers no player count")
    return game_id, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    """Compile the kernels of every registered game that has one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    if not kernel.HAVE_NUMBA:
        print(f"nothing to compile: {kernel.why_not_compiled()}")
        return 0
    games = [d.id for d in definitions() if d.has("kernel")]
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for game_id, seconds in pool.map(compile_one, games):
            print(f"{game_id}: {seconds:.1f} s")
    print(f"kernels compiled in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
