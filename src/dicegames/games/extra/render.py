"""Text for people: the score sheets as on the paper pad, and one sentence per move, in the
current language (:mod:`dicegames.i18n`)."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence

from rich.markup import escape

from dicegames.core.text import counted, says
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
from dicegames.i18n import N_, _

CROSS = "X"
EMPTY = "."


def _boxes(count: int, crossed: int) -> str:
    """``count`` boxes, the first ``crossed`` of them crossed."""
    return " ".join(CROSS if i < crossed else EMPTY for i in range(count))


def _zone_width(k: int) -> int:
    return 2 * k - 1


def sheet_lines(sheet: Sheet, columns: tuple[int, int, int], name: str,
                child: bool = False) -> list[str]:
    """One player's sheet as lines of markup.

    Each row: the sum, its -200 zone, the 0 box, the boxes x1 x2 x3 x5 x7 (``X`` crossed,
    ``.`` empty, zones split by ``|``), the row's value and its score now; then the EXTRA
    columns (their number and boxes, the last one marked ``]``) and the total.
    """
    widest = _zone_width(max(NEGATIVE_BOXES))
    status = " [bold red]" + escape(_("(stopped)")) + "[/]" if sheet.done else ""
    kid = " " + escape(_("(children's variant)")) if child else ""
    points = escape(_("{score} points", score=sheet.score))
    words = {"sum": _("sum"), "value": _("value"), "score": _("score")}
    lines = [f"[bold]{escape(name)}[/]{kid}: [bold]{points}[/]{status}",
             f"  {words['sum']:>3} | {'-200'.ljust(widest)} | 0 | "
             + " ".join(f"x{f}" for f in FACTORS) + f" | {words['value']:>5} | {words['score']}"]
    # The columns are as wide as their heading in the language in use.
    sum_width, value_width = max(3, len(words["sum"])), max(5, len(words["value"]))
    for index, crosses in enumerate(sheet.rows):
        k = NEGATIVE_BOXES[index]
        zone = _boxes(k, crosses).ljust(widest)
        zero = CROSS if crosses > k else EMPTY
        multipliers = " ".join(f"{CROSS if crosses > k + 1 + i else EMPTY:>2}"
                               for i in range(len(FACTORS)))
        score = row_score(index, crosses)
        shown = "" if crosses == 0 else f"{score:+d}" if score else "0"
        if score < 0:
            shown = f"[red]{shown}[/]"
        elif score > 0:
            shown = f"[green]{shown}[/]"
        note = " " + _("(noted)") if sheet.noted >> index & 1 else ""
        full = " " + _("full") if crosses >= BOXES[index] else ""
        lines.append(f"  {SUMS[index]:>{sum_width}} | {zone} | {zero} | {multipliers} "
                     f"| {ROW_VALUES[index]:>{value_width}} | {shown}{full}{note}".rstrip())
    for j, (number, marks, size) in enumerate(zip(sheet.numbers, sheet.marks, columns,
                                                  strict=True)):
        head = str(number) if number else "-"
        lines.append(f"  EXTRA {COLUMN_NAMES[j]} [{head}] {_boxes(size, marks)}] "
                     f"{marks}/{size}")
    return lines


def render(data: ExtraData, columns: tuple[int, int, int], names: Sequence[str] | None = None,
           children: Collection[int] = ()) -> str:
    """Every sheet, then the shared roll and who still has to decide on it."""
    players = len(data.sheets)
    names = list(names or [_("Player {number}", number=s + 1) for s in range(players)])
    lines: list[str] = []
    for seat, sheet in enumerate(data.sheets):
        lines += sheet_lines(sheet, columns, names[seat], seat in children)
        lines.append("")
    if data.roll:
        roll = " ".join(str(d) for d in data.roll)
        waiting = [names[s] for s, sheet in enumerate(data.sheets)
                   if not sheet.done and data.pending[s] is None]
        decided = [names[s] for s, d in enumerate(data.pending) if d is not None]
        line = escape(_("Roll {number} by {name}:", number=data.turn,
                        name=names[data.roller])) + f" [bold]{roll}[/]"
        if waiting:
            line += escape(_("; deciding: {names}", names=", ".join(waiting)))
        if decided:
            line += escape(_("; decided: {names}", names=", ".join(decided)))
        lines.append(line)
    elif all(sheet.done for sheet in data.sheets):
        rolls = data.turn - 1
        said = counted(rolls, N_("1 roll"), N_("{count} rolls"))
        lines.append(escape(_("Game over after {rolls}", rolls=said)))
    else:
        lines.append(escape(_("Roll {number}: {name} rolls the five dice", number=data.turn,
                              name=names[data.roller])))
    return "\n".join(lines)


def describe(data: ExtraData, move: Hashable, seat: int | None, names: Sequence[str],
             after: Sheet | None = None) -> str:
    """One plain-text sentence about ``move`` played from ``data``, in the current language.

    ``after`` is the deciding seat's sheet once the decision is recorded, to say when the
    decision ends that player's game.
    """
    if seat is None:
        return says(names[data.roller], N_("{name} rolls {value}"), N_("You roll {value}"),
                    value=move)
    who = names[seat]
    if not isinstance(move, Decision):
        return says(who, N_("{name} passes"), N_("You pass"))
    (a, b), (c, d) = move.pairs
    sums = _("{first} and {second} ({dice})", first=a + b, second=c + d,
             dice=f"{a}+{b}, {c}+{d}")
    if move.is_free_ride:
        text = says(who, N_("{name} records {sums}: a free ride, no EXTRA cross"),
                    N_("You record {sums}: a free ride, no EXTRA cross"), sums=sums)
    elif move.column >= 0:
        text = says(who, N_("{name} records {sums} and the new EXTRA number {extra} in column "
                            "{column}"),
                    N_("You record {sums} and the new EXTRA number {extra} in column "
                       "{column}"), sums=sums, extra=move.extra,
                    column=COLUMN_NAMES[move.column].upper())  # as the sheet heads it
    else:
        text = says(who, N_("{name} records {sums} and EXTRA {extra}"),
                    N_("You record {sums} and EXTRA {extra}"), sums=sums, extra=move.extra)
    if after is not None and after.done:
        text = says(who, N_("{said}; an EXTRA column is full: this is the last roll for "
                            "{name}"),
                    N_("{said}; an EXTRA column is full: this is the last roll for you"),
                    said=text)
    return text
