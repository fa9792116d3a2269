"""For a Few Extra Meters positions as text, and their facts.

Five fields (documented with examples in ``rules.md``, section "Positions")::

    12/7 2 decide 3,5 4
    |    | |      |   turn count (turn 1 is seat 1's first turn)
    |    | |      the turn's dice so far (-: none)
    |    | opening, decide, rolling or over
    |    the seat whose turn it is (1-based)
    each runner's square, seat 1 first (0: behind square 1)

The winners of a finished game follow from the runners and the ``finish`` option, so they
are not written.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.position import SEATS, Facts, Reader, numbers_text, seat_text
from dicegames.games.extra_meters.data import ExtraMetersData, Phase

FIELDS = ("runners", "to-move", "phase", "dice", "turn")
"""The fields of a position, in order."""

PHASES = {"opening": Phase.OPENING, "decide": Phase.DECIDE, "rolling": Phase.ROLLING,
          "over": Phase.OVER}
"""The phase words and the phases they name."""

PHASE_NAMES = {phase: word for word, phase in PHASES.items()}


@dataclass(frozen=True, slots=True)
class ExtraMetersFacts(Facts):
    """The facts of a For a Few Extra Meters position.

    Attributes:
        runners: each seat's square (0: behind square 1; past the last square: finished).
        dice: the non-6 dice of the current turn so far, in the order rolled.
    """

    runners: tuple[int, ...]
    dice: tuple[int, ...]


def position(data: ExtraMetersData) -> str:
    """The position notation of ``data``."""
    return " ".join((SEATS.join(str(p) for p in data.positions), seat_text(data.player),
                     PHASE_NAMES[data.phase], numbers_text(data.dice), str(data.turn)))


def facts(data: ExtraMetersData) -> ExtraMetersFacts:
    """The facts of ``data``."""
    return ExtraMetersFacts(data.player, data.turn, PHASE_NAMES[data.phase],
                            data.phase is Phase.OVER, data.winners, data.positions, data.dice)


def from_position(text: str, players: int, track_length: int,
                  same_round: bool) -> ExtraMetersData:
    """The data ``text`` describes, checked to be a position the rules can reach.

    Raises:
        PositionError: the text is malformed or impossible; the message says why.
    """
    reader = Reader("For a Few Extra Meters", text, FIELDS, players)
    runners = tuple(reader.whole("runners", part, 0, what="a runner's square")
                    for part in reader.seats("runners", "runners"))
    player = reader.seat("to-move")
    phase = reader.choice("phase", PHASES)
    dice = reader.numbers("dice", reader.raw("dice"), 1, 5, "a die (a 6 ends the turn)")
    turn = reader.whole("turn", reader.raw("turn"), 1)
    reader.check_rotation(player, turn)
    if phase in (Phase.DECIDE, Phase.ROLLING) and not dice:
        raise reader.error("dice", f"a turn in phase {PHASE_NAMES[phase]} has rolled at least "
                           "one die: give them, e.g. 3,5")
    if phase in (Phase.OPENING, Phase.OVER) and dice:
        raise reader.error("dice", f"no dice are on the table in phase {PHASE_NAMES[phase]}: "
                           "write -")
    winners = _winners(reader, runners, player, phase, end=track_length,
                       same_round=same_round)
    done = turn if phase is Phase.OVER else turn - 1
    for seat, square in enumerate(runners):
        turns = max(0, -(-(done - seat) // players))
        if square < turns:
            raise reader.error("runners", f"runner {seat + 1} stands on square {square} after "
                               f"{turns} turns of its own: every turn moves a runner at least "
                               "one square")
    return ExtraMetersData(runners, player, turn, phase, dice, winners)


def _winners(reader: Reader, runners: tuple[int, ...], player: int, phase: Phase, *, end: int,
             same_round: bool) -> tuple[int, ...]:
    """The winners the runners make (none before the end); refuses runners past the end
    where the game would already be over."""
    past = tuple(s for s, square in enumerate(runners) if square > end)
    if phase is not Phase.OVER:
        early = [s for s in past if not same_round or s >= player]
        if early:
            raise reader.error("runners", f"runner {early[0] + 1} is past square {end} (on "
                               f"{runners[early[0]]}) but the game is not over: runners stand "
                               f"on squares 0 to {end} until the finish"
                               + (" (under same_round, seats that have played this round may "
                                  "be past it)" if same_round else ""))
        return ()
    if not same_round:
        if past != (player,):
            raise reader.error("runners", f"a finished game (finish=first) has exactly one "
                               f"runner past square {end}, the one of the seat to move "
                               f"(seat {player + 1}); past it: "
                               f"{', '.join(str(s + 1) for s in past) or 'none'}")
        return past
    if player != len(runners) - 1 or not past:
        raise reader.error("phase" if past else "runners",
                           "a same_round game ends after the last seat's turn with at least "
                           f"one runner past square {end}")
    return past
