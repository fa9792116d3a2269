"""The largest custom boards the limits allow, for the benchmark and the web server's tests.

A Shortcut board file may have up to 26 columns and 99 rows, a Monza circuit up to six lanes
of 200 squares (see ``docs/security.md``, Limits). The web server must stay quick on those
too: ``scripts/web_bench.py`` plays many matches on them at once, and
``tests/web/test_large_boards.py`` holds each move to its event-loop budget.

The module imports nothing from dicegames (its sizes are its own constants, which a test
checks against the games' limits), so the benchmark can load it from this checkout while it
measures an older release's server on the very same boards.
"""

from __future__ import annotations

import json

COLUMNS = 26
"""Shortcut's widest grid (:data:`dicegames.games.shortcut.board.MAX_COLUMNS`)."""

ROWS = 99
"""Shortcut's tallest grid (:data:`dicegames.games.shortcut.board.MAX_ROWS`)."""

LANES = 6
"""The most lanes a Monza circuit has (:data:`dicegames.games.monza.circuit.MAX_LANES`)."""

SQUARES = 200
"""The most squares a Monza lane has (:data:`dicegames.games.monza.circuit.MAX_SQUARES`)."""

COLOURS = ("red", "yellow", "green", "blue", "white", "purple")


def shortcut_board() -> str:
    """A 26 x 99 Shortcut board: every cell is on the board.

    The road snakes across the grid: every even line (from the top) is road from side to
    side, and every odd line is grey but for the one road square where the road turns, so
    the road has 1,347 squares and there are 1,225 grey cells beside it. Games are long
    (the random bots never reach the finish in a benchmark's seconds), and every turn has
    the shortcut's grey field at hand.
    """
    grid = [["g"] * COLUMNS for _ in range(ROWS)]
    order: list[tuple[int, int]] = []
    for line in range(ROWS):
        rightwards = (line // 2) % 2 == 0
        if line % 2 == 0:
            columns = range(COLUMNS) if rightwards else range(COLUMNS - 1, -1, -1)
            order.extend((line, column) for column in columns)
        else:  # the turn at the side the last road line ended on
            order.append((line, COLUMNS - 1 if rightwards else 0))
    for place, (line, column) in enumerate(order):
        grid[line][column] = ("S" if place == 0 else "F" if place == len(order) - 1
                              else str(place))
    header = "# The largest board the limits allow: 26 x 99, a snaking road, grey between.\n"
    return header + "\n".join(" ".join(row) for row in grid) + "\n"


def monza_circuit() -> str:
    """A Monza circuit of six lanes of 200 squares each, as JSON text (one square a line).

    Squares are 5 units long; lane ``k`` starts at ``k``, so neighbouring lanes never share
    a boundary. Colours cycle so every die has uses; every 17th square of the odd lanes is a
    tyre. Cars enter on the first square of the outer lanes and race to their last squares.
    """
    lanes = []
    for lane in range(LANES):
        squares: list[list[object]] = []
        for index in range(SQUARES):
            colour = COLOURS[(index * 5 + lane * 2) % len(COLOURS)]
            if lane % 2 == 1 and index % 17 == 5:
                colour = "tyre"
            squares.append([lane + 5 * index, lane + 5 * index + 5, colour])
        lanes.append({"name": "abcdef"[lane], "squares": squares})
    last = "abcdef"[LANES - 1]
    circuit = {"name": "The largest circuit", "lanes": lanes,
               "entries": ["a1", f"{last}1"], "targets": [f"a{SQUARES}", f"{last}{SQUARES}"]}
    return json.dumps(circuit, indent=0) + "\n"
