"""Shortcut positions as text, and their facts.

Five fields (documented with examples in ``rules.md``, section "Positions")::

    a10/b8 2 choose 1,3 6
    |      | |      |   turn count (turn 1 is seat 1's first turn)
    |      | |      the 1-3 dice of the current shortcut turn (-: none)
    |      | declare, road, shortcut, choose, push or over
    |      the seat whose turn it is (1-based)
    each car's cell by its name on the board, seat 1 first

The winner of a finished game is the car on the finish, so it is not written.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.position import SEATS, Facts, Reader, numbers_text, seat_text
from dicegames.games.shortcut.board import Board
from dicegames.games.shortcut.data import Phase, ShortcutData

FIELDS = ("cars", "to-move", "phase", "rolls", "turn")
"""The fields of a position, in order."""

PHASES = {"declare": Phase.DECLARE, "road": Phase.ROAD_ROLL, "shortcut": Phase.SHORTCUT_ROLL,
          "choose": Phase.CHOOSE, "push": Phase.PUSH_TO, "over": Phase.OVER}
"""The phase words and the phases they name."""

PHASE_NAMES = {phase: word for word, phase in PHASES.items()}


@dataclass(frozen=True, slots=True)
class ShortcutFacts(Facts):
    """The facts of a Shortcut position.

    Attributes:
        cars: each seat's cell, by its name on the board (``a13``).
        rolls: the 1-3 dice of the current shortcut turn, in order (their sum is the
            movement allowed).
    """

    cars: tuple[str, ...]
    rolls: tuple[int, ...]


def position(data: ShortcutData, board: Board) -> str:
    """The position notation of ``data`` on ``board``."""
    return " ".join((SEATS.join(board.names[c] for c in data.cars), seat_text(data.player),
                     PHASE_NAMES[data.phase], numbers_text(data.rolls), str(data.turn)))


def facts(data: ShortcutData, board: Board) -> ShortcutFacts:
    """The facts of ``data`` on ``board``."""
    over = data.phase is Phase.OVER
    return ShortcutFacts(data.player, data.turn, PHASE_NAMES[data.phase], over,
                         (data.winner,) if over else (),
                         tuple(board.names[c] for c in data.cars), data.rolls)


def from_position(text: str, players: int, board: Board) -> ShortcutData:
    """The data ``text`` describes on ``board``, checked to be a position the rules reach.

    Raises:
        PositionError: the text is malformed or impossible; the message says why.
    """
    reader = Reader("Shortcut", text, FIELDS, players)
    cars = tuple(_cell(reader, board, name) for name in reader.seats("cars", "cars"))
    player = reader.seat("to-move")
    phase = reader.choice("phase", PHASES)
    rolls = reader.numbers("rolls", reader.raw("rolls"), 1, 3, "a shortcut die that lets "
                           "the car move (4-6 end the turn)")
    turn = reader.whole("turn", reader.raw("turn"), 1)
    reader.check_rotation(player, turn)
    _check_cars(reader, board, cars, player, phase)
    if phase is Phase.CHOOSE and not rolls:
        raise reader.error("rolls", "a car choosing where to stop has rolled at least one "
                           "1-3 on this shortcut turn: give the dice, e.g. 2,3")
    if rolls and phase not in (Phase.CHOOSE, Phase.SHORTCUT_ROLL):
        raise reader.error("rolls", f"no shortcut dice are on the table in phase "
                           f"{PHASE_NAMES[phase]}: write -")
    here = cars[player]
    if phase is Phase.ROAD_ROLL and board.is_grey(here):
        raise reader.error("phase", f"the car of seat {player + 1} is on the grey cell "
                           f"{board.names[here]}: the road is not open from there")
    if phase is Phase.PUSH_TO:
        blocked = {c for s, c in enumerate(cars) if s != player and board.is_grey(c)}
        if len(board.push_targets(here, blocked)) < 2:
            raise reader.error("phase", f"a push from {board.names[here]} has at most one "
                               "destination here, so the car moves at once: there is no "
                               "destination to choose")
    winner = player if phase is Phase.OVER else -1
    return ShortcutData(cars, player, turn, phase, rolls, winner)


def _cell(reader: Reader, board: Board, name: str) -> int:
    """The cell called ``name``, or an error listing the board's cells."""
    try:
        return board.cell(name)
    except KeyError:
        raise reader.error("cars", f"{name!r} is not a cell of the board: cells are named by "
                           f"column and row like {board.names[board.start]} (the start), "
                           f"{board.names[board.road[1]]} (road 1) or "
                           f"{board.names[board.finish]} (the finish)") from None


def _check_cars(reader: Reader, board: Board, cars: tuple[int, ...], player: int,
                phase: Phase) -> None:
    """Grey cells hold one car; only the winner of a finished game is on the finish."""
    seen: dict[int, int] = {}
    for seat, cell in enumerate(cars):
        if board.is_grey(cell) and cell in seen:
            raise reader.error("cars", f"cars {seen[cell] + 1} and {seat + 1} are both on the "
                               f"grey cell {board.names[cell]}: a grey cell holds one car "
                               "(road cells are shared)")
        seen[cell] = seat
    on_finish = [s for s, cell in enumerate(cars) if cell == board.finish]
    if phase is Phase.OVER:
        if on_finish != [player]:
            raise reader.error("cars", f"a finished game has the car of the seat to move "
                               f"(seat {player + 1}) on the finish "
                               f"{board.names[board.finish]}, and no other")
    elif on_finish:
        raise reader.error("cars", f"car {on_finish[0] + 1} is on the finish "
                           f"{board.names[board.finish]}, so the game is over: phase over")
