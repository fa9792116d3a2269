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
from dicegames.core.text import colour_word, listing, says
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
from dicegames.i18n import N_, _

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
        top, left, _bottom, _right = CORNER[colour]
        style = STYLES[colour]
        waiting = [horse_name(colour, h) for h, p in enumerate(data.horses[seat])
                   if p == HOME]
        mark = "▶" if seat == data.player and data.phase in (Phase.ROLL, Phase.MOVE) else " "
        word = colour_word(colour.label).upper()
        texts[(top + 1, left)] = f"[{style}]{f'{mark}{word}'.center(18)}[/]"
        texts[(top + 2, left)] = f"[{style}]{escape(names[seat][:16].center(18))}[/]"
        home = " ".join(waiting) if waiting else "-"
        texts[(top + 4, left)] = f"[{style}]{home.center(18)}[/]"
    return texts


def render(data: ChevauxData, colours: tuple[Colour, ...],
           names: Sequence[str] | None = None) -> str:
    """The board as rich-markup text, then one legend line per player and the die."""
    names = list(names or [_("Player {number}", number=seat + 1)
                           for seat in range(len(colours))])
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
        lines.append(f"{mark} [{STYLES[colour]}]{colour.letter.upper()}[/] " + escape(_(
            "{name} ({colour}): {home} waiting, {track} on the track, {stable} in the stable",
            name=names[seat], colour=colour_word(colour.label), home=home,
            track=4 - home - stable, stable=stable)))
    if data.phase is Phase.MOVE:
        face = f"{DIE_FACES[data.roll - 1]} {data.roll}"
        lines.append(_("Die: {face}  (a 6: another roll after this one)", face=face)
                     if data.roll == 6 else _("Die: {face}", face=face))
    return "\n".join(lines)


def where(progress: int) -> str:
    """A horse's place in words, in the current language: ``square 17 of its lap``,
    ``stable square 4``..."""
    if progress == HOME:
        return _("its corner stable")
    if progress == 1:
        return _("its start square")
    if progress == ENTRANCE:
        return _("its stable entrance")
    if progress > ENTRANCE:
        return _("stable square {number}", number=progress - ENTRANCE)
    return _("square {number} of its lap", number=progress)


def describe(game: PetitsChevauxRules, data: ChevauxData, move: Hashable, seat: int | None,
             names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``, in the current
    language.

    A move's sentence may take a clause (a capture, a barrage, the win); each clause is a
    message with the sentence before it as ``{said}``, so each language orders them."""
    colours = game.colours
    if data.phase is Phase.DRAW:
        first = next(s for s, c in enumerate(colours) if c.label == move)
        return says(names[first], N_("{name} plays first ({colour}, drawn by lot)"),
                    N_("You play first ({colour}, drawn by lot)"),
                    colour=colour_word(colours[first].label))
    who = names[data.player]
    if seat is None:
        assert isinstance(move, int)
        if move == 6 and game.three_sixes and data.sixes == 2:
            return says(who, N_("{name} rolls {value}: a third 6 in a row ends the turn "
                                "without a move"),
                        N_("You roll {value}: a third 6 in a row ends the turn without a "
                           "move"), value=move)
        return says(who, N_("{name} rolls {value}"), N_("You roll {value}"), value=move)
    if move == PASS:
        six = data.roll == 6
        if game.moves(data, data.roll):
            if six:
                return says(who, N_("{name} passes (moving is optional); the 6 rolls again"),
                            N_("You pass (moving is optional); the 6 rolls again"))
            return says(who, N_("{name} passes (moving is optional): the turn passes"),
                        N_("You pass (moving is optional): the turn passes"))
        if six:
            return says(who, N_("{name} cannot move; the 6 rolls again"),
                        N_("You cannot move; the 6 rolls again"))
        return says(who, N_("{name} cannot move: the turn passes"),
                    N_("You cannot move: the turn passes"))
    assert isinstance(move, Action)
    colour = colours[data.player]
    row = data.horses[data.player]
    if move is Action.OUT:
        horse, target = row.index(HOME), 1
        said = says(who, N_("{name} brings {horse} out onto its start square"),
                    N_("You bring {horse} out onto its start square"),
                    horse=horse_name(colour, horse))
    else:
        horse = HORSE_OF[move]
        target = row[horse] + data.roll
        said = says(who, N_("{name} moves {horse} {value} to {place}"),
                    N_("You move {horse} {value} to {place}"),
                    horse=horse_name(colour, horse), value=data.roll, place=where(target))
    horses, captured = moved(colours, data.horses, data.player, horse, target)
    if captured:
        victims = listing([horse_name(colours[s], h) for s, h in captured])
        said = _("{said}, sending {victims} back to the corner stable", said=said,
                 victims=victims)
    elif target <= ENTRANCE and sum(p == target for p in horses[data.player]) == 2:
        said = _("{said}, making a barrage", said=said)
    if has_won(horses[data.player]):
        said = says(who, N_("{said}: {name}'s stable is full and {name} wins"),
                    N_("{said}: your stable is full and you win"), said=said)
    return said
