"""Text for people: the cross board as a terminal picture, and one sentence per move.

Every square is three characters wide so the board reads without colour too: a horse is its
colour's capital letter and number (``R2``), a barrage shows both numbers (``R24``, drawn in
reverse video), an empty track square is ``·``, each start square shows its colour's small
letter, and the stable columns show their numbers 1 to 6 until a horse stands there.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from dicegames.core.model import PASS
from dicegames.core.text import possessive, sentence, verb
from dicegames.games.petits_chevaux.board import (
    CENTRE,
    CORNER,
    ENTRANCE,
    HOME,
    SIZE,
    START,
    TRACK,
    Cell,
    Colour,
    cell_of,
)
from dicegames.games.petits_chevaux.data import HORSE_OF, Action, ChevauxData, Phase
from dicegames.games.petits_chevaux.moves import has_won, moved

if TYPE_CHECKING:
    from dicegames.games.petits_chevaux.rules import PetitsChevauxRules

STYLES = {Colour.RED: "bold red", Colour.BLUE: "bold bright_blue",
          Colour.YELLOW: "bold yellow", Colour.GREEN: "bold green"}
"""The rich style of each colour's horses."""

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def horse_name(colour: Colour, horse: int) -> str:
    """How a horse is written for people, in the log, the terminal and on the web board:
    ``R1`` .. ``G4`` (its move's notation is the same in lower case, and typing either works)."""
    return f"{colour.letter.upper()}{horse + 1}"


def _cells(data: ChevauxData, colours: tuple[Colour, ...]) -> dict[Cell, str]:
    """Every drawn square of the cross: its three-character text with markup."""
    cells: dict[Cell, str] = {}
    for square in TRACK:
        cells[square] = "[dim] · [/]"
    for colour in colours:
        style = STYLES[colour]
        cells[TRACK[START[colour]]] = f"[{style} dim] {colour.letter} [/]"
        for number in range(1, 7):
            cell = cell_of(colour, ENTRANCE + number)
            assert cell is not None
            cells[cell] = f"[{style} dim] {number} [/]"
    for seat, row in enumerate(data.horses):
        colour = colours[seat]
        style = STYLES[colour]
        standing: dict[Cell, list[int]] = {}
        for horse, progress in enumerate(row):
            cell = cell_of(colour, progress)
            if cell is not None:
                standing.setdefault(cell, []).append(horse + 1)
        for cell, numbers in standing.items():
            letter = colour.letter.upper()
            if len(numbers) == 2:
                cells[cell] = f"[{style} reverse]{letter}{numbers[0]}{numbers[1]}[/]"
            else:
                cells[cell] = f"[{style}]{letter}{numbers[0]} [/]"
    cells[CENTRE] = "[bold] ★ [/]"
    return cells


def _corner_lines(data: ChevauxData, colours: tuple[Colour, ...],
                  names: Sequence[str]) -> dict[tuple[int, int], str]:
    """Text inside the corner stables: ``(row, first column) -> markup`` (18 characters)."""
    texts: dict[tuple[int, int], str] = {}
    for seat, colour in enumerate(colours):
        top, left, _, _ = CORNER[colour]
        style = STYLES[colour]
        waiting = [horse_name(colour, h) for h, p in enumerate(data.horses[seat])
                   if p == HOME]
        mark = "▶" if seat == data.player and data.phase in (Phase.ROLL, Phase.MOVE) else " "
        texts[(top + 1, left)] = f"[{style}]{f'{mark}{colour.label.upper()}'.center(18)}[/]"
        texts[(top + 2, left)] = f"[{style}]{escape(names[seat][:16].center(18))}[/]"
        home = " ".join(waiting) if waiting else "-"
        texts[(top + 4, left)] = f"[{style}]{home.center(18)}[/]"
    return texts


def render(data: ChevauxData, colours: tuple[Colour, ...],
           names: Sequence[str] | None = None) -> str:
    """The board as rich-markup text, then one legend line per player and the die."""
    names = list(names or [f"Player {seat + 1}" for seat in range(len(colours))])
    cells = _cells(data, colours)
    corners = _corner_lines(data, colours, names)
    lines = []
    for row in range(SIZE):
        parts: list[str] = []
        col = 0
        while col < SIZE:
            if (row, col) in corners:
                parts.append(corners[(row, col)])
                col += 6
                continue
            parts.append(cells.get((row, col), "   "))
            col += 1
        lines.append("".join(parts).rstrip())
    lines.append("")
    for seat, colour in enumerate(colours):
        horses = data.horses[seat]
        home = sum(p == HOME for p in horses)
        stable = sum(p > ENTRANCE for p in horses)
        mark = "▶" if seat == data.player and data.phase in (Phase.ROLL, Phase.MOVE) else " "
        lines.append(f"{mark} [{STYLES[colour]}]{colour.letter.upper()}[/] "
                     f"{escape(names[seat])} ({colour.label}): {home} waiting, "
                     f"{4 - home - stable} on the track, {stable} in the stable")
    if data.phase is Phase.MOVE:
        lines.append(f"Die: {DIE_FACES[data.roll - 1]} {data.roll}"
                     + ("  (a 6: another roll after this one)" if data.roll == 6 else ""))
    return "\n".join(lines)


def where(progress: int) -> str:
    """A horse's place in words: ``square 17 of its lap``, ``stable square 4``..."""
    if progress == HOME:
        return "its corner stable"
    if progress == 1:
        return "its start square"
    if progress == ENTRANCE:
        return "its stable entrance"
    if progress > ENTRANCE:
        return f"stable square {progress - ENTRANCE}"
    return f"square {progress} of its lap"


def describe(game: PetitsChevauxRules, data: ChevauxData, move: Hashable, seat: int | None,
             names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``."""
    colours = game.colours
    if data.phase is Phase.DRAW:
        first = next(s for s, c in enumerate(colours) if c.label == move)
        return sentence(names[first], "plays", f"first ({move}, drawn by lot)")
    who = names[data.player]
    if seat is None:
        assert isinstance(move, int)
        said = sentence(who, "rolls", str(move))
        if move == 6 and game.three_sixes and data.sixes == 2:
            return f"{said}: a third 6 in a row ends the turn without a move"
        return said
    if move == PASS:
        if game.moves(data, data.roll):
            said = sentence(who, "passes", "(moving is optional)")
        else:
            said = f"{who} cannot move"
        return said + ("; the 6 rolls again" if data.roll == 6 else ": the turn passes")
    assert isinstance(move, Action)
    colour = colours[data.player]
    row = data.horses[data.player]
    if move is Action.OUT:
        horse, target = row.index(HOME), 1
        said = sentence(who, "brings", f"{horse_name(colour, horse)} out onto its start square")
    else:
        horse = HORSE_OF[move]
        target = row[horse] + data.roll
        said = sentence(who, "moves", f"{horse_name(colour, horse)} {data.roll} to {where(target)}")
    horses, captured = moved(colours, data.horses, data.player, horse, target)
    if captured:
        victims = " and ".join(horse_name(colours[s], h) for s, h in captured)
        said += f", sending {victims} back to the corner stable"
    elif target <= ENTRANCE and sum(p == target for p in horses[data.player]) == 2:
        said += ", making a barrage"
    if has_won(horses[data.player]):
        said += f": {possessive(who)} stable is full and {who} {verb(who, 'wins')}"
    return said
