"""The terminal front end behind the ``dicegames`` command: output, prompts and game loops.

:mod:`dicegames.cli` only parses arguments and dispatches here. Each module has one concern:

- :mod:`~dicegames.terminal.console`: the :class:`Terminal` (rich output, a line reader that
  tests can replace), exit codes, the errors the front end raises itself.
- :mod:`~dicegames.terminal.seats`: turning ``you,bot:medium`` and ``k=v`` text into a
  configured game, a session and its agents.
- :mod:`~dicegames.terminal.play`: the interactive game loop (people at the keyboard, bots,
  dice rolled by the computer or typed in), saving on Ctrl-C or end of input.
- :mod:`~dicegames.terminal.launcher`: the menu shown by ``dicegames`` with no arguments.
- :mod:`~dicegames.terminal.info`: ``list`` and ``rules``.
- :mod:`~dicegames.terminal.replay`: showing a saved game move by move.
- :mod:`~dicegames.terminal.simulate_view`: bot-against-bot simulations as a table or JSON.
"""

from dicegames.terminal.console import ExitCode, Terminal, UsageError

__all__ = ["ExitCode", "Terminal", "UsageError"]
