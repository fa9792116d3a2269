"""Compiled bulk kernels: whole games played over integer arrays, with or without numba.

A game's kernel (``games/<game>/kernel.py``) re-states its rules over a flat integer array,
so that thousands of playouts run at compiled speed. This module is the shared layer every
kernel builds on; it imports no game.

**The numba layer** is :mod:`dicegames.core.kernel_backend`, re-exported here: :func:`njit`
is ``numba.njit(cache=True, nogil=True)`` when numba is importable (the ``[fast]`` extra) and
the identity otherwise, so the same kernel source runs compiled or as plain Python
(``DICEGAMES_KERNEL=python`` forces the plain path). Without numba, arrays are plain Python
lists of ints; with numba they are ``int64`` numpy arrays. Kernel code must therefore use
arrays only through indexing, ``len`` and the allocators here (:func:`zeros`,
:func:`float_zeros`, :func:`copy` inside kernels; :func:`array`, :func:`float_array`,
:func:`byte_zeros`, :func:`to_list` on the Python side), never numpy functions.

**Reference counts**: the loops are compiled by :func:`njit_uncounted`, without numba's
runtime (see :mod:`dicegames.core.kernel_backend` for why and how).

**Nothing heavy at import.** numba and numpy are imported when a kernel first runs, not by
``import dicegames``: the names that depend on the backend (:data:`HAVE_NUMBA`,
:data:`BACKEND`, the allocators and the generator's steps) are bound on first use (a module
``__getattr__``), and kernel modules, whose decorators choose the backend, are imported only
when a kernel is asked for. So no module that ``import dicegames`` loads may decorate a
function with :func:`njit` (or its siblings) at import, nor import those names: compiled
helpers shared by several kernels belong in a module only kernels import (as
``core/array_kernel.py``); ``tests/test_import_cost.py`` holds that.

**No stale kernels.** Compiled code is cached on disk in a folder keyed on every module a
kernel imports and the library versions (:mod:`dicegames.core.kernel_cache`): numba freezes the
global values a kernel reads (a tuning constant in a game's ``heuristics.py``, say) into its
compiled code, so a key over the kernel files alone could run a stale rule after an edit or
an upgrade; the key follows the kernels' imports, so an edit elsewhere (the web app) does not
recompile them. A kernel may therefore read its tuning values from the one module that defines
them.

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

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from dicegames.core import kernel_backend as _backend_module
from dicegames.core.kernel_backend import (
    FORCE_PYTHON,
    NUMBA_TESTED,
    ByteArray,
    FloatArray,
    IntArray,
    njit,
    njit_inline,
    njit_uncounted,
    to_list,
)

if TYPE_CHECKING:  # bound on first use (see _bind_backend), with these types
    from dicegames.core.kernel_backend import (
        BACKEND,
        HAVE_NUMBA,
        array,
        below,
        byte_zeros,
        copy,
        float_array,
        float_zeros,
        limit_of,
        next_u32,
        pick,
        step_u32,
        zeros,
    )

MASK32 = 0xFFFFFFFF
"""Every random-generator operation is masked to 32 bits."""

RNG_WORDS = 4
"""The generator's state: four 32-bit words."""

_MASK64 = (1 << 64) - 1


def _bind_backend() -> None:
    """Bind the backend's names of :data:`.kernel_backend.LAZY` here (importing numba, when
    installed, on the first call)."""
    names = globals()
    if "BACKEND" not in names:
        names.update({name: getattr(_backend_module, name) for name in _backend_module.LAZY})


def __getattr__(name: str) -> Any:
    """The backend's names (``zeros``, ``below``, ``HAVE_NUMBA``...), bound on first use."""
    if name in _backend_module.LAZY:
        _bind_backend()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def why_not_compiled() -> str:
    """One phrase saying why kernels run as plain Python (empty when they are compiled)."""
    _bind_backend()
    if HAVE_NUMBA:
        return ""
    if FORCE_PYTHON:
        return "DICEGAMES_KERNEL=python"
    return "numba is not installed: pip install 'dicegames[fast]'"


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
    _bind_backend()
    return array(seed_words(seed))


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

    deterministic: ClassVar[frozenset[str]] = frozenset()
    """Policies that draw nothing from their generator, so that the kernel's choice is the
    engine bot's in every state (:mod:`dicegames.core.kernel_agent` lets the kernel take an
    engine game's decisions for them)."""

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


__all__ = [
    "BACKEND",
    "FORCE_PYTHON",
    "HAVE_NUMBA",
    "KIND_CHANCE",
    "KIND_DECISION",
    "KIND_TERMINAL",
    "MASK32",
    "NUMBA_TESTED",
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
    "limit_of",
    "next_u32",
    "njit",
    "njit_inline",
    "njit_uncounted",
    "pick",
    "seed_rng",
    "seed_words",
    "step_u32",
    "to_list",
    "why_not_compiled",
    "zeros",
]
