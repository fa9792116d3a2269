"""One game, one definition: the rules and every optional part, declared once.

A :class:`GameDefinition` is what a game folder hands the registry (boardgame.io's game
objects play the same part): the pure rules class, required, and the optional parts that
front ends, bots, kernels, learning environments and analysis look up by name. Each optional
part is either the object itself or a lazy reference ``"package.module:attribute"``, imported
the first time someone asks (:meth:`GameDefinition.part`), so ``import dicegames`` loads no
presentation, numba, numpy or learning library.

The parts (each may be absent; who reads it):

========== ============================================================= ====================
part       what it is                                                    read by
========== ============================================================= ====================
presenter  a :class:`~dicegames.core.presenter.Presenter` subclass       terminal, web, logs
bots       ``game -> tuple[BotLevel, ...]``: the game's own bot levels   :mod:`dicegames.bots`
kernel     a :class:`~dicegames.core.kernel.GameKernel` class            bulk simulations
encoder    ``game -> Encoder`` (:mod:`dicegames.envs.encoding`)          :mod:`dicegames.envs`
estimator  ``game -> Estimator | None``: exact or model win chances      analysis, reviews
           (:mod:`dicegames.core.estimates`); None for a configuration
           it does not cover
solver     ``game -> dict | None``: the solved strategy's chart data     the design report
vector     a :class:`~dicegames.envs.vector.VectorGame` class: N games   :mod:`dicegames.envs
           stepped in one compiled call, the encoder's vectors             .vector`
solution   ``game -> dict | None``: the exact solution's arrays (value   ``dicegames solve``
           and policy tables, numpy) and a one-line ``summary``
exact      ``game -> dict | None``: each level's exact win chance        the strength tables
           against ``optimal`` (:data:`dicegames.strength.Exact`);       (:mod:`dicegames
           None for a configuration no solution covers                     .strength`)
========== ============================================================= ====================

and the flag ``simultaneous`` (several seats decide on one roll, as in EXTRA!).
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicegames.core.game import Game
from dicegames.core.model import GameSpec

PARTS = ("presenter", "bots", "kernel", "encoder", "estimator", "solver", "vector",
         "solution", "exact")
"""The names of a definition's optional parts."""


def load_reference(reference: str) -> Any:
    """The object a ``"package.module:attribute"`` reference names (imported now).

    Raises:
        ValueError: the reference has no ``:attribute``.
        ImportError, AttributeError: the module or attribute does not exist.
    """
    module, colon, name = reference.partition(":")
    if not colon or not module or not name:
        raise ValueError(f"{reference!r} is not a 'package.module:attribute' reference")
    found = importlib.import_module(module)
    for step in name.split("."):
        found = getattr(found, step)
    return found


@dataclass(frozen=True, eq=False)
class GameDefinition:
    """A game as the registry knows it: its rules and its optional parts.

    Attributes:
        rules: the pure rules class (a :class:`~dicegames.core.game.Game` subclass).
        presenter, bots, kernel, encoder, estimator, solver, vector, solution, exact: the
            optional parts
            (see the module docstring), each the object or a ``"module:attribute"`` text.
        simultaneous: True when several seats decide on one roll (EXTRA!'s shared roll):
            the OpenSpiel adapter then plays such nodes as simultaneous moves.
        folder: the game's package folder (its ``rules.md``, ``board.js``, catalogue);
            by default the folder of the module that defines ``rules``.
    """

    rules: type[Game[Any, Any, Any]]
    presenter: object = None
    bots: object = None
    kernel: object = None
    encoder: object = None
    estimator: object = None
    solver: object = None
    vector: object = None
    solution: object = None
    exact: object = None
    simultaneous: bool = False
    folder: Path | None = None
    _loaded: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rules, type) and issubclass(self.rules, Game)):
            raise TypeError(f"a definition's rules must be a Game subclass, not {self.rules!r}")
        if self.folder is None:
            module = sys.modules[self.rules.__module__]
            where = getattr(module, "__file__", None)
            object.__setattr__(self, "folder", Path(where).parent if where else Path.cwd())

    @property
    def spec(self) -> GameSpec:
        """The game's frozen spec (its id, name, player counts, options): ``rules.spec``."""
        return self.rules.spec

    @property
    def id(self) -> str:
        """The game's registry id (``spec.id``)."""
        return self.rules.spec.id

    @property
    def path(self) -> Path:
        """:attr:`folder`, typed as always set."""
        assert self.folder is not None
        return self.folder

    def has(self, name: str) -> bool:
        """True when the game declares part ``name`` (without importing it)."""
        _check(name)
        return getattr(self, name) is not None

    def part(self, name: str) -> Any:
        """Part ``name`` (one of :data:`PARTS`), imported on first use; None when absent."""
        _check(name)
        if name in self._loaded:
            return self._loaded[name]
        value = getattr(self, name)
        if isinstance(value, str):
            value = load_reference(value)
        self._loaded[name] = value
        return value

    def declared(self) -> tuple[str, ...]:
        """The names of the optional parts this game declares, in :data:`PARTS` order."""
        return tuple(name for name in PARTS if getattr(self, name) is not None)

    def __repr__(self) -> str:
        parts = ", ".join(self.declared())
        flags = ", simultaneous" if self.simultaneous else ""
        return f"<GameDefinition {self.id} ({parts or 'rules only'}{flags})>"


def _check(name: str) -> None:
    if name not in PARTS:
        raise KeyError(f"{name!r} is not a definition part; the parts are: {', '.join(PARTS)}")


__all__ = ["PARTS", "GameDefinition", "load_reference"]
