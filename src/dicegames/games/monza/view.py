"""The web view of a Monza position: the circuit, the cars and the dice as plain JSON.

The board module (``board.js`` beside this file) draws from this data alone, so a user's own
circuit file is drawn like the shipped one: every square comes with its lane, its interval
along the track, its colour (or ``tyre``) and its colour's letter, so the board reads without
colour too. Every square has an ``"id"`` (its name, ``m5``), the notation's own name for it,
and every car one too (``car-0``), so the action hints can name where each move is clicked:
a step on the square it goes to, the variant's advance on its square, ``stay`` on the car.

Everything here is pure. The circuit itself (:func:`static_board`) is the same in every
state, so the web app builds and sends it once per viewer; the rest (:func:`moving_view`)
runs at every move of every web match and stays cheap on a circuit at the size limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dicegames.core.model import PASS, JsonObject, Seat
from dicegames.core.text import colour_word
from dicegames.games.monza.data import COLOURS, LETTERS, START, Advance, MonzaData, Phase, Step
from dicegames.i18n import _

if TYPE_CHECKING:
    from dicegames.games.monza.rules import MonzaRules, Move

SEAT_COLOURS: dict[str, str] = {
    "red": "#e53935", "yellow": "#fbc02d", "green": "#43a047",
    "blue": "#1e88e5", "white": "#f4f4ef", "purple": "#8e24aa",
}
"""The CSS colour of each car and square colour (the page's seat markers use them too)."""

SHAPES: dict[str, str] = {
    "red": "circle", "yellow": "triangle", "green": "square",
    "blue": "diamond", "white": "star", "purple": "cross",
}
"""The shape drawn beside each colour on its squares, dice and in the legend (the page's
``/static/marks.js`` draws them), so the board reads without telling colours apart."""

PHASES: dict[Phase, str] = {
    Phase.ROLL: "roll", Phase.STEP: "step", Phase.STUCK: "stuck",
    Phase.VARIANT: "variant", Phase.OVER: "over",
}
"""The phase of a turn as a word for the front end."""

START_ID = "start"
"""The id of the wide start zone on the board."""


def car_id(seat: Seat) -> str:
    """The board id of ``seat``'s car (where ``stay`` and ``pass`` are clicked)."""
    return f"car-{seat}"


def colour_label(index: int) -> str:
    """A colour's name for people, in the current language: ``Red``."""
    word = colour_word(COLOURS[index])
    return word[:1].upper() + word[1:]


def mark(index: int) -> JsonObject:
    """The marks of colour ``index`` that read without colour, the same on squares, dice and
    the legend in every language: its notation letter (``R``) and its shape (``circle``)."""
    return {"mark": LETTERS[index].upper(), "shape": SHAPES[COLOURS[index].value]}


def board(game: MonzaRules, data: MonzaData, deciding: Sequence[Seat]) -> JsonObject:
    """The drawing data: lanes of squares, the start zone, the cars and the turn.

    Keys: ``name`` (the circuit's), ``first``/``length`` (the track's span in units),
    ``lanes`` (``{"name", "squares": [{"id", "lane", "start", "end", "colour", "letter",
    "target", "entry"}]}``; ``colour`` is a colour word or ``tyre``, ``letter`` is ``""`` on
    a tyre), ``start`` (the start zone's id), ``cars`` (``{"id", "seat", "colour",
    "letter", "at", "target", "to_go"}``, ``at`` a square id or ``start``), ``player``
    (whose turn), ``decider`` (who decides now, the owner of the last colour in the variant
    step, None at a roll or the end), ``phase``, ``last`` (the colour of the last die used
    this turn or None), ``used`` (dice used this turn), ``finishing`` (the last round is
    being played) and ``winners``.
    """
    return {**static_board(game), **moving_board(game, data, deciding)}


def static_board(game: MonzaRules) -> JsonObject:
    """The part of :func:`board` that no move changes: the circuit's name, span, lanes of
    squares and start zone (see :meth:`dicegames.core.presenter.Presenter.static_board`)."""
    circuit = game.circuit
    entries = set(circuit.entries)
    lanes = []
    for lane_no, lane in enumerate(circuit.lanes):
        squares = []
        for j in lane:
            square = circuit.squares[j]
            colour = "tyre" if square.colour is None else square.colour.value
            shape = "" if square.colour is None else SHAPES[colour]
            squares.append({
                "id": square.name, "lane": lane_no, "start": square.start, "end": square.end,
                "colour": colour,
                "letter": "" if square.colour is None else LETTERS[circuit.colour_of[j]].upper(),
                "shape": shape,
                "target": j in circuit.targets, "entry": j in entries,
            })
        lanes.append({"name": circuit.lane_names[lane_no], "squares": squares})
    return {
        "name": circuit.name,
        "first": min(s.start for s in circuit.squares),
        "length": circuit.length,
        "lanes": lanes,
        "start": START_ID,
    }


def moving_board(game: MonzaRules, data: MonzaData, deciding: Sequence[Seat]) -> JsonObject:
    """The part of :func:`board` a move may change: the cars and the turn."""
    circuit = game.circuit
    cars = []
    for seat, car in enumerate(data.cars):
        on_target = car != START and car in circuit.targets
        cars.append({
            "id": car_id(seat), "seat": seat, "colour": COLOURS[seat].value,
            "letter": LETTERS[seat].upper(), "at": circuit.square_name(car),
            "target": on_target, "to_go": 0 if on_target else circuit.steps_to_finish(car),
        })
    return {
        "cars": cars,
        "player": data.player,
        "decider": deciding[0] if deciding else None,
        "phase": PHASES[data.phase],
        "last": COLOURS[data.last].value if data.last >= 0 else None,
        "used": data.used,
        "finishing": data.finishing,
        "winners": list(data.winners),
    }


def dice(data: MonzaData) -> list[JsonObject]:
    """This turn's six dice in colour order, ``"used": true`` on those already spent, each
    with its ``colour`` in the board's palette (the squares' and cars' colours) and the
    squares' ``mark`` and ``shape`` (:func:`mark`: a die never shows the translated colour
    word's initial, which would contradict the squares' letters).

    Which die of a colour was spent does not matter, so the first ones of each colour are
    marked. Empty before the roll (and when a car on a target waits without rolling).
    """
    if not data.roll or data.phase is Phase.ROLL:
        return []
    shown: list[JsonObject] = []
    for index, (rolled, left) in enumerate(zip(data.roll, data.dice, strict=True)):
        for k in range(rolled):
            die: JsonObject = {"value": COLOURS[index].value, "label": colour_label(index),
                               "colour": SEAT_COLOURS[COLOURS[index].value], **mark(index)}
            if k < rolled - left:
                die["used"] = True
            shown.append(die)
    return shown


def dice_entry(data: MonzaData) -> JsonObject | None:
    """At a roll: six dice, each one of the six colours (with the squares' ``mark`` and
    ``shape``); the letters joined (``rryyyg``) are the roll's notation, in any order. None
    when no dice are to be rolled."""
    if data.phase is not Phase.ROLL:
        return None
    faces = [{"value": letter, "label": colour_label(i),
              "colour": SEAT_COLOURS[COLOURS[i].value], **mark(i)}
             for i, letter in enumerate(LETTERS)]
    return {"count": len(COLOURS), "faces": faces, "join": ""}


def view(game: MonzaRules, data: MonzaData, deciding: Sequence[Seat]) -> JsonObject:
    """The whole view (see :meth:`dicegames.core.presenter.Presenter.view`), with the cars' colours
    as ``seat_colours`` so the page's seat markers match the board; ``deciding`` are the
    seats deciding now (none at a roll or the end)."""
    moving = moving_view(game, data, deciding)
    return {**moving, "board": {**static_board(game), **moving["board"]}}


def moving_view(game: MonzaRules, data: MonzaData, deciding: Sequence[Seat]) -> JsonObject:
    """:func:`view` without the :func:`static_board` part of its board (see
    :meth:`dicegames.core.presenter.Presenter.moving_view`)."""
    return {
        "game": game.spec.id,
        "board": moving_board(game, data, deciding),
        "dice": dice(data),
        "dice_entry": dice_entry(data),
        "seat_colours": [SEAT_COLOURS[COLOURS[s].value] for s in range(len(data.cars))],
    }


def hint(game: MonzaRules, data: MonzaData, seat: Seat, action: Move) -> JsonObject:
    """One legal action as a button label (in the current language) and the board ids it
    is clicked on."""
    circuit = game.circuit
    if isinstance(action, Step):
        goal = action.square in circuit.targets
        colour = colour_word(action.colour)
        label = (_("{colour} die: drive to {square} — the finish!", colour=colour,
                   square=action.name) if goal
                 else _("{colour} die: drive to {square}", colour=colour, square=action.name))
        return {"move": str(action), "label": label[:1].upper() + label[1:],
                "targets": [action.name]}
    if isinstance(action, Advance):  # the variant's free step: always the decider's own car
        label = (_("Free step: move your car to {square} — the finish!", square=action.name)
                 if action.square in circuit.targets
                 else _("Free step: move your car to {square}", square=action.name))
        return {"move": str(action), "label": label, "targets": [action.name]}
    if action == PASS:
        car = data.cars[seat]
        waiting = car != START and car in circuit.targets
        label = _("Wait on the finish") if waiting else _("No die fits: pass")
        return {"move": str(action), "label": label, "targets": [car_id(seat)]}
    return {"move": str(action), "label": _("Keep your car where it is"),
            "targets": [car_id(seat)]}


def action_hints(game: MonzaRules, data: MonzaData, seat: Seat,
                 legal: Sequence[Move]) -> list[JsonObject]:
    """The ``legal`` actions of ``seat`` in their order, labelled, with their board targets."""
    return [hint(game, data, seat, action) for action in legal]
