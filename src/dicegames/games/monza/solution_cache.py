"""The on-disk cache of Monza's exact solutions (:mod:`.solver`).

A solution is stored as one ``.npz`` file in ``$XDG_CACHE_HOME/dicegames/solutions``
(``~/.cache/dicegames/solutions``), the folder the compiled kernels' cache sits beside (see
:func:`dicegames.core.kernel_cache.cache_base`; ``NUMBA_CACHE_DIR`` moves both). The file
name is a digest of the game, the compulsion, the circuit (every square, entry and target)
and the solver's source code, so a changed circuit or a changed solver never reads a stale
table. Reading or writing problems are not errors: the solution is then computed again.
"""

from __future__ import annotations

import hashlib
import io
import logging
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from dicegames.core.files import write_bytes
from dicegames.core.kernel_cache import cache_base
from dicegames.games.monza.circuit import Circuit

if TYPE_CHECKING:
    from dicegames.games.monza.solver import Solution

log = logging.getLogger(__name__)

FOLDER = "solutions"
"""The cache's folder inside the dicegames cache folder."""


def folder() -> Path | None:
    """Where solutions are kept; None when there is no cache folder (no home folder)."""
    base = cache_base()
    return None if base is None else base[0] / FOLDER


def code_version() -> str:
    """A digest of the solver's source: a new solver never reads an old table."""
    package = files("dicegames.games.monza")
    digest = hashlib.sha256()
    for name in ("solver.py", "circuit.py", "rules.py"):
        digest.update(package.joinpath(name).read_bytes())
    return digest.hexdigest()[:16]


def key(circuit: Circuit, longest: bool) -> str:
    """The file name of a solution: game, compulsion, circuit and code version."""
    digest = hashlib.sha256()
    parts = ["monza", "longest" if longest else "greedy", code_version(),
             repr(circuit.squares), repr(circuit.entries), repr(sorted(circuit.targets))]
    digest.update("\0".join(parts).encode())
    return f"monza-{digest.hexdigest()[:24]}.npz"


def load(circuit: Circuit, longest: bool) -> Solution | None:
    """The stored solution, or None when there is none (or it cannot be read)."""
    import numpy as np

    from dicegames.games.monza.solver import Solution

    where = folder()
    if where is None:
        return None
    path = where / key(circuit, longest)
    try:
        with np.load(path) as stored:
            a, b, f = stored["a"], stored["b"], stored["f"]
            sweeps = int(stored["sweeps"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError) as error:
        log.warning("ignoring unreadable Monza solution %s: %s", path, error)
        return None
    size = len(circuit.squares) + 1
    if a.shape != (size, size) or b.shape != (size, size):
        return None
    return Solution(circuit, longest, a, b, f, sweeps, 0.0)


def store(solution: Solution) -> Path | None:
    """Write a solution to the cache (atomically); the path, or None when not written."""
    import numpy as np

    where = folder()
    if where is None:
        return None
    path = where / key(solution.circuit, solution.longest)
    try:
        where.mkdir(parents=True, exist_ok=True)
        data = io.BytesIO()
        np.savez(data, a=solution.a, b=solution.b, f=solution.f,
                 sweeps=np.int64(solution.sweeps))
        write_bytes(path, data.getvalue())  # atomic, and only ever onto a regular file
    except OSError as error:  # TargetError (a folder, socket... at that name) included
        log.warning("could not store the Monza solution in %s: %s", where, error)
        return None
    return path
