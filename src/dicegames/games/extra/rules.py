"""Sid Sackson's EXTRA! (Schmidt Spiele 2011): the shared-roll score-pad game, as pure rules.

Source: the Italian rule sheet (seed ``004_24d63322116c1e7a.txt``), with the garbled score
table replaced by RULINGS.md's reconstruction. One roll of five dice per turn is shared by
every player still playing; each splits it into two pairs (a cross in each sum's row) and a
fifth die (a cross in its EXTRA column). A player whose cross fills the last box of an EXTRA
column records that roll and stops; when all have stopped the highest total wins. With one
player (the solo variant) a negative total loses.

The roll is a chance node over the 252 multisets of five dice; then every playing seat
decides on it (``Node.decision`` with several seats). Decisions wait in the data until the
last one is in, then all are recorded and the next seat still playing rolls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from dicegames.core.chance import multisets
from dicegames.core.errors import BadOptionValue, IllegalAction
from dicegames.core.game import Game, State, normalize
from dicegames.core.model import (
    CHANCE,
    TERMINAL,
    GameSpec,
    Node,
    Result,
    Seat,
    TurnInfo,
)
from dicegames.core.options import OptionSpec, OptionValue, is_digits
from dicegames.games.extra.data import (
    COLUMN_NAMES,
    Decision,
    ExtraData,
    Sheet,
)
from dicegames.games.extra.notation import read_decision, written_decision
from dicegames.games.extra.position import ExtraFacts, facts, from_position, position
from dicegames.games.extra.sheet import legal_decisions, record

MAX_COLUMN = 30
"""The most boxes an EXTRA column may have (a longer column makes a game of 100+ rolls)."""


class Roll(tuple[int, ...]):
    """Five dice, sorted; the notation is the faces separated by spaces: ``1 2 2 3 5``."""

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(str(face) for face in self)

    def __repr__(self) -> str:
        return f"Roll({tuple(self)!r})"


ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll(faces), p) for faces, p in multisets(range(1, 7), 5))
"""The 252 distinct rolls of five dice with their exact probabilities."""

SPEC = GameSpec(
    id="extra",
    name="EXTRA!",
    pitch=(
        "Sid Sackson's roll-and-write for 1 to 6 players. Everyone uses the same roll of five "
        "dice: two pairs give crosses on your score sheet, the fifth die goes to your EXTRA "
        "columns, and when one of them is full your game is over. Start few rows, push them "
        "past the -200 zone, and make the game last."
    ),
    min_players=1,
    max_players=6,
    default_players=2,
    aliases=("extra!", "sackson-extra"),
    age=8,  # the rule sheet: "da 8 anni in su"
    # 71 rolls and choices a 2-player game, 118 with four (medium bots), at about 8 s each.
    minutes=(10, 20),
    options=(
        OptionSpec("extra_columns", "text", "10,9,8",
                   "How many boxes each of the three EXTRA columns has, left to right: three "
                   f"numbers from 1 to {MAX_COLUMN} separated by commas (usual: 10,9,8).",
                   label="Size of the EXTRA columns"),
        OptionSpec("children", "bool", False,
                   "Every player plays the children's variant, an easier start (what it "
                   "delays is chosen below).", label="Children's variant for everyone"),
        OptionSpec("child_seats", "text", "",
                   "Only these players play the children's variant: their places in the "
                   "turn order, separated by commas (2,3 is the second and third player); "
                   "leave empty for none.", label="Children's variant for some players"),
        OptionSpec("children_rule", "choice", "extra",
                   "EXTRA numbers (the rule sheet): a newly chosen EXTRA number gets no cross "
                   "until it is rolled again. Rows (the other reading): a row's first cross "
                   "comes the second time its sum is recorded.",
                   choices=("extra", "rows"), label="What the children's variant delays",
                   choice_labels=("EXTRA numbers", "Rows")),
    ),
)


def parse_columns(value: OptionValue) -> tuple[int, int, int]:
    """The ``extra_columns`` option as three box counts.

    Raises:
        BadOptionValue: not three whole numbers from 1 to :data:`MAX_COLUMN`; the message says
            what is wrong.
    """
    parts = [part.strip() for part in str(value).split(",")]
    if len(parts) != 3:
        raise BadOptionValue(f"option extra_columns={value!r}: give exactly three column sizes, "
                          f"comma-separated, e.g. 10,9,8 (got {len(parts)})")
    sizes = []
    for part in parts:
        if not is_digits(part) or not 1 <= int(part) <= MAX_COLUMN:
            raise BadOptionValue(f"option extra_columns={value!r}: {part!r} is not a whole number "
                              f"from 1 to {MAX_COLUMN} (written with the digits 0 to 9)")
        sizes.append(int(part))
    return (sizes[0], sizes[1], sizes[2])


def parse_seats(value: OptionValue, players: int) -> frozenset[Seat]:
    """The ``child_seats`` option as 0-based seats.

    Raises:
        BadOptionValue: an entry that is not a seat number from 1 to ``players``.
    """
    seats = set()
    for part in (p.strip() for p in str(value).split(",")):
        if not part:
            continue
        if not is_digits(part) or not 1 <= int(part) <= players:
            raise BadOptionValue(f"option child_seats={value!r}: {part!r} is not a seat from 1 "
                              f"to {players} (written with the digits 0 to 9)")
        seats.add(int(part) - 1)
    return frozenset(seats)


class ExtraRules(Game[ExtraData, Decision, Roll]):
    """The rules of EXTRA! (see the module docstring)."""

    spec = SPEC

    def __init__(self, players: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, options)
        self.columns = parse_columns(self.options.get("extra_columns", "10,9,8"))
        children = self.options.get("children", False) is True
        self.child_seats = (frozenset(range(players)) if children
                            else parse_seats(self.options.get("child_seats", ""), players))
        rows = self.options.get("children_rule", "extra") == "rows"
        self._child_extra = tuple(s in self.child_seats and not rows for s in range(players))
        self._child_rows = tuple(s in self.child_seats and rows for s in range(players))

    def _initial(self) -> ExtraData:
        return ExtraData((Sheet(),) * self.players, (), (None,) * self.players)

    def _node(self, data: ExtraData) -> Node:
        if not data.roll:
            if all(sheet.done for sheet in data.sheets):
                return TERMINAL
            return CHANCE
        return Node.decision(*(s for s, sheet in enumerate(data.sheets)
                               if not sheet.done and data.pending[s] is None))

    def _turn(self, data: ExtraData) -> TurnInfo:
        return TurnInfo(data.roller, data.turn)

    def _legal_actions(self, data: ExtraData, seat: Seat) -> tuple[Decision, ...]:
        return legal_decisions(data.roll, data.sheets[seat].numbers)

    def _apply_action(self, data: ExtraData, seat: Seat, action: Decision) -> ExtraData:
        pending = list(data.pending)
        pending[seat] = action
        if any(d is None and not sheet.done for d, sheet in zip(pending, data.sheets,
                                                                  strict=True)):
            return ExtraData(data.sheets, data.roll, tuple(pending), data.roller, data.turn)
        sheets = tuple(
            sheet if decision is None else self.record(s, sheet, decision)
            for s, (sheet, decision) in enumerate(zip(data.sheets, pending, strict=True)))
        roller = data.roller
        for step in range(1, self.players + 1):
            candidate = (data.roller + step) % self.players
            if not sheets[candidate].done:
                roller = candidate
                break
        return ExtraData(sheets, (), (None,) * self.players, roller, data.turn + 1)

    def record(self, seat: Seat, sheet: Sheet, decision: Decision) -> Sheet:
        """``seat``'s sheet after recording ``decision``, with the seat's children's rule."""
        return record(sheet, decision, self.columns, child_extra=self._child_extra[seat],
                      child_rows=self._child_rows[seat])

    def child_extra(self, seat: Seat) -> bool:
        """True when ``seat`` plays the children's variant on its EXTRA numbers."""
        return self._child_extra[seat]

    def _chance_outcomes(self, data: ExtraData) -> tuple[tuple[Roll, Fraction], ...]:
        return ROLLS

    def _apply_outcome(self, data: ExtraData, outcome: Roll) -> ExtraData:
        return ExtraData(data.sheets, outcome, data.pending, data.roller, data.turn)

    def _result(self, data: ExtraData) -> Result:
        scores = tuple(sheet.score for sheet in data.sheets)
        best = max(scores)
        if self.players == 1:
            if best < 0:
                return Result.from_scores((), scores, f"{best} points: a negative total loses "
                                          "the solo game")
            return Result.from_scores((0,), scores, f"{best} points")
        winners = tuple(s for s, score in enumerate(scores) if score == best)
        listing = ", ".join(str(score) for score in scores)
        return Result.from_scores(winners, scores, f"{best} points (totals {listing})")

    # ------------------------------------------------------------------ notation

    def _parse_action(self, data: ExtraData, seat: Seat, text: str) -> Decision:
        """The canonical notation, or the short form with sums: ``4 6 x3a``, ``4,6 3``."""
        legal = self._legal_actions(data, seat)
        wanted = normalize(text)
        written = read_decision(wanted)
        if written is not None:
            return written_decision(written, legal, data.roll, data.sheets[seat].numbers)
        short = re.fullmatch(r"(\d+)\s*[ ,]\s*(\d+)(?:\s*[ ,]\s*(?:x\s*)?(?:(\d)\s*([abc])?"
                             r"|(free)))?", wanted)
        if short is None:
            return super()._parse_action(data, seat, text)
        sums = sorted((int(short[1]), int(short[2])))
        matches = [a for a in legal if sorted(a.sums) == sums
                   and (short[3] is None or a.extra == int(short[3]))
                   and (short[4] is None or a.column == COLUMN_NAMES.index(short[4]))
                   and (short[5] is None or a.is_free_ride)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise IllegalAction(f"{text.strip()!r} could mean "
                                + ", ".join(str(m) for m in matches) + ": say which")
        return super()._parse_action(data, seat, text)

    def _parse_outcome(self, data: ExtraData, text: str) -> Roll:
        """Five faces in any order, with or without separators: ``1 2 2 3 5``, ``53221``."""
        faces = re.sub(r"[\s,;+-]", "", text)
        if len(faces) != 5 or any(f not in "123456" for f in faces):
            raise IllegalAction(f"{text.strip()!r} is not a roll of five dice: type five faces "
                                "from 1 to 6, e.g. 1 2 2 3 5")
        return Roll(sorted(int(f) for f in faces))

    # ------------------------------------------------------------ positions (position.py)

    def _position(self, data: ExtraData) -> str:
        return position(data)

    def _from_position(self, text: str) -> ExtraData:
        return from_position(text, self.columns, self._child_extra, self._child_rows)

    def facts(self, state: State[ExtraData, Decision, Roll]) -> ExtraFacts:
        """Every sheet's rows and EXTRA columns, the roll, the decisions, who rolls."""
        return facts(state.data)
