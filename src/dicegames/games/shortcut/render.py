"""Text for people: the board as a terminal picture, and one sentence per move.

The grid is drawn with its column letters and row numbers, so every cell's notation can be
read off it. Road cells show their road number, grey cells ``░░``, the start ``S`` and the
finish ``F``; a cell holding cars shows their letters (A, B, ...) instead. When the player
chooses where to move, the possible destinations are framed in brackets, ``[ 12 ]``. Nothing
depends on colour.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence

from rich.markup import escape

from dicegames.core.text import counted, says
from dicegames.games.shortcut.board import Board, Kind
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.i18n import N_, _

CAR_STYLES = ("bold red", "bold blue", "bold green", "bold magenta")
"""One colour per seat; the car letter reads without colour too."""

CELL_WIDTH = 4
"""Characters inside a cell's frame."""


def letter(seat: int) -> str:
    """The letter that marks a seat's car on the board."""
    return chr(ord("A") + seat)


def where(board: Board, cell: int) -> str:
    """A cell as the board names it, for people, in the current language: ``road square
    12``, ``the start``, ``the finish``, and a grey cell by the road square nearest to it
    (``the grey square beside road square 7``, ``the grey square 2 steps from road square
    6``); the grid's notation (``c4``) stays in the moves' details and records."""
    kind = board.kinds[cell]
    if kind is Kind.START:
        return _("the start")
    if kind is Kind.FINISH:
        return _("the finish")
    if kind is Kind.ROAD:
        return _("road square {number}", number=board.road_pos[cell])
    steps, number = nearest_road(board)[cell]
    if steps == 1:
        return _("the grey square beside road square {number}", number=number)
    return _("the grey square {steps} steps from road square {number}", steps=steps,
             number=number)


_NEAREST: dict[int, tuple[Board, tuple[tuple[int, int], ...]]] = {}
"""The latest boards' nearest road squares, by the board's identity (it is kept, so the
identity is not reused meanwhile)."""


def nearest_road(board: Board) -> tuple[tuple[int, int], ...]:
    """Each cell's ``(steps, road number)``: the fewest side-by-side steps to a road square
    and that square's number (the lowest of the nearest ones); road cells are at 0 steps
    from themselves, the start and the finish count as roads 0 and N + 1."""
    kept = _NEAREST.get(id(board))
    if kept is not None and kept[0] is board:
        return kept[1]
    places = {cell: (line, column) for line, row in enumerate(board.grid)
              for column, cell in enumerate(row) if cell >= 0}
    found: dict[int, tuple[int, int]] = {
        cell: (0, board.road_pos[cell]) for cell in places if board.kinds[cell] is Kind.ROAD}
    frontier = sorted(found, key=lambda cell: found[cell][1])
    while frontier:
        following = []
        for cell in frontier:
            steps, number = found[cell]
            line, column = places[cell]
            for next_line, next_column in ((line - 1, column), (line, column + 1),
                                           (line + 1, column), (line, column - 1)):
                if not (0 <= next_line < board.height and 0 <= next_column < board.width):
                    continue
                other = board.grid[next_line][next_column]
                if other >= 0 and (other not in found or (
                        found[other][0] == steps + 1 and number < found[other][1])):
                    if other not in found:
                        following.append(other)
                    found[other] = (steps + 1, number)
        frontier = following
    nearest = tuple(found.get(cell, (0, 0)) for cell in range(len(board.kinds)))
    if len(_NEAREST) >= 8:
        _NEAREST.clear()
    _NEAREST[id(board)] = (board, nearest)
    return nearest


def road_steps(number: int) -> str:
    """ "1 road step", "4 road steps" in the current language."""
    return counted(number, N_("1 road step"), N_("{count} road steps"))


def _core(board: Board, cell: int) -> str:
    kind = board.kinds[cell]
    if kind is Kind.ROAD:
        return str(board.road_pos[cell])
    return {Kind.START: "S", Kind.FINISH: "F", Kind.GREY: "░░"}[kind]


def render(board: Board, data: ShortcutData, names: Sequence[str] | None = None,
           marked: Collection[int] = ()) -> str:
    """The position as rich-markup text: the grid, a line per car, and the turn's state."""
    names = list(names or [_("Player {number}", number=s + 1) for s in range(len(data.cars))])
    on: dict[int, list[int]] = {}
    for seat, cell in enumerate(data.cars):
        on.setdefault(cell, []).append(seat)
    header = "    " + "".join(f" {chr(ord('a') + c):^{CELL_WIDTH}} "
                              for c in range(board.width))
    lines = [header.rstrip()]
    for line, row in enumerate(board.grid):
        number = board.height - line
        parts = []
        for cell in row:
            if cell < 0:
                parts.append(" " * (CELL_WIDTH + 2))
                continue
            seats = on.get(cell, [])
            if seats:
                letters = "".join(letter(s) for s in seats)
                pad = CELL_WIDTH - len(letters)
                core = (" " * (pad // 2)
                        + "".join(f"[{CAR_STYLES[s % len(CAR_STYLES)]}]{letter(s)}[/]"
                                  for s in seats)
                        + " " * (pad - pad // 2))
            else:
                core = f"{_core(board, cell):^{CELL_WIDTH}}"
                if board.is_grey(cell):
                    core = f"[dim]{core}[/]"
            frame = (r"[bold yellow]\[[/]", "[bold yellow]][/]") if cell in marked else (" ", " ")
            parts.append(f"{frame[0]}{core}{frame[1]}")
        lines.append(f"{number:>3} {''.join(parts)} {number}")
    lines.append(header.rstrip())
    label_width = max(len(n) for n in names) + 4
    for seat, cell in enumerate(data.cars):
        mark = "▶" if seat == data.player and data.phase is not Phase.OVER else " "
        label = escape(f"{mark} {letter(seat)} {names[seat]}".ljust(label_width))
        rest = ""
        if board.kinds[cell] is not Kind.GREY and cell != board.finish:
            rest = _(", {steps} from the finish", steps=road_steps(board.road_distance(cell)))
        lines.append(f"{label} {where(board, cell)}{rest}")
    who = names[data.player]
    if data.phase is Phase.DECLARE:
        lines.append(escape(_("{name}: declare road, shortcut or push.", name=who)))
    elif data.phase is Phase.CHOOSE:
        dice = " + ".join(str(d) for d in data.rolls)
        lines.append(escape(_("Shortcut dice: {dice} = {total}. Press on, or stop on a cell "
                              "in [brackets].", dice=dice, total=sum(data.rolls))))
    elif data.phase is Phase.PUSH_TO:
        lines.append(escape(_("Push: one step, to a cell in [brackets].")))
    elif data.phase is Phase.OVER:
        lines.append(escape(says(names[data.winner], N_("{name}'s car is on the finish."),
                                 N_("Your car is on the finish."))))
    return "\n".join(lines)


def describe(board: Board, data: ShortcutData, move: Hashable, names: Sequence[str]) -> str:
    """One plain-text sentence about ``move`` played from ``data``, in the current
    language."""
    who = names[data.player]
    here = data.cars[data.player]
    if data.phase is Phase.ROAD_ROLL:
        assert isinstance(move, int)
        target = board.road_target(here, move)
        if target is None:
            return says(who, N_("{name} rolls {value}: the finish is only {steps} away, so "
                                "the car does not move"),
                        N_("You roll {value}: the finish is only {steps} away, so the car "
                           "does not move"),
                        value=move, steps=road_steps(board.road_distance(here)))
        if target == board.finish:
            return says(who, N_("{name} rolls {value} and drives to the finish"),
                        N_("You roll {value} and drive to the finish"), value=move)
        return says(who, N_("{name} rolls {value} and drives to {cell}"),
                    N_("You roll {value} and drive to {cell}"), value=move,
                    cell=where(board, target))
    if data.phase is Phase.SHORTCUT_ROLL:
        assert isinstance(move, int)
        if move >= 4:
            if data.rolls:
                return says(who, N_("{name} rolls {value}: stuck, the turn is over ({dice} "
                                    "is lost)"),
                            N_("You roll {value}: stuck, the turn is over ({dice} is lost)"),
                            value=move, dice=" + ".join(map(str, data.rolls)))
            return says(who, N_("{name} rolls {value}: stuck, the turn is over"),
                        N_("You roll {value}: stuck, the turn is over"), value=move)
        total = sum(data.rolls) + move
        return says(who, N_("{name} rolls {value}: up to {steps} on the shortcut"),
                    N_("You roll {value}: up to {steps} on the shortcut"), value=move,
                    steps=counted(total, N_("1 step"), N_("{count} steps")))
    if move is Declaration.ROAD:
        return says(who, N_("{name} takes the main road"), N_("You take the main road"))
    if move is Declaration.SHORTCUT:
        return says(who, N_("{name} takes the shortcut"), N_("You take the shortcut"))
    if move is Declaration.PUSH:
        targets = board.push_targets(here, {c for s, c in enumerate(data.cars)
                                            if s != data.player and board.is_grey(c)})
        if len(targets) == 1:
            return says(who, N_("{name} pushes the car to {cell}"),
                        N_("You push the car to {cell}"), cell=where(board, targets[0]))
        return says(who, N_("{name} pushes the car"), N_("You push the car"))
    if move is Press.PRESS:
        return says(who, N_("{name} presses on with {total}"), N_("You press on with {total}"),
                    total=sum(data.rolls))
    assert isinstance(move, Cell)
    if data.phase is Phase.PUSH_TO:
        return says(who, N_("{name} pushes the car to {cell}"), N_("You push the car to {cell}"),
                    cell=where(board, move.index))
    if move.index == here:
        return says(who, N_("{name} stays on {cell}"), N_("You stay on {cell}"),
                    cell=where(board, here))
    if move.index == board.finish:
        return says(who, N_("{name} moves to the finish"), N_("You move to the finish"))
    return says(who, N_("{name} moves to {cell}"), N_("You move to {cell}"),
                cell=where(board, move.index))
