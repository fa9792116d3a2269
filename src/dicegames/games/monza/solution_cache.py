"""The on-disk cache of Monza's exact solutions (:mod:`.solver`), over
:mod:`dicegames.core.solution_cache`.

A solution is one ``.npz`` file whose name is a digest of the game, the compulsion, the
circuit (every square, entry and target) and the solver's source code, so a changed circuit
or a changed solver never reads a stale table. Reading or writing problems are not errors:
the solution is then computed again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from dicegames.core import solution_cache
from dicegames.games.monza.circuit import Circuit

if TYPE_CHECKING:
    from dicegames.games.monza.solver import Solution
    from dicegames.games.monza.solver_variant import VariantSolution

SOURCES = ("solver.py", "solver_variant.py", "circuit.py", "rules.py")
"""The modules the tables depend on (their text is part of the key)."""


def code_version() -> str:
    """A digest of the solver's source: a new solver never reads an old table."""
    return solution_cache.code_version("dicegames.games.monza", SOURCES)


def key(circuit: Circuit, longest: bool, variant: bool = False) -> str:
    """The file name of a solution: game, compulsion, variant, circuit and code version."""
    return solution_cache.cache_name(
        "monza", code_version(), "longest" if longest else "greedy",
        *(("variant_last_colour",) if variant else ()),
        repr(circuit.squares), repr(circuit.entries), repr(sorted(circuit.targets)))


def load(circuit: Circuit, longest: bool) -> Solution | None:
    """The stored solution, or None when there is none (or it cannot be read)."""
    from dicegames.games.monza.solver import Solution

    stored = solution_cache.load_arrays(key(circuit, longest))
    if stored is None:
        return None
    try:
        a, b, f, sweeps = stored["a"], stored["b"], stored["f"], int(stored["sweeps"])
    except (KeyError, TypeError, ValueError):
        return None
    size = len(circuit.squares) + 1
    if a.shape != (size, size) or b.shape != (size, size):
        return None
    return Solution(circuit, longest, a, b, f, sweeps, 0.0)


def store(solution: Solution) -> Path | None:
    """Write a solution to the cache (atomically); the path, or None when not written."""
    import numpy as np

    return solution_cache.store_arrays(
        key(solution.circuit, solution.longest),
        {"a": solution.a, "b": solution.b, "f": solution.f,
         "sweeps": np.int64(solution.sweeps)})


def load_variant(circuit: Circuit, longest: bool) -> VariantSolution | None:
    """The stored solution with ``variant_last_colour``, or None (none, or unreadable)."""
    from dicegames.games.monza.solver_variant import K, VariantSolution

    stored = solution_cache.load_arrays(key(circuit, longest, variant=True))
    if stored is None:
        return None
    try:
        a, y, sweeps = stored["a"], stored["y"], int(stored["sweeps"])
    except (KeyError, TypeError, ValueError):
        return None
    size = len(circuit.squares) + 1
    if a.shape != (size, size) or y.shape != (size, size, K):
        return None
    return VariantSolution(circuit, longest, a, y, sweeps, 0.0)


def store_variant(solution: VariantSolution) -> Path | None:
    """Write a solution with the variant to the cache (atomically); the path, or None."""
    import numpy as np

    return solution_cache.store_arrays(
        key(solution.circuit, solution.longest, variant=True),
        {"a": solution.a, "y": solution.y, "sweeps": np.int64(solution.sweeps)})
