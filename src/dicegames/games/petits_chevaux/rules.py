"""Jeu des Petits Chevaux (French Ludo), as pure rules.

Source: a publisher's rule sheet (seed ``002_192c326e7d9de176.txt``), with the gaps closed by
RULINGS.md. Two to four players race four horses each once round a cross-shaped track of 56
squares and into their stable column. One die: a 6 brings a horse out and every 6 rolls
again; ending a move on a single opposing horse sends it home; two horses of one colour on a
square form a barrage that nobody may pass; the stable is entered by exact count, each horse
going as far in as the horses already there allow. The first player with four horses on
stable squares 3 to 6 wins at once.

The game starts with a chance node that draws the first player (outcome: a colour in play);
then each turn is a roll (chance, 1..6) followed by the player's decision (``MOVE``), which is
the engine's ``pass`` when no move is legal. See :mod:`.moves` for the blocking rules and
:mod:`.board` for the geometry.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from dicegames.core.chance import uniform
from dicegames.core.game import Game, State, normalize
from dicegames.core.model import (
    CHANCE,
    PASS,
    TERMINAL,
    GameSpec,
    Node,
    Result,
    Seat,
    Special,
    TurnInfo,
)
from dicegames.core.options import OptionSpec, OptionValue
from dicegames.games.binding import forward
from dicegames.games.petits_chevaux.board import ENTRANCE, HOME, PATHS, SEATING, Colour
from dicegames.games.petits_chevaux.data import (
    HORSE_ACTIONS,
    HORSE_OF,
    Action,
    ChevauxData,
    Phase,
)
from dicegames.games.petits_chevaux.moves import (
    Blocking,
    Board,
    can_come_out,
    destination,
    has_won,
    moved,
)
from dicegames.games.petits_chevaux.position import (
    PetitsChevauxFacts,
    facts,
    from_position,
    position,
)

Move = Action | Special
"""A decision: move a horse, bring one out, or pass."""

Outcome = int | str
"""A chance outcome: a die face, or the colour drawn to play first."""

DIE = uniform(range(1, 7))
"""One fair die."""

DRAWS: dict[int, tuple[tuple[str, Fraction], ...]] = {
    players: uniform(tuple(colour.label for colour in colours))
    for players, colours in SEATING.items()
}
"""The draw for the first player, per player count: each colour in play equally likely."""

SPEC = GameSpec(
    id="petits-chevaux",
    name="Jeu des Petits Chevaux",
    pitch=(
        "The French Ludo: race your four horses once round the cross and into your stable. "
        "You need a 6 to bring a horse out, every 6 rolls again, landing on a lone rival sends "
        "it home, and two of your horses together make a barrage nobody can pass. Fill the "
        "four innermost squares of your stable first to win."
    ),
    min_players=2,
    max_players=4,
    default_players=2,
    aliases=("petitschevaux", "chevaux", "petits_chevaux", "ludo-fr"),
    age=6,  # the rule sheet: "2 à 4 joueurs à partir de 6 ans"
    # 428 rolls and moves a 2-player game, 1,291 with four (medium bots), at about 3 s each.
    minutes=(20, 60),
    options=(
        OptionSpec("three_sixes_penalty", "bool", False, "a third 6 in a row ends the turn "
                   "without moving (default: every 6 rolls again, without limit)"),
        OptionSpec("compulsory_move", "bool", True, "a player who can move must move (false: "
                   "'pass' is always allowed)"),
        OptionSpec("barrage_blocks_own", "bool", True, "a barrage also blocks its own colour's "
                   "horses (false: only opponents)"),
        OptionSpec("barrage_landing_captures", "bool", False, "landing on an opposing barrage "
                   "sends both horses home (default: it is illegal)"),
    ),
)


class PetitsChevauxRules(Game[ChevauxData, Move, Outcome]):
    """The rules of Jeu des Petits Chevaux (see the module docstring)."""

    spec = SPEC

    def __init__(self, players: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, options)
        self.colours: tuple[Colour, ...] = SEATING[players]
        self.blocking = Blocking(bool(self.options["barrage_blocks_own"]),
                                 bool(self.options["barrage_landing_captures"]))
        self.three_sixes = bool(self.options["three_sixes_penalty"])
        self.compulsory = bool(self.options["compulsory_move"])

    # ----------------------------------------------------------------- template methods

    def _initial(self) -> ChevauxData:
        return ChevauxData(horses=((HOME,) * 4,) * self.players)

    def _node(self, data: ChevauxData) -> Node:
        if data.phase is Phase.MOVE:
            return Node.decision(data.player)
        if data.phase is Phase.OVER:
            return TERMINAL
        return CHANCE

    def _turn(self, data: ChevauxData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def moves(self, data: ChevauxData, die: int) -> tuple[tuple[Action, int], ...]:
        """Every legal horse move of the player with ``die``: (action, target progress).

        ``out`` comes first (target 1), then horses 1 to 4; ``pass`` is not included.
        """
        seat = data.player
        colour = self.colours[seat]
        row = data.horses[seat]
        board = self.board(data)
        found: list[tuple[Action, int]] = []
        if die == 6 and can_come_out(board, colour, seat, row, self.blocking):
            found.append((Action.OUT, 1))
        actions = HORSE_ACTIONS[colour]
        for horse, progress in enumerate(row):
            target = destination(board, colour, seat, row, progress, die=die,
                                 blocking=self.blocking)
            if target >= 0:
                found.append((actions[horse], target))
        return tuple(found)

    def board(self, data: ChevauxData) -> Board:
        """Who stands on each track square: the data's occupancy, built on first use."""
        board = data.occupancy
        if board is None:
            board = Board(self.colours, data.horses)
            # A derived cache of frozen data (not compared): set once, never changed.
            object.__setattr__(data, "occupancy", board)
        return board

    def _legal_actions(self, data: ChevauxData, seat: Seat) -> tuple[Move, ...]:
        found: tuple[Move, ...] = tuple(action for action, _ in self.moves(data, data.roll))
        if not found:
            return (PASS,)
        return found if self.compulsory else (*found, PASS)

    def _apply_action(self, data: ChevauxData, seat: Seat, action: Move) -> ChevauxData:
        if action is PASS:
            return self._after_move(data, data.horses, data.occupancy)
        if action is Action.OUT:
            horse, target = data.horses[seat].index(HOME), 1
        else:
            assert isinstance(action, Action)
            horse = HORSE_OF[action]
            target = data.horses[seat][horse] + data.roll
        horses, _ = moved(self.colours, data.horses, seat, horse, target)
        path = PATHS[self.colours[seat]]
        board = self.board(data).moved(seat, path[data.horses[seat][horse]], path[target])
        if has_won(horses[seat]):
            return ChevauxData(horses, seat, data.turn, Phase.OVER, 0, 0, seat, board)
        return self._after_move(data, horses, board)

    def _after_move(self, data: ChevauxData, horses: tuple[tuple[int, ...], ...],
                    board: Board | None) -> ChevauxData:
        """A 6 rolls again in the same turn; anything else passes the turn clockwise."""
        if data.roll == 6:
            return ChevauxData(horses, data.player, data.turn, Phase.ROLL, 0, data.sixes,
                               occupancy=board)
        return self._next_turn(horses, data, board)

    def _next_turn(self, horses: tuple[tuple[int, ...], ...], data: ChevauxData,
                   board: Board | None) -> ChevauxData:
        return ChevauxData(horses, (data.player + 1) % self.players, data.turn + 1, Phase.ROLL,
                           occupancy=board)

    def _chance_outcomes(self, data: ChevauxData) -> tuple[tuple[Outcome, Fraction], ...]:
        if data.phase is Phase.DRAW:
            return DRAWS[self.players]
        return DIE

    def _apply_outcome(self, data: ChevauxData, outcome: Outcome) -> ChevauxData:
        if data.phase is Phase.DRAW:
            first = next(s for s, c in enumerate(self.colours) if c.label == outcome)
            return ChevauxData(data.horses, first, 1, Phase.ROLL, occupancy=data.occupancy)
        assert isinstance(outcome, int)
        sixes = data.sixes + 1 if outcome == 6 else 0
        if self.three_sixes and sixes == 3:
            return self._next_turn(data.horses, data, data.occupancy)
        return ChevauxData(data.horses, data.player, data.turn, Phase.MOVE, outcome, sixes,
                           occupancy=data.occupancy)

    def _result(self, data: ChevauxData) -> Result:
        scores = [sum(p > ENTRANCE for p in row) for row in data.horses]
        winner = self.colours[data.winner].label
        return Result.from_scores((data.winner,), scores,
                                  f"{winner} fills its stable in turn {data.turn}")

    def _parse_action(self, data: ChevauxData, seat: Seat, text: str) -> Move:
        """Also accepts a bare horse number (``2`` for the player's horse 2) and ``o``."""
        wanted = normalize(text)
        if wanted in ("1", "2", "3", "4"):
            text = f"{self.colours[seat].letter}{wanted}"
        elif wanted in ("o", "new", "sortir"):
            text = "out"
        return super()._parse_action(data, seat, text)

    # ------------------------------------------------------------ positions (position.py)

    def _position(self, data: ChevauxData) -> str:
        return position(data)

    def _from_position(self, text: str) -> ChevauxData:
        return from_position(text, self.colours, self.three_sixes)

    def facts(self, state: State[ChevauxData, Move, Outcome]) -> PetitsChevauxFacts:
        """Where each horse stands, the die, the 6s in a row, whose turn and the phase."""
        return facts(state.data, self.colours)


# The playable class's old import path, kept working (see dicegames.games.binding).
if TYPE_CHECKING:
    from dicegames.games.petits_chevaux.game import PetitsChevaux as PetitsChevaux  # noqa: PLC0414
else:
    __getattr__ = forward(__name__, "dicegames.games.petits_chevaux.game", "PetitsChevaux")
