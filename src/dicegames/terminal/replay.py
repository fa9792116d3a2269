"""``dicegames replay``: a saved game shown move by move.

The record is loaded with :func:`dicegames.load` (which checks every move), then its moves are
applied once more to a fresh session so that each one prints with the same event sentences
the game showed while it was played, followed by the board after it; everything is written
in the language in use (``dicegames replay --lang``).
"""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from dicegames.core.record import load
from dicegames.core.session import EventKind, Session
from dicegames.core.text import counted
from dicegames.i18n import N_, _, title
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
    term.say(f"[bold]{escape(title(game.spec.name))}[/] · "
             + escape(_("replay of {path}", path=str(path))))
    if options:
        term.say(escape(_("Options: {options}", options=options)))
    term.say(escape(_("Players, in turn order:")) + f" {seating(stored)}")
    if stored.dice == "manual":
        dice = _("physical dice typed in")
    elif stored.seed is not None:
        dice = _("dice rolled by the computer, seed {seed}", seed=stored.seed)
    else:
        dice = _("dice rolled by the computer")
    moves = counted(len(stored.moves), N_("1 move"), N_("{count} moves"))
    term.say(escape(f"{moves} · {dice}"))
    term.say(board(replay))
    waiting = step and term.keyboard
    total = len(stored.moves)
    for index, entry in enumerate(stored.moves, start=1):
        if waiting:
            try:
                ask = _("Enter: move {number} of {total}; q quits", number=index, total=total)
                answer = term.ask(f"[dim]{escape(ask)}[/] › ")
            except EOFError:
                break
            if answer.lower() in QUIT_WORDS | {"q"}:
                break
        events = replay.apply(entry.text, entry.seat)
        for event in events:
            if event.kind is EventKind.TURN:
                term.out.rule(escape(_("Turn {number} · {name}", number=event.turn,
                                       name=replay.name(event.seat))))
            elif event.kind is EventKind.GAME_OVER:
                over = _("Game over.")
                term.say(f"[bold green]{escape(over)}[/] [bold]{escape(event.description)}[/]")
            else:
                term.say(f"[bold]{index:>4}.[/] {escape(event.description)}")
                term.say(board(replay))
    if len(replay.moves) == total and not replay.state.is_terminal:
        term.say("[yellow]" + escape(_("The game was not finished:")) + "[/] " + escape(_(
            "continue it with {command}", command=f"dicegames play --resume {path}")))
    return ExitCode.OK
