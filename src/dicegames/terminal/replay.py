"""``dicegames replay``: a saved game shown move by move.

The record is loaded with :func:`dicegames.load` (which checks every move), then its moves are
applied once more to a fresh session so that each one prints with the same event sentences
the game showed while it was played, followed by the board after it.
"""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from dicegames.core.record import load
from dicegames.core.session import EventKind, Session
from dicegames.core.text import count
from dicegames.terminal.console import QUIT_WORDS, ExitCode, Terminal
from dicegames.terminal.play import board, seating


def run_replay(term: Terminal, path: Path, step: bool) -> ExitCode:
    """Show the game stored in ``path``; with ``step`` (and a keyboard) wait between moves.

    Raises:
        RecordError: the file cannot be read or is not a valid record.
    """
    stored = load(path)
    game = stored.game
    replay = Session(game, stored.players, stored.seed, stored.dice, start=stored.states[0])
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    term.say(f"[bold]{escape(game.spec.name)}[/] · replay of {escape(str(path))}")
    if options:
        term.say(f"Options: {escape(options)}")
    term.say(f"Players, in turn order: {seating(stored)}")
    if stored.dice == "manual":
        dice = "physical dice typed in"
    else:
        dice = "dice rolled by the computer" + (
            f", seed {stored.seed}" if stored.seed is not None else "")
    term.say(f"{count(len(stored.moves), 'move')} · {dice}")
    term.say(board(replay))
    waiting = step and term.keyboard
    total = len(stored.moves)
    for index, entry in enumerate(stored.moves, start=1):
        if waiting:
            try:
                answer = term.ask(f"[dim]Enter: move {index} of {total}; q quits[/] › ")
            except EOFError:
                break
            if answer.lower() in QUIT_WORDS | {"q"}:
                break
        events = replay.apply(entry.text, entry.seat)
        for event in events:
            if event.kind is EventKind.TURN:
                term.out.rule(f"Turn {event.turn} · {escape(replay.name(event.seat))}")
            elif event.kind is EventKind.GAME_OVER:
                term.say(f"[bold green]Game over.[/] [bold]{escape(event.description)}[/]")
            else:
                term.say(f"[bold]{index:>4}.[/] {escape(event.description)}")
                term.say(board(replay))
    if len(replay.moves) == total and not replay.state.is_terminal:
        term.say("[yellow]The game was not finished[/]: continue it with "
                 f"dicegames play --resume {escape(str(path))}")
    return ExitCode.OK
