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
from dicegames.core.text import colour_word, counted, says
from dicegames.games.monza.data import (
    COLOURS,
    START,
    Advance,
    MonzaData,
    Phase,
    Roll,
    Step,
)
from dicegames.i18n import N_, _

if TYPE_CHECKING:
    from dicegames.games.monza.circuit import Circuit
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
    names = list(names or [_("Player {number}", number=s + 1) for s in range(len(data.cars))])
    lines = [f"[bold]{escape(circuit.name)}[/]",
             escape(_("squares R Y G B W P: {colours}; # tyre; * target; @n: car of player n",
                      colours=" ".join(colour_word(c) for c in COLOURS)))]
    first = min(s.start for s in circuit.squares)
    for u0 in range(first, circuit.length, SEGMENT_UNITS):
        u1 = min(u0 + SEGMENT_UNITS, circuit.length)
        lines.append(escape("   " + _("track {first}-{last}", first=u0, last=u1)))
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
        steps = counted(circuit.steps_to_finish(car), N_("1 step"), N_("{count} steps"))
        params = {"name": names[seat], "colour": colour_word(COLOURS[seat]),
                  "square": circuit.square_name(car), "steps": steps}
        if car == START:
            where = _("{name} ({colour} car) in the start zone, {steps} from a target",
                      **params)
        elif car in circuit.targets:
            where = _("{name} ({colour} car) on {square} (target)", **params)
        else:
            where = _("{name} ({colour} car) on {square}, {steps} from a target", **params)
        lines.append(f"{turn} [{CAR_STYLES[colour]}]{car_mark(seat)}[/] {escape(where)}")
    if data.finishing and data.phase is not Phase.OVER:
        lines.append("[bold]" + escape(_("A car is on a target: this is the last round."))
                     + "[/]")
    if data.roll and data.phase in (Phase.STEP, Phase.STUCK, Phase.VARIANT):
        lines.append(escape(_("Roll: {roll}; unused: {unused}; dice used: {used}",
                              roll=Roll(data.roll), unused=Roll(data.dice) or _("none"),
                              used=data.used)))
    return "\n".join(lines)


_LANES = {"i": N_("square {number} of the inner lane"),
          "m": N_("square {number} of the middle lane"),
          "o": N_("square {number} of the outer lane")}
"""How families read the default circuit's lanes (``i``, ``m``, ``o``, as its rules page
names them); another circuit's lane is named by its own name."""


def square_words(circuit: Circuit, square: int) -> str:
    """A square as a family reads the board, in the current language: "square 22 of the
    outer lane" (``o22`` in notation, which stays in the moves' details and records)."""
    found = circuit.squares[square]
    lane = circuit.lane_names[found.lane]
    message = _LANES.get(lane)
    if message is not None:
        return _(message, number=found.index + 1)
    return _("square {number} of lane {lane}", number=found.index + 1, lane=lane)


def describe(game: MonzaRules, data: MonzaData, move: Hashable, seat: int | None,
             names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``, in the current
    language (a step's pushes and finish are clauses, each a message with the sentence
    before it as ``{said}``)."""
    who = names[data.player]
    circuit = game.circuit
    if seat is None:
        assert isinstance(move, Roll)
        colours = ", ".join(colour_word(c) for c, n in zip(COLOURS, move.counts, strict=True)
                            for _n in range(n))
        return says(who, N_("{name} rolls {value}"), N_("You roll {value}"), value=colours)
    actor = names[seat]
    if isinstance(move, Step):
        text = says(actor, N_("{name} steps to {square} with a {colour} die"),
                    N_("You step to {square} with a {colour} die"),
                    square=square_words(circuit, move.square), colour=colour_word(move.colour))
        after = game._apply_action(data, seat, move)
        pushed = [s for s in range(len(data.cars))
                  if s != seat and after.cars[s] != data.cars[s]]
        for other in pushed:
            back = after.cars[other]
            if back == START:
                text = says(names[other],
                            N_("{said}; {name}'s car is pushed back to the start zone"),
                            N_("{said}; your car is pushed back to the start zone"), said=text)
                continue
            text = says(names[other], N_("{said}; {name}'s car is pushed back to {square}"),
                        N_("{said}; your car is pushed back to {square}"), said=text,
                        square=square_words(circuit, back))
        if move.square in circuit.targets:
            text = _("{said}; the car is on a target", said=text)
        return text
    if isinstance(move, Advance):
        return says(actor, N_("{name} advances one free square to {square} (last colour)"),
                    N_("You advance one free square to {square} (last colour)"),
                    square=square_words(circuit, move.square))
    if move == PASS:
        if data.roll:
            return says(actor, N_("{name} cannot use any die"), N_("You cannot use any die"))
        return says(actor, N_("{name} waits on the target"), N_("You wait on the target"))
    return says(actor, N_("{name} stays put (declines the last-colour step)"),
                N_("You stay put (declines the last-colour step)"))
