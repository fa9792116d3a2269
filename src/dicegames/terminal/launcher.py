"""The menu shown by ``dicegames`` with no arguments (what ``make run`` starts).

It asks, one question at a time and with a default for each: the game, the number of
players, who sits in each seat (a person's name or a bot level), the game's options, and
whether the computer rolls the dice or people type in physical dice. Then it plays. Every
answer is checked as the command line would check it, and a wrong one is asked again with the
reason. End of input or ``quit`` leaves quietly. It speaks the language of ``LANG`` (English,
French, German or Italian).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rich.markup import escape

from dicegames.bots import bot_levels
from dicegames.core.errors import DiceGamesError
from dicegames.core.game import Game
from dicegames.core.model import BotLevel, GameSpec
from dicegames.core.options import OptionSpec, OptionValue, is_digits
from dicegames.core.registry import configure, game_class, games, make
from dicegames.core.session import Session
from dicegames.i18n import DEFAULT, _, current, title
from dicegames.strength import plain_strength
from dicegames.terminal.console import QUIT_WORDS, ExitCode, QuitRequested, Terminal
from dicegames.terminal.info import first_sentence, player_range
from dicegames.terminal.play import new_seed, play_session
from dicegames.terminal.seats import BOT_PREFIX, bot_level_of, default_bot_level, player_infos

T = TypeVar("T")


def ask_until_valid(term: Terminal, prompt: str, default: str,
                    parse: Callable[[str], T]) -> T:
    """Ask until ``parse`` accepts the answer (Enter gives ``default``); say why it did not.

    Raises:
        QuitRequested: the person typed quit.
    """
    while True:
        enter = escape(_("Enter = {default}", default=default))
        text = term.ask(f"{prompt} [dim]\\[{enter}][/] › ") or default
        if text.lower() in QUIT_WORDS:
            raise QuitRequested
        try:
            return parse(text)
        except (DiceGamesError, ValueError) as error:
            term.say(f"[yellow]{escape(str(error))}[/]")


def pick_game(text: str) -> GameSpec:
    """A game by its number in the menu, its id or an alias."""
    specs = games()
    if is_digits(text):
        if 1 <= int(text) <= len(specs):
            return specs[int(text) - 1]
        raise ValueError(_("{text} is not on the list: type a number from the list or a "
                           "game's id", text=text))
    return game_class(text).spec


def pick_count(spec: GameSpec) -> Callable[[str], int]:
    """A parser for the number of players ``spec`` allows."""
    def parse(text: str) -> int:
        if not is_digits(text) or not spec.min_players <= int(text) <= spec.max_players:
            raise ValueError(_("{game} is for {players} players: type a number from {low} "
                               "to {high}", game=title(spec.name), players=player_range(spec),
                               low=spec.min_players, high=spec.max_players))
        return int(text)
    return parse


def pick_seat(levels: tuple[str, ...]) -> Callable[[str], str]:
    """A parser for one seat: a bot level (``medium`` or ``bot:medium``) or a person's name."""
    def parse(text: str) -> str:
        level = bot_level_of(text)
        if level is None and text.lower() in levels:
            level = text.lower()
        if level is None:
            return text
        if level not in levels:
            raise ValueError(_("there is no bot {level}; the bots are: {levels}",
                               level=repr(level), levels=", ".join(levels)))
        return BOT_PREFIX + level
    return parse


PLAIN_LEVELS = {
    "easy": "the weakest, for a first game or young players",
    "medium": "a fair opponent who follows a few rules of thumb",
    "hard": "a strong opponent",
    "expert": "stronger than hard",
    "trained": "stronger than hard",
    "search": "tries its best moves out before it plays; up to about a second a move",
    "optimal": "plays perfectly",
}
"""What the usual level names mean, in words for a family (each game's rules page says how
its bots play)."""


def plain_levels(levels: Sequence[BotLevel], game: Game[Any, Any, Any] | None = None
                 ) -> list[tuple[str, str]]:
    """The listed levels, weakest first, each with a plain description.

    A level the table does not know is described by its game's text up to the first colon,
    semicolon or parenthesis; a level that is the same bot as an earlier one says so. Given
    the configured ``game``, each description also says how strong the level is at its
    player count, from the game's measured figures (:func:`dicegames.strength.
    plain_strength`): "a strong opponent; wins about 2 games in 3 against medium".
    """
    shown: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for level in levels:
        if not level.listed:
            continue
        known = PLAIN_LEVELS.get(level.name)
        plain = _(known) if known else re.split(r":|;| \(", level.doc)[0]
        if level.doc in seen:
            plain = _("the same player as {level}", level=seen[level.doc])
        seen.setdefault(level.doc, level.name)
        words = (plain_strength(game.spec.id, level.name, game.players, translated=False)
                 if game is not None else None)
        shown.append((level.name, f"{plain}; {words}" if words else plain))
    return shown


def ask_seats(term: Terminal, game: Game[Any, Any, Any]) -> list[str]:
    """Ask who sits in each seat; two people may not share a name.

    Only the listed bot levels are offered, in plain words; the others (for simulations,
    e.g. ``random``) are still accepted by name.
    """
    levels = bot_levels(game)
    term.say(_("Computer players (type the level to seat one):"))
    for name, plain in plain_levels(levels, game):
        term.say(f"  [bold cyan]{escape(name)}[/]: {escape(plain)}")
    term.say("[dim]" + escape(_("How each one plays: dicegames rules {game}.",
                                 game=game.spec.id)) + "[/]")
    names = tuple(level.name for level in levels)
    default_bot = default_bot_level(game)
    items: list[str] = []
    for seat in range(game.players):
        default = _("You") if seat == 0 else default_bot
        while True:
            item = ask_until_valid(term, _("Player {number}: a person's name or a bot level",
                                             number=seat + 1), default, pick_seat(names))
            try:
                player_infos([*items, item])
            except DiceGamesError as error:
                term.say(f"[yellow]{escape(str(error))}[/]")
                continue
            items.append(item)
            break
    return items


def show_default(spec: OptionSpec) -> str:
    """An option's default as people type it (``true``, not ``True``)."""
    if isinstance(spec.default, bool):
        return "true" if spec.default else "false"
    return str(spec.default)


def ask_options(term: Terminal, spec: GameSpec) -> dict[str, OptionValue]:
    """Ask each option in turn; Enter keeps the default, a value is checked by its spec."""
    values: dict[str, OptionValue] = {}
    if spec.options:
        term.say(_("Options (Enter keeps the default):"))
    for option in spec.options:
        title = _(option.title)
        term.say(f"  [bold]{escape(title)}[/]: {escape(_(option.doc))}")
        if option.choice_labels:
            term.say("    [dim]" + escape("; ".join(
                f"{choice} = {_(option.choice_title(choice))}" for choice in option.choices))
                + "[/]")
        term.say(f"    [dim]({escape(option.allowed())})[/]")
        values[option.name] = ask_until_valid(term, f"  {escape(title)}",
                                              show_default(option), validator(option))
    return values


def validator(option: OptionSpec) -> Callable[[str], OptionValue]:
    """``option``'s check of a typed value; its refusal in the language in use."""
    def parse(text: str) -> OptionValue:
        try:
            return option.validate_local(text)
        except DiceGamesError:
            if current() == DEFAULT:
                raise
            raise ValueError(_("{value} is not allowed here: {allowed}", value=repr(text),
                               allowed=option.allowed())) from None
    return parse


def pick_dice(text: str) -> bool:
    """True for physical dice typed in, False for dice rolled by the computer."""
    answer = text.lower()
    if answer in ("1", "auto", "computer"):
        return False
    if answer in ("2", "manual", "physical"):
        return True
    raise ValueError(_("type 1 for dice rolled by the computer, 2 for physical dice"))


def run_launcher(term: Terminal) -> ExitCode:
    """The interactive menu, then the game it sets up."""
    try:
        return _launch(term)
    except (EOFError, QuitRequested):
        term.say("")
        term.say(_("Bye."))
        return ExitCode.OK


def _launch(term: Terminal) -> ExitCode:
    specs = games()
    term.say("[bold]dicegames[/]: " + escape(_("family dice games. Pick a game (quit "
                                                "leaves).")))
    for number, spec in enumerate(specs, start=1):
        players = _("{players} players", players=player_range(spec))
        term.say(f"  [bold cyan]{number})[/] [bold]{escape(title(spec.name))}[/] "
                 f"({escape(spec.id)}, {escape(players)}): "
                 f"{escape(first_sentence(_(spec.pitch)))}")
    spec = ask_until_valid(term, _("Game: a number or an id"), "1", pick_game)
    count = ask_until_valid(term, _("Number of players ({players})",
                                    players=player_range(spec)),
                            str(spec.default_players), pick_count(spec))
    items = ask_seats(term, make(spec.id, players=count))
    options = ask_options(term, spec)
    term.say(escape(_("Dice:")) + " [bold cyan]1)[/] " + escape(_("rolled by the computer"))
             + "   [bold cyan]2)[/] " + escape(_("physical dice, typed in")))
    manual = ask_until_valid(term, _("Dice"), "1", pick_dice)
    game = configure(spec.id, count, options, files=True)
    seed = new_seed()
    session = Session(game, player_infos(items), None if manual else seed,
                      "manual" if manual else "auto")
    return play_session(term, session, seed, save_to=None)
