"""EXTRA! positions as text, and their facts.

Five fields (documented with examples in ``rules.md``, section "Positions")::

    6=3,8=7;3x4,5x1,-/7=2;-,2x1,- 1 12235 ?/2+2,1+5,x3 3
    |                             | |     |            turn count
    |                             | |     each seat's decision on the roll: ? undecided,
    |                             | |     - stopped, else the decision (commas for spaces)
    |                             | the shared roll (-: still to roll)
    |                             the seat that rolls (1-based)
    each seat's sheet, seat 1 first: the rows crossed (sum=crosses, - for none), then
    the three EXTRA columns a, b, c (number x crosses, - while free), and for the
    children's rows reading the sums noted so far

A seat stops when one of its EXTRA columns is full, so that is not written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dicegames.core.errors import IllegalAction
from dicegames.core.model import Seat
from dicegames.core.position import NONE, SEATS, Facts, Reader, numbers_text, seat_text
from dicegames.games.extra.data import BOXES, SUMS, Decision, ExtraData, Sheet
from dicegames.games.extra.notation import read_decision
from dicegames.games.extra.sheet import legal_decisions

FIELDS = ("sheets", "roller", "roll", "decisions", "turn")
"""The fields of a position, in order."""

ROW_ITEM = re.compile(r"(1[0-2]|[2-9])=([1-9][0-9]?)")
"""A row as positions usually write it (``6=3``); anything else is read field by field."""

COLUMN_ITEM = re.compile(r"([1-6])x([0-9]|[1-9][0-9])")
"""An EXTRA column as positions usually write it (``3x4``)."""

UNDECIDED = "?"
"""A playing seat that has not decided on the roll yet."""


@dataclass(frozen=True, slots=True)
class SheetFacts:
    """One player's score sheet.

    Attributes:
        rows: crosses per row, sums 2 to 12 (``rows[sum - 2]``).
        boxes: the boxes of each row, sums 2 to 12.
        numbers: the EXTRA number heading columns a, b, c (0 while free).
        marks: the crosses in columns a, b, c.
        noted: the sums noted without a cross (the children's ``rows`` reading).
        stopped: one EXTRA column is full: the player records no more.
        score: the sheet's total.
    """

    rows: tuple[int, ...]
    boxes: tuple[int, ...]
    numbers: tuple[int, int, int]
    marks: tuple[int, int, int]
    noted: tuple[int, ...]
    stopped: bool
    score: int


@dataclass(frozen=True, slots=True)
class ExtraFacts(Facts):
    """The facts of an EXTRA! position (``to_move`` is the seat that rolls).

    Attributes:
        sheets: each seat's sheet.
        roll: the shared roll, sorted (empty while the dice are still to be rolled).
        decisions: each seat's decision on the roll in notation, None while undecided (or
            stopped); they are recorded on the sheets once every playing seat has decided.
    """

    sheets: tuple[SheetFacts, ...]
    roll: tuple[int, ...]
    decisions: tuple[str | None, ...]


def _noted(sheet: Sheet) -> tuple[int, ...]:
    return tuple(total for i, total in enumerate(SUMS) if sheet.noted >> i & 1)


def _sheet_text(sheet: Sheet) -> str:
    rows = ",".join(f"{total}={n}" for total, n in zip(SUMS, sheet.rows, strict=True) if n)
    columns = ",".join(f"{number}x{marks}" if number else NONE
                       for number, marks in zip(sheet.numbers, sheet.marks, strict=True))
    noted = f";{numbers_text(_noted(sheet))}" if sheet.noted else ""
    return f"{rows or NONE};{columns}{noted}"


def position(data: ExtraData) -> str:
    """The position notation of ``data``."""
    if data.roll:
        decisions = SEATS.join(
            NONE if sheet.done else UNDECIDED if decision is None
            else str(decision).replace(" ", ",")
            for sheet, decision in zip(data.sheets, data.pending, strict=True))
    else:
        decisions = NONE
    roll = "".join(str(d) for d in data.roll) or NONE
    return " ".join((SEATS.join(_sheet_text(s) for s in data.sheets), seat_text(data.roller),
                     roll, decisions, str(data.turn)))


def facts(data: ExtraData) -> ExtraFacts:
    """The facts of ``data`` (winners: the highest totals, none in a lost solo game)."""
    over = all(sheet.done for sheet in data.sheets)
    winners: tuple[Seat, ...] = ()
    if over:
        scores = [sheet.score for sheet in data.sheets]
        if len(scores) > 1 or scores[0] >= 0:
            winners = tuple(s for s, score in enumerate(scores) if score == max(scores))
    sheets = tuple(SheetFacts(s.rows, BOXES, s.numbers, s.marks, _noted(s), s.done, s.score)
                   for s in data.sheets)
    phase = "over" if over else "decide" if data.roll else "roll"
    return ExtraFacts(data.roller, data.turn, phase, over, winners, sheets, tuple(data.roll),
                      tuple(None if d is None else str(d) for d in data.pending))


def from_position(text: str, columns: tuple[int, int, int], child_extra: tuple[bool, ...],
                  child_rows: tuple[bool, ...]) -> ExtraData:
    """The data ``text`` describes, checked to be a position the rules can reach.

    ``columns`` are the EXTRA columns' boxes; ``child_extra`` and ``child_rows`` say, per
    seat, which children's reading the seat plays (see ``children_rule``).

    Raises:
        PositionError: the text is malformed or impossible; the message says why.
    """
    players = len(child_extra)
    reader = Reader("EXTRA!", text, FIELDS, players)
    turn = reader.whole("turn", reader.raw("turn"), 1)
    sheets = tuple(_sheet(reader, seat, entry, columns, child_extra=child_extra[seat],
                          child_rows=child_rows[seat], turn=turn)
                   for seat, entry in enumerate(reader.seats("sheets", "sheets")))
    roller = reader.seat("roller")
    over = all(sheet.done for sheet in sheets)
    if not over and sheets[roller].done:
        raise reader.error("roller", f"seat {roller + 1} has stopped (an EXTRA column is "
                           "full): only a seat still playing rolls")
    roll_text = reader.raw("roll")
    roll: tuple[int, ...] = ()
    if roll_text != NONE:
        if over:
            raise reader.error("roll", "every seat has stopped: the game is over and "
                               "nothing is rolled (write -)")
        if len(roll_text) != 5 or any(ch not in "123456" for ch in roll_text):
            raise reader.error("roll", f"{roll_text!r} is not five dice: five faces from 1 "
                               "to 6 like 12235, or - before the roll")
        roll = tuple(sorted(int(ch) for ch in roll_text))
    pending = _decisions(reader, sheets, roll)
    return ExtraData(sheets, roll, pending, roller, turn)


def _sheet(reader: Reader, seat: int, entry: str, columns: tuple[int, int, int], *,
           child_extra: bool, child_rows: bool, turn: int) -> Sheet:
    """One seat's sheet, refusing more crosses than boxes and other impossible sheets."""
    who = f"seat {seat + 1}'s sheet"
    parts = entry.split(";")
    if len(parts) not in (2, 3):
        raise reader.error("sheets", f"{who} {entry!r} has {len(parts)} parts: rows;columns "
                           "(and ;noted sums for the children's rows reading), like "
                           "6=3,8=7;3x4,5x1,-")
    rows = [0] * len(SUMS)
    if parts[0] != NONE:
        for item in parts[0].split(","):
            plain = ROW_ITEM.fullmatch(item)  # the usual case, read without error labels
            total_text, sep, count_text = item.partition("=")
            total = int(plain[1]) if plain else reader.whole(
                "sheets", total_text, 2, 12, f"{who}: the row {item!r}, sum")
            if not sep or rows[total - 2]:
                raise reader.error("sheets", f"{who}: rows are written once each as "
                                   f"sum=crosses, like 6=3; not {item!r}")
            count = int(plain[2]) if plain else reader.whole(
                "sheets", count_text, 1, None, f"{who}: the crosses of row {total}")
            if count > BOXES[total - 2]:
                raise reader.error("sheets", f"{who}: row {total} has {count} crosses but only "
                                   f"{BOXES[total - 2]} boxes")
            rows[total - 2] = count
    numbers, marks = _columns(reader, who, parts[1], columns, child_extra)
    noted = 0
    if len(parts) == 3:
        if not child_rows:
            raise reader.error("sheets", f"{who}: only a seat playing the children's rows "
                               "reading (children_rule=rows) notes sums")
        for total in reader.numbers("sheets", parts[2], 2, 12, f"{who}: a noted sum"):
            noted |= 1 << (total - 2)
    if child_rows:
        bare = [t for t, n in zip(SUMS, rows, strict=True) if n and not noted >> (t - 2) & 1]
        if bare:
            raise reader.error("sheets", f"{who}: row {bare[0]} has crosses, but a child's row "
                               "is crossed only after its sum was noted (list it after a "
                               "third ;)")
    if sum(rows) > 2 * (turn - 1) or sum(marks) > turn - 1:
        raise reader.error("sheets", f"{who} has more crosses than {turn - 1} rolls give (two "
                           "row crosses and one EXTRA cross a roll)")
    done = any(m >= c for m, c in zip(marks, columns, strict=True))
    return Sheet(tuple(rows), numbers, marks, noted, done)


def _columns(reader: Reader, who: str, text: str, columns: tuple[int, int, int],
             child_extra: bool) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The EXTRA numbers and crosses of the three columns."""
    items = text.split(",")
    if len(items) != 3:
        raise reader.error("sheets", f"{who}: {len(items)} EXTRA columns; write the three "
                           "columns a, b, c as number x crosses or - while free, like 3x4,5x1,-")
    numbers, marks = [0, 0, 0], [0, 0, 0]
    for j, item in enumerate(items):
        if item == NONE:
            continue
        number_text, sep, marks_text = item.partition("x")
        plain = COLUMN_ITEM.fullmatch(item)  # the usual case, read without error labels
        number = int(plain[1]) if plain else reader.whole(
            "sheets", number_text, 1, 6, f"{who}: the EXTRA number of column {'abc'[j]}")
        low = 0 if child_extra else 1
        if not sep:
            raise reader.error("sheets", f"{who}: write column {'abc'[j]} as number x "
                               f"crosses, like {number}x2, not {item!r}")
        crossed = int(plain[2]) if plain and int(plain[2]) >= low else reader.whole(
            "sheets", marks_text, low, None, f"{who}: the crosses of column {'abc'[j]}")
        if crossed > columns[j]:
            raise reader.error("sheets", f"{who}: column {'abc'[j]} has {crossed} crosses "
                               f"but only {columns[j]} boxes")
        if number in numbers:
            raise reader.error("sheets", f"{who}: the EXTRA number {number} heads two "
                               "columns; each number heads one")
        numbers[j], marks[j] = number, crossed
    if sum(m >= c for m, c in zip(marks, columns, strict=True)) > 1:
        raise reader.error("sheets", f"{who} has two full EXTRA columns: the player stops "
                           "when the first one fills")
    return (numbers[0], numbers[1], numbers[2]), (marks[0], marks[1], marks[2])


def _decisions(reader: Reader, sheets: tuple[Sheet, ...],
               roll: tuple[int, ...]) -> tuple[Decision | None, ...]:
    """Each seat's decision on ``roll``: legal for its sheet, none for a stopped seat."""
    if not roll:
        if reader.raw("decisions") != NONE:
            raise reader.error("decisions", "nobody decides before the roll: write -")
        return (None,) * len(sheets)
    pending: list[Decision | None] = []
    for seat, (sheet, entry) in enumerate(zip(sheets, reader.seats("decisions", "decisions"),
                                              strict=True)):
        if sheet.done or entry in (NONE, UNDECIDED):
            if (entry == NONE) != sheet.done:
                raise reader.error("decisions", f"seat {seat + 1} " + (
                    "has stopped: write -" if sheet.done else f"still plays: write "
                    f"{UNDECIDED} or its decision"))
            pending.append(None)
            continue
        try:
            decision = read_decision(entry.replace(",", " "))
        except IllegalAction as error:
            raise reader.error("decisions", f"seat {seat + 1}: {error}") from None
        legal = legal_decisions(roll, sheet.numbers)
        if decision not in legal:
            raise reader.error("decisions", f"seat {seat + 1}: {entry!r} is not a decision "
                               f"on the roll {' '.join(map(str, roll))} with its EXTRA "
                               f"numbers; write it like 2+2,1+5,x3a ({len(legal)} are legal)")
        pending.append(decision)
    if all(d is not None or s.done for d, s in zip(pending, sheets, strict=True)):
        raise reader.error("decisions", f"every playing seat has decided, so the decisions "
                           f"are recorded already: at least one seat is {UNDECIDED}")
    return tuple(pending)
