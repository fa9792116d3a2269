"""The web view of EXTRA!: every score sheet as drawing data, and the choices as hints.

The web app's board module (``board.js``) draws the sheets from :func:`view`; it never
computes rules. So everything it shows is worked out here: each row's crosses and score, the
EXTRA columns, who still decides on the shared roll, and, for each legal decision, the exact
cells it would write in (:func:`action_hints`), so the board can highlight them and let a
person pick a decision by tapping the sheet (two rows, then an EXTRA column).

Element ids (the ``targets`` of the hints) name a seat's sheet: ``s0-r6-3`` is box 3
(0-based) of row 6 of seat 0, ``s0-r6`` the row itself (a cross lost on a full row, or only
noted in the children's ``rows`` reading), ``s0-xa`` EXTRA column a. Only the next two boxes
of each row carry an id: no decision writes further.

Pure and cheap: it runs at every move of every web match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicegames.core.model import JsonObject, NodeKind, Seat
from dicegames.core.presenter import SEAT_COLOURS
from dicegames.games.extra.data import (
    BOXES,
    COLUMN_NAMES,
    FACTORS,
    NEGATIVE_BOXES,
    ROW_VALUES,
    SUMS,
    Decision,
    ExtraData,
    Sheet,
    row_score,
)
from dicegames.games.extra.sheet import row_crosses
from dicegames.i18n import _

if TYPE_CHECKING:
    from dicegames.core.game import State
    from dicegames.games.extra.rules import ExtraRules, Roll

FACES = tuple({"value": str(face), "label": str(face)} for face in range(1, 7))
"""The faces a person with real dice picks from, five times (``dice_entry``)."""


def row_id(seat: Seat, total: int) -> str:
    """The id of the row of sum ``total`` on ``seat``'s sheet."""
    return f"s{seat}-r{total}"


def cell_id(seat: Seat, total: int, box: int) -> str:
    """The id of box ``box`` (0-based, left to right) of the row of sum ``total``."""
    return f"s{seat}-r{total}-{box}"


def column_id(seat: Seat, column: int) -> str:
    """The id of EXTRA column ``column`` (0, 1, 2 for a, b, c) on ``seat``'s sheet."""
    return f"s{seat}-x{COLUMN_NAMES[column]}"


def view(game: ExtraRules, state: State[ExtraData, Decision, Roll]) -> JsonObject:
    """The state as JSON for the board module (see :meth:`dicegames.core.presenter.Presenter.view`).

    ``board`` holds the sheet's layout (the same for everyone), one entry per player's sheet
    (``sheets``), the shared roll, whose roll it is, the phase (``roll``, ``decide`` or
    ``over``) and, at the end, the winners. Pending decisions stay secret: a sheet only says
    whether its player has decided, since everyone chooses on the same roll at once.
    """
    data = state.data
    node = state.node
    deciding = set(node.players) if node.kind is NodeKind.DECISION else set()
    phase = {NodeKind.CHANCE: "roll", NodeKind.DECISION: "decide"}.get(node.kind, "over")
    board: JsonObject = {
        "layout": {
            "sums": list(SUMS),
            "values": list(ROW_VALUES),
            "negative": list(NEGATIVE_BOXES),
            "boxes": list(BOXES),
            "factors": list(FACTORS),
            "columns": list(game.columns),
            "column_names": list(COLUMN_NAMES),
        },
        "sheets": [_sheet(game, data, seat, sheet, deciding)
                   for seat, sheet in enumerate(data.sheets)],
        "roll": list(data.roll),
        "roller": data.roller,
        "turn": data.turn,
        "rolls_done": data.turn - 1,
        "phase": phase,
        "solo": game.players == 1,
        "children_rule": str(game.options.get("children_rule", "extra")),
        "winners": list(state.result.winners) if phase == "over" else None,
    }
    return {
        "game": game.spec.id,
        "board": board,
        "dice": [{"value": face, "label": str(face)} for face in data.roll],
        "dice_entry": ({"count": 5, "faces": [dict(face) for face in FACES], "join": " "}
                       if phase == "roll" else None),
        # Each sheet's header stripe and its player's dot match; names and letters carry
        # the same information, so nothing depends on telling colours apart.
        "seat_colours": list(SEAT_COLOURS[:game.players]),
    }


def _sheet(game: ExtraRules, data: ExtraData, seat: Seat, sheet: Sheet,
           deciding: set[Seat]) -> JsonObject:
    """One player's sheet: rows, EXTRA columns, total, and where the player stands."""
    if sheet.done:
        status = "stopped"
    elif seat in deciding:
        status = "deciding"
    elif data.roll and data.pending[seat] is not None:
        status = "decided"
    else:
        status = "playing"
    rows: list[JsonObject] = []
    for index, (total, crosses) in enumerate(zip(SUMS, sheet.rows, strict=True)):
        row: JsonObject = {
            "id": row_id(seat, total),
            "sum": total,
            "crosses": crosses,
            "score": row_score(index, crosses),
            "noted": bool(sheet.noted >> index & 1),
            "full": crosses >= BOXES[index],
        }
        if not sheet.done:
            row["cells"] = [{"id": cell_id(seat, total, box), "box": box}
                            for box in range(crosses, min(crosses + 2, BOXES[index]))]
        rows.append(row)
    columns: list[JsonObject] = [
        {"id": column_id(seat, j), "name": COLUMN_NAMES[j], "number": number or None,
         "marks": marks, "size": size}
        for j, (number, marks, size) in enumerate(zip(sheet.numbers, sheet.marks, game.columns,
                                                      strict=True))]
    return {
        "seat": seat,
        "score": sheet.score,
        "status": status,
        "done": sheet.done,
        "child": seat in game.child_seats,
        "rows": rows,
        "extras": columns,
    }


def action_hints(game: ExtraRules, state: State[ExtraData, Decision, Roll],
                 seat: Seat) -> list[JsonObject]:
    """The decisions of ``seat`` on the roll, in legal order, with labels and target cells.

    Each decision targets the cells its crosses land in (the next box of each pair's row, the
    row itself when the cross is lost or only noted) and, unless it is a free ride, the EXTRA
    column of its fifth die. Decisions that differ only in how equal sums are made (``1+5``
    or ``2+4`` for a 6) write the same cells: the board picks the first of them.
    """
    sheet = state.data.sheets[seat]
    return [{"move": str(decision), "label": label(game, seat, sheet, decision),
             "targets": targets(game, seat, sheet, decision)}
            for decision in state.legal_actions(seat)]


def targets(game: ExtraRules, seat: Seat, sheet: Sheet, decision: Decision) -> list[str]:
    """The ids of the cells ``decision`` writes in on ``seat``'s ``sheet``, without repeats.

    The rows come from :func:`dicegames.games.extra.sheet.row_crosses`, the code that
    records the move, so a double (two pairs of one sum) targets two boxes of one row.
    """
    child_rows = game.options.get("children_rule", "extra") == "rows" and (
        seat in game.child_seats)
    _rows, _extra, boxes = row_crosses(sheet, decision, child_rows=child_rows)
    found: list[str] = []
    for (low, high), box in zip(decision.pairs, boxes, strict=True):
        total = low + high
        found.append(cell_id(seat, total, box) if box >= 0 else row_id(seat, total))
    if not decision.is_free_ride:
        column = (decision.column if decision.column >= 0
                  else sheet.numbers.index(decision.extra))
        found.append(column_id(seat, column))
    return list(dict.fromkeys(found))


def label(game: ExtraRules, seat: Seat, sheet: Sheet, decision: Decision) -> str:
    """A short button text: the two sums with their dice, then what the fifth die does.

    >>> import dicegames
    >>> game = dicegames.make("extra", players=1)
    >>> label(game, 0, Sheet(), Decision(((2, 2), (1, 5)), 3, 0))
    '4 (2+2) and 6 (1+5), new EXTRA 3 in column A'
    """
    (a, b), (c, d) = decision.pairs
    full = [a + b for a, b in decision.pairs if sheet.rows[a + b - 2] >= BOXES[a + b - 2]]
    sums = _("{first} ({one}) and {second} ({two})", first=a + b, one=f"{a}+{b}",
             second=c + d, two=f"{c}+{d}")
    if decision.is_free_ride:
        text = _("{sums}, free ride (no EXTRA)", sums=sums)
    elif decision.column >= 0:
        text = _("{sums}, new EXTRA {extra} in column {column}", sums=sums,
                 extra=decision.extra, column=COLUMN_NAMES[decision.column].upper())
    else:
        text = _("{sums}, EXTRA {extra}", sums=sums, extra=decision.extra)
    if full:
        text = _("{said} (row {row} is full)", said=text, row=full[0])
    return text
