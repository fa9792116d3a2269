"""The web view of a Petits Chevaux position: the cross board as JSON, and button hints.

:func:`view` is what ``PetitsChevaux.view`` returns and ``board.js`` draws; :func:`hints` is
``PetitsChevaux.action_hints``. Both are pure and cheap (a few hundred small dicts), since
the web app builds them at every move of every match.

The board data names every element a move can be picked on with an ``"id"``:

* ``t0`` .. ``t55``: the track squares, by track index (clockwise, ``t0`` is red's start);
* ``s-r1`` .. ``s-g6``: stable column squares 1 to 6 of each colour (by its letter);
* ``home-r`` .. ``home-g``: the four corner stables where horses wait;
* ``h-r1`` .. ``h-g4``: the horses of the colours in play, wherever they stand.

Grid squares are ``[row, column]`` on the 15 x 15 grid of :mod:`.board` (row 0 at the top),
so a front end draws the cross without knowing the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dicegames.core.model import PASS, JsonObject, Seat
from dicegames.core.text import counted, listing
from dicegames.games.petits_chevaux.board import (
    CENTRE,
    CORNER,
    ENTRANCE,
    ENTRANCE_SQUARE,
    HOME,
    PATHS,
    SIZE,
    STABLE,
    START,
    TRACK,
    Cell,
    Colour,
)
from dicegames.games.petits_chevaux.data import HORSE_OF, Action, ChevauxData, Phase
from dicegames.games.petits_chevaux.moves import WINNING, moved
from dicegames.games.petits_chevaux.render import horse_name
from dicegames.i18n import N_, _

if TYPE_CHECKING:
    from dicegames.games.petits_chevaux.rules import Move, PetitsChevauxRules

COLOURS: dict[Colour, str] = {
    Colour.RED: "#d6333a",
    Colour.BLUE: "#2a6fd6",
    Colour.YELLOW: "#e9b100",
    Colour.GREEN: "#2e9d4f",
}
"""The CSS colour of each colour's horses (also the page's seat dots, via seat_colours)."""

PHASES: dict[Phase, str] = {Phase.DRAW: "draw", Phase.ROLL: "roll", Phase.MOVE: "move",
                            Phase.OVER: "over"}
"""The phase names the board module reads."""

FACES: list[JsonObject] = [{"value": str(face), "label": str(face)} for face in range(1, 7)]
"""The faces a person with a real die picks from (the notation of a roll is its face)."""


# ----------------------------------------------------------------------------- ids


def square_id(colour: Colour, progress: int) -> str:
    """The id of the square a horse of ``colour`` stands on at ``progress`` (1..62)."""
    if progress > ENTRANCE:
        return f"s-{colour.letter}{progress - ENTRANCE}"
    return f"t{PATHS[colour][progress]}"


def horse_id(colour: Colour, horse: int) -> str:
    """The id of horse ``horse`` (0..3) of ``colour``: ``h-r1`` .. ``h-g4``."""
    return f"h-{colour.letter}{horse + 1}"


def stable_id(colour: Colour) -> str:
    """The id of a colour's corner stable: ``home-r`` .. ``home-g``."""
    return f"home-{colour.letter}"


def _cell(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


# ----------------------------------------------------------------------------- the board


def _track() -> list[JsonObject]:
    """The 56 track squares in order, with the start and entrance squares marked."""
    starts = {START[colour]: colour for colour in Colour}
    entrances = {ENTRANCE_SQUARE[colour]: colour for colour in Colour}
    squares: list[JsonObject] = []
    for index, cell in enumerate(TRACK):
        square: JsonObject = {"id": f"t{index}", "cell": _cell(cell)}
        if index in starts:
            square["start"] = starts[index].label
        if index in entrances:
            square["entrance"] = entrances[index].label
        squares.append(square)
    return squares


def _stables(data: ChevauxData, colours: tuple[Colour, ...]) -> list[JsonObject]:
    """The four corner stables, each with its seat (None when the colour is not in play),
    the numbers of the horses waiting there, and its stable column of six squares."""
    seats = {colour: seat for seat, colour in enumerate(colours)}
    stables: list[JsonObject] = []
    for colour in Colour:
        seat = seats.get(colour)
        row = data.horses[seat] if seat is not None else ()
        top, left, bottom, right = CORNER[colour]
        stables.append({
            "id": stable_id(colour),
            "colour": colour.label,
            "letter": colour.letter.upper(),
            "css": COLOURS[colour],
            "seat": seat,
            "box": [top, left, bottom, right],
            "waiting": [horse + 1 for horse, progress in enumerate(row) if progress == HOME],
            "home": sum(progress >= WINNING[0] for progress in row),
            "column": [{"id": f"s-{colour.letter}{number}", "cell": _cell(cell),
                        "number": number, "winning": number >= WINNING[0] - ENTRANCE}
                       for number, cell in enumerate(STABLE[colour], start=1)],
        })
    return stables


def _horses(data: ChevauxData, colours: tuple[Colour, ...]) -> list[JsonObject]:
    """Every horse in play: where it stands (``cell`` None in the corner) and barrages."""
    horses: list[JsonObject] = []
    for seat, colour in enumerate(colours):
        row = data.horses[seat]
        for horse, progress in enumerate(row):
            on_track = HOME < progress <= ENTRANCE
            if progress == HOME:
                place, cell = "home", None
            elif on_track:
                place, cell = "track", _cell(TRACK[PATHS[colour][progress]])
            else:
                place, cell = "stable", _cell(STABLE[colour][progress - ENTRANCE - 1])
            partner = next((other + 1 for other, p in enumerate(row)
                            if other != horse and on_track and p == progress), None)
            horses.append({
                "id": horse_id(colour, horse),
                "label": horse_name(colour, horse),
                "colour": colour.label,
                "css": COLOURS[colour],
                "seat": seat,
                "number": horse + 1,
                "progress": progress,
                "place": place,
                "cell": cell,
                "square": None if progress == HOME else square_id(colour, progress),
                "barrage": partner,
            })
    return horses


def board(game: PetitsChevauxRules, data: ChevauxData) -> JsonObject:
    """The board data ``board.js`` draws: squares, stables, horses, and whose turn it is."""
    colours = game.colours
    deciding = data.phase in (Phase.ROLL, Phase.MOVE)
    return {
        "size": SIZE,
        "centre": _cell(CENTRE),
        "track": _track(),
        "stables": _stables(data, colours),
        "horses": _horses(data, colours),
        "phase": PHASES[data.phase],
        "player": data.player if deciding else None,
        "colour": colours[data.player].label if deciding else None,
        "roll": data.roll or None,
        "winner": data.winner if data.winner >= 0 else None,
    }


def view(game: PetitsChevauxRules, data: ChevauxData) -> JsonObject:
    """The whole view (see ``Game.view``): the board, the die, real-dice entry, colours.

    The die shows while the player decides how to play it; it is spent by the move, after
    which the position holds no roll any more (so no die is ever marked ``used``). A person
    with a real die enters its face with the picker; the draw for the first player (a colour)
    is offered as a plain list instead.
    """
    dice: list[JsonObject] = []
    if data.phase is Phase.MOVE and data.roll:
        dice.append({"value": data.roll, "label": str(data.roll)})
    return {
        "game": game.spec.id,
        "board": board(game, data),
        "dice": dice,
        "dice_entry": ({"count": 1, "faces": [dict(face) for face in FACES], "join": " "}
                       if data.phase is Phase.ROLL else None),
        "seat_colours": [COLOURS[colour] for colour in game.colours],
    }


# ----------------------------------------------------------------------------- hints


def _label(game: PetitsChevauxRules, data: ChevauxData, action: Action, horse: int,
            target: int) -> str:
    """A short friendly button text, in the current language: which horse goes where, and
    what happens there."""
    colours = game.colours
    seat = data.player
    colour = colours[seat]
    name = horse_name(colour, horse)
    steps = counted(data.roll, N_("1 square"), N_("{count} squares"))
    if action is Action.OUT:
        said = _("Bring {horse} out", horse=name)
    elif target > ENTRANCE:
        said = _("Move {horse} into the stable, square {number}", horse=name,
                 number=target - ENTRANCE)
    elif target == ENTRANCE:
        said = _("Move {horse} {squares} to the stable entrance", horse=name, squares=steps)
    else:
        said = _("Move {horse} {squares}", horse=name, squares=steps)
    horses, captured = moved(colours, data.horses, seat, horse, target)
    if captured:
        victims = listing([horse_name(colours[s], h) for s, h in captured])
        said = _("{said}: send {victims} home", said=said, victims=victims)
    elif target <= ENTRANCE:
        partner = next((other for other, p in enumerate(horses[seat])
                        if other != horse and p == target), None)
        if partner is not None:
            said = _("{said}: barrage with {horse}", said=said,
                     horse=horse_name(colour, partner))
    return said


def hints(game: PetitsChevauxRules, data: ChevauxData, seat: Seat,
          legal: Sequence[Move]) -> list[JsonObject]:
    """The ``legal`` moves of ``seat`` as buttons, in legal order (see ``Game.action_hints``).

    A horse move is picked on the horse or on the square it would land on; ``out`` on the
    corner stable, on any waiting horse (they are interchangeable) or on the start square.
    The landing squares come from :meth:`PetitsChevaux.moves`, the rules' own list.
    """
    found: list[JsonObject] = []
    colour = game.colours[seat]
    row = data.horses[seat]
    landing = dict(game.moves(data, data.roll)) if data.roll else {}
    for action in legal:
        if action == PASS:
            found.append({"move": str(PASS), "label": _("Pass (no move)")
                          if not landing else _("Pass"), "targets": []})
            continue
        assert isinstance(action, Action)
        target = landing[action]
        if action is Action.OUT:
            horse = row.index(HOME)
            targets = [stable_id(colour)]
            targets += [horse_id(colour, h) for h, p in enumerate(row) if p == HOME]
        else:
            horse = HORSE_OF[action]
            targets = [horse_id(colour, horse)]
        targets.append(square_id(colour, target))
        found.append({"move": str(action), "label": _label(game, data, action, horse, target),
                      "targets": targets})
    return found
