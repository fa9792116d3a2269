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

from dicegames.core.chance import uniform
from dicegames.core.frozen import builder
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
from dicegames.games.petits_chevaux.board import ENTRANCE, HOME, PATHS, SEATING, Colour
from dicegames.games.petits_chevaux.data import (
    HORSE_ACTIONS,
    HORSE_OF,
    Action,
    ChevauxData,
    Phase,
)
from dicegames.games.petits_chevaux.moves import (
    WINNING,
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

_ROLL, _MOVE, _OVER = Phase.ROLL, Phase.MOVE, Phase.OVER

_data = builder(ChevauxData)
"""``ChevauxData`` from all eight fields, built fast (see :mod:`dicegames.core.frozen`)."""

PASS_ONLY: tuple[Special] = (PASS,)
"""The legal actions of a player without a move."""

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
        OptionSpec("three_sixes_penalty", "bool", False,
                   "A third 6 in a row ends the turn without moving. Off: every 6 rolls "
                   "again, without limit.", label="Three sixes lose the turn"),
        OptionSpec("compulsory_move", "bool", True,
                   "A player who can move must move. Off: a player may always pass.",
                   label="Moving is compulsory"),
        OptionSpec("barrage_blocks_own", "bool", True,
                   "A barrage (two horses of one colour on a square) also stops its own "
                   "colour's horses. Off: it stops only the opponents.",
                   label="Barrages block their own colour"),
        OptionSpec("barrage_landing_captures", "bool", False,
                   "A horse may land on an opposing barrage and send both its horses back to "
                   "their corner stable. Off: landing there is not allowed.",
                   label="Landing on a barrage captures it"),
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
        # The node of each phase and seat: the draw and the rolls are chance, a move is the
        # seat's decision.
        self._nodes = tuple(
            tuple(Node.decision(seat) if phase is Phase.MOVE else
                  TERMINAL if phase is Phase.OVER else CHANCE for seat in range(players))
            for phase in Phase)

    # ----------------------------------------------------------------- template methods

    def _initial(self) -> ChevauxData:
        return ChevauxData(horses=((HOME,) * 4,) * self.players)

    def _node(self, data: ChevauxData) -> Node:
        return self._nodes[data.phase][data.player]

    def _turn(self, data: ChevauxData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def moves(self, data: ChevauxData, die: int) -> tuple[tuple[Action, int], ...]:
        """Every legal horse move of the player with ``die``: (action, target progress).

        ``out`` comes first (target 1), then horses 1 to 4; ``pass`` is not included.
        """
        actions, targets = self._scan(data, die)
        return tuple(zip(actions, targets, strict=True))

    def _scan(self, data: ChevauxData, die: int) -> tuple[list[Action], list[int]]:
        """The legal horse moves with ``die`` as :meth:`moves` lists them, as two lists:
        the actions and their target progress."""
        seat = data.player
        colour = self.colours[seat]
        row = data.horses[seat]
        board = data.occupancy or self.board(data)
        blocking = self.blocking
        actions: list[Action] = []
        targets: list[int] = []
        if die == 6 and can_come_out(board, colour, seat, row, blocking):
            actions.append(Action.OUT)
            targets.append(1)
        horse_actions = HORSE_ACTIONS[colour]
        for horse in range(4):
            progress = row[horse]
            if progress == HOME:
                continue  # waits in its corner: only ``out`` moves it
            target = destination(board, colour, seat, row, progress, die=die,
                                 blocking=blocking)
            if target >= 0:
                actions.append(horse_actions[horse])
                targets.append(target)
        return actions, targets

    def board(self, data: ChevauxData) -> Board:
        """Who stands on each track square: the data's occupancy, built on first use."""
        board = data.occupancy
        if board is None:
            board = Board(self.colours, data.horses)
            # A derived cache of frozen data (not compared): set once, never changed.
            object.__setattr__(data, "occupancy", board)
        return board

    def _legal_actions(self, data: ChevauxData, seat: Seat) -> tuple[Move, ...]:
        actions: list[Move] = self._scan(data, data.roll)[0]  # type: ignore[assignment]
        if not actions:
            return PASS_ONLY
        if not self.compulsory:
            actions.append(PASS)
        return tuple(actions)

    def _apply_action(self, data: ChevauxData, seat: Seat, action: Move) -> ChevauxData:
        if action is PASS:
            return self._after_move(data, data.horses, data.occupancy)
        row = data.horses[seat]
        if action is Action.OUT:
            horse, target = row.index(HOME), 1
        else:
            horse = HORSE_OF[action]
            target = row[horse] + data.roll
        before = data.occupancy or self.board(data)
        colours = self.colours
        horses, _ = moved(colours, data.horses, seat, horse, target, board=before)
        path = PATHS[colours[seat]]
        board = before.moved(seat, path[row[horse]], path[target])
        if target >= WINNING[0] and has_won(horses[seat]):
            return _data(horses, seat, data.turn, _OVER, 0, 0, seat, board)
        return self._after_move(data, horses, board)

    def _after_move(self, data: ChevauxData, horses: tuple[tuple[int, ...], ...],
                    board: Board | None) -> ChevauxData:
        """A 6 rolls again in the same turn; anything else passes the turn clockwise."""
        if data.roll == 6:
            return _data(horses, data.player, data.turn, _ROLL, 0, data.sixes, -1, board)
        return self._next_turn(horses, data, board)

    def _next_turn(self, horses: tuple[tuple[int, ...], ...], data: ChevauxData,
                   board: Board | None) -> ChevauxData:
        following = data.player + 1
        return _data(horses, 0 if following == self.players else following, data.turn + 1,
                     _ROLL, 0, 0, -1, board)

    def _chance_outcomes(self, data: ChevauxData) -> tuple[tuple[Outcome, Fraction], ...]:
        if data.phase is Phase.DRAW:
            return DRAWS[self.players]
        return DIE

    def _apply_outcome(self, data: ChevauxData, outcome: Outcome) -> ChevauxData:
        if data.phase is Phase.DRAW:
            first = next(s for s, c in enumerate(self.colours) if c.label == outcome)
            return ChevauxData(data.horses, first, 1, Phase.ROLL, occupancy=data.occupancy)
        sixes = data.sixes + 1 if outcome == 6 else 0
        if sixes == 3 and self.three_sixes:
            return self._next_turn(data.horses, data, data.occupancy)
        return _data(data.horses, data.player, data.turn, _MOVE, outcome, sixes, -1,
                     data.occupancy)

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
