"""Time and memory of Shortcut's exact two-player solve (docs/performance.md).

Solves the default board and U-shaped boards round a grey field of growing size (the road
down the left side, across the bottom and up the right side; the field fills the inside below
the top two rows), each ``--runs`` times after one warm-up (numba's compilation), and prints
the median time, tracemalloc's peak and the first player's chance under optimal play.

    python scripts/bench_shortcut_solver.py --runs 5 --sizes 8x10 10x14 13x18

``--losses`` also prints each level's exact chance against ``optimal`` on the default board
(both seat orders: the rules page's figures; about a minute, mostly ``hard``'s searches).
"""

from __future__ import annotations

import argparse
import statistics

import dicegames
from dicegames.games.shortcut.board import Board, parse_board
from dicegames.games.shortcut.rules import ShortcutRules
from dicegames.games.shortcut.solver import compute
from dicegames.games.shortcut.solver_evaluate import losses


def u_board(width: int, height: int) -> str:
    """A U-shaped road round a grey field, ``width`` x ``height`` cells (see above)."""
    grid = [["."] * width for _ in range(height)]
    grid[0][0], grid[0][width - 1] = "S", "F"
    road = [(r, 0) for r in range(1, height)] + [(height - 1, c) for c in range(1, width)]
    road += [(r, width - 1) for r in range(height - 2, 0, -1)]
    for number, (r, c) in enumerate(road, 1):
        grid[r][c] = str(number)
    for r in range(3, height - 1):
        for c in range(1, width - 1):
            grid[r][c] = "g"
    return "\n".join(" ".join(row) for row in grid)


def measure(name: str, board: Board, runs: int) -> None:
    """Solve ``board`` ``runs`` times and print the figures."""
    results = [compute(board) for _ in range(runs)]
    seconds = statistics.median(r.seconds for r in results)
    last = results[-1]
    grey = sum(board.is_grey(c) for c in range(len(board.kinds)))
    kept = sum(t.nbytes for t in (last.win, last.declare, last.push, last.choose))
    print(f"{name}: {len(board.kinds)} cells ({grey} grey), {last.sweeps} sweeps, "
          f"median {seconds:.3f} s of {runs}, peak {last.peak_bytes / 1e6:.1f} MB, tables "
          f"{kept / 1e3:.0f} KB, first player {last.value:.4%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", nargs="*", default=["8x10", "10x14", "13x18"],
                        help="U boards as WIDTHxHEIGHT")
    parser.add_argument("--losses", action="store_true",
                        help="also each level's exact chance against optimal (default board)")
    args = parser.parse_args()
    default = dicegames.make("shortcut", players=2)
    assert isinstance(default, ShortcutRules)
    compute(default.board)  # numba compiles (or loads) the loops once
    measure("default", default.board, args.runs)
    for size in args.sizes:
        width, height = (int(x) for x in size.split("x"))
        measure(f"U {size}", parse_board(u_board(width, height), f"U {size}"), args.runs)
    if args.losses:
        value = compute(default.board).value
        print(f"optimal vs optimal: the first player wins {value:.2%}")
        for loss in losses(default):
            print(f"{loss.level} vs optimal: {loss.as_first:.2%} moving first, "
                  f"{loss.as_second:.2%} second, {loss.both:.2%} over both seat orders")


if __name__ == "__main__":
    main()
