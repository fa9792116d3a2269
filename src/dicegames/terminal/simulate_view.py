"""``dicegames simulate``: many bot-against-bot games, shown as a table or one JSON document.

The work is :func:`dicegames.analysis.simulate`; this module adds a progress bar (on stderr,
only on a terminal and never with ``--json``) and the presentation: per player the win share
with its 95% Wilson interval, then game length and speed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dicegames.analysis.naming import options_label
from dicegames.analysis.simulate import SimulationReport, simulate
from dicegames.core.game import Game
from dicegames.core.text import count
from dicegames.terminal.console import ExitCode, Terminal
from dicegames.terminal.play import new_seed
from dicegames.terminal.seats import configure, parse_options, split_players


@dataclass(frozen=True, slots=True)
class SimulateRequest:
    """What ``dicegames simulate`` was asked to do (the parsed command line)."""

    game: str
    players: str
    games: int
    options: Sequence[str]
    seed: int | None
    rotate: bool
    jobs: int
    json: bool
    scheduler: str | None = None
    kernel: bool = True


@contextmanager
def progress_bar(term: Terminal, total: int, show: bool) -> Iterator[Callable[[int], None]]:
    """A callback taking the number of finished games; draws a bar on stderr when ``show``."""
    if not show:
        yield lambda done: None
        return
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=term.err, transient=True) as bar:
        task = bar.add_task("games", total=total)
        yield lambda done: bar.update(task, completed=done)


def percent(value: float) -> str:
    """A share as a percentage with one decimal: ``0.5234`` -> ``52.3%``."""
    return f"{100 * value:.1f}%"


def report_table(report: SimulationReport) -> Table:
    """Per player: wins, win share and its 95% Wilson interval, mean score."""
    table = Table(title=f"{report.game}: {count(report.games, 'game')}", title_justify="left")
    table.add_column("player", style="bold", no_wrap=True)
    table.add_column("wins", justify="right")
    table.add_column("win share", justify="right", style="bold")
    table.add_column("95% interval", justify="right")
    table.add_column("mean score", justify="right")
    for stats in report.per_player:
        wins = f"{stats.wins:g}" if stats.wins != int(stats.wins) else str(int(stats.wins))
        table.add_row(escape(stats.label), wins, percent(stats.win_share),
                      f"{percent(stats.ci_low)} to {percent(stats.ci_high)}",
                      f"{stats.mean_score:.1f}")
    return table


def show_report(term: Terminal, report: SimulationReport,
                game: Game[Any, Any, Any] | None = None) -> None:
    """The table, then the run's settings, game length and speed (with ``game``, a custom
    board or circuit is named by its first comment line and a short hash, not printed)."""
    term.out.print(report_table(report))
    options = (options_label(game, report.options) if game is not None
               else ", ".join(f"{k}={v}" for k, v in report.options.items()))
    term.say(f"Options: {escape(options or 'none')} · seed {report.seed} · seats "
             + ("rotated every game" if report.rotate else "fixed (first entry starts)"))
    term.say(f"Game length: mean {report.mean_turns:.1f} turns, median "
             f"{count(report.median_turns, 'turn')}")
    if report.no_winner:
        term.say(f"Games without a winner: {report.no_winner}")
    term.say(f"Speed: {report.games_per_s:,.0f} games/s ({report.elapsed_s:.2f} s), played by "
             f"the {escape(report.engine)}")


def run_simulate(term: Terminal, request: SimulateRequest) -> ExitCode:
    """Run the simulation and print its report.

    Raises:
        OptionError: unknown game, option or bot, a person among the players, a player
            count the game does not allow, or a bad number of games or jobs.
        SimulationError: a game or bot misbehaved (a bug, not a usage error).
    """
    items = split_players(request.players)
    game, items = configure(request.game, items, parse_options(request.options))
    seed = request.seed if request.seed is not None else new_seed()
    show = not request.json and term.err.is_terminal
    with progress_bar(term, request.games, show) as progress:
        report = simulate(game, items, request.games, seed, rotate=request.rotate,
                          jobs=request.jobs, progress=progress,
                          scheduler=request.scheduler, kernel=request.kernel)
    if request.json:
        term.out.file.write(json.dumps(report.to_json(), indent=2) + "\n")
    else:
        show_report(term, report, game)
    return ExitCode.OK
