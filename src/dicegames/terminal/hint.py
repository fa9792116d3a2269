"""``dicegames hint GAME POSITION``: what the strongest bot plays there, and why.

The position is set up from its notation (see each game's rules page, "Positions"); the
answer comes from :func:`dicegames.analysis.hint.hint`: the hint bot's move, how that bot
decides, and each choice's win chance for the deciding seat, exact where the game is solved,
else estimated by rollouts with a 95% interval; where the dice roll next, the chance of the
seat whose turn it is before the roll, and after each outcome.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rich.markup import escape

from dicegames.analysis.hint import ChoiceEstimate, Hint, hint
from dicegames.core.errors import GameOver, NotYourTurn, PositionError
from dicegames.core.registry import from_position, presenter_of
from dicegames.i18n import _, percent, title
from dicegames.terminal.console import ExitCode, Terminal, UsageError
from dicegames.terminal.seats import parse_options


@dataclass(frozen=True, slots=True)
class HintRequest:
    """What ``dicegames hint`` was asked (the parsed command line)."""

    game: str
    position: str
    options: Sequence[str]
    seat: int | None
    rollouts: int
    seed: int
    json: bool


def run_hint(term: Terminal, request: HintRequest) -> ExitCode:
    """Print the hint for ``request.position``.

    Raises:
        UsageError: a bad position, a seat that does not decide there, a finished game,
            a bad count.
        OptionError: an unknown game or option.
    """
    if not 1 <= request.rollouts <= 100_000:
        raise UsageError("--rollouts takes a whole number from 1 to 100000")
    try:
        state = from_position(request.game, request.position,
                              **parse_options(request.options))
    except PositionError as error:
        raise UsageError(str(error)) from None
    seat = None if request.seat is None else request.seat - 1
    several = len(state.current_players) > 1
    if seat is None and several:
        seat = state.current_players[0]
    try:
        answer = hint(state, seat, rollouts=request.rollouts, seed=request.seed)
    except (GameOver, NotYourTurn) as error:
        deciding = ", ".join(str(s + 1) for s in state.current_players)
        problem = (f"seat {request.seat} does not decide here (deciding: {deciding})"
                   if deciding else str(error))
        raise UsageError(f"no hint here: {problem}") from None
    game = state.game
    if request.json:
        data = asdict(answer)
        data["seat"] = answer.seat + 1
        data["position"] = game.position(state)
        term.out.file.write(json.dumps(data, indent=1) + "\n")
        return ExitCode.OK
    names = [_("Seat {number}", number=s + 1) for s in range(game.players)]
    term.say(f"[bold]{escape(title(game.spec.name))}[/] · {escape(game.position(state))}")
    term.say(presenter_of(game).render(state, names))
    who = names[answer.seat]
    if answer.move is None:
        _show_before_roll(term, answer, who)
        return ExitCode.OK
    if several:
        deciding = ", ".join(str(s + 1) for s in state.current_players)
        term.say("[dim]" + escape(_("Seats {seats} decide on this roll; --seat N asks for "
                                    "another.", seats=deciding)) + "[/]")
    term.say("[bold]" + escape(_("{seat} decides. The {level} bot plays {move}.", seat=who,
                                 level=answer.bot, move=answer.move)) + "[/] "
             + escape(_("How it decides: {reason}.", reason=answer.reason.rstrip("."))))
    term.say(escape(_("{seat}'s chance to win after each choice ({method}):", seat=who,
                      method=answer.method)))
    width = max(len(choice.move) for choice in answer.choices)
    for choice in answer.choices:
        mark = " ◀ " + _("the bot's choice") if choice.move == answer.move else ""
        term.say(f"  {escape(choice.move.ljust(width))}  {percent(choice.win_chance):>6}"
                 f"{_interval(answer, choice)}{mark}")
    if answer.screened_out:
        term.say("[dim]" + escape(_(
            "{count} other choices scored lower in a first screening of {rollouts} rollouts "
            "each.", count=answer.screened_out, rollouts=max(1, request.rollouts // 5)))
            + "[/]")
    return ExitCode.OK


def _interval(answer: Hint, choice: ChoiceEstimate) -> str:
    """A choice's 95% interval as shown after its chance (nothing when exact)."""
    if answer.exact:
        return ""
    return "  [dim]" + escape(_("[{low} to {high}]", low=percent(choice.low),
                                high=percent(choice.high))) + "[/]"


def _show_before_roll(term: Terminal, answer: Hint, who: str) -> None:
    """The hint where the dice roll next: the chance before the roll, then per outcome."""
    whole = ChoiceEstimate("", answer.win_chance, answer.low, answer.high, 0)
    term.say("[bold]" + escape(_("The dice roll next for {seat}.", seat=who)) + "[/] "
             + escape(_("{seat}'s chance to win before the roll: {chance}", seat=who,
                        chance=percent(answer.win_chance)))
             + _interval(answer, whole) + " " + escape(f"({answer.method})"))
    if not answer.choices:
        return
    term.say(escape(_("After each outcome:")))
    width = max(len(choice.move) for choice in answer.choices)
    for choice in answer.choices:
        share = f"{percent(choice.probability or 0.0):>6}"
        term.say(f"  {escape(choice.move.ljust(width))}  [dim]{share}[/]  "
                 f"{percent(choice.win_chance):>6}{_interval(answer, choice)}")
