"""Shortcut: a race along a road with a risky short cut over grey cells, as pure rules.

Source: a student game from the "Game Design Concepts" course wiki (seed
001_edf41cf4dcaa364c.txt), with the gaps closed by RULINGS.md. The board is data
(:mod:`.board`). All cars start on the start cell. Each turn the player declares:

* ``road``: roll one die and move exactly that many road steps; a roll larger than the
  distance to the finish does not move the car (the finish needs the exact count). Not
  available on a grey cell.
* ``shortcut``: roll; 4-6 ends the turn without moving. On 1-3 the player either names a
  cell reachable within the running total (road and grey cells, by the movement rules; the
  car's own cell included, since it may move "up to" the total) and moves there, or
  ``press``-es on: roll again and add. Any 4-6 forfeits the whole turn. The finish may be
  reached with movement left over.
* ``push``: no roll; exactly one legal step. With a single possible step the car moves at
  once; with several the player then names the cell.

The first car on the finish wins at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from dicegames.core.chance import uniform
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
from dicegames.core.options import OptionSpec, OptionValue
from dicegames.games.shortcut.board import BUILT_IN, Board, board_for
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.position import ShortcutFacts, facts, from_position, position

DIE = uniform(range(1, 7))
"""One fair die: 1..6 at 1/6 each (road and shortcut rolls alike)."""

STUCK = 4
"""On a shortcut turn a roll of this or more forfeits the turn."""

Action = Declaration | Press | Cell

SPEC = GameSpec(
    id="shortcut",
    name="Shortcut",
    pitch=(
        "A race round a U-shaped road. Each turn, drive the road (an exact die roll), push "
        "your car one square, or gamble on the shortcut across the grey field: roll 1-3 and "
        "move up to your total, or press your luck and roll again, but any 4-6 leaves you "
        "stuck. First car on the finish wins."
    ),
    min_players=2,
    max_players=4,
    default_players=2,
    aliases=("short-cut",),
    age=7,  # the sheet gives none; ours: it asks for counting and planning a path
    # 33 declarations, rolls and moves a 2-player game, 62 with four, at about 5 s each.
    minutes=(3, 6),
    options=(
        OptionSpec("board", "file", "default",
                   "The board to play on: default for the usual U-shaped road, or a board file "
                   "of your own in the text format of the Boards section (the command line "
                   "takes its path).", choices=BUILT_IN, label="Board"),
    ),
)


@lru_cache(maxsize=16)
def cells_of(names: tuple[str, ...]) -> tuple[Cell, ...]:
    """Every cell of a board as a destination action, made once per board (the largest
    board's 2,574 would otherwise cost every match on it 200 KB)."""
    return tuple(Cell(index, name) for index, name in enumerate(names))


class ShortcutRules(Game[ShortcutData, Action, int]):
    """The rules of Shortcut (see the module docstring)."""

    spec = SPEC

    def __init__(self, players: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, options)
        board_option = self.options["board"]
        assert isinstance(board_option, str)
        self.board: Board = board_for(board_option)
        self._cells = cells_of(self.board.names)

    # ------------------------------------------------------------------ helpers

    def blocked(self, data: ShortcutData, seat: Seat) -> frozenset[int]:
        """The grey cells ``seat``'s car may not enter: those holding other cars."""
        board = self.board
        return frozenset(cell for other, cell in enumerate(data.cars)
                         if other != seat and board.is_grey(cell))

    def destinations(self, data: ShortcutData) -> tuple[Cell, ...]:
        """The cells the current car may stop on now (CHOOSE: within the total; PUSH_TO and
        a push declaration: one step), in board order."""
        seat = data.player
        here = data.cars[seat]
        if data.phase is Phase.CHOOSE:
            cells = self.board.reachable(here, sum(data.rolls), self.blocked(data, seat))
            return tuple(self._cells[c] for c in sorted(cells))
        return tuple(self._cells[c]
                     for c in self.board.push_targets(here, self.blocked(data, seat)))

    # ------------------------------------------------------------------ template methods

    def _initial(self) -> ShortcutData:
        return ShortcutData(cars=(self.board.start,) * self.players)

    def _node(self, data: ShortcutData) -> Node:
        phase = data.phase
        if phase is Phase.ROAD_ROLL or phase is Phase.SHORTCUT_ROLL:
            return CHANCE
        if phase is Phase.OVER:
            return TERMINAL
        return Node.decision(data.player)

    def _turn(self, data: ShortcutData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def _legal_actions(self, data: ShortcutData, seat: Seat) -> tuple[Action, ...]:
        if data.phase is Phase.DECLARE:
            here = data.cars[seat]
            board = self.board
            actions: list[Action] = []
            if not board.is_grey(here):
                actions.append(Declaration.ROAD)
            actions.append(Declaration.SHORTCUT)
            if board.push_targets(here, self.blocked(data, seat)):
                actions.append(Declaration.PUSH)
            return tuple(actions)
        if data.phase is Phase.CHOOSE:
            return (Press.PRESS, *self.destinations(data))
        return self.destinations(data)

    def _apply_action(self, data: ShortcutData, seat: Seat, action: Action) -> ShortcutData:
        if action is Declaration.ROAD:
            return ShortcutData(data.cars, seat, data.turn, Phase.ROAD_ROLL)
        if action is Declaration.SHORTCUT or action is Press.PRESS:
            return ShortcutData(data.cars, seat, data.turn, Phase.SHORTCUT_ROLL, data.rolls)
        if action is Declaration.PUSH:
            targets = self.board.push_targets(data.cars[seat], self.blocked(data, seat))
            if len(targets) == 1:
                return self._end_turn(data, targets[0])
            return ShortcutData(data.cars, seat, data.turn, Phase.PUSH_TO)
        assert isinstance(action, Cell)
        return self._end_turn(data, action.index)

    def _chance_outcomes(self, data: ShortcutData) -> tuple[tuple[int, Fraction], ...]:
        return DIE

    def _apply_outcome(self, data: ShortcutData, outcome: int) -> ShortcutData:
        here = data.cars[data.player]
        if data.phase is Phase.ROAD_ROLL:
            target = self.board.road_target(here, outcome)
            return self._end_turn(data, here if target is None else target)
        if outcome >= STUCK:
            return self._end_turn(data, here)
        return ShortcutData(data.cars, data.player, data.turn, Phase.CHOOSE,
                            (*data.rolls, outcome))

    def _end_turn(self, data: ShortcutData, cell: int) -> ShortcutData:
        """Put the current car on ``cell``; it wins there on the finish, else the turn passes."""
        player = data.player
        cars = (*data.cars[:player], cell, *data.cars[player + 1:])
        if cell == self.board.finish:
            return ShortcutData(cars, player, data.turn, Phase.OVER, (), player)
        return ShortcutData(cars, (player + 1) % self.players, data.turn + 1)

    def _result(self, data: ShortcutData) -> Result:
        from dicegames.games.shortcut.planner import planner_for

        steps = planner_for(self).steps_to_finish
        scores = tuple(-steps[cell] for cell in data.cars)
        rounds = (data.turn + self.players - 1) // self.players
        return Result.from_scores((data.winner,), scores,
                                  f"first on the finish in round {rounds}")

    def _parse_action(self, data: ShortcutData, seat: Seat, text: str) -> Action:
        wanted = normalize(text)
        aliases = {"r": "road", "s": "shortcut", "short cut": "shortcut", "p": "push",
                   "again": "press", "roll": "press", "roll again": "press"}
        if data.phase is not Phase.DECLARE:
            aliases.pop("r")
            cell = self.board.square(wanted)  # a square's name before any alias
            if cell is not None:
                return super()._parse_action(data, seat, self.board.names[cell])
        return super()._parse_action(data, seat, aliases.get(wanted, text))

    # ------------------------------------------------------------ positions (position.py)

    def _position(self, data: ShortcutData) -> str:
        return position(data, self.board)

    def _from_position(self, text: str) -> ShortcutData:
        return from_position(text, self.players, self.board)

    def facts(self, state: State[ShortcutData, Action, int]) -> ShortcutFacts:
        """Each car's cell by name, the shortcut dice, whose turn and the phase."""
        return facts(state.data, self.board)
