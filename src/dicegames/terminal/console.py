"""Talking to people in a terminal: rich output, a replaceable line reader, exit codes.

Everything the command line prints goes through a :class:`Terminal`, so one place decides
about colour (none when ``NO_COLOR`` is set or the output is not a terminal, so pipes and tests
get plain text) and about reading answers (the reader is injectable: a test or another front
end can drive the interactive loops without a keyboard).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING

from dicegames.core.errors import DiceGamesError

if TYPE_CHECKING:  # rich is imported when a console is made: `dicegames --help` needs none
    from rich.console import Console

Reader = Callable[[], str]
"""Reads one line of input (without its newline); raises ``EOFError`` at end of input."""


class ExitCode(IntEnum):
    """The exit codes of the ``dicegames`` command (also listed in ``dicegames --help``)."""

    OK = 0
    """Success, or a game left at end of input (its record is saved and can be resumed)."""
    ERROR = 1
    """A file that cannot be read or written, a corrupt game record, another failure."""
    USAGE = 2
    """A wrong command line: unknown game, option, value, bot, or a wrong player count."""
    INTERRUPTED = 130
    """Ctrl-C (a game in progress is saved first)."""


class UsageError(DiceGamesError):
    """A command line the front end itself refuses (exit code 2), e.g. a person in simulate."""


class QuitRequested(Exception):
    """A person typed ``quit`` at a prompt: stop and save, like end of input."""


QUIT_WORDS = frozenset({"quit", "exit", ":q"})
"""What a person may type at any game prompt to stop (the game is saved)."""


def make_console(stderr: bool = False) -> Console:
    """A rich console for stdout (or stderr) that prints plain text when not on a terminal.

    Highlighting and emoji codes are off (notation such as ``1:4+6`` must print as typed);
    off a terminal, lines are not wrapped, so piped output keeps one record per line.
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    # rich itself turns colour off when NO_COLOR is set or the stream is not a terminal.
    return Console(file=stream, highlight=False, emoji=False, soft_wrap=not stream.isatty())


class Terminal:
    """The command line's output streams and its source of typed answers.

    Args:
        out: where results, boards and prompts go (stdout).
        err: where errors and progress bars go (stderr).
        reader: reads one typed line; defaults to :func:`input`.
        echo: print each answer after its prompt (when input is piped, so that a transcript
            reads like a session at the keyboard).
        pace: seconds to pause after a bot's move, so people can follow (0 in pipes).
        keyboard: whether stdin is a terminal (a person types, rather than a pipe).
    """

    def __init__(
        self,
        out: Console,
        err: Console,
        *,
        reader: Reader | None = None,
        echo: bool = False,
        pace: float = 0.0,
        keyboard: bool = False,
    ) -> None:
        self.out = out
        self.err = err
        self.reader: Reader = reader or input
        self.echo = echo
        self.pace = pace
        self.keyboard = keyboard

    @classmethod
    def from_environment(cls) -> Terminal:
        """The terminal of this process: real stdout/stderr/stdin, pacing only on a tty."""
        stdin_tty = sys.stdin.isatty()
        stdout_tty = sys.stdout.isatty()
        return cls(
            out=make_console(),
            err=make_console(stderr=True),
            echo=not stdin_tty,
            pace=0.3 if stdout_tty and stdin_tty else 0.0,
            keyboard=stdin_tty,
        )

    @property
    def stdout_is_terminal(self) -> bool:
        """True when stdout is a terminal (rich renders Markdown, colours, progress)."""
        return self.out.is_terminal

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` (rich markup) and return the typed line, stripped.

        Raises:
            EOFError: end of input.
            KeyboardInterrupt: Ctrl-C.
        """
        self.out.print(prompt, end="")
        self.out.file.flush()
        answer = self.reader().strip()
        if self.echo:
            from rich.markup import escape

            self.out.print(escape(answer))
        return answer

    def say(self, markup: str = "") -> None:
        """Print a line of rich markup on stdout."""
        self.out.print(markup)

    def error(self, message: str) -> None:
        """Print one error line on stderr, ``dicegames: error: ...``."""
        from rich.markup import escape

        line = " ".join(message.split())
        self.err.print(f"[bold red]dicegames: error:[/] {escape(line)}")
