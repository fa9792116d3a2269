"""The interactive game loop: people at the keyboard, bots, and dice from either source.

The loop is :func:`dicegames.play`, the engine's one match runner; this module supplies what
a terminal adds around it: :class:`HumanAgent` (an agent whose ``choose`` shows the board and
the numbered legal choices and reads an answer), a :class:`~dicegames.ManualDice` prompt for
physical dice, an event printer for everyone's moves, and saving the record when the game is
left early (Ctrl-C, end of input, ``quit``) so that ``dicegames play --resume`` continues it.
Several people can share the keyboard: every prompt starts with the name of the person asked.
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs
from rich.markup import escape

from dicegames.bots import adviser
from dicegames.core.errors import IllegalAction, PositionError
from dicegames.core.files import TargetError, check_target
from dicegames.core.game import State
from dicegames.core.match import DiceSource, ManualDice, RandomDice, play
from dicegames.core.model import Agent, Seat
from dicegames.core.position import players_in
from dicegames.core.record import load, save
from dicegames.core.registry import game_class, presenter_of
from dicegames.core.session import DiceMode, Event, EventKind, Session
from dicegames.core.text import count, counted
from dicegames.i18n import DEFAULT, N_, _, current, title
from dicegames.scores import record_score
from dicegames.terminal.console import QUIT_WORDS, ExitCode, QuitRequested, Terminal, UsageError
from dicegames.terminal.seats import (
    build_agents,
    configure,
    parse_options,
    player_infos,
    split_players,
)

HELP_WORDS = frozenset({"?", "help"})
"""What a person types to see the choices again."""
HINT_WORDS = frozenset({"hint"})
"""What a person types to hear what the strongest bot would play."""

CHOICES_INLINE = 8
"""Up to this many choices are listed on one line; more go one per line."""


def new_seed() -> int:
    """A fresh random seed, short enough to type back with ``--seed``."""
    return secrets.randbelow(1_000_000_000)


def default_save_path(game_id: str) -> Path:
    """Where a game left without ``--save`` is stored: the user's data folder, timestamped."""
    folder = Path(platformdirs.user_data_dir("dicegames")) / "saves"
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game_id}-{stamp}.json"
    number = 2
    while path.exists():
        path = folder / f"{game_id}-{stamp}-{number}.json"
        number += 1
    return path


def board(session: Session, state: State[Any, Any, Any] | None = None) -> str:
    """The game's picture of ``state`` (default: the current one) with the players' names.

    Names go in as plain text; the game escapes them in its markup.
    """
    names = [info.name for info in session.players]
    return presenter_of(session.game).render(session.state if state is None else state, names)


def choice_list(legal: Sequence[Hashable], numbered: bool) -> str:
    """The legal choices as markup: ``1) roll  2) stop`` (or one per line when many)."""
    items = [f"[bold cyan]{n})[/] {escape(str(a))}" if numbered else escape(str(a))
             for n, a in enumerate(legal, start=1)]
    if len(items) <= CHOICES_INLINE:
        return "   ".join(items)
    return "\n".join("   " + item for item in items)


class HumanAgent:
    """A person at the keyboard choosing for one seat: shows the board, reads an answer.

    An answer is a choice's number or its notation (and whatever short forms the game's
    parser accepts, e.g. ``r`` for ``roll``). A wrong answer is refused with the reason and
    asked again; ``?`` lists the choices again, ``hint`` says what the game's strongest bot
    would play, and ``quit`` stops the game (it is saved).
    """

    def __init__(self, term: Terminal, session: Session) -> None:
        self.term = term
        self.session = session
        self._adviser: Agent | None = None
        self._adviser_level = ""

    def hint(self, state: State[Any, Any, Any], seat: Seat) -> str:
        """What the game's strongest bot would play here, as a line of markup.

        The adviser has its own generator, so asking for hints never changes the game.
        """
        if self._adviser is None:
            self._adviser_level, self._adviser = adviser(self.session.game, random.Random(0))
        action = self._adviser.choose(state, seat)
        return "[magenta]" + escape(_("Hint:")) + "[/] " + escape(_(
            "the {level} bot would play {move}", level=_(self._adviser_level),
            move=str(action)))

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """Ask the person in ``seat`` for one of ``state.legal_actions(seat)``."""
        legal = state.legal_actions(seat)
        # When moves are themselves numbers, a number is read as notation only.
        numbered = not any(str(action).strip().isdecimal() for action in legal)
        name = escape(self.session.name(seat))
        self._show(state, seat, legal, numbered)
        while True:
            text = self.term.ask(f"[bold]{name}[/] › ")
            if text.lower() in HELP_WORDS:
                self._show(state, seat, legal, numbered)
                self.term.say("[dim]" + escape(_("Type hint for a suggestion; quit to stop (the "
                                                 "game is saved and can be resumed).")) + "[/]")
                continue
            if text.lower() in HINT_WORDS and "hint" not in map(str, legal):
                self.term.say(self.hint(state, seat))
                continue
            try:
                return self._pick(state, seat, text, legal, numbered)
            except IllegalAction as error:
                self.term.say(f"[yellow]{escape(str(error))}[/]")

    def _show(self, state: State[Any, Any, Any], seat: Seat, legal: Sequence[Hashable],
              numbered: bool) -> None:
        term = self.term
        term.say(board(self.session, state))
        others = [self.session.name(s) for s in state.current_players if s != seat]
        name = self.session.name(seat)
        if others:
            ask = _("{name}, your choice (also deciding on this roll: {others})", name=name,
                    others=", ".join(others))
        else:
            ask = _("{name}, your choice", name=name)
        how = (_("(a number or a move; ? for help)") if numbered
               else _("(a move; ? for help)"))
        term.say(f"{escape(ask)} [dim]{escape(how)}[/]:")
        term.say(choice_list(legal, numbered))

    @staticmethod
    def _pick(state: State[Any, Any, Any], seat: Seat, text: str, legal: Sequence[Hashable],
              numbered: bool) -> Hashable:
        numbers = "1" if len(legal) == 1 else _("a number from 1 to {last}", last=len(legal))
        if not text:
            raise IllegalAction(_("type a choice: {numbers} or a move's notation",
                                  numbers=numbers) if numbered
                                else _("type a choice: a move's notation"))
        try:
            action = state.game.parse(state, text, seat)
        except IllegalAction as error:
            if text.lower() in QUIT_WORDS:
                raise QuitRequested from None
            if numbered and text.isdecimal():
                if 1 <= int(text) <= len(legal):
                    return legal[int(text) - 1]
                raise IllegalAction(_("{text} is not one of the choices: type {numbers} or "
                                      "a move's notation", text=text, numbers=numbers)) from None
            reason = error
            if current() != DEFAULT:  # the engine's precise reason is English
                moves = ", ".join(str(move) for move in legal[:30])
                reason = IllegalAction(_("{text} is not a move here; the moves: {moves}",
                                         text=repr(text), moves=moves))
            if numbered:
                raise IllegalAction(_("{error} (or {numbers})", error=reason,
                                      numbers=numbers)) from None
            raise reason from None
        if action not in legal:
            raise IllegalAction(_("{move} is not a legal move here", move=action))
        return action


class DicePrompt:
    """Asks the roller to type what the physical dice show (for :class:`ManualDice`)."""

    def __init__(self, term: Terminal, session: Session) -> None:
        self.term = term
        self.session = session

    def __call__(self, state: State[Any, Any, Any], problem: str | None) -> str:
        """Show the last problem (e.g. a face the rules roll again), then read the dice."""
        if problem is not None:
            self.term.say(f"[yellow]{escape(problem)}[/]")
        outcomes = [str(outcome) for outcome, _chance in state.chance_outcomes()]
        shown = ", ".join(outcomes) if len(outcomes) <= 12 else _(
            "{count} possible rolls, e.g. {example}", count=len(outcomes),
            example=outcomes[0])
        seat = state.turn.seat
        roller = self.session.name(seat)
        # Somebody at the table rolls for a bot.
        ask = (_("Roll for {name}: type what the dice show", name=roller)
               if self.session.players[seat].is_bot
               else _("{name} rolls: type what the dice show", name=roller))
        text = self.term.ask(f"{escape(ask)} [dim]({escape(shown)})[/] › ")
        if text.lower() in QUIT_WORDS:
            raise QuitRequested
        return text


MARKS = {EventKind.MOVE: "[green]→[/]", EventKind.PASS: "[dim]⏭[/]",
         EventKind.UNDO: "[yellow]↶[/]"}
"""The mark in front of each kind of event line (a roll's is its faces: :func:`die_faces`)."""

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def die_faces(notation: str) -> str:
    """The die faces a roll shows (``"1 2 2 3 5"`` → ``⚀⚁⚁⚂⚄``), or "" when the roll is
    not six-sided dice (Monza's colour dice, a colour drawn for the first player).

    >>> die_faces("5"), die_faces("1 2 2 3 5"), die_faces("rryyyg")
    ('⚄', '⚀⚁⚁⚂⚄', '')
    """
    faces = notation.split()
    if not faces or not all(len(f) == 1 and f in "123456" for f in faces):
        return ""
    return "".join(DIE_FACES[int(f) - 1] for f in faces)


def event_mark(event: Event) -> str:
    """The markup in front of an event line: a roll's real faces (or nothing), an arrow for
    a move, and so on."""
    if event.kind is EventKind.ROLL:
        faces = die_faces(event.text)
        return f"[cyan]{faces}[/] " if faces else ""
    return MARKS.get(event.kind, "•") + " "


class EventPrinter:
    """Prints what happens: rolls, moves, passes, a header per turn, the final board."""

    def __init__(self, term: Terminal, session: Session) -> None:
        self.term = term
        self.session = session
        self.has_human = any(not info.is_bot for info in session.players)

    def turn_header(self, seat: Seat, number: int) -> None:
        """A rule naming the turn and the player; the board too when a bot plays it."""
        self.term.out.rule(escape(_("Turn {number} · {name}", number=number,
                                    name=self.session.name(seat))))
        if self.session.players[seat].is_bot:
            self.term.say(board(self.session))

    def __call__(self, event: Event) -> None:
        """Print one event (the callback of :func:`dicegames.play`)."""
        term = self.term
        if event.kind is EventKind.TURN:
            assert event.seat is not None
            self.turn_header(event.seat, event.turn)
            return
        if event.kind is EventKind.GAME_OVER:
            term.say(board(self.session))
            over = _("Game over.")
            term.say(f"[bold green]{escape(over)}[/] [bold]{escape(event.description)}[/]")
            return
        term.say(f"  {event_mark(event)}{escape(event.description)}")
        # A short pause after each bot decision lets the people at the table follow it.
        if (self.has_human and event.kind in (EventKind.MOVE, EventKind.PASS)
                and event.seat is not None and self.session.players[event.seat].is_bot):
            time.sleep(term.pace)


def seating(session: Session) -> str:
    """The players in seat order as markup: ``Ann, Medium bot (bot:medium)``."""
    return ", ".join(escape(info.name) + (f" ({escape(info.kind)})" if info.is_bot else "")
                     for info in session.players)


def dice_line(session: Session, seed: int | None, saved_with: DiceMode | None = None) -> str:
    """Where the dice come from, and how the saved game rolled them when that changed."""
    if session.dice == "manual":
        line = _("Dice: typed in from physical dice")
    else:
        line = _("Dice: rolled by the computer, seed {seed}", seed=seed)
    if saved_with is not None and saved_with != session.dice:
        line += " " + (_("(the saved game had physical dice)") if saved_with == "manual"
                       else _("(the saved game's dice were rolled by the computer)"))
    return line


def header(term: Terminal, session: Session, seed: int | None,
           saved_with: DiceMode | None = None) -> None:
    """The lines before play: game, options, who sits where, where the dice come from."""
    game = session.game
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    players = counted(game.players, N_("1 player"), N_("{count} players"))
    term.say(f"[bold]{escape(title(game.spec.name))}[/] · {players}"
             + (f" · {escape(options)}" if options else ""))
    term.say(escape(_("Players, in turn order:")) + f" {seating(session)}")
    term.say(escape(dice_line(session, seed, saved_with)))
    if any(not info.is_bot for info in session.players):
        term.say("[dim]" + escape(_("Answer with a number or a move; ? lists the choices; quit "
                                    "(or Ctrl-D) stops and saves the game.")) + "[/]")


def dice_source(term: Terminal, session: Session, seed: int) -> DiceSource:
    """Physical dice typed in (``session.dice`` is manual), or generator dice seeded with
    ``seed``.

    Generator dice are first advanced past the rolls already in the session, so a game
    resumed with its own seed rolls what the uninterrupted game would have rolled.
    """
    if session.dice == "manual":
        return ManualDice(DicePrompt(term, session))
    dice = RandomDice(random.Random(seed))
    for state in session.states[:-1]:
        if state.is_chance:
            dice.roll(state)
    return dice


def check_writable(path: Path) -> None:
    """Refuse a ``--save`` path that cannot be written, before anyone has played a move.

    Raises:
        UsageError: the path is a folder, a socket or a block device, a device or FIFO
            that cannot be opened, or its (real) nearest existing folder is not writable.
    """
    if path.is_dir():
        raise UsageError(f"--save {path} is a folder: name a file, e.g. {path / 'game.json'}")
    try:
        kind = check_target(path)
    except TargetError as error:
        raise UsageError(f"--save {error}") from None
    if kind == "stream":  # written directly (--save /dev/stdout), not through its folder
        if not os.access(path, os.W_OK):
            raise UsageError(f"--save {path}: cannot write to it")
        return
    folder = Path(os.path.realpath(path)).parent  # a symbolic link's target is written
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        raise UsageError(f"--save {path}: cannot write in {folder}")


def save_and_report(term: Terminal, session: Session, path: Path, why: str) -> ExitCode:
    """Save the record and print where, with the command that resumes an unfinished game.

    When ``path`` cannot be written the record goes to :func:`default_save_path` instead,
    so a game is never lost to a bad path; the code is then 1.
    """
    code = ExitCode.OK
    try:
        written = save(session, path)
    except OSError as error:
        term.error(f"could not save the game to {path}: {error.strerror or error}")
        fallback = default_save_path(session.game.spec.id)
        if fallback == path:
            return ExitCode.ERROR
        try:
            written = save(session, fallback)
        except OSError:
            return ExitCode.ERROR
        code = ExitCode.ERROR
    term.say(escape(why + _("Game saved to {path}", path=written)))
    if not session.state.is_terminal:
        term.say(escape(_("Continue it with: {command}",
                          command=f"dicegames play --resume {written}")))
    return code


def play_session(term: Terminal, session: Session, seed: int, *, save_to: Path | None,
                 agents: Sequence[Agent] | None = None,
                 saved_with: DiceMode | None = None) -> ExitCode:
    """Play ``session`` to the end at this terminal and return the exit code.

    The dice are rolled as ``session.dice`` says (by the computer from ``seed``, or typed in);
    ``seed`` also seeds the bots. ``saved_with`` is how a resumed game's record rolled its
    dice, so the header can say when that changed.

    On end of input or ``quit`` the record is saved (to ``save_to``, else to
    :func:`default_save_path`) and the code is 0; on Ctrl-C the same, with code 130. A
    finished game is saved to ``save_to`` when one was given.
    """
    if agents is None:
        agents = build_agents(session, seed, lambda seat: HumanAgent(term, session))
    printer = EventPrinter(term, session)
    header(term, session, seed, saved_with)
    if session.moves:
        moves = counted(len(session.moves), N_("1 move"), N_("{count} moves"))
        term.say(escape(_("Resuming after {moves}.", moves=moves)))
    state = session.state
    if state.is_terminal:
        term.say(board(session))
        over = _("This game is already over.")
        term.say(f"[bold]{escape(over)}[/] {escape(session.describe_result(state.result))}")
        return ExitCode.OK
    printer.turn_header(state.turn.seat, state.turn.number)
    dice = dice_source(term, session, seed)
    target = save_to or default_save_path(session.game.spec.id)
    try:
        play(session, agents, dice, on_event=printer)
    except (EOFError, QuitRequested):
        term.say("")
        return save_and_report(term, session, target, _("Stopped.") + " ")
    except KeyboardInterrupt:
        term.say("")
        code = save_and_report(term, session, target, _("Interrupted.") + " ")
        return ExitCode.INTERRUPTED if code is ExitCode.OK else code
    report_best_score(term, session)
    if save_to is not None:
        return save_and_report(term, session, save_to, "")
    return ExitCode.OK


def report_best_score(term: Terminal, session: Session) -> None:
    """After a finished solo game played by a person: store its score, print the best."""
    if session.game.players != 1 or session.players[0].is_bot or not session.state.is_terminal:
        return
    score = session.state.result.scores[0]
    best = record_score(session.game.spec.id, session.game.options, score)
    if best.warning is not None:
        term.say(f"[yellow]{escape(best.warning)}[/]")
    if best.previous is None:
        line = f"Your first recorded score here: [bold]{best.score:g}[/]."
    elif best.is_new_best:
        line = (f"[bold green]A new best score: {best.score:g}[/] "
                f"(the old best was {best.previous:g}).")
    else:
        line = f"Your best score here: [bold]{best.best:g}[/] ({count(best.games, 'game')})."
    term.say(line)


@dataclass(frozen=True, slots=True)
class PlayRequest:
    """What ``dicegames play`` was asked to do (the parsed command line)."""

    game: str | None
    players: str | None
    options: Sequence[str]
    seed: int | None
    dice: DiceMode | None
    """``auto`` or ``manual``; None: auto for a new game, the record's way for a resumed one."""
    save: Path | None
    resume: Path | None
    position: str | None = None


def resumed_session(request: PlayRequest) -> Session:
    """The session stored in ``request.resume``, checked against the rest of the request.

    Raises:
        UsageError: ``--players`` or ``--option`` given too (the record fixes them), or a
            GAME that is not the record's game.
        RecordError: the file cannot be read or is not a valid record.
    """
    assert request.resume is not None
    if request.players is not None:
        raise UsageError("--players cannot be combined with --resume: the record names the "
                         "players")
    if request.options:
        raise UsageError("--option cannot be combined with --resume: the record fixes the "
                         "options")
    if request.position is not None:
        raise UsageError("--position cannot be combined with --resume: the record fixes the "
                         "position")
    session = load(request.resume)
    if request.game is not None:
        wanted = game_class(request.game).spec.id
        if wanted != session.game.spec.id:
            raise UsageError(f"{request.resume} is a {session.game.spec.id} game, "
                             f"not {wanted}")
    return session


def position_seats(request: PlayRequest, items: Sequence[str] | None) -> int:
    """The seats of ``--position`` (its first field), checked against ``--players``.

    Raises:
        UsageError: an empty position, or a different number of ``--players``.
    """
    assert request.position is not None
    try:
        count = players_in(request.position)
    except PositionError as error:
        raise UsageError(f"--position: {error}") from None
    if items is not None and len(items) != count:
        raise UsageError(f"--players names {len(items)} players but the position has {count} "
                         "seats (its first field has one entry per seat)")
    return count


def run_play(term: Terminal, request: PlayRequest) -> ExitCode:
    """``dicegames play``: set up a new or resumed game and play it.

    Raises:
        UsageError, OptionError: a bad command line (nothing has been played yet).
        RecordError: ``--resume`` names a file that is not a valid record.
    """
    saved_with: DiceMode | None = None
    if request.resume is not None:
        session = resumed_session(request)
        saved_with = session.dice
        # From here on the terminal rolls: a web match's commitment covers none of that.
        session.fair = None
        # The record says how its dice are rolled; --dice and --seed change that.
        session.dice = request.dice or session.dice
        seed = request.seed if request.seed is not None else (
            session.seed if session.seed is not None else new_seed())
        if session.dice == "auto":
            session.seed = seed
    else:
        if request.game is None:
            raise UsageError("name a game to play (see dicegames list), or --resume FILE")
        items = split_players(request.players) if request.players is not None else None
        count = None if request.position is None else position_seats(request, items)
        game, items = configure(request.game, items, parse_options(request.options), count)
        start = None
        if request.position is not None:
            try:
                start = game.from_position(request.position)
            except PositionError as error:
                raise UsageError(f"--position: {error}") from None
        seed = request.seed if request.seed is not None else new_seed()
        dice = request.dice or "auto"
        session = Session(game, player_infos(items), seed if dice == "auto" else None, dice,
                          start=start)
    agents = build_agents(session, seed, lambda seat: HumanAgent(term, session))
    # A resumed game is kept in its own file unless --save names another.
    save_to = request.save or request.resume
    if save_to is not None:
        check_writable(save_to)
    return play_session(term, session, seed, save_to=save_to, agents=agents,
                        saved_with=saved_with)


__all__ = [
    "DicePrompt",
    "EventPrinter",
    "HumanAgent",
    "PlayRequest",
    "board",
    "play_session",
    "run_play",
    "seating",
]
