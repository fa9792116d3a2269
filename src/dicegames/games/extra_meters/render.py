"""Text for people: the track as a terminal picture, and one sentence per move."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.markup import escape

from dicegames.core.text import count, sentence, verb
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase

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
    names = list(names or [f"Player {s + 1}" for s in range(len(data.positions))])
    label_width = max(len(n) for n in names) + 4
    lines = [f"[bold]Track[/]: squares 1..{track_length}; pass square {track_length} to win"]
    for seat, position in enumerate(data.positions):
        style = RUNNER_STYLES[seat % len(RUNNER_STYLES)]
        cell = min(width, round(position * width / track_length)) if position else 0
        lane = ["·"] * (width + 1)
        lane[cell if position <= track_length else width] = f"[{style}]{letter(seat)}[/]"
        turn_mark = "▶" if seat == data.player and data.phase is not Phase.OVER else " "
        label = escape(f"{turn_mark} {letter(seat)} {names[seat]}".ljust(label_width))
        where = "start" if position == 0 else f"square {position}"
        if position > track_length:
            where = f"past the end ({position})"
        lines.append(f"{label}|{''.join(lane)}|🏁 {where}")
    if data.phase in (Phase.DECIDE, Phase.ROLLING) and data.dice:
        dice = " ".join(DIE_FACES[d - 1] + str(d) for d in data.dice)
        lines.append(f"This turn: {dice} = {count(sum(data.dice), 'square')} if you stop "
                     f"({count(len(data.dice), 'die')} rolled)")
    return "\n".join(lines)


def describe(data: ExtraMetersData, move: Hashable, seat: int | None,
             names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``."""
    who = names[data.player]
    if seat is None:
        assert isinstance(move, int)
        if data.phase is Phase.OPENING:
            return sentence(who, "rolls", str(move))
        if move == 6:
            dice = len(data.dice) + 1
            return (f"{sentence(who, 'rolls', 'a 6')}: the turn ends and the runner moves "
                    f"{count(dice, 'square')}, one per die, to square "
                    f"{data.positions[data.player] + dice}")
        return sentence(who, "rolls", f"{move}: {sum(data.dice) + move} with "
                                      f"{count(len(data.dice) + 1, 'die')}")
    if move is Decision.ROLL:
        return sentence(who, "rolls", "again")
    total = sum(data.dice)
    sums = "+".join(str(d) for d in data.dice)
    return (f"{sentence(who, 'stops')} and {verb(who, 'moves')} {sums} = "
            f"{count(total, 'square')} to square {data.positions[data.player] + total}")
