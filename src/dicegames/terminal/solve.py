"""``dicegames solve``: write a solved game's exact value and policy tables to an npz file.

The tables come from the ``solution`` part of the game's definition (for Extra Meters,
``games/extra_meters/export.py``, whose docstring and docs/rl.md give the layout); a game or
configuration without one is refused with the list of games that have one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dicegames.core import registry
from dicegames.core.errors import OptionError
from dicegames.terminal.console import ExitCode, Terminal
from dicegames.terminal.seats import parse_options


@dataclass(frozen=True, slots=True)
class SolveRequest:
    """What ``dicegames solve`` was asked: the game, its player count and options, the file."""

    game: str
    players: int | None
    options: Sequence[str]
    out: Path


def solved_games() -> tuple[str, ...]:
    """The ids of the games whose definition has a ``solution`` part."""
    return tuple(found.id for found in registry.definitions() if found.has("solution"))


def run_solve(term: Terminal, request: SolveRequest) -> ExitCode:
    """Solve the configured game and write its tables (``numpy.savez_compressed``).

    Raises:
        OptionError: an unknown game or option, a game or configuration that is not solved.
    """
    game = registry.configure(request.game, request.players, parse_options(request.options),
                              files=True)
    part = registry.definition_of(game).part("solution")
    tables = part(game) if part is not None else None
    if tables is None:
        raise OptionError(f"{game.spec.id} with {game.players} players and these options is "
                          f"not solved exactly; solved games: {', '.join(solved_games())} "
                          f"(see dicegames solve --help)")
    import numpy as np

    summary = str(tables.pop("summary", ""))
    np.savez_compressed(request.out, **tables)
    shapes = ", ".join(f"{name} {'x'.join(map(str, value.shape))}"
                       for name, value in tables.items() if getattr(value, "ndim", 0))
    options = ", ".join(f"{name}={value}" for name, value in game.options.items())
    term.say(f"{game.spec.name}, {game.players} players, {options}: {summary}")
    term.say(f"wrote {request.out} ({shapes})")
    return ExitCode.OK
