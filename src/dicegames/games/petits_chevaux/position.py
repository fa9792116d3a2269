"""Jeu des Petits Chevaux positions as text, and their facts.

Six fields (documented with examples in ``rules.md``, section "Positions")::

    0,0,12,s3/30,0,0,0 2 move 6 1 14
    |                  | |    | | turn count
    |                  | |    | 6s rolled in a row this turn
    |                  | |    the die to play (-: none)
    |                  | draw, roll, move or over
    |                  the seat whose turn it is (1-based)
    each seat's horses 1 to 4, seat 1 (red) first: 0 in the corner stable, 1 to 56 the
    steps along the track from the colour's start square (56: its stable entrance),
    s1 to s6 the stable squares

The winner of a finished game is the seat to move, so it is not written.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.position import NONE, SEATS, Facts, Reader, seat_text
from dicegames.games.petits_chevaux.board import (
    ENTRANCE,
    FINAL,
    HOME,
    PATHS,
    STABLE_SQUARES,
    TRACK_LENGTH,
    Colour,
)
from dicegames.games.petits_chevaux.data import ChevauxData, Phase
from dicegames.games.petits_chevaux.moves import has_won

FIELDS = ("horses", "to-move", "phase", "roll", "sixes", "turn")
"""The fields of a position, in order."""

PHASES = {"draw": Phase.DRAW, "roll": Phase.ROLL, "move": Phase.MOVE, "over": Phase.OVER}
"""The phase words and the phases they name."""

PHASE_NAMES = {phase: word for word, phase in PHASES.items()}

HORSES = 4
"""Horses per colour."""


@dataclass(frozen=True, slots=True)
class Horse:
    """Where one horse stands.

    Attributes:
        colour: its colour (``red``, ``blue``, ``yellow``, ``green``).
        number: 1 to 4 (the ``r2`` of the move notation is red's horse 2).
        progress: 0 in the corner stable, 1 to 56 the steps along the track from its start
            square (56: its stable entrance), 57 to 62 its stable squares 1 to 6.
        square: the track square it stands on, 0 to 55 clockwise from red's start square
            (blue's start is 14, yellow's 28, green's 42); None off the track.
        stable: its stable square 1 to 6, 0 when not in its stable column.
    """

    colour: str
    number: int
    progress: int
    square: int | None
    stable: int


@dataclass(frozen=True, slots=True)
class PetitsChevauxFacts(Facts):
    """The facts of a Petits Chevaux position.

    Attributes:
        colours: each seat's colour, seat 0 first.
        horses: each seat's four horses, horse 1 first.
        roll: the die the player must play, None when none is on the table.
        sixes: 6s rolled in a row this turn.
    """

    colours: tuple[str, ...]
    horses: tuple[tuple[Horse, ...], ...]
    roll: int | None
    sixes: int


def _place(progress: int) -> str:
    return f"s{progress - ENTRANCE}" if progress > ENTRANCE else str(progress)


def position(data: ChevauxData) -> str:
    """The position notation of ``data``."""
    horses = SEATS.join(",".join(_place(p) for p in row) for row in data.horses)
    roll = str(data.roll) if data.roll else NONE
    return " ".join((horses, seat_text(data.player), PHASE_NAMES[data.phase], roll,
                     str(data.sixes), str(data.turn)))


def facts(data: ChevauxData, colours: tuple[Colour, ...]) -> PetitsChevauxFacts:
    """The facts of ``data`` with the seats' ``colours``."""
    horses = tuple(
        tuple(Horse(colour.label, number, progress,
                    None if PATHS[colour][progress] < 0 else PATHS[colour][progress],
                    max(0, progress - ENTRANCE))
              for number, progress in enumerate(row, start=1))
        for colour, row in zip(colours, data.horses, strict=True))
    over = data.phase is Phase.OVER
    return PetitsChevauxFacts(data.player, data.turn, PHASE_NAMES[data.phase], over,
                              (data.winner,) if over else (),
                              tuple(c.label for c in colours), horses, data.roll or None,
                              data.sixes)


def from_position(text: str, colours: tuple[Colour, ...], three_sixes: bool) -> ChevauxData:
    """The data ``text`` describes with the seats' ``colours``, checked to be reachable.

    Raises:
        PositionError: the text is malformed or impossible; the message says why.
    """
    reader = Reader("Petits Chevaux", text, FIELDS, len(colours))
    horses = tuple(_row(reader, colour, entry)
                   for colour, entry in zip(colours, reader.seats("horses", "colours' horses"),
                                            strict=True))
    player = reader.seat("to-move")
    phase = reader.choice("phase", PHASES)
    roll_text = reader.raw("roll")
    roll = 0 if roll_text == NONE else reader.whole("roll", roll_text, 1, 6, "the die")
    sixes = reader.whole("sixes", reader.raw("sixes"), 0, 2 if three_sixes else None,
                         "the count of 6s in a row" + (" (a third 6 ends the turn)"
                                                       if three_sixes else ""))
    turn = reader.whole("turn", reader.raw("turn"), 1)
    _check_squares(reader, colours, horses)
    won = [s for s, row in enumerate(horses) if has_won(row)]
    if phase is Phase.OVER:
        if won != [player]:
            raise reader.error("horses", f"a finished game has the seat to move (seat "
                               f"{player + 1}) with its four horses on stable squares s3 to "
                               "s6, and no other seat")
    elif won:
        raise reader.error("horses", f"{colours[won[0]].label} has its four horses on stable "
                           "squares s3 to s6, so the game is over: phase over")
    if phase is Phase.MOVE:
        if not roll:
            raise reader.error("roll", "the player moves with a die: give it (1 to 6)")
        if (roll == 6) != (sixes > 0):
            raise reader.error("sixes", f"with a {roll} to play the count of 6s in a row is "
                               + ("1 or more" if roll == 6 else "0"))
    elif roll:
        raise reader.error("roll", f"no die is on the table in phase {PHASE_NAMES[phase]}: "
                           "write -")
    if phase in (Phase.DRAW, Phase.OVER) and sixes:
        raise reader.error("sixes", f"the count of 6s is 0 in phase {PHASE_NAMES[phase]}")
    if phase is Phase.DRAW and (player, turn, horses) != (
            0, 1, ((HOME,) * HORSES,) * len(colours)):
        raise reader.error("phase", "the draw for the first player comes before anything "
                           "else: every horse in its corner stable, seat 1 to move, turn 1")
    return ChevauxData(horses, player, turn, phase, roll, sixes,
                       player if phase is Phase.OVER else -1)


def _row(reader: Reader, colour: Colour, entry: str) -> tuple[int, ...]:
    """One colour's four horses, refusing places that do not exist and shared stable
    squares."""
    parts = entry.split(",")
    if len(parts) != HORSES:
        raise reader.error("horses", f"{colour.label} has {len(parts)} horses: each colour has "
                           f"{HORSES}, written like 0,0,12,s3")
    row: list[int] = []
    for part in parts:
        if part.startswith("s"):
            square = reader.whole("horses", part[1:], 1, STABLE_SQUARES,
                                  f"{colour.label}'s stable square")
            progress = ENTRANCE + square
            if progress in row:
                raise reader.error("horses", f"two {colour.label} horses on stable square "
                                   f"{part}: a stable square holds one horse")
        else:
            progress = reader.whole("horses", part, 0, ENTRANCE,
                                    f"{colour.label}'s horse place")
        row.append(progress)
    assert max(row) <= FINAL
    return tuple(row)


def _check_squares(reader: Reader, colours: tuple[Colour, ...],
                   horses: tuple[tuple[int, ...], ...]) -> None:
    """A track square holds one horse, or two of one colour (a barrage)."""
    standing: list[list[tuple[int, int]]] = [[] for _ in range(TRACK_LENGTH)]
    for seat, row in enumerate(horses):
        path = PATHS[colours[seat]]
        for number, progress in enumerate(row, start=1):
            if path[progress] >= 0:
                standing[path[progress]].append((seat, number))
    for square, there in enumerate(standing):
        names = " and ".join(f"{colours[s].letter}{n}" for s, n in there)
        if len({seat for seat, _ in there}) > 1:
            raise reader.error("horses", f"{names} share track square {square}: a horse "
                               "landing on a lone rival sends it home, and nobody lands on a "
                               "rival barrage")
        if len(there) > 2:
            raise reader.error("horses", f"{names} stand on track square {square}: a square "
                               "holds at most two horses (a barrage)")
