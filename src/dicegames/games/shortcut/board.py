"""Shortcut boards as data: the text format, a validating loader, and movement on a board.

The seed's board drawing is lost, so a board is a text grid (see ``boards/default.txt``):
one line per row, cells separated by spaces, ``S`` the start, ``F`` the finish, ``g`` a grey
(shortcut) cell, ``.`` off the board and a number for a road (white) cell, numbered in road
order from 1. Lines starting with ``#`` are comments. Cells are named like chess squares:
column letter from the left, row number from the bottom (``a1`` is the bottom-left corner);
:meth:`Board.square` reads a destination's name, with its aliases, one way per board.

The loader checks everything the rules rely on and names the bad cell in its error: one
start and one finish, road numbers 1..N with none missing or repeated, road 1 next to the
start, each road cell next to the following one and road N next to the finish (otherwise the
finish cannot be reached).

Movement (RULINGS.md): steps are orthogonal. From the start or a road cell a car steps to the
next road cell (the finish after road N) or sideways onto an adjacent grey cell; from a grey
cell it steps to any adjacent grey or road cell (the finish included, never the start). A car
may never enter a grey cell that holds another car; road cells are shared.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from importlib.resources import files

from dicegames.core.errors import OptionError

MAX_COLUMNS = 26
"""Columns are named a..z."""

MAX_ROWS = 99
"""Rows are named 1..99."""

SHORT_ROAD_COLUMNS = ord("r") - ord("a")
"""The widest board (17 columns, a..q) on which ``r<n>`` is a road square's short name. From
18 columns on, ``r`` is a column letter and ``r<n>`` always names that column's square;
``road<n>`` names road square n on every board (see "Notation" in ``rules.md``)."""

BUILT_IN = ("default",)
"""Boards shipped with the game, by name (a ``board`` option that is not one of these names
holds a board's text)."""


class BoardError(OptionError):
    """A board file that cannot be played; the message names the file and the bad cell."""


class Kind(Enum):
    """What a cell of the grid is."""

    START = "S"
    ROAD = "road"
    GREY = "g"
    FINISH = "F"


@dataclass(frozen=True, slots=True)
class Board:
    """A validated board. Cells are numbered 0.. in reading order (top line first).

    Attributes:
        name: the board's name (``default``) or the file it came from.
        width, height: the grid's size, off-board cells included.
        kinds: the kind of each cell.
        names: each cell's notation, e.g. ``c4``.
        road_pos: each cell's place on the road: 0 the start, 1..N the road squares,
            N + 1 the finish, -1 for grey cells.
        road: the cell at each road place 0..N+1 (so ``road[0]`` is the start).
        steps: each cell's one-step destinations, ignoring cars (see the module docstring).
        grid: the cell number at each (line, column) of the grid, -1 off the board.
    """

    name: str
    width: int
    height: int
    kinds: tuple[Kind, ...]
    names: tuple[str, ...]
    road_pos: tuple[int, ...]
    road: tuple[int, ...]
    steps: tuple[tuple[int, ...], ...]
    grid: tuple[tuple[int, ...], ...]

    @property
    def start(self) -> int:
        """The start cell."""
        return self.road[0]

    @property
    def finish(self) -> int:
        """The finish cell."""
        return self.road[-1]

    @property
    def road_length(self) -> int:
        """N: the number of road squares between the start and the finish."""
        return len(self.road) - 2

    def is_grey(self, cell: int) -> bool:
        """True for a grey (shortcut) cell."""
        return self.kinds[cell] is Kind.GREY

    def cell(self, name: str) -> int:
        """The cell named ``name`` (``c4``); KeyError when there is none."""
        try:
            return self.names.index(name.strip().lower())
        except ValueError:
            raise KeyError(f"no cell {name!r} on this board") from None

    def square(self, text: str) -> int | None:
        """The cell ``text`` names as a destination, or None when it names none.

        One reading per board width, so a move's text means one thing: a square's name
        (``c4``) first; then ``start``, ``finish`` (or ``f``) and ``road<n>`` (or
        ``road <n>``) for road square n on every board; ``r<n>`` for road square n only on
        boards of at most :data:`SHORT_ROAD_COLUMNS` columns (wider ones have a column
        ``r``, whose squares those names are). ``text`` is already normalized (lower case,
        single spaces).
        """
        if text in self.names:
            return self.names.index(text)
        if text == "start":
            return self.start
        if text in ("finish", "f"):
            return self.finish
        number = None
        if text.startswith("road"):
            number = text[4:].strip()
        elif text.startswith("r") and self.width <= SHORT_ROAD_COLUMNS:
            number = text[1:]
        if (number and number.isascii() and number.isdigit() and number[0] != "0"
                and int(number) <= self.road_length):
            return self.road[int(number)]
        return None

    def road_target(self, cell: int, roll: int) -> int | None:
        """Where ``roll`` road steps from ``cell`` (start or road) end; None past the finish."""
        place = self.road_pos[cell] + roll
        return self.road[place] if place < len(self.road) else None

    def road_distance(self, cell: int) -> int:
        """Road steps from a start or road cell to the finish."""
        return len(self.road) - 1 - self.road_pos[cell]

    def push_targets(self, cell: int, blocked: Collection[int]) -> tuple[int, ...]:
        """One legal step from ``cell``: its destinations minus grey cells in ``blocked``."""
        return tuple(step for step in self.steps[cell] if step not in blocked)

    def reachable(self, cell: int, total: int, blocked: Collection[int]) -> dict[int, int]:
        """Every cell reachable from ``cell`` in at most ``total`` legal steps, with the fewest
        steps it takes; ``cell`` itself is included at 0. ``blocked`` holds the grey cells
        other cars stand on (never entered, so never passed). A path ends at the finish.
        """
        distances = {cell: 0}
        frontier = deque((cell,))
        finish = self.finish
        while frontier:
            here = frontier.popleft()
            steps = distances[here]
            if steps == total or here == finish:
                continue
            for step in self.steps[here]:
                if step not in distances and step not in blocked:
                    distances[step] = steps + 1
                    frontier.append(step)
        return distances


def cell_name(column: int, line: int, height: int) -> str:
    """The notation of the cell at ``column`` (0 = a) on grid ``line`` (0 = the top line)."""
    return f"{chr(ord('a') + column)}{height - line}"


# --------------------------------------------------------------------------- loading


def parse_board(text: str, source: str = "<board>") -> Board:
    """Read and validate a board in the text format.

    Raises:
        BoardError: the text is not a playable board; the message says which cell is wrong.
    """
    grid = _Grid(text, source)
    road = grid.road()
    road_pos = [-1] * len(grid.kinds)
    for place, cell in enumerate(road):
        road_pos[cell] = place
    steps = tuple(grid.steps(cell, road, road_pos) for cell in range(len(grid.kinds)))
    return Board(source, grid.width, grid.height, tuple(grid.kinds), tuple(grid.names),
                 tuple(road_pos), road, steps, tuple(tuple(row) for row in grid.cells))


class _Grid:
    """A board file read into cells, with the checks that name the bad cell."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        rows: list[tuple[int, list[str]]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            stripped = raw.strip()
            if stripped and not stripped.startswith("#"):
                rows.append((number, stripped.split()))
        if not rows:
            raise self.fail("it has no cells (one line per row: S, F, g, . or road numbers)")
        self.height, self.width = len(rows), len(rows[0][1])
        for number, tokens in rows:
            if len(tokens) != self.width:
                raise self.fail(f"line {number} has {len(tokens)} cells but the first row has "
                                f"{self.width}: every row needs the same number of cells (use "
                                ". for off-board)")
        if self.width > MAX_COLUMNS or self.height > MAX_ROWS:
            raise self.fail(f"the grid is {self.width} x {self.height}; at most {MAX_COLUMNS} "
                            f"columns and {MAX_ROWS} rows")
        self.kinds: list[Kind] = []
        self.names: list[str] = []
        self.numbers: list[int] = []  # road number per cell, 0 for the other kinds
        self.where: list[tuple[int, int]] = []
        self.cells = [[-1] * self.width for _ in range(self.height)]
        for line, (number, tokens) in enumerate(rows):
            for column, token in enumerate(tokens):
                if token != ".":
                    self.add(line, column, number, token)

    def fail(self, message: str) -> BoardError:
        """The error to raise, naming the board."""
        return BoardError(f"board {self.source}: {message}")

    def add(self, line: int, column: int, number: int, token: str) -> None:
        """Add the cell written ``token`` at (``line``, ``column``) of the grid."""
        name = cell_name(column, line, self.height)
        upper = token.upper()
        if upper in ("S", "F", "G"):
            kind = {"S": Kind.START, "F": Kind.FINISH, "G": Kind.GREY}[upper]
            road_number = 0
        elif token.isascii() and token.isdigit() and len(token) <= 4 and int(token) >= 1:
            kind, road_number = Kind.ROAD, int(token)
        else:
            raise self.fail(f"cell {name} (line {number}) is {token!r}, which is not a cell: "
                            "use S, F, g, . or a road number from 1")
        self.cells[line][column] = len(self.kinds)
        self.kinds.append(kind)
        self.names.append(name)
        self.numbers.append(road_number)
        self.where.append((line, column))

    def only(self, kind: Kind, label: str) -> int:
        """The one cell of ``kind`` (the start or the finish)."""
        cells = [c for c, k in enumerate(self.kinds) if k is kind]
        if not cells:
            raise self.fail(f"there is no {label} cell ({kind.value})")
        if len(cells) > 1:
            raise self.fail(f"cell {self.names[cells[1]]} is a second {label} (the first is "
                            f"at {self.names[cells[0]]}); a board has exactly one")
        return cells[0]

    def road(self) -> tuple[int, ...]:
        """The cells in road order, start first and finish last, checked to be connected."""
        start, finish = self.only(Kind.START, "start"), self.only(Kind.FINISH, "finish")
        names = self.names
        by_number: dict[int, int] = {}
        for cell, road_number in enumerate(self.numbers):
            if self.kinds[cell] is not Kind.ROAD:
                continue
            if road_number in by_number:
                raise self.fail(f"cell {names[cell]} repeats road number {road_number} "
                                f"(already at {names[by_number[road_number]]}); road numbers "
                                "must be distinct")
            by_number[road_number] = cell
        if not by_number:
            raise self.fail("there are no road cells (number them 1, 2, 3... from the start)")
        for expected, found in enumerate(sorted(by_number), start=1):
            if found != expected:
                raise self.fail(f"road numbers are not consecutive: cell "
                                f"{names[by_number[found]]} is road {found} but there is no "
                                f"road {expected}")
        road = (start, *(by_number[n] for n in range(1, len(by_number) + 1)), finish)

        def label(place: int) -> str:
            if place == 0:
                return f"the start {names[road[0]]}"
            if place == len(road) - 1:
                return f"the finish {names[road[-1]]}"
            return f"road {place} at {names[road[place]]}"

        for place in range(len(road) - 1):
            if road[place + 1] not in self.neighbours(road[place]):
                raise self.fail(f"{label(place + 1)} is not next to {label(place)} (cells "
                                "must share a side): the road is broken there, so the finish "
                                "cannot be reached")
        return road

    def neighbours(self, cell: int) -> list[int]:
        """The cells sharing a side with ``cell``."""
        line, column = self.where[cell]
        found = []
        for dl, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            nl, nc = line + dl, column + dc
            if 0 <= nl < self.height and 0 <= nc < self.width and self.cells[nl][nc] >= 0:
                found.append(self.cells[nl][nc])
        return found

    def steps(self, cell: int, road: tuple[int, ...], road_pos: list[int]) -> tuple[int, ...]:
        """One-step destinations of ``cell`` by the movement rules, ignoring other cars."""
        kinds = self.kinds
        kind = kinds[cell]
        if kind is Kind.FINISH:
            return ()
        near = self.neighbours(cell)
        if kind is Kind.GREY:
            found = [n for n in near if kinds[n] is not Kind.START]
        else:  # start or road: the next road place, or sideways onto grey
            found = [road[road_pos[cell] + 1], *(n for n in near if kinds[n] is Kind.GREY)]
        return tuple(sorted(found))


@cache
def built_in(name: str) -> Board:
    """A board shipped with the game, by name."""
    text = files("dicegames.games.shortcut").joinpath("boards", f"{name}.txt")
    return parse_board(text.read_text(encoding="utf-8"), name)


def board_for(option: str) -> Board:
    """The board a ``board`` option holds: a built-in name, or a board's text.

    Never reads a file: the command line and the library read a board file's path into its
    text before the game is configured (see :func:`dicegames.core.options.read_option_files`),
    so a record carries the board itself and replays anywhere.

    Raises:
        BoardError: the text is not a playable board.
    """
    name = option.strip().lower()
    if name in BUILT_IN:
        return built_in(name)
    return _custom(option)


@lru_cache(maxsize=16)
def _custom(text: str) -> Board:
    """A custom board, parsed once per text (bounded: texts come from records too)."""
    return parse_board(text, "(custom)")
