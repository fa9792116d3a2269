"""Monza positions as text, and their facts.

Eight fields (documented with examples in ``rules.md``, section "Positions")::

    m5/start/i3 2 step RYyybg r 4/0/0 - 5
    |           | |    |      | |     | turn count (turn 1 is seat 1's first turn)
    |           | |    |      | |     final: a car is on a target, the round is being completed
    |           | |    |      | dice used by each seat in the current round
    |           | |    |      the colour of the last die used this turn (-: none yet)
    |           | |    this turn's six dice, used ones in capitals (-: not rolled yet)
    |           | roll, step, stuck, variant or over
    |           the seat whose turn it is (1-based)
    each car's square by name, or start for the start zone; seat 1 (red) first

The winners of a finished game follow from the cars on targets and the dice they used.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.position import NONE, SEATS, Facts, Reader, seat_text
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import COLOURS, DICE, LETTERS, START, MonzaData, Phase

FIELDS = ("cars", "to-move", "phase", "dice", "last", "round-used", "final", "turn")
"""The fields of a position, in order."""

PHASES = {"roll": Phase.ROLL, "step": Phase.STEP, "stuck": Phase.STUCK,
          "variant": Phase.VARIANT, "over": Phase.OVER}
"""The phase words and the phases they name."""

PHASE_NAMES = {phase: word for word, phase in PHASES.items()}

FINAL = "final"
"""The word of the ``final`` field while the last round is being completed."""


@dataclass(frozen=True, slots=True)
class MonzaFacts(Facts):
    """The facts of a Monza position.

    Attributes:
        cars: each seat's square by name (``m5``), or ``start`` in the start zone.
        roll: the colours of this turn's six dice, in colour order (empty before the roll).
        unused: the colours of the dice not used yet this turn.
        last: the colour of the last die used this turn, None before the first step.
        round_used: the dice each seat used in the current round.
        final_round: a car has reached a target and the round is being completed.
    """

    cars: tuple[str, ...]
    roll: tuple[str, ...]
    unused: tuple[str, ...]
    last: str | None
    round_used: tuple[int, ...]
    final_round: bool


def _dice_text(data: MonzaData) -> str:
    if not data.roll:
        return NONE
    return "".join(letter.upper() * (rolled - unused) + letter * unused
                   for letter, rolled, unused in zip(LETTERS, data.roll, data.dice,
                                                     strict=True))


def position(data: MonzaData, circuit: Circuit) -> str:
    """The position notation of ``data`` on ``circuit``."""
    return " ".join((
        SEATS.join(circuit.square_name(car) for car in data.cars), seat_text(data.player),
        PHASE_NAMES[data.phase], _dice_text(data),
        LETTERS[data.last] if data.last >= 0 else NONE,
        SEATS.join(str(n) for n in data.round_used),
        FINAL if data.finishing else NONE, str(data.turn)))


def facts(data: MonzaData, circuit: Circuit) -> MonzaFacts:
    """The facts of ``data`` on ``circuit``."""
    def colours(counts: tuple[int, ...]) -> tuple[str, ...]:
        return tuple(str(c) for c, n in zip(COLOURS, counts, strict=False) for _ in range(n))

    return MonzaFacts(data.player, data.turn, PHASE_NAMES[data.phase],
                      data.phase is Phase.OVER, data.winners,
                      tuple(circuit.square_name(car) for car in data.cars),
                      colours(data.roll), colours(data.dice) if data.roll else (),
                      str(COLOURS[data.last]) if data.last >= 0 else None, data.round_used,
                      data.finishing)


def from_position(text: str, players: int, circuit: Circuit, *, longest: bool,
                  variant: bool) -> MonzaData:
    """The data ``text`` describes on ``circuit``, checked to be a position the rules reach.

    Raises:
        PositionError: the text is malformed or impossible; the message says why.
    """
    reader = Reader("Monza", text, FIELDS, players)
    cars = tuple(_square(reader, circuit, name) for name in reader.seats("cars", "cars"))
    player = reader.seat("to-move")
    phase = reader.choice("phase", PHASES)
    roll, dice = _dice(reader)
    last = _last(reader, roll, dice)
    round_used = tuple(reader.whole("round-used", part, 0, DICE, "a seat's dice this round")
                       for part in reader.seats("round-used", "counts of dice"))
    finishing = reader.choice("final", {FINAL: True, NONE: False})
    turn = reader.whole("turn", reader.raw("turn"), 1)
    reader.check_rotation(player, turn)
    _check_cars(reader, circuit, cars, player if phase is Phase.STEP else -1)
    used = DICE - sum(dice) if roll else 0
    moved = phase in (Phase.VARIANT, Phase.OVER)
    for seat, count in enumerate(round_used):
        expected = used if seat == player and moved else 0
        if seat >= player and count != expected:
            reason = (f"has just used {used} dice" if seat == player and moved else
                      "has not finished a move this round")
            raise reader.error("round-used", f"seat {seat + 1} {reason}, so its count is "
                               f"{expected}, not {count}")
    on_target = tuple(s for s, car in enumerate(cars)
                      if car != START and car in circuit.targets)
    if on_target and not finishing:
        raise reader.error("final", f"car {on_target[0] + 1} is on the target "
                           f"{circuit.square_name(cars[on_target[0]])}: the last round is on "
                           f"(write {FINAL})")
    if finishing and player == 0 and phase in (Phase.ROLL, Phase.STEP, Phase.STUCK):
        raise reader.error("final", "a new round has begun (seat 1 to move), so no last "
                           "round is on: write -")
    data = MonzaData(cars, player, turn, phase, dice if roll else (0,) * DICE, roll, used,
                     last, round_used, finishing)
    _check_phase(reader, circuit, data, on_target, longest=longest, variant=variant)
    if phase is not Phase.OVER:
        return data
    fewest = min(round_used[s] for s in on_target)
    winners = tuple(s for s in on_target if round_used[s] == fewest)
    return MonzaData(cars, player, turn, phase, data.dice, roll, used, last, round_used,
                     True, winners)


def _square(reader: Reader, circuit: Circuit, name: str) -> int:
    """The square called ``name`` (or START), refusing unknown squares and tyres."""
    if name == "start":
        return START
    square = circuit.by_name.get(name)
    if square is None:
        raise reader.error("cars", f"{name!r} is not a square of the circuit: squares are "
                           f"named by lane ({', '.join(circuit.lane_names)}) and place, like "
                           f"{circuit.squares[circuit.entries[0]].name}; start is the start "
                           "zone")
    if circuit.squares[square].is_tyre:
        raise reader.error("cars", f"{name} is a tyre square: cars never stand on one")
    return square


def _dice(reader: Reader) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The roll and the unused dice (counts per colour); ((), zeros) before the roll."""
    text = reader.raw("dice")
    if text == NONE:
        return (), (0,) * DICE
    letters = LETTERS + LETTERS.upper()
    if any(ch not in letters for ch in text) or len(text) != DICE:
        key = ", ".join(f"{ch}={c}" for ch, c in zip(LETTERS, COLOURS, strict=True))
        raise reader.error("dice", f"{text!r} is not six dice: one letter per die ({key}), "
                           "in capitals for the dice used this turn, e.g. RYyybg; - before "
                           "the roll")
    roll = tuple(text.lower().count(letter) for letter in LETTERS)
    return roll, tuple(text.count(letter) for letter in LETTERS)


def _last(reader: Reader, roll: tuple[int, ...], dice: tuple[int, ...]) -> int:
    """The colour of the last die used (-1: none), which must be a used die."""
    text = reader.raw("last")
    used = sum(roll) - sum(dice) if roll else 0
    if text == NONE:
        if used:
            raise reader.error("last", f"{used} dice are used this turn: give the colour of "
                               "the last one (a letter of " + LETTERS + ")")
        return -1
    if len(text) != 1 or text not in LETTERS:
        raise reader.error("last", f"{text!r} is not a colour letter: one of {LETTERS}, or -")
    colour = LETTERS.index(text)
    if not roll or roll[colour] == dice[colour]:
        raise reader.error("last", f"no {COLOURS[colour]} die is used this turn (used dice "
                           "are in capitals in the dice field)")
    return colour


def _check_cars(reader: Reader, circuit: Circuit, cars: tuple[int, ...], mover: int) -> None:
    """A square holds one car, the start zone and a target square any number (a car on a
    target is never pushed); in the middle of a move the ``mover`` (-1: none) may stand on
    another car (it is pushed back when the move ends)."""
    for square in {car for car in cars if car != START and car not in circuit.targets}:
        there = [seat for seat, car in enumerate(cars) if car == square]
        if len(there) > 1 and not (len(there) == 2 and mover in there):
            raise reader.error("cars", f"cars {there[0] + 1} and {there[1] + 1} are both on "
                               f"{circuit.square_name(square)}: a square holds one car (a car "
                               "ending its move on another pushes it back)")


def _check_phase(reader: Reader, circuit: Circuit, data: MonzaData,
                 on_target: tuple[int, ...], *, longest: bool, variant: bool) -> None:
    """The phase against the cars and the dice."""
    cars, player, phase, roll, unused = data.cars, data.player, data.phase, data.roll, data.dice
    car = cars[player]
    here = circuit.square_name(car)
    car_on_target = player in on_target
    used = sum(roll) - sum(unused) if roll else 0
    word = PHASE_NAMES[phase]
    if phase in (Phase.ROLL,) and roll:
        raise reader.error("dice", "the dice are not rolled yet in phase roll: write -")
    if phase in (Phase.STEP, Phase.VARIANT) and not roll:
        raise reader.error("dice", f"phase {word} comes after the roll: give the six dice")
    if phase is Phase.ROLL and car_on_target:
        raise reader.error("phase", f"car {player + 1} is on the target {here}: it rolls no "
                           "more (phase stuck)")
    if phase is Phase.STEP and not circuit.steps(car, unused, longest):
        raise reader.error("phase", f"car {player + 1} on {here} has no legal step with the "
                           "unused dice, so its move is over")
    if phase is Phase.STUCK:
        if not roll and not car_on_target:
            raise reader.error("phase", f"a car is stuck before the roll only on a target; "
                               f"car {player + 1} is on {here}")
        if roll and (used or circuit.steps(car, unused, False)):
            raise reader.error("phase", f"car {player + 1} on {here} can use a die of this "
                               "roll, so it is not stuck")
    if phase is Phase.VARIANT:
        if not variant:
            raise reader.error("phase", "phase variant needs the option "
                               "variant_last_colour=true")
        if circuit.steps(car, unused, longest):
            raise reader.error("phase", f"car {player + 1} on {here} still has a legal step, "
                               "so its move is not over")
        owner = data.last
        free: tuple[int, ...] = ()
        if 0 <= owner < len(cars) and not (cars[owner] != START
                                           and cars[owner] in circuit.targets):
            free = tuple(j for j in circuit.next_squares(cars[owner]) if j not in cars)
        if not free:
            raise reader.error("last", "in phase variant the car of the last die's colour "
                               "is in play and has a free square ahead")
    if phase is Phase.OVER and (player != len(cars) - 1 or not on_target):
        raise reader.error("phase", "a game ends after the last seat's turn of a round "
                               "with a car on a target")
