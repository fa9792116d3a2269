"""Move generation: where a horse may go with a die, and what the move does to the board.

Pure functions over the horses' progress tuples (see :mod:`.data`), shared by the rules, the
rendering and the bots. Every rule about blocking lives here:

* a move may not **pass** a barrage (two horses of one colour on a track square), whatever
  its colour (own barrages only when ``blocks_own``);
* it may not **land** on its own barrage (never more than two horses a square), nor on an
  opposing one (unless ``landing_captures``: then both horses go home);
* landing on a single opposing horse sends it home; on its own single horse makes a barrage;
* inside the stable a horse may not pass or land on another, and may not go beyond square 6.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.games.petits_chevaux.board import (
    ENTRANCE,
    FINAL,
    HOME,
    PATHS,
    TRACK_LENGTH,
    Colour,
)

WINNING = (FINAL - 3, FINAL - 2, FINAL - 1, FINAL)
"""The progress of a finished colour: its four horses on stable squares 3, 4, 5 and 6."""


@dataclass(frozen=True, slots=True)
class Blocking:
    """The two barrage options, as the move generator needs them."""

    blocks_own: bool = True
    landing_captures: bool = False


DEFAULT_BLOCKING = Blocking()

Horses = tuple[tuple[int, ...], ...]
"""Every seat's four progress values."""


class Board:
    """Who stands on each track square: the owning seat (-1 for none) and how many horses.

    ``barrages`` counts the squares holding two horses: while it is 0 (most of a game),
    nothing blocks a move on the track and the move generator skips its square checks.
    """

    __slots__ = ("barrages", "count", "owner")

    def __init__(self, colours: tuple[Colour, ...], horses: tuple[tuple[int, ...], ...]) -> None:
        owner = [-1] * TRACK_LENGTH
        count = [0] * TRACK_LENGTH
        for seat, row in enumerate(horses):
            path = PATHS[colours[seat]]
            for progress in row:
                square = path[progress]
                if square >= 0:
                    owner[square] = seat
                    count[square] += 1
        self.owner = owner
        self.count = count
        self.barrages = count.count(2)

    def moved(self, seat: int, origin: int, target: int) -> Board:
        """The board after a horse of ``seat`` goes from track square ``origin`` to
        ``target`` (-1: off the track), every opposing horse on ``target`` going home
        (as :func:`moved` does to the horses). This board is left as it was."""
        owner, count = self.owner[:], self.count[:]
        barrages = self.barrages
        if origin >= 0:
            left = count[origin]
            if left == 2:
                barrages -= 1
            count[origin] = left - 1
            if left == 1:
                owner[origin] = -1
        if target >= 0:
            there = count[target]
            now = there + 1 if owner[target] == seat else 1
            barrages += (now == 2) - (there == 2)
            count[target] = now
            owner[target] = seat
        board = _new_board(Board)
        board.owner, board.count, board.barrages = owner, count, barrages
        return board


_new_board = object.__new__


def destination(board: Board, colour: Colour, seat: int, row: tuple[int, ...], progress: int,
                *, die: int, blocking: Blocking) -> int:
    """The progress a horse at ``progress`` reaches with ``die``, or -1 when it may not move.

    ``row`` is the progress of all four horses of ``seat`` (for the stable squares).
    """
    if progress == HOME:
        return -1
    target = progress + die
    if target > FINAL:
        return -1  # overshooting stable square 6
    if board.barrages:  # else no barrage anywhere: nothing on the track blocks
        path = PATHS[colour]
        count, owner = board.count, board.owner
        last_passed = target - 1 if target <= ENTRANCE else ENTRANCE
        for step in range(progress + 1, last_passed + 1):
            square = path[step]
            if count[square] == 2 and (blocking.blocks_own or owner[square] != seat):
                return -1
        if target <= ENTRANCE:
            square = path[target]
            if count[square] == 2 and (owner[square] == seat or not blocking.landing_captures):
                return -1
    if target <= ENTRANCE:
        return target
    for other in row:
        if progress < other <= target and other > ENTRANCE:
            return -1  # a horse of its own in the stable: no passing, no sharing
    return target


def can_come_out(board: Board, colour: Colour, seat: int, row: tuple[int, ...],
                 blocking: Blocking) -> bool:
    """True when a horse of ``seat`` waits in its corner and its start square will take it."""
    if HOME not in row:
        return False
    square = PATHS[colour][1]
    if board.count[square] < 2:
        return True
    return board.owner[square] != seat and blocking.landing_captures


def moved(colours: tuple[Colour, ...], horses: tuple[tuple[int, ...], ...], seat: int,
          horse: int, target: int, *, board: Board | None = None
          ) -> tuple[Horses, tuple[tuple[int, int], ...]]:
    """The horses after horse ``horse`` of ``seat`` goes to ``target``, and who was captured.

    Captured horses (every opposing horse on the target track square) go back to their
    corner stable; they are returned as ``(seat, horse)`` pairs. ``board``, the occupancy
    of ``horses`` when the caller has it, spares the search when no opponent stands there.
    """
    rows = list(horses)
    mine = list(rows[seat])
    mine[horse] = target
    rows[seat] = tuple(mine)
    captured: list[tuple[int, int]] = []
    square = PATHS[colours[seat]][target]
    if square >= 0 and (board is None or board.owner[square] not in (-1, seat)):
        for other, row in enumerate(horses):
            if other == seat:
                continue
            path = PATHS[colours[other]]
            if any(path[p] == square for p in row):
                new_row = list(row)
                for index, p in enumerate(row):
                    if path[p] == square:
                        new_row[index] = HOME
                        captured.append((other, index))
                rows[other] = tuple(new_row)
    return tuple(rows), tuple(captured)


def has_won(row: tuple[int, ...]) -> bool:
    """True when all four horses stand on stable squares 3 to 6."""
    return min(row) >= WINNING[0]
