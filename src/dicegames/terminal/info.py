"""``dicegames list`` and ``dicegames rules``: what games there are and how they play."""

from __future__ import annotations

from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from dicegames.core.model import GameSpec
from dicegames.core.registry import game_class, games
from dicegames.docs import rules_page
from dicegames.terminal.console import ExitCode, Terminal


def first_sentence(text: str) -> str:
    """The first sentence of a pitch, for one-line listings."""
    head, dot, _ = text.partition(". ")
    return head + "." if dot else text


def player_range(spec: GameSpec) -> str:
    """``2-8`` (or ``2`` when the count is fixed)."""
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}-{spec.max_players}"


def run_list(term: Terminal) -> ExitCode:
    """Print the registered games as a table: id, name, players, one line of pitch."""
    table = Table(title="dicegames: the games", title_justify="left", show_lines=False)
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("about")
    for spec in games():
        table.add_row(escape(spec.id), escape(spec.name), player_range(spec),
                      escape(first_sentence(spec.pitch)))
    term.out.print(table)
    term.say("Rules: dicegames rules GAME · play: dicegames play GAME --players you,bot:medium")
    return ExitCode.OK


def run_rules(term: Terminal, game_id: str, lang: str = "en") -> ExitCode:
    """Print a game's rules page in ``lang``: rendered Markdown on a terminal, the plain
    text otherwise.

    Raises:
        OptionError: no such game (the message lists the games).
    """
    page = rules_page(game_class(game_id).spec.id, lang)
    if term.stdout_is_terminal:
        term.out.print(Markdown(page))
    else:
        term.out.file.write(page if page.endswith("\n") else page + "\n")
    return ExitCode.OK
