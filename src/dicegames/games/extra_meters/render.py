"""Text for people: the track as a terminal picture, and one sentence per move, in the
current language (:mod:`dicegames.i18n`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.markup import escape

from dicegames.core.text import counted, says
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.i18n import N_, _

RUNNER_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold cyan",
                 "bold yellow", "bold white", "bold bright_black")
"""One colour per seat; the runner letter (A, B, ...) reads without colour too."""

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def letter(seat: int) -> str:
    """The letter that marks a seat's runner on the track."""
    return chr(ord("A") + seat)


def render(data: ExtraMetersData, track_length: int, names: Sequence[str] | None = None,
           width: int = 50) -> str:
    """The race as rich-markup text: one lane per runner, the finish on the right.

    Each lane is scaled to ``width`` cells, with the runner's letter where it stands and its
    exact square at the end of the line, so it reads on a narrow terminal and without colour.
    """
    names = list(names or [_("Player {number}", number=s + 1)
                           for s in range(len(data.positions))])
    label_width = max(len(n) for n in names) + 4
    lines = ["[bold]" + escape(_("Track")) + "[/]: "
             + escape(_("squares 1..{last}; pass square {last} to win", last=track_length))]
    for seat, position in enumerate(data.positions):
        style = RUNNER_STYLES[seat % len(RUNNER_STYLES)]
        cell = min(width, round(position * width / track_length)) if position else 0
        lane = ["·"] * (width + 1)
        lane[cell if position <= track_length else width] = f"[{style}]{letter(seat)}[/]"
        turn_mark = "▶" if seat == data.player and data.phase is not Phase.OVER else " "
        label = escape(f"{turn_mark} {letter(seat)} {names[seat]}".ljust(label_width))
        where = _("start") if position == 0 else _("square {number}", number=position)
        if position > track_length:
            where = _("past the end ({number})", number=position)
        lines.append(f"{label}|{''.join(lane)}|🏁 {where}")
    if data.phase in (Phase.DECIDE, Phase.ROLLING) and data.dice:
        dice = " ".join(DIE_FACES[d - 1] + str(d) for d in data.dice)
        lines.append(_("This turn: {dice} = {squares} if you stop ({rolled} rolled)",
                       dice=dice, squares=squares(sum(data.dice)), rolled=dice_count(
                           len(data.dice))))
    return "\n".join(lines)


def squares(number: int) -> str:
    """ "1 square", "5 squares" in the current language."""
    return counted(number, N_("1 square"), N_("{count} squares"))


def dice_count(number: int) -> str:
    """ "1 die", "3 dice" in the current language."""
    return counted(number, N_("1 die"), N_("{count} dice"))


def describe(data: ExtraMetersData, move: Hashable, seat: int | None,
             names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``, in the current
    language."""
    who = names[data.player]
    if seat is None:
        assert isinstance(move, int)
        if data.phase is Phase.OPENING:
            return says(who, N_("{name} rolls {value}"), N_("You roll {value}"), value=move)
        if move == 6:
            dice = len(data.dice) + 1
            return says(who, N_("{name} rolls a 6: the turn ends and the runner moves "
                                "{squares}, one per die, to square {square}"),
                        N_("You roll a 6: the turn ends and the runner moves {squares}, one "
                           "per die, to square {square}"),
                        squares=squares(dice), square=data.positions[data.player] + dice)
        return says(who, N_("{name} rolls {value}: {total} with {dice}"),
                    N_("You roll {value}: {total} with {dice}"), value=move,
                    total=sum(data.dice) + move, dice=dice_count(len(data.dice) + 1))
    if move is Decision.ROLL:
        return says(who, N_("{name} rolls again"), N_("You roll again"))
    total = sum(data.dice)
    return says(who, N_("{name} stops and moves {sums} = {squares} to square {square}"),
                N_("You stop and move {sums} = {squares} to square {square}"),
                sums="+".join(str(d) for d in data.dice), squares=squares(total),
                square=data.positions[data.player] + total)
