"""The on-disk cache of exact solutions: arrays keyed by game, options and code version.

A solver whose tables take seconds to compute (Monza's two-player race, Extra Meters' races
of three and four runners...) keeps them as one ``.npz`` file in
``$XDG_CACHE_HOME/dicegames/solutions`` (``~/.cache/dicegames/solutions``), the folder the
compiled kernels' cache sits beside (see :func:`dicegames.core.kernel_cache.cache_base`;
``NUMBA_CACHE_DIR`` moves both). The file name is a digest of the game, of whatever the
solver says its table depends on (options, a circuit or board's text) and of the solver's
own source files (:func:`code_version`), so a changed option, board or solver never reads a
stale table; storing a solution removes the game's solutions of other code versions.
Reading or writing problems are not errors: the caller computes the solution again (a
warning is logged). Nothing here knows any game: each solver names its parts.

Usage::

    name = cache_name("monza", code_version("dicegames.games.monza", ("solver.py",)),
                      "longest", repr(circuit.squares))   # monza-VERSION-DIGEST.npz
    arrays = load_arrays(name)            # dict of numpy arrays, or None
    if arrays is None:
        arrays = compute()
        store_arrays(name, arrays)
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Iterable, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from dicegames.core.files import write_bytes
from dicegames.core.kernel_cache import cache_base

log = logging.getLogger(__name__)

FOLDER = "solutions"
"""The cache's folder inside the dicegames cache folder."""


def folder() -> Path | None:
    """Where solutions are kept; None when there is no cache folder (no home folder)."""
    base = cache_base()
    return None if base is None else base[0] / FOLDER


def code_version(package: str, names: Iterable[str]) -> str:
    """A digest of the named source files of ``package`` (the solver and the modules its
    tables depend on): a new solver never reads an old table."""
    root = files(package)
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0")
        digest.update(root.joinpath(name).read_bytes())
    return digest.hexdigest()[:16]


def cache_name(game: str, version: str, *parts: str) -> str:
    """The file name of a solution: the game's id and the code version (readable, so that
    :func:`store_arrays` can prune older versions) and a digest of ``parts``."""
    digest = hashlib.sha256("\0".join((game, version, *parts)).encode())
    return f"{game}-{version}-{digest.hexdigest()[:24]}.npz"


def load_arrays(name: str) -> dict[str, Any] | None:
    """The arrays stored under ``name``, or None when there are none (or they cannot be
    read: a warning is logged and the caller computes them again)."""
    import numpy as np

    where = folder()
    if where is None:
        return None
    path = where / name
    try:
        with np.load(path, allow_pickle=False) as stored:
            return {key: stored[key] for key in stored.files}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError) as error:
        log.warning("ignoring unreadable solution %s: %s", path, error)
        return None


def store_arrays(name: str, arrays: Mapping[str, Any]) -> Path | None:
    """Write arrays under ``name`` (atomically, only ever onto a regular file); the path, or
    None when nothing was written (no cache folder, or an error: logged). Solutions of the
    same game from other code versions are removed first: no later code reads them, and
    some are hundreds of megabytes."""
    import numpy as np

    where = folder()
    if where is None:
        return None
    path = where / name
    try:
        where.mkdir(parents=True, exist_ok=True)
        _prune(where, name)
        data = io.BytesIO()
        np.savez(data, **dict(arrays))
        write_bytes(path, data.getvalue())  # atomic, and only ever onto a regular file
    except OSError as error:  # TargetError (a folder, socket... at that name) included
        log.warning("could not store the solution in %s: %s", where, error)
        return None
    return path


def _prune(where: Path, name: str) -> None:
    """Remove the regular files ``GAME-OTHERVERSION-*.npz`` beside ``name``
    (``GAME-VERSION-DIGEST.npz``); problems are ignored (another process may prune too)."""
    game, version, _ = name.rsplit("-", 2)
    for path in where.glob(f"{game}-*-*.npz"):
        if path.name.rsplit("-", 2)[0] != game or path.name.rsplit("-", 2)[1] == version:
            continue
        try:
            if path.is_file() and not path.is_symlink():
                path.unlink()
        except OSError:
            pass
