"""Where numba keeps the compiled kernels on disk, so that a kernel can never run stale code.

numba's on-disk cache (``cache=True``) checks only the file of the function it compiled,
by its time stamp and size. But compiled code also holds what the function read from
elsewhere: the helpers it inlined from other modules, and the *values* of the global names
it reads (numba freezes a global as a constant when it compiles). Shortcut's kernel reads
``STOP_AT`` and ``CUT_SAVING`` from ``games/shortcut/heuristics.py``; had the cache been
keyed on the kernel's own file, an edit to those constants (or an upgrade that changes them)
would leave the cached kernel playing the old rule.

So the compiled code lives in a folder named after a key (:func:`cache_key`) that covers
everything it can depend on:

- every kernel module and every module of the package a kernel imports, directly or not
  (found by reading their import statements), and the games' data files
  (``games/**/*.json``, ``games/**/*.txt``), by path and content: any edit, in any module a
  kernel reads, gives a new folder, while an edit to the web app or the terminal does not
  recompile anything (a few milliseconds of reading and hashing, once per process, when a
  kernel first runs; never at ``import dicegames``);
- but not the runtime data (:data:`RUNTIME_DATA`: learned weights, the strength tables),
  which the kernels receive as arguments when they run, never as globals frozen into the
  compiled code: writing new weights (a training run) or new strength figures must not
  recompile every kernel (Petits Chevaux alone is five minutes of CPU);
- the versions of dicegames, numba, numpy and Python, and the machine's architecture.

Without a usable folder (no home folder, nothing writable) kernels compile without an
on-disk cache rather than fall back on numba's default places, which would be keyed on the
kernel's file alone.

The folder is ``dicegames-kernels-<key>`` inside ``$NUMBA_CACHE_DIR`` when that is set, else
inside ``$XDG_CACHE_HOME/dicegames`` (``~/.cache/dicegames``). Each process that runs a kernel
touches its folder ("last used"), and :func:`prune` removes the other folders of this naming
scheme (and the ``numba-<key>`` folders of earlier releases in dicegames' own cache folder)
that are stale: all but the :data:`KEEP_OTHERS` most recently used, and any unused for
:data:`UNUSED_FOR` seconds. Pruning only ever removes real folders with exactly our names
(never a symbolic link, never anything it follows one to), and never fails the run: a folder
it cannot remove stays. A process still using a pruned folder loses nothing but time: numba
finds no cached code, compiles, and writes the folder afresh.
"""

from __future__ import annotations

import ast
import hashlib
import logging
import os
import platform
import re
import shutil
import sys
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger("dicegames.kernel")

PREFIX = "dicegames-kernels-"
"""The start of every cache folder's name; the key follows."""

KEY_LENGTH = 16
"""Hex digits of the key in a folder's name."""

OURS = re.compile(rf"{re.escape(PREFIX)}[0-9a-f]{{{KEY_LENGTH}}}\Z")
"""The names of the folders this module makes (the only ones :func:`prune` may remove)."""

LEGACY = re.compile(r"numba-[0-9a-f]{16}\Z")
"""The names of earlier releases' folders, pruned in dicegames' own cache folder only."""

KEEP_OTHERS = 2
"""Other cache folders kept (the most recently used): two installs, or a checkout and an
installed release, used in turn do not recompile each time."""

UNUSED_FOR = 24 * 3600.0
"""Seconds after which a folder no process has used is removed whatever its rank."""

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``dicegames`` package folder whose sources the key covers."""


PACKAGE_NAME = "dicegames"
"""The package's import name: absolute imports starting with it are followed."""

RUNTIME_DATA = ("strength.json", "*weights*.json")
"""Patterns (:meth:`pathlib.PurePath.match`) of the games' data files left out of the key:
data a kernel is handed at run time (learned weights go into its tables as arrays, passed
to every compiled call) or never reads (the strength tables). A kernel must never read such
a file into a module global that compiled code uses: numba would freeze the values, and a
new file would then not recompile them. Board and circuit files stay in the key."""


def is_runtime_data(path: Path) -> bool:
    """Whether ``path`` is runtime data (:data:`RUNTIME_DATA`), outside the key."""
    return any(path.match(pattern) for pattern in RUNTIME_DATA)


def package_files(package: Path = PACKAGE) -> list[Path]:
    """The files the key covers, sorted: the kernels' modules (every ``*kernel*.py``) and
    every module of the package they import, directly or not (:func:`imported_by`: a
    tuning constant in a ``heuristics.py``, the rules' data, the shared generator), and the
    games' ``*.json`` and ``*.txt`` data (board and circuit files) but the runtime data
    (:func:`is_runtime_data`: weights, strength tables).

    Modules no kernel imports (the web app, the terminal, analysis, the presenters) are
    left out, so editing them does not recompile the kernels."""
    sources = [path for path in package.rglob("*kernel*.py") if "__pycache__" not in path.parts]
    data = [*package.joinpath("games").rglob("*.json"), *package.joinpath("games").rglob("*.txt")]
    files = imported_by(sources, package) | {
        path for path in data if "__pycache__" not in path.parts and not is_runtime_data(path)}
    return sorted(files)


def imported_by(sources: Iterable[Path], package: Path) -> set[Path]:
    """``sources`` and every module of ``package`` they import, followed transitively.

    Every ``import`` statement counts, wherever it stands (in a function too), absolute
    (``dicegames.games.shortcut.heuristics``) or relative; ``from module import name``
    counts ``module`` and, when ``name`` is a submodule, that too. Modules outside the
    package (numba, numpy, the standard library) are covered by :func:`versions`.
    """
    seen: set[Path] = set()
    waiting = [path.resolve() for path in sources]
    root = package.resolve()
    while waiting:
        path = waiting.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (OSError, SyntaxError, ValueError):
            continue  # the hash of its bytes still covers it
        here = _module_parts(path, root)
        for node in ast.walk(tree):
            for name in _imported_names(node, here, path.name == "__init__.py"):
                found = _module_file(root, name)
                if found is not None and found not in seen:
                    waiting.append(found)
    return seen


def _module_parts(path: Path, root: Path) -> list[str]:
    """The dotted name of ``path`` inside the package ``root``, as parts after its name."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts and parts[-1] == "__init__" else parts


def _imported_names(node: ast.AST, here: list[str], is_package: bool) -> list[list[str]]:
    """The modules an import statement names, as parts inside the package (``[]`` being
    the package itself); names outside the package are dropped by :func:`_module_file`."""
    if isinstance(node, ast.Import):
        return [alias.name.split(".") for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = here if is_package else here[:-1]
        base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
        module = [PACKAGE_NAME, *base, *(node.module.split(".") if node.module else [])]
    else:
        module = (node.module or "").split(".")
    return [module, *([*module, alias.name] for alias in node.names)]


def _module_file(root: Path, name: list[str]) -> Path | None:
    """The file of module ``name`` (parts, starting with the package's name), or None when
    it is not a module of the package."""
    if not name or name[0] != PACKAGE_NAME:
        return None
    target = root.joinpath(*name[1:])
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if name[1:] and candidate.is_file():
            return candidate
    if not name[1:] and (root / "__init__.py").is_file():
        return root / "__init__.py"
    return None


def versions(numba: Any, numpy: Any) -> dict[str, str]:
    """What the compiled code depends on besides the sources: the libraries, Python, the
    machine."""
    package = sys.modules.get("dicegames")
    return {"dicegames": str(getattr(package, "__version__", "?")),
            "numba": str(getattr(numba, "__version__", "?")),
            "numpy": str(getattr(numpy, "__version__", "?")),
            "python": sys.version, "implementation": sys.implementation.cache_tag or "",
            "machine": platform.machine()}


def cache_key(files: Iterable[Path], package: Path, depends: Mapping[str, str]) -> str:
    """The key of a cache folder: a hash of ``files`` (their paths relative to ``package``
    and their bytes) and of ``depends`` (names and versions)."""
    digest = hashlib.sha256()
    for name in sorted(depends):
        digest.update(f"{name}={depends[name]}\0".encode())
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.relative_to(package).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:KEY_LENGTH]


def cache_base() -> tuple[Path, bool] | None:
    """The folder that holds the cache folders, and whether it is dicegames' own (where the
    earlier releases' folders are pruned too); None when there is no home folder."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen), False
    try:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    except RuntimeError:  # no home folder: no on-disk cache
        return None
    return Path(base) / "dicegames", True


def prune(base: Path, keep: str, own: bool, now: float | None = None) -> list[Path]:
    """Remove the stale cache folders in ``base`` beside ``keep`` (see the module docstring).

    Only real folders named like :data:`OURS` (and, when ``own``, like :data:`LEGACY`) are
    candidates; symbolic links, files and other names are never touched. Errors are logged
    and skipped. Returns the folders removed.
    """
    now = time.time() if now is None else now
    candidates: list[tuple[float, Path]] = []
    try:
        with os.scandir(base) as entries:
            for entry in entries:
                if entry.name == keep or not (OURS.match(entry.name) or
                                              (own and LEGACY.match(entry.name))):
                    continue
                if entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
                    continue
                candidates.append((entry.stat(follow_symlinks=False).st_mtime,
                                   Path(entry.path)))
    except OSError as error:
        log.debug("cannot list the kernel cache folder %s: %s", base, error)
        return []
    candidates.sort(reverse=True)
    removed: list[Path] = []
    for rank, (used, folder) in enumerate(candidates):
        if rank < KEEP_OTHERS and now - used < UNUSED_FOR:
            continue
        try:
            if folder.is_symlink():  # replaced by a link since it was listed
                continue
            shutil.rmtree(folder)
        except OSError as error:
            log.debug("cannot remove the stale kernel cache %s: %s", folder, error)
            continue
        removed.append(folder)
    if removed:
        log.info("removed %d stale compiled-kernel cache folder(s) in %s", len(removed), base)
    return removed


def key_the_cache(numba: Any, numpy: Any) -> Path | None:
    """The folder of the current key (made, and marked used), after pruning the stale ones.

    The caller sets it as numba's cache folder whenever it decorates a kernel function
    (numba reads the folder at decoration). Never raises. Returns None when there is no
    usable folder (no home folder, nothing writable): the caller must then compile without
    an on-disk cache, since numba's own places (beside the sources, or in ``__pycache__``)
    are keyed on the kernel's file alone and could hold stale code.
    """
    try:
        found = cache_base()
        if found is None:
            return None
        base, own = found
        key = cache_key(package_files(PACKAGE), PACKAGE, versions(numba, numpy))
        folder = base / f"{PREFIX}{key}"
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
    except OSError as error:
        log.warning("no folder for the compiled kernels' cache (%s): kernels are compiled "
                    "afresh in each process", error)
        return None
    prune(base, folder.name, own)
    return folder


__all__ = [
    "KEEP_OTHERS",
    "PREFIX",
    "RUNTIME_DATA",
    "UNUSED_FOR",
    "cache_base",
    "cache_key",
    "imported_by",
    "is_runtime_data",
    "key_the_cache",
    "package_files",
    "prune",
    "versions",
]
