"""``dicegames verify RECORD``: check a finished web match's dice against its commitment.

One line says the verdict: on stdout ``verified: ...`` (exit 0), or on stderr
``dicegames: error: not verified: ...`` naming the first roll that does not follow from the
revealed secret, or why nothing can be verified (exit 1). A record that cannot be read or
replayed is a :class:`~dicegames.core.errors.RecordError` (one line, exit 1).
"""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from dicegames.core.record import read
from dicegames.core.verify import verify_record
from dicegames.terminal.console import ExitCode, Terminal


def run_verify(term: Terminal, path: Path) -> ExitCode:
    """Verify the record file ``path`` and print the one-line verdict.

    Raises:
        RecordError: the file cannot be read, is not JSON, or is not a valid record.
    """
    verdict = verify_record(read(path))
    if verdict.ok:
        term.say(escape(verdict.line))
        return ExitCode.OK
    term.error(f"not verified: {verdict.line}")
    return ExitCode.ERROR
