"""Compiled bulk kernels: whole games played over integer arrays, with or without numba.

A game's kernel (``games/<game>/kernel.py``) re-states its rules over a flat integer array,
so that thousands of playouts run at compiled speed. This module is the shared layer every
kernel builds on; it imports no game.

**The numba layer.** :func:`njit` is ``numba.njit(cache=True, nogil=True)`` when numba is
importable (the ``[fast]`` extra) and the identity otherwise, so the same kernel source runs
compiled or as plain Python. Set the environment variable ``DICEGAMES_KERNEL=python`` before
``dicegames`` is imported to force the plain path even where numba is installed (the tests do,
in a subprocess, to check that both paths give the same bits). Without numba, arrays are
plain Python lists of ints (numpy is not needed at all); with numba they are ``int64`` numpy
arrays. Kernel code must therefore use arrays only through indexing, ``len`` and the
allocators here (:func:`zeros`, :func:`float_zeros`, :func:`copy` inside kernels; :func:`array`,
:func:`float_array`, :func:`byte_zeros`, :func:`to_list` on the Python side), never numpy
functions. Compiled code is cached on disk in a folder named after a hash of all the kernel
sources (see :func:`_key_the_cache`), so an edit to any of them recompiles.

**Reference counts.** numba counts references on every array a compiled function receives
(an atomic increment on entry, a decrement on exit, inlined or not) and on every array taken
out of a tuple; in a playout loop whose helpers take four or five arrays that was most of the
time; even on views with a null count (tried on 23 November) every count is still an
out-of-line call to numba's runtime, twice per array argument of every inlined helper call.
So the functions that run the loops, and the helpers they call, are compiled by
:func:`njit_uncounted`, without numba's runtime: they count nothing, and may not allocate
(an allocation there fails to compile). Allocation happens once, in the :func:`njit`
functions that call them (``playouts``, and ``work``, whose scratch arrays the driver passes
to ``run``); tables are named tuples of arrays (see :mod:`dicegames.core.array_kernel`).

Values stay far below 2**62 everywhere, so numba's wrapping ``int64`` and Python's big ints
agree bit for bit; the random generator masks every operation to 32 bits for that reason.

**The random generator** (the only one kernels may use), identical in both paths:

- xoshiro128** (Blackman and Vigna) over four 32-bit words kept in an ``int64`` array of
  length 4 (:data:`RNG_WORDS`): ``result = rotl(s1 * 5, 7) * 9``; ``t = s1 << 9``;
  ``s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)``, every value masked
  to 32 bits (:func:`next_u32`);
- seeded by :func:`seed_rng` from any Python integer: the seed is reduced modulo 2**64 and
  fed to splitmix64 (``x += 0x9E3779B97F4A7C15``; ``z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9``;
  ``z = (z ^ z >> 27) * 0x94D049BB133111EB``; ``z ^ z >> 31``, all modulo 2**64); two
  outputs give the four words (low half first). Seeding runs in Python only;
- :func:`step_u32` is the same step on four values (for hot loops that keep the words in
  local variables; :func:`limit_of` gives :func:`below`'s rejection limit);
- :func:`below` ``(rng, n)``: an exactly uniform integer in ``[0, n)`` for ``1 <= n <= 2**32``
  by rejection: draw ``x = next_u32``; accept when ``x < 2**32 - 2**32 % n`` and return
  ``x % n`` (no modulo bias, unlike C's ``rand() % 6``);
- :func:`pick` ``(rng, weights, total)``: an index drawn with probability
  ``weights[i] / total`` for non-negative integer weights summing to ``total``: ``r =
  below(rng, total)``, then the first index whose running sum exceeds ``r``. Any exact
  Fraction distribution becomes integer weights over a common denominator.

**The kernel protocol** is :class:`GameKernel`; games declare theirs as the ``kernel`` part
of their definition (:mod:`dicegames.core.definition`, a ``"module:Class"`` reference
imported on first use, so ``import dicegames`` never compiles anything), and the simulator
and bots find it with :func:`kernel_for`.
"""

from __future__ import annotations

import hashlib
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, TypeVar

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

MASK32 = 0xFFFFFFFF
"""Every random-generator operation is masked to 32 bits."""

RNG_WORDS = 4
"""The generator's state: four 32-bit words."""

_MASK64 = (1 << 64) - 1

FORCE_PYTHON = os.environ.get("DICEGAMES_KERNEL", "").strip().lower() == "python"
"""True when ``DICEGAMES_KERNEL=python`` asked for the plain-Python path."""


def _load_numba() -> tuple[bool, Any, Any]:
    if FORCE_PYTHON:
        return False, None, None
    try:
        import numba
        import numpy
    except ImportError:
        return False, None, None
    _key_the_cache(numba)
    return True, numba, numpy


def _key_the_cache(numba: Any) -> None:
    """Keep compiled kernels in a cache folder named after the kernels' own sources.

    numba's on-disk cache (``cache=True``) is invalidated only by a change to the file of the
    function it compiled, not by a change to a helper it inlined from another file (this
    module's generator, for one): an edited helper would silently run stale machine code.
    Naming the folder after a hash of every kernel source (this module, the array-kernel
    base and each game's ``kernel*.py``) makes any edit start a fresh cache. An explicit
    ``NUMBA_CACHE_DIR`` is left alone; an unwritable folder makes numba fall back to its
    usual places.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    package = Path(__file__).resolve().parent.parent
    sources = sorted([*package.joinpath("core").glob("*kernel.py"),
                      *package.joinpath("games").glob("*/kernel*.py")])
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    try:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    except RuntimeError:  # no home folder: numba's own places
        return
    numba.config.CACHE_DIR = os.path.join(base, "dicegames", "numba-" + digest.hexdigest()[:16])


HAVE_NUMBA, _numba, _np = _load_numba()
"""True when kernels run compiled (numba and numpy importable, not forced off)."""

BACKEND = "numba" if HAVE_NUMBA else "python"
"""The name of the path kernels run on: ``"numba"`` or ``"python"``."""


def njit(fn: F) -> F:
    """Compile ``fn`` with ``numba.njit(cache=True, nogil=True)``, or leave it as Python."""
    if HAVE_NUMBA:
        compiled: F = _numba.njit(cache=True, nogil=True)(fn)
        return compiled
    return fn


def njit_uncounted(fn: F) -> F:
    """:func:`njit` without numba's runtime (``_nrt=False``): no reference counting at all.

    For the functions that run the hot loops: they allocate nothing (every array comes from
    the caller, which owns it) and return no array. The helpers inlined into them
    (:func:`njit_inline`) are compiled with these flags too, so none of their array
    arguments is counted either: with the runtime on, each inlined call still costs an
    out-of-line ``NRT_incref`` and ``NRT_decref`` call per array argument (a mere null
    check for a view with no count, but a call all the same), and those calls were half of
    Petits Chevaux's playout time. Allocating inside such a function fails at compile
    time, so the rule cannot be broken silently."""
    if HAVE_NUMBA:
        compiled: F = _numba.njit(cache=True, nogil=True, _nrt=False)(fn)
        return compiled
    return fn


def njit_inline(fn: F) -> F:
    """:func:`njit` with numba's ``inline="always"``: for small helpers called in hot loops.

    Inlined in numba's own IR, so LLVM sees one function; the inlined body still counts
    references on its array arguments unless the function it is inlined into is compiled
    by :func:`njit_uncounted`."""
    if HAVE_NUMBA:
        compiled: F = _numba.njit(cache=True, nogil=True, inline="always")(fn)
        return compiled
    return fn


def why_not_compiled() -> str:
    """One phrase saying why kernels run as plain Python (empty when they are compiled)."""
    if HAVE_NUMBA:
        return ""
    if FORCE_PYTHON:
        return "DICEGAMES_KERNEL=python"
    return "numba is not installed: pip install 'dicegames[fast]'"


# ------------------------------------------------------------------------------ arrays

if HAVE_NUMBA:
    _int64 = _np.int64

    @njit
    def zeros(n: int) -> IntArray:
        """A new array of ``n`` zeros (usable inside kernel code)."""
        made: IntArray = _np.zeros(n, _int64)
        return made

    @njit
    def float_zeros(n: int) -> FloatArray:
        """A new float64 array of ``n`` zeros (usable inside kernel code)."""
        made: FloatArray = _np.zeros(n, _np.float64)
        return made

    @njit
    def copy(values: IntArray) -> IntArray:
        """A copy of an array (usable inside kernel code)."""
        made: IntArray = values.copy()
        return made

    def array(values: Sequence[int]) -> IntArray:
        """An array holding ``values`` (Python side: encoding states, seeding)."""
        made: IntArray = _np.array(values, dtype=_int64)
        return made

    def float_array(values: Sequence[float]) -> FloatArray:
        """A float64 array holding ``values`` (Python side: tables of chances)."""
        made: FloatArray = _np.array(values, dtype=_np.float64)
        return made

    def byte_zeros(n: int) -> ByteArray:
        """An array of ``n`` zero bytes (0..255 values: large decision tables)."""
        made: ByteArray = _np.zeros(n, dtype=_np.uint8)
        return made

    def to_list(values: IntArray) -> list[int]:
        """The array's values as a list of Python ints."""
        return [int(v) for v in values]

else:

    def zeros(n: int) -> IntArray:
        """A new array of ``n`` zeros (usable inside kernel code)."""
        return [0] * n

    def float_zeros(n: int) -> FloatArray:
        """A new float64 array of ``n`` zeros (usable inside kernel code)."""
        return [0.0] * n

    def copy(values: IntArray) -> IntArray:
        """A copy of an array (usable inside kernel code)."""
        return list(values)

    def array(values: Sequence[int]) -> IntArray:
        """An array holding ``values`` (Python side: encoding states, seeding)."""
        return [int(v) for v in values]

    def float_array(values: Sequence[float]) -> FloatArray:
        """A float64 array holding ``values`` (Python side: tables of chances)."""
        return [float(v) for v in values]

    def byte_zeros(n: int) -> ByteArray:
        """An array of ``n`` zero bytes (0..255 values: large decision tables)."""
        return bytearray(n)

    def to_list(values: IntArray) -> list[int]:
        """The array's values as a list of Python ints."""
        return [int(v) for v in values]


# ------------------------------------------------------------------------------ random


def _splitmix64(x: int) -> tuple[int, int]:
    """One splitmix64 step: the new counter and the output, modulo 2**64."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x, z ^ (z >> 31)


def seed_words(seed: int) -> list[int]:
    """The generator's four 32-bit words for ``seed`` (see the module docstring)."""
    x = seed & _MASK64
    words: list[int] = []
    for _ in range(2):
        x, z = _splitmix64(x)
        words += [z & MASK32, z >> 32]
    if not any(words):  # xoshiro's one forbidden state; splitmix64 never yields it in practice
        words[0] = 1
    return words


def seed_rng(seed: int) -> IntArray:
    """A fresh generator state (an array of :data:`RNG_WORDS` words) seeded from ``seed``."""
    return array(seed_words(seed))


@njit_uncounted
def step_u32(s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int, int]:
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


@njit_uncounted
def limit_of(n: int) -> int:
    """The rejection limit of :func:`below` for ``n``: outputs at or above it are redrawn."""
    return 4294967296 - 4294967296 % n


@njit_uncounted
def next_u32(rng: IntArray) -> int:
    """The next 32-bit output of xoshiro128** (advances ``rng`` in place)."""
    result, s0, s1, s2, s3 = step_u32(rng[0], rng[1], rng[2], rng[3])
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return int(result)


@njit_uncounted
def below(rng: IntArray, n: int) -> int:
    """An exactly uniform integer in ``[0, n)``, ``1 <= n <= 2**32``, by rejection."""
    limit = limit_of(n)
    while True:
        x = next_u32(rng)
        if x < limit:
            return int(x % n)


@njit_uncounted
def pick(rng: IntArray, weights: IntArray, total: int) -> int:
    """An index ``i`` drawn with probability ``weights[i] / total`` (integer weights)."""
    r = below(rng, total)
    for i in range(len(weights)):
        r -= weights[i]
        if r < 0:
            return i
    return len(weights) - 1


# ------------------------------------------------------------------------------ protocol

KIND_CHANCE = 0
KIND_DECISION = 1
KIND_TERMINAL = 2
"""What :meth:`GameKernel.kind` answers: who acts next in a kernel state."""


@dataclass(frozen=True, slots=True)
class Playouts:
    """What :meth:`GameKernel.playouts` returns: one row per game, seats in seat order.

    The fields are kernel arrays (numpy under numba, lists otherwise); aggregate them in
    chunks rather than keeping millions of games at once.

    Attributes:
        players: seats per game.
        winners: ``games * players`` flags, row-major: 1 where the seat won game ``g``
            (several 1s for a shared win, none when nobody won).
        scores: ``games * players`` scores, the engine's ``Result.scores`` of each game.
        turns: the final turn count of each game (``state.turn.number`` at the end).
        moves: rolls and decisions applied in each game (passes included).
    """

    players: int
    winners: IntArray
    scores: IntArray
    turns: IntArray
    moves: IntArray

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.turns)

    def winners_of(self, game: int) -> tuple[int, ...]:
        """The winning seats of game ``game``."""
        base = game * self.players
        return tuple(seat for seat in range(self.players) if self.winners[base + seat])


class GameKernel(ABC):
    """One configured game's rules over an integer array (see ``games/<game>/kernel.py``).

    A kernel is built for one configured game (``kernel_for(game)``); it is ``None`` there when
    the options or the player count are outside what the kernel does. The step methods below
    exist for differential tests and for bots that walk a few steps themselves; the bulk work is
    :meth:`playouts`. Codes: an action or chance outcome is one small non-negative int in the
    kernel; :meth:`action_code` / :meth:`action_of` and :meth:`outcome_code` /
    :meth:`outcome_of` map it to and from the engine's values (documented per game).
    """

    game_id: ClassVar[str]
    """The id of the game this kernel plays."""

    policies: ClassVar[tuple[str, ...]]
    """The policies the kernel plays, named as the game's bot levels (``"random"`` is the
    generic random bot; e.g. ``"easy"``, ``"medium"``)."""

    bot_names: ClassVar[dict[str, str]] = {}
    """Bot level names that play exactly like a kernel policy: ``{"easy": "random", ...}``."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @classmethod
    @abstractmethod
    def supports(cls, game: Any) -> bool:
        """True when this kernel plays ``game`` (its options and player count)."""

    def policy_of(self, bot: str) -> str | None:
        """The kernel policy that plays exactly like the bot named ``bot``, if any."""
        if bot in self.policies:
            return bot
        return self.bot_names.get(bot)

    # ---------------------------------------------------------------- states

    @abstractmethod
    def encode(self, data: Any) -> IntArray:
        """The kernel array of the engine data ``data`` (any reachable state)."""

    @abstractmethod
    def decode(self, values: IntArray) -> Any:
        """The engine data of a kernel array (the inverse of :meth:`encode`)."""

    # ---------------------------------------------------------------- steps

    @abstractmethod
    def kind(self, values: IntArray) -> int:
        """:data:`KIND_CHANCE`, :data:`KIND_DECISION` or :data:`KIND_TERMINAL`."""

    @abstractmethod
    def outcome_code(self, values: IntArray, outcome: Hashable) -> int:
        """The kernel code of the engine chance outcome ``outcome`` in this state."""

    @abstractmethod
    def outcome_of(self, values: IntArray, code: int) -> Hashable:
        """The engine chance outcome of kernel code ``code`` in this state."""

    @abstractmethod
    def action_code(self, values: IntArray, action: Hashable) -> int:
        """The kernel code of the engine action ``action`` in this state."""

    @abstractmethod
    def action_of(self, values: IntArray, code: int) -> Hashable:
        """The engine action of kernel code ``code`` in this state."""

    @abstractmethod
    def apply_outcome(self, values: IntArray, code: int) -> IntArray:
        """A new array: the state after chance outcome ``code`` (``values`` is unchanged)."""

    @abstractmethod
    def legal(self, values: IntArray) -> list[int]:
        """The codes of the legal actions of the deciding seat, in the engine's order."""

    @abstractmethod
    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """A new array: the state after the deciding seat plays action ``code``."""

    @abstractmethod
    def choose(self, values: IntArray, policy: str, rng: IntArray) -> int:
        """The action code ``policy`` picks at this decision (drawing from ``rng``)."""

    # ---------------------------------------------------------------- bulk

    @abstractmethod
    def playouts(self, data: Any, seat_policies: Sequence[str], games: int,
                 seed: int) -> Playouts:
        """Play ``games`` whole games from engine data ``data`` with one policy per seat.

        The dice draw from one generator seeded with ``seed`` and the random policies from
        one seeded with ``~seed``, game after game, so the same arguments give the same
        :class:`Playouts` on either path.

        Raises:
            ValueError: an unknown policy name, or the wrong number of them.
        """

    @abstractmethod
    def rollout(self, values: IntArray, seat_policies: Sequence[str], seed: int,
                stop_seat: int = -1, stop_turns: int = 0) -> IntArray:
        """Play on from kernel array ``values`` (unchanged) and return the array reached.

        Play stops when the game ends or, when ``stop_seat >= 0``, when that seat begins its
        ``stop_turns + 1``-th new turn (a state whose turn is the seat's with a turn number
        other than the one at the start): :class:`~dicegames.bots.rollout.RolloutBot`'s
        horizon. Dice draw from a generator seeded with ``seed``, the random policies from
        one seeded with ``~seed``, so the dice do not depend on the policies' draws.
        """

    def check_policies(self, seat_policies: Sequence[str]) -> list[int]:
        """The index in :attr:`policies` of each seat's policy (checked)."""
        if len(seat_policies) != self.game.players:
            raise ValueError(f"{len(seat_policies)} policies for {self.game.players} seats")
        codes: list[int] = []
        for name in seat_policies:
            if name not in self.policies:
                raise ValueError(f"unknown kernel policy {name!r}; known: "
                                 f"{', '.join(self.policies)}")
            codes.append(self.policies.index(name))
        return codes


# ------------------------------------------------------------------------------ registry

def kernel_class(game_id: str) -> type[GameKernel] | None:
    """The kernel class declared by the definition of ``game_id`` (imported on first use),
    or None when the game has no kernel or is not registered."""
    from dicegames.core.errors import UnknownGame
    from dicegames.core.registry import definition

    try:
        found: type[GameKernel] | None = definition(game_id).part("kernel")
    except UnknownGame:
        return None
    return found


def kernel_for(game: Any) -> GameKernel | None:
    """The kernel of configured ``game``, or None when it has none for these options."""
    cls = kernel_class(game.spec.id)
    if cls is None or not cls.supports(game):
        return None
    return cls(game)


@lru_cache(maxsize=64)
def kernel_playing(game: Any, policies: tuple[str, ...]) -> GameKernel | None:
    """The kernel of ``game`` when it plays every one of ``policies`` (cached), else None."""
    found = kernel_for(game)
    if found is None or not all(name in found.policies for name in policies):
        return None
    return found


__all__ = [
    "BACKEND",
    "HAVE_NUMBA",
    "KIND_CHANCE",
    "KIND_DECISION",
    "KIND_TERMINAL",
    "MASK32",
    "RNG_WORDS",
    "ByteArray",
    "FloatArray",
    "GameKernel",
    "IntArray",
    "Playouts",
    "array",
    "below",
    "byte_zeros",
    "copy",
    "float_array",
    "float_zeros",
    "kernel_class",
    "kernel_for",
    "kernel_playing",
    "limit_of",
    "next_u32",
    "njit",
    "njit_inline",
    "pick",
    "seed_rng",
    "seed_words",
    "step_u32",
    "to_list",
    "why_not_compiled",
    "zeros",
]
