"""EXTRA! as vectors: every score sheet, the shared roll, who still decides on it.

A decision is two pairs and a fifth die. Only the two sums and what the fifth die does
change a sheet, and within one roll no two legal decisions agree on those, so an action
id is ``pair * 25 + slot`` where

- ``pair`` (0..65) numbers the two sums ``s <= t`` (2..12) in order: (2,2), (2,3) ..
  (2,12), (3,3) .. (12,12);
- ``slot`` (0..24) is 0 for a free ride (no EXTRA cross), ``v`` (1..6) for a cross under
  the EXTRA number ``v`` already set, ``7 + 3 (v - 1) + c`` for a new EXTRA number ``v``
  written in column ``c`` (0, 1, 2 for a, b, c).

That makes 66 x 25 = 1650 ids, plus ``1650``: *wait*, the one action of a seat whose sheet
is complete at OpenSpiel's simultaneous node (the PettingZoo and Gymnasium environments
never ask such a seat). Chance outcomes: the 252 rolls of five dice, in the rules' order.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import combinations_with_replacement

from dicegames.core.model import Seat
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, Field, Vector, one_hot
from dicegames.games.extra.data import BOXES, COLUMN_NAMES, SUMS, Decision, ExtraData
from dicegames.games.extra.rules import ROLLS, ExtraRules

PAIRS = tuple(combinations_with_replacement(SUMS, 2))
"""The 66 sum pairs ``(s, t)``, ``s <= t``, in id order."""

SLOTS = 1 + 6 + 6 * len(COLUMN_NAMES)
"""Free ride, six repeats, eighteen new numbers."""

WAIT = len(PAIRS) * SLOTS
"""The id of *wait* (1650): a finished seat's only action at OpenSpiel's simultaneous node."""

_PAIR_INDEX = {pair: index for index, pair in enumerate(PAIRS)}


def slot(decision: Decision) -> int:
    """What the fifth die does, as 0..24 (see the module docstring)."""
    if decision.extra == 0:
        return 0
    if decision.column < 0:
        return decision.extra
    return 7 + 3 * (decision.extra - 1) + decision.column


def slot_name(value: int) -> str:
    """``free``, ``x3`` or ``x3a``: the notation of a slot."""
    if value == 0:
        return "free"
    if value <= 6:
        return f"x{value}"
    number, column = divmod(value - 7, 3)
    return f"x{number + 1}{COLUMN_NAMES[column]}"


class ExtraEncoder(Encoder):
    """Observation fields and ids of EXTRA! (see docs/rl.md)."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        assert isinstance(game, ExtraRules)
        self.columns = game.columns
        p = self.players
        rows = len(SUMS)
        self.fields = (
            Field("rows", (p, rows), "per seat, crosses in each row (sums 2..12) / the row's "
                  "boxes"),
            Field("numbers", (p, 3, 7), "per seat and EXTRA column a, b, c: one-hot of its "
                  "number (index 0 while the column is free, else 1..6)"),
            Field("marks", (p, 3), "per seat, crosses in each EXTRA column / its boxes"),
            Field("noted", (p, rows), "per seat, 1 for a sum noted without its first cross "
                  "(children's `rows` reading)"),
            Field("done", (p,), "per seat, 1 once its sheet is complete (it has stopped)"),
            Field("roll", (6,), "the shared roll: dice showing each face 1..6 / 5 (zeros "
                  "before the roll)"),
            Field("deciding", (p,), "per seat, 1 while it still has to decide on the roll"),
            Field("roller", (p,), "one-hot: the seat that rolls (or rolled) this turn's dice"),
        )
        self.num_actions = WAIT + 1
        self.wait_id = WAIT
        self.rolls = {roll: index for index, (roll, _) in enumerate(ROLLS)}
        self.num_outcomes = len(ROLLS)

    def _write(self, state: AnyState, seat: Seat, views: dict[str, Vector]) -> None:
        data = state.data
        assert isinstance(data, ExtraData)
        deciding = set(state.current_players)
        for other, sheet in enumerate(data.sheets):
            place = self.relative(seat, other)
            for row, crosses in enumerate(sheet.rows):
                views["rows"][place, row] = crosses / BOXES[row]
                views["noted"][place, row] = float(sheet.noted >> row & 1)
            for column, (number, marks) in enumerate(zip(sheet.numbers, sheet.marks,
                                                         strict=True)):
                views["numbers"][place, column, number] = 1.0
                views["marks"][place, column] = min(1.0, marks / self.columns[column])
            views["done"][place] = float(sheet.done)
            views["deciding"][place] = float(other in deciding)
        for face in data.roll:
            views["roll"][face - 1] += 0.2
        one_hot(views["roller"], self.relative(seat, data.roller))

    def action_id(self, action: Hashable) -> int:
        """``pair * 25 + slot`` (see the module docstring)."""
        assert isinstance(action, Decision)
        low, high = sorted(action.sums)
        return _PAIR_INDEX[(low, high)] * SLOTS + slot(action)

    def action_name(self, action_id: int) -> str:
        """The sums and the fifth die, e.g. ``sums 4+6 x3a``; ``wait`` for 1650."""
        if action_id == WAIT:
            return "wait"
        pair, value = divmod(action_id, SLOTS)
        low, high = PAIRS[pair]
        return f"sums {low}+{high} {slot_name(value)}"

    def outcome_id(self, outcome: Hashable) -> int:
        """The roll's index among the rules' 252 rolls."""
        return self.rolls[outcome]  # type: ignore[index]

    def outcome_name(self, outcome_id: int) -> str:
        """The roll's notation."""
        return str(ROLLS[outcome_id][0])
