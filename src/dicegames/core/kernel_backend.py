"""The numba layer under the kernels: the backend chosen on first use, the compiling
decorators, the array allocators and the random generator's compiled steps.

:mod:`dicegames.core.kernel` re-exports every public name here; kernel code imports them
from there. Nothing here imports numba or numpy when it is imported: the backend is chosen
by the first call of :func:`njit` (or its siblings), or the first use of a name of
:data:`LAZY` (``zeros``, ``below``, ``HAVE_NUMBA``...), which happens when a kernel module is
first imported, that is when a kernel first runs. ``import dicegames`` and
``dicegames --help`` therefore load neither.

**The backend.** :func:`njit` is ``numba.njit(cache=True, nogil=True)`` when numba is
importable (the ``[fast]`` extra) and the identity otherwise, so the same kernel source runs
compiled or as plain Python. Set the environment variable ``DICEGAMES_KERNEL=python``
before ``dicegames`` is imported to force the plain path even where numba is installed (the
tests do, in a subprocess, to check that both paths give the same bits). Without numba,
arrays are plain Python lists of ints (numpy is not needed at all); with numba they are
``int64`` numpy arrays. Compiled code is cached on disk in a folder keyed on every module a
kernel imports and the versions of dicegames, numba, numpy and Python
(:mod:`dicegames.core.kernel_cache`), so no edit and no upgrade can leave a stale kernel.

**Reference counts.** numba counts references on every array a compiled function receives
(an atomic increment on entry, a decrement on exit, inlined or not) and on every array taken
out of a tuple; in a playout loop whose helpers take four or five arrays that was most of the
time; even on views with a null count (tried on 23 November) every count is still an
out-of-line call to numba's runtime, twice per array argument of every inlined helper call.
So the functions that run the loops, and the helpers they call, are compiled by
:func:`njit_uncounted`, without numba's runtime: they count nothing, and may not allocate
(an allocation there fails to compile). Allocation happens once, in the :func:`njit`
functions that call them (``playouts``, and ``work``, whose scratch arrays the driver passes
to ``run``); tables are named tuples of arrays (:mod:`dicegames.core.array_kernel`). The
option that does it (``_nrt=False``) is private to numba: the versions it is tested with
are pinned (:data:`NUMBA_TESTED`, and the ``fast`` extra in ``pyproject.toml``), and a
numba that refuses it gets plain :func:`njit` (one warning).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    IntArray: TypeAlias = npt.NDArray[np.int64] | list[int]
    FloatArray: TypeAlias = npt.NDArray[np.float64] | list[float]
    ByteArray: TypeAlias = npt.NDArray[np.uint8] | bytearray
else:  # at run time the names only label annotations: numpy may be absent
    IntArray = FloatArray = ByteArray = Any
# IntArray: a kernel array, a numpy int64 array under numba, a list of ints without it;
# FloatArray: the same of float64 (lists of floats); ByteArray: of uint8 (a bytearray).

FORCE_PYTHON = os.environ.get("DICEGAMES_KERNEL", "").strip().lower() == "python"
"""True when ``DICEGAMES_KERNEL=python`` asked for the plain-Python path."""

NUMBA_TESTED = ((0, 59), (0, 69))
"""The numba versions ``[low, high)`` the kernels are tested with (``pyproject.toml``'s
``fast`` extra pins the same range): within it, :func:`njit_uncounted`'s private option is
trusted; outside it, it is first tried on a trivial function (see :func:`_uncounted_options`)."""

# ------------------------------------------------------------------------------ the backend


@dataclass(slots=True)
class _Backend:
    """What kernels compile with, chosen once, when a kernel first needs it."""

    numba: Any = None
    """The numba module, or None on the plain-Python path."""
    numpy: Any = None
    """The numpy module, or None on the plain-Python path."""
    cache_dir: str | None = None
    """The keyed folder compiled code is kept in (:mod:`.kernel_cache`), or None: no
    on-disk cache at all."""
    uncounted: dict[str, Any] = field(default_factory=dict)
    """The extra options of :func:`njit_uncounted`: ``{"_nrt": False}``, or none at all
    when this numba refuses that private option."""

    def compile(self, fn: F, **extra: Any) -> F:
        """``fn`` compiled by numba (``nogil``, cached in :attr:`cache_dir`), with ``extra``.

        numba reads its cache folder from its global settings when a function is decorated,
        so the keyed folder is set for the decoration only, then the setting restored:
        dicegames leaves numba's settings as it found them, and nothing that changes them
        later (another library, a reload from ``NUMBA_*`` variables) can send a kernel to
        numba's default places, keyed on the kernel's file alone."""
        options = {"cache": self.cache_dir is not None, "nogil": True, **extra}
        if self.cache_dir is None:
            plain: F = self.numba.njit(**options)(fn)
            return plain
        with _loading:
            config = self.numba.config
            previous = config.CACHE_DIR
            config.CACHE_DIR = self.cache_dir
            try:
                compiled: F = self.numba.njit(**options)(fn)
            finally:
                config.CACHE_DIR = previous
        return compiled

    def refuse_uncounted(self, error: BaseException) -> None:
        """Fall back to plain :func:`njit` for :func:`njit_uncounted` (warned once)."""
        if self.uncounted:
            import logging  # here, not at import: `import dicegames` stays light

            self.uncounted = {}
            logging.getLogger("dicegames.kernel").warning(
                "numba %s refuses the private option _nrt=False (%s): the kernels' loops are "
                "compiled with plain njit (same results, slower)",
                getattr(self.numba, "__version__", "?"), error)


@dataclass(slots=True)
class _Slots:
    """Where the backend is kept."""

    loaded: _Backend | None = None
    """The backend, once loading has chosen it (its names may still be being bound)."""
    ready: _Backend | None = None
    """The backend, once its names are bound."""


_slots = _Slots()
_loading = threading.RLock()

LAZY = frozenset({"HAVE_NUMBA", "BACKEND", "zeros", "float_zeros", "copy", "array",
                   "float_array", "byte_zeros", "step_u32", "limit_of", "next_u32", "below",
                   "pick"})
"""The names bound on first use (:func:`_backend`): they depend on whether numba is there."""

if TYPE_CHECKING:
    HAVE_NUMBA: bool
    """True when kernels run compiled (numba and numpy importable, not forced off)."""
    BACKEND: str
    """The name of the path kernels run on: ``"numba"`` or ``"python"``."""


def __getattr__(name: str) -> Any:
    """The names of :data:`LAZY`, bound when first asked for (importing numba then)."""
    if name in LAZY:
        _backend()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _backend() -> _Backend:
    """The backend, loaded (and the names of :data:`LAZY` bound) on the first call.

    Thread-safe: other threads wait until the names are bound; the decorators called while
    binding (in the loading thread) get the backend being bound."""
    if _slots.ready is not None:
        return _slots.ready
    with _loading:
        if _slots.ready is not None:
            return _slots.ready
        if _slots.loaded is None:
            _slots.loaded = _load_backend()
            _bind(_slots.loaded)
            _slots.ready = _slots.loaded
        return _slots.loaded


def _load_backend() -> _Backend:
    """Import numba and numpy (unless forced off), key the on-disk cache, check the options."""
    if FORCE_PYTHON:
        return _Backend()
    try:
        import numba
        import numpy
    except ImportError:
        return _Backend()
    from dicegames.core.kernel_cache import key_the_cache

    folder = key_the_cache(numba, numpy)
    return _Backend(numba, numpy, None if folder is None else str(folder),
                    _uncounted_options(numba))


def _probe() -> int:
    """A trivial function compiled to check that numba takes :func:`njit_uncounted`'s option."""
    return 1


def _uncounted_options(numba: Any) -> dict[str, Any]:
    """``{"_nrt": False}`` when this numba takes that private option, else ``{}`` (warned).

    Within :data:`NUMBA_TESTED` the option is trusted; another version compiles
    :func:`_probe` with it first (a few tens of milliseconds), since numba checks its
    options only when it compiles."""
    wanted: dict[str, Any] = {"_nrt": False}
    found = re.match(r"(\d+)\.(\d+)", str(getattr(numba, "__version__", "")))
    if found:
        version = (int(found[1]), int(found[2]))
        if NUMBA_TESTED[0] <= version < NUMBA_TESTED[1]:
            return wanted
    backend = _Backend(numba, uncounted=wanted)
    try:
        numba.njit(**wanted)(_probe)()
    except Exception as error:  # whatever numba raises, plain njit still works
        backend.refuse_uncounted(error)
    return backend.uncounted


def _bind(backend: _Backend) -> None:
    """Bind the names of :data:`LAZY` for ``backend`` (compiled or plain Python)."""
    compiled = backend.numba is not None
    names = globals()
    names["HAVE_NUMBA"] = compiled
    names["BACKEND"] = "numba" if compiled else "python"
    if compiled:
        names["_np"] = backend.numpy
        names["_int64"] = backend.numpy.int64
        names.update(zeros=njit(_np_zeros), float_zeros=njit(_np_float_zeros),
                     copy=njit(_np_copy), array=_np_array, float_array=_np_float_array,
                     byte_zeros=_np_byte_zeros)
    else:
        names.update(zeros=_list_zeros, float_zeros=_list_float_zeros, copy=_list_copy,
                     array=_list_array, float_array=_list_float_array,
                     byte_zeros=_list_byte_zeros)
    names.update(step_u32=njit_uncounted(_step_u32), limit_of=njit_uncounted(_limit_of),
                 next_u32=njit_uncounted(_next_u32), below=njit_uncounted(_below),
                 pick=njit_uncounted(_pick))


def njit(fn: F) -> F:
    """Compile ``fn`` with ``numba.njit(cache=True, nogil=True)``, or leave it as Python.

    The first call chooses the backend (importing numba, see :func:`_backend`); kernel
    modules are imported only when a kernel is first asked for, so that is when it happens.
    """
    backend = _backend()
    if backend.numba is None:
        return fn
    return backend.compile(fn)


def njit_uncounted(fn: F) -> F:
    """:func:`njit` without numba's runtime (``_nrt=False``): no reference counting at all.

    For the functions that run the hot loops: they allocate nothing (every array comes from
    the caller, which owns it) and return no array. The helpers inlined into them
    (:func:`njit_inline`) are compiled with these flags too, so none of their array
    arguments is counted either: with the runtime on, each inlined call still costs an
    out-of-line ``NRT_incref`` and ``NRT_decref`` call per array argument (a mere null
    check for a view with no count, but a call all the same), and those calls were half of
    Petits Chevaux's playout time. Allocating inside such a function fails at compile
    time, so the rule cannot be broken silently.

    ``_nrt`` is a private numba option: a numba that refuses it (at decoration here, or
    when :func:`_uncounted_options` probes a version outside :data:`NUMBA_TESTED`) gets
    plain :func:`njit` instead, with one warning in the log: the same results, slower."""
    backend = _backend()
    if backend.numba is None:
        return fn
    if backend.uncounted:
        try:
            uncounted = backend.compile(fn, **backend.uncounted)
        except (TypeError, KeyError, ValueError) as error:  # refused at decoration
            backend.refuse_uncounted(error)
        else:
            return uncounted
    return njit(fn)


def njit_inline(fn: F) -> F:
    """:func:`njit` with numba's ``inline="always"``: for small helpers called in hot loops.

    Inlined in numba's own IR, so LLVM sees one function; the inlined body still counts
    references on its array arguments unless the function it is inlined into is compiled
    by :func:`njit_uncounted`."""
    backend = _backend()
    if backend.numba is None:
        return fn
    return backend.compile(fn, inline="always")


# ------------------------------------------------------------------------------ arrays
# Two sets of allocators, one bound to the public names by _bind: numpy's (the first three
# compiled, so kernel code can call them) and plain Python lists'.

_np: Any = None
_int64: Any = None


def _np_zeros(n: int) -> IntArray:
    """A new array of ``n`` zeros (usable inside kernel code)."""
    made: IntArray = _np.zeros(n, _int64)
    return made


def _np_float_zeros(n: int) -> FloatArray:
    """A new float64 array of ``n`` zeros (usable inside kernel code)."""
    made: FloatArray = _np.zeros(n, _np.float64)
    return made


def _np_copy(values: IntArray) -> IntArray:
    """A copy of an array (usable inside kernel code)."""
    made: IntArray = values.copy()
    return made


def _np_array(values: Sequence[int]) -> IntArray:
    """An array holding ``values`` (Python side: encoding states, seeding)."""
    made: IntArray = _np.array(values, dtype=_int64)
    return made


def _np_float_array(values: Sequence[float]) -> FloatArray:
    """A float64 array holding ``values`` (Python side: tables of chances)."""
    made: FloatArray = _np.array(values, dtype=_np.float64)
    return made


def _np_byte_zeros(n: int) -> ByteArray:
    """An array of ``n`` zero bytes (0..255 values: large decision tables)."""
    made: ByteArray = _np.zeros(n, dtype=_np.uint8)
    return made


def _list_zeros(n: int) -> IntArray:
    """A new array of ``n`` zeros (usable inside kernel code)."""
    return [0] * n


def _list_float_zeros(n: int) -> FloatArray:
    """A new float64 array of ``n`` zeros (usable inside kernel code)."""
    return [0.0] * n


def _list_copy(values: IntArray) -> IntArray:
    """A copy of an array (usable inside kernel code)."""
    return list(values)


def _list_array(values: Sequence[int]) -> IntArray:
    """An array holding ``values`` (Python side: encoding states, seeding)."""
    return [int(v) for v in values]


def _list_float_array(values: Sequence[float]) -> FloatArray:
    """A float64 array holding ``values`` (Python side: tables of chances)."""
    return [float(v) for v in values]


def _list_byte_zeros(n: int) -> ByteArray:
    """An array of ``n`` zero bytes (0..255 values: large decision tables)."""
    return bytearray(n)


def to_list(values: IntArray) -> list[int]:
    """The array's values as a list of Python ints (either path)."""
    return [int(v) for v in values]


if TYPE_CHECKING:  # the public names _bind gives them (compiled or not, the same signatures)
    zeros = _list_zeros
    float_zeros = _list_float_zeros
    copy = _list_copy
    array = _list_array
    float_array = _list_float_array
    byte_zeros = _list_byte_zeros


# ------------------------------------------------------------------------------ random

# The generator's steps, compiled by _bind with njit_uncounted under their public names
# (step_u32, limit_of, next_u32, below, pick), which their bodies call each other by.


def _step_u32(s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int, int]:
    """One xoshiro128** step on the four words as values: ``(output, s0, s1, s2, s3)``.

    The register form of :func:`next_u32`, for hot loops that keep the generator in local
    variables (load the words from the array once, store them back at the end).
    """
    x = (s1 * 5) & 0xFFFFFFFF
    x = ((x << 7) | (x >> 25)) & 0xFFFFFFFF
    result = (x * 9) & 0xFFFFFFFF
    t = (s1 << 9) & 0xFFFFFFFF
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 11) | (s3 >> 21)) & 0xFFFFFFFF
    return result, s0, s1, s2, s3


def _limit_of(n: int) -> int:
    """The rejection limit of :func:`below` for ``n``: outputs at or above it are redrawn."""
    return 4294967296 - 4294967296 % n


def _next_u32(rng: IntArray) -> int:
    """The next 32-bit output of xoshiro128** (advances ``rng`` in place)."""
    result, s0, s1, s2, s3 = step_u32(rng[0], rng[1], rng[2], rng[3])
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return int(result)


def _below(rng: IntArray, n: int) -> int:
    """An exactly uniform integer in ``[0, n)``, ``1 <= n <= 2**32``, by rejection."""
    limit = limit_of(n)
    while True:
        x = next_u32(rng)
        if x < limit:
            return int(x % n)


def _pick(rng: IntArray, weights: IntArray, total: int) -> int:
    """An index ``i`` drawn with probability ``weights[i] / total`` (integer weights)."""
    r = below(rng, total)
    for i in range(len(weights)):
        r -= weights[i]
        if r < 0:
            return i
    return len(weights) - 1


if TYPE_CHECKING:
    step_u32 = _step_u32
    limit_of = _limit_of
    next_u32 = _next_u32
    below = _below
    pick = _pick


__all__ = ["BACKEND", "FORCE_PYTHON", "HAVE_NUMBA", "LAZY", "NUMBA_TESTED", "IntArray", "array",
           "below", "byte_zeros", "copy", "float_array", "float_zeros", "limit_of", "next_u32",
           "njit", "njit_inline", "njit_uncounted", "pick", "step_u32", "to_list", "zeros"]
