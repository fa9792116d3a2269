"""The web view of For a Few Extra Meters: the track and its runners as JSON, and the hints.

The SVG board (``board.js``) draws a winding track of squares 1..N between a start and a
finish, every runner on its square, and during a turn the dice rolled so far, their sum and a
"ghost" runner where the current runner would land if the player stopped now. The two
decisions are picked on the board: ``stop`` on the ghost (element id ``landing``) and
``roll`` on a big die (element id ``roll``).

Everything here is derived from the position alone and is cheap (one pass over the runners),
because the web app builds a view at every move of every match.

Physical dice: each roll is one die, and the possible faces differ by phase (1..5 on the
compulsory opening roll, whose 6 is rolled again; 1..6 later), so the page's plain list of
outcomes (one button per face, the exact legal ones) fits better than a face picker and
``dice_entry`` is None.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicegames.core.model import JsonObject, Seat
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.render import letter
from dicegames.i18n import _

SEAT_COLOURS = ("#d7263d", "#2a6fd6", "#2e9d4f", "#9b3fc4", "#0f9aa8", "#e08a00",
                "#7a5230", "#5d6b7a")
"""One colour per seat, in the order of the terminal's runner colours (red, blue, green,
magenta, cyan, yellow...); the runner's letter (A, B, ...) reads without colour too."""

PHASES = {Phase.OPENING: "opening", Phase.DECIDE: "decide", Phase.ROLLING: "rolling",
          Phase.OVER: "over"}
"""The phase of the turn as a word for the board module."""


def columns(track_length: int) -> int:
    """How many squares a row of the winding track holds on a wide screen: 10 (a 50-square
    track is five rows of ten, like a counting board), 15 for long tracks so they stay
    compact. The board module takes fewer on a phone."""
    return 10 if track_length <= 100 else 15


def where(position: int, track_length: int) -> str:
    """Where a runner stands, in words (in the current language): ``start``,
    ``square 12``, ``past the finish``."""
    if position == 0:
        return _("start")
    if position > track_length:
        return _("past the finish")
    return _("square {number}", number=position)


def runners(data: ExtraMetersData, track_length: int) -> list[JsonObject]:
    """Every runner: seat, letter, colour, position, and whether it finished or won."""
    over = data.phase is Phase.OVER
    return [
        {
            "id": f"runner-{seat}",
            "seat": seat,
            "letter": letter(seat),
            "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
            "position": position,
            "where": where(position, track_length),
            "finished": position > track_length,
            "winner": seat in data.winners,
            "current": seat == data.player and not over,
        }
        for seat, position in enumerate(data.positions)
    ]


def turn_info(data: ExtraMetersData, track_length: int) -> JsonObject | None:
    """The current turn's dice, their running sum, and what each decision would do.

    ``landing`` is where the runner goes if the player stops now; ``six_position`` is where a
    6 on the next roll would leave it (one square per die, that 6 included). None outside a
    turn (at the opening roll, before any die, and at the end of the game).
    """
    if data.phase is Phase.OVER or not data.dice:
        return None
    start = data.positions[data.player]
    total = sum(data.dice)
    return {
        "seat": data.player,
        "dice": list(data.dice),
        "sum": total,
        "count": len(data.dice),
        "from": start,
        "landing": start + total,
        "landing_where": where(start + total, track_length),
        "crosses": start + total > track_length,
        "six_moves": len(data.dice) + 1,
        "six_position": start + len(data.dice) + 1,
    }


def board(data: ExtraMetersData, track_length: int, finish: str, players: int) -> JsonObject:
    """The drawing data of the race.

    ``landing`` (the ghost runner, the target of ``stop``) and ``roll`` (the big die, the
    target of ``roll``) are present only while the player decides; each carries the ``id``
    the hints name.
    """
    turn = turn_info(data, track_length)
    deciding = data.phase is Phase.DECIDE and turn is not None
    rounds = (data.turn + players - 1) // players
    return {
        "track_length": track_length,
        "finish": finish,
        "columns": columns(track_length),
        "phase": PHASES[data.phase],
        "player": data.player,
        "round": rounds,
        "runners": runners(data, track_length),
        "winners": list(data.winners),
        "turn": turn,
        "landing": ({"id": "landing", "seat": data.player, "position": turn["landing"]}
                    if deciding and turn is not None else None),
        "roll": ({"id": "roll", "seat": data.player, "count": turn["count"]}
                 if deciding and turn is not None else None),
    }


def dice(data: ExtraMetersData) -> list[JsonObject]:
    """The dice of the turn so far, in the order rolled (none are spent before the turn ends,
    so no die is marked ``used``); empty between turns."""
    if data.phase is Phase.OVER:
        return []
    return [{"value": die, "label": str(die)} for die in data.dice]


def view(data: ExtraMetersData, track_length: int, finish: str, players: int,
         game_id: str = "extra-meters") -> JsonObject:
    """The whole view (see :meth:`dicegames.core.presenter.Presenter.view`)."""
    return {
        "game": game_id,
        "board": board(data, track_length, finish, players),
        "dice": dice(data),
        "dice_entry": None,
        "seat_colours": [SEAT_COLOURS[seat % len(SEAT_COLOURS)] for seat in range(players)],
    }


def hint(data: ExtraMetersData, decision: Decision, track_length: int) -> JsonObject:
    """One decision as a button label (in the current language) and its board target."""
    count = len(data.dice)
    if decision is Decision.ROLL:
        label = _("Roll again (a 6 moves you only {count})", count=count + 1)
        return {"move": str(decision), "label": label, "targets": ["roll"]}
    total = sum(data.dice)
    landing = data.positions[data.player] + total
    if landing > track_length:
        label = _("Stop: move {total} and cross the finish!", total=total)
    else:
        label = _("Stop: move {total} to square {square}", total=total, square=landing)
    return {"move": str(decision), "label": label, "targets": ["landing"]}


def hints(data: ExtraMetersData, legal: Sequence[Decision], seat: Seat,
          track_length: int) -> list[JsonObject]:
    """The hints of ``seat`` for the legal decisions, in legal order (see
    :meth:`dicegames.core.presenter.Presenter.action_hints`); none when it is not that
    seat's choice."""
    if data.phase is not Phase.DECIDE or seat != data.player:
        return []
    return [hint(data, decision, track_length) for decision in legal]
