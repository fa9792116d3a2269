"""Where each game's rules meet its presentation, and the old import path of the game class.

Each game folder splits the game in two: ``rules.py`` holds the pure rules class
(``ExtraMetersRules``...), which imports nothing of the folder's presentation (text, web
board) or bots, and ``game.py`` holds the class people play (``ExtraMeters``...), the rules
bound to their presentation, which the registry registers. So anything built on the rules
alone (a solver, a compiled kernel, a training script) loads without ``rich``, the web views
or the bots, and no module of a game imports in a circle.

The playable class was once defined in ``rules.py``, and code still imports it from there
(``from dicegames.games.extra_meters.rules import ExtraMeters``). :func:`forward` keeps that
path working without importing the presentation with the rules: the name is looked up in
``game.py`` on first use (a module ``__getattr__``, PEP 562).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable


def forward(module: str, source: str, *names: str) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``module`` that finds ``names`` in module ``source``.

    ``source`` is imported on the first access to one of ``names``, not before; any other
    missing attribute raises :class:`AttributeError` as usual.
    """
    wanted = frozenset(names)

    def __getattr__(name: str) -> object:  # noqa: N807  (the module hook's own name)
        if name in wanted:
            return getattr(importlib.import_module(source), name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
