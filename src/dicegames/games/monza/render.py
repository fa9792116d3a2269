"""Text for people: the circuit as a terminal picture, and one sentence per move.

The board is drawn lane by lane, two columns per unit of track, cut into segments that fit
a terminal. Every square shows its colour as a letter (R Y G B W P, ``#`` for a tyre) and
its number in the lane, with a coloured background when the terminal has colours; a ``*``
marks a target. Under each lane a second row shows the cars: ``@1`` is player 1's car.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from dicegames.core.model import PASS
from dicegames.core.text import count, possessive, sentence
from dicegames.games.monza.data import COLOURS, START, Advance, MonzaData, Phase, Roll, Step

if TYPE_CHECKING:
    from dicegames.games.monza.rules import MonzaRules

SCALE = 2
"""Terminal columns per unit of track."""

SEGMENT_UNITS = 36
"""Units of track per drawn segment (72 columns)."""

SQUARE_STYLES = {
    "red": "white on red", "yellow": "black on yellow", "green": "black on green",
    "blue": "white on blue", "white": "black on white", "purple": "white on magenta",
}
"""The background of a square of each colour."""

TYRE_STYLE = "white on grey23"
CAR_STYLES = {
    "red": "bold red", "yellow": "bold yellow", "green": "bold green",
    "blue": "bold blue", "white": "bold white", "purple": "bold magenta",
}


def _markup(chars: Sequence[str], styles: Sequence[str]) -> str:
    """Characters with one style each, as rich markup (runs of one style grouped)."""
    out: list[str] = []
    run: list[str] = []
    current = ""
    for ch, style in zip(chars, styles, strict=True):
        if style != current and run:
            out.append(f"[{current}]{escape(''.join(run))}[/]" if current else
                       escape("".join(run)))
            run = []
        current = style
        run.append(ch)
    if run:
        out.append(f"[{current}]{escape(''.join(run))}[/]" if current else escape("".join(run)))
    return "".join(out)


def car_mark(seat: int) -> str:
    """How a seat's car appears on the board: ``@1`` for the first player."""
    return f"@{seat + 1}"


def render(game: MonzaRules, data: MonzaData, names: Sequence[str] | None = None) -> str:
    """The circuit with every car, then the cars' owners, the roll and the dice left."""
    circuit = game.circuit
    names = list(names or [f"Player {s + 1}" for s in range(len(data.cars))])
    lines = [f"[bold]{escape(circuit.name)}[/]",
             "squares R Y G B W P: red yellow green blue white purple; # tyre; * target; "
             "@n: car of player n"]
    first = min(s.start for s in circuit.squares)
    for u0 in range(first, circuit.length, SEGMENT_UNITS):
        u1 = min(u0 + SEGMENT_UNITS, circuit.length)
        lines.append(escape(f"   track {u0}-{u1}"))
        for lane_no, lane in enumerate(circuit.lanes):
            width = (u1 - u0) * SCALE
            chars, styles = [" "] * width, [""] * width
            car_chars, car_styles = [" "] * width, [""] * width
            for j in lane:
                square = circuit.squares[j]
                if square.end <= u0 or square.start >= u1:
                    continue
                c0, c1 = (max(square.start, u0) - u0) * SCALE, (min(square.end, u1) - u0) * SCALE
                if square.colour is None:
                    label, style = "|" + "#" * (c1 - c0), TYRE_STYLE
                else:
                    label = f"|{square.colour.value[0].upper()}{square.index + 1}"
                    label += "*" if j in circuit.targets else ""
                    style = SQUARE_STYLES[square.colour.value]
                label = label[:c1 - c0].ljust(c1 - c0)
                chars[c0:c1], styles[c0:c1] = list(label), [style] * (c1 - c0)
                if square.start >= u0:
                    marks = [(car_mark(s), CAR_STYLES[COLOURS[s].value])
                             for s, car in enumerate(data.cars) if car == j]
                    col = c0 + 1
                    for mark, mark_style in marks:
                        for ch in mark:
                            if col < width:
                                car_chars[col], car_styles[col] = ch, mark_style
                                col += 1
            prefix = escape(f"{circuit.lane_names[lane_no]:>2} ")
            lines.append(prefix + _markup(chars, styles))
            if any(ch != " " for ch in car_chars):
                lines.append("   " + _markup(car_chars, car_styles))
    for seat, car in enumerate(data.cars):
        colour = COLOURS[seat].value
        turn = "▶" if seat == data.player and data.phase is not Phase.OVER else " "
        where = "in the start zone" if car == START else f"on {circuit.square_name(car)}"
        if car != START and car in circuit.targets:
            where += " (target)"
        else:
            where += f", {count(circuit.steps_to_finish(car), 'step')} from a target"
        lines.append(f"{turn} [{CAR_STYLES[colour]}]{car_mark(seat)}[/] "
                     f"{escape(names[seat])} ({colour} car) {where}")
    if data.finishing and data.phase is not Phase.OVER:
        lines.append("[bold]A car is on a target: this is the last round.[/]")
    if data.roll and data.phase in (Phase.STEP, Phase.STUCK, Phase.VARIANT):
        lines.append(f"Roll: {Roll(data.roll)}; unused: {Roll(data.dice) or 'none'}; "
                     f"dice used: {data.used}")
    return "\n".join(lines)


def describe(game: MonzaRules, data: MonzaData, move: Hashable, seat: int | None,
             names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``."""
    who = names[data.player]
    circuit = game.circuit
    if seat is None:
        assert isinstance(move, Roll)
        colours = ", ".join(c.value for c, n in zip(COLOURS, move.counts, strict=True)
                            for _ in range(n))
        return sentence(who, "rolls", colours)
    actor = names[seat]
    if isinstance(move, Step):
        text = sentence(actor, "steps", f"to {move.name} with a {move.colour} die")
        after = game._apply_action(data, seat, move)
        pushed = [s for s in range(len(data.cars))
                  if s != seat and after.cars[s] != data.cars[s]]
        for other in pushed:
            text += (f"; {possessive(names[other])} car is pushed back to "
                     f"{circuit.square_name(after.cars[other])}")
        if move.square in circuit.targets:
            text += "; the car is on a target"
        return text
    if isinstance(move, Advance):
        return sentence(actor, "advances", f"one free square to {move.name} (last colour)")
    if move == PASS:
        if data.roll:
            return sentence(actor, "cannot use", "any die")
        return sentence(actor, "waits", "on the target")
    return sentence(actor, "stays", "put (declines the last-colour step)")
