"""The cross-shaped board as data: 56 track squares, four corner stables, four stable columns.

The board is a 15 x 15 grid (``(row, column)``, row 0 at the top, column 0 on the left). The
cross has four arms three squares wide (rows or columns 6, 7 and 8) round a 3 x 3 centre; the
four 6 x 6 corners are the big stables where horses wait to come out.

The track runs clockwise round the outside of the cross: along one side of an arm, across its
tip (three squares), back along the other side, through the inner corner square of the centre
block, and on to the next arm: 14 squares an arm, **56** in all. Index 0 is red's start square.

Each colour owns one arm and the corner stable clockwise after it:

* its **arm tip** is the middle square of the arm's outer row; that square is its **stable
  entrance**, 55 steps after the start square;
* its **start square** is the first track square after the tip (next to its corner stable);
* its **stable column** is the arm's middle line, squares 1 (next to the tip) to 6 (next to
  the centre).

A horse's progress along its own path is one number: 0 in the corner stable, 1 on its start
square, 56 on its stable entrance, 57 to 62 on stable squares 1 to 6.
"""

from __future__ import annotations

from enum import IntEnum

Cell = tuple[int, int]
"""A grid square, ``(row, column)``."""

SIZE = 15
"""The board is SIZE x SIZE squares."""

TRACK_LENGTH = 56
"""Squares on the track."""

LAP = TRACK_LENGTH - 1
"""Steps from a start square to its stable entrance."""

STABLE_SQUARES = 6
"""Squares in each colour's stable column."""

HOME = 0
"""Progress of a horse waiting in its corner stable."""

ENTRANCE = LAP + 1
"""Progress of a horse on its stable entrance (56)."""

FINAL = ENTRANCE + STABLE_SQUARES
"""Progress of a horse on stable square 6 (62), the innermost."""


class Colour(IntEnum):
    """The four colours, in clockwise order of their arms (and of play)."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3

    @property
    def letter(self) -> str:
        """One lower-case letter: r, b, y, g (used in notation and on the board)."""
        return "rbyg"[self]

    @property
    def label(self) -> str:
        """The colour's name in lower case: red, blue, yellow, green."""
        return self.name.lower()


SEATING: dict[int, tuple[Colour, ...]] = {
    2: (Colour.RED, Colour.YELLOW),
    3: (Colour.RED, Colour.BLUE, Colour.YELLOW),
    4: (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN),
}
"""The colours in play for each player count, seat 0 first; two players sit opposite."""


def _track() -> tuple[Cell, ...]:
    """The 56 track squares clockwise, starting on the top arm's right side (red's start)."""
    top: list[Cell] = [(0, 8)]
    top += [(row, 8) for row in range(1, 6)]  # down the top arm's right side
    top += [(6, 8)]  # the centre block's top-right corner
    top += [(6, col) for col in range(9, 14)]  # out along the right arm's upper side
    top += [(6, 14), (7, 14)]  # the right arm's tip: corner square, then the tip (middle)
    # One arm is 14 squares; the other three are the same quarter turned clockwise.
    quarter = top[:14]
    squares: list[Cell] = []
    for turn in range(4):
        for row, col in quarter:
            turned = (row, col)
            for _ in range(turn):
                turned = (turned[1], SIZE - 1 - turned[0])
            squares.append(turned)
    return tuple(squares)


TRACK: tuple[Cell, ...] = _track()
"""Track square index (0..55) -> grid square, clockwise."""

START: dict[Colour, int] = {colour: 14 * colour for colour in Colour}
"""Each colour's start square (track index): red 0, blue 14, yellow 28, green 42."""

ENTRANCE_SQUARE: dict[Colour, int] = {
    colour: (START[colour] + LAP) % TRACK_LENGTH for colour in Colour}
"""Each colour's stable entrance (track index), the tip of its arm, just before its start."""


def _stable_column(colour: Colour) -> tuple[Cell, ...]:
    """Stable squares 1..6 of ``colour``: from next to the arm tip towards the centre."""
    row, col = TRACK[ENTRANCE_SQUARE[colour]]
    centre = SIZE // 2
    step_row = (centre > row) - (centre < row)
    step_col = (centre > col) - (centre < col)
    return tuple((row + step_row * k, col + step_col * k) for k in range(1, STABLE_SQUARES + 1))


STABLE: dict[Colour, tuple[Cell, ...]] = {colour: _stable_column(colour) for colour in Colour}
"""Each colour's stable column: index 0 is stable square 1, index 5 is square 6 (innermost)."""

CORNER: dict[Colour, tuple[int, int, int, int]] = {
    Colour.RED: (0, 9, 5, 14),
    Colour.BLUE: (9, 9, 14, 14),
    Colour.YELLOW: (9, 0, 14, 5),
    Colour.GREEN: (0, 0, 5, 5),
}
"""Each colour's corner stable as ``(top, left, bottom, right)`` grid rows and columns."""

CENTRE: Cell = (SIZE // 2, SIZE // 2)
"""The middle of the board, where the four stable columns meet."""


def track_index(colour: Colour, progress: int) -> int:
    """The track square (0..55) of a horse of ``colour`` at ``progress`` 1..56."""
    return (START[colour] + progress - 1) % TRACK_LENGTH


PATHS: tuple[tuple[int, ...], ...] = tuple(
    tuple(-1 if p == HOME or p > ENTRANCE else track_index(colour, p) for p in range(FINAL + 1))
    for colour in Colour
)
"""``PATHS[colour][progress]``: the track square of that progress, -1 off the track."""


def cell_of(colour: Colour, progress: int) -> Cell | None:
    """The grid square of a horse of ``colour`` at ``progress`` (None in its corner stable)."""
    if progress == HOME:
        return None
    if progress <= ENTRANCE:
        return TRACK[track_index(colour, progress)]
    return STABLE[colour][progress - ENTRANCE - 1]
