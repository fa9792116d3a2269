"""Game knowledge for the bots: the medium bot's fixed rule and the hard bot's turn search.

``medium`` (:func:`medium_policy`) uses only step counts on the board:

* on a grey cell: push to the neighbour with the fewest steps to the finish (off the grey
  when that is the way on);
* one road step from the finish: push (a sure win); two or three: the shortcut, pressing
  until the finish is in range;
* next to the grey field, where cutting across saves at least :data:`CUT_SAVING` road squares:
  the shortcut, stopping once the total reaches :data:`STOP_AT` (or the finish is in range);
* otherwise the road.

A stop goes to the cell in range with the fewest steps to the finish.

``hard`` (:class:`HardBot`) searches the whole current turn exactly, as expectimax: every die
of the road or of the shortcut (with every press), every destination with the real blocking
by cars on grey cells. The end of the turn is valued by the chance to win the race from there,
using each car's turn-count distribution under the best solo play (:mod:`.planner`), the
other players moving first: ``sum_n P(T_me = n) * prod_j P(T_j > n)``. A leaf on the finish
is worth 1, so the exact chance of finishing this turn is part of every value.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.planner import HORIZON, planner_for

if TYPE_CHECKING:
    from dicegames.games.shortcut.rules import ShortcutRules

CUT_SAVING = 8
"""The medium bot takes the shortcut where cutting across saves at least this many squares."""

STOP_AT = 3
"""The medium bot stops pressing once its shortcut total reaches this."""


def _game_and_data(state: State[Any, Any, Any]) -> tuple[ShortcutRules, ShortcutData]:
    from dicegames.games.shortcut.rules import ShortcutRules

    game, data = state.game, state.data
    assert isinstance(game, ShortcutRules) and isinstance(data, ShortcutData)
    return game, data


def medium_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The medium bot's choice (the rule in the module docstring)."""
    game, data = _game_and_data(state)
    board = game.board
    steps = planner_for(game).steps_to_finish
    legal = state.legal_actions(seat)
    here = data.cars[seat]
    cells: list[Cell] = [a for a in legal if isinstance(a, Cell)]
    if data.phase is Phase.PUSH_TO:
        return min(cells, key=lambda c: (steps[c.index], c.index))
    if data.phase is Phase.CHOOSE:
        best = min(cells, key=lambda c: (steps[c.index], c.index))
        total = sum(data.rolls)
        if best.index == board.finish or board.is_grey(here) or total >= STOP_AT:
            return best
        return Press.PRESS
    if board.is_grey(here):
        return Declaration.PUSH if Declaration.PUSH in legal else Declaration.SHORTCUT
    distance = board.road_distance(here)
    if distance == 1:
        return Declaration.PUSH
    if distance <= 3:
        return Declaration.SHORTCUT
    near_grey = any(board.is_grey(c) for c in board.steps[here])
    if near_grey and distance - steps[here] >= CUT_SAVING:
        return Declaration.SHORTCUT
    return Declaration.ROAD


def solo_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """The best play of the one-car race: the turn search minimising expected turns alone."""
    legal: tuple[Hashable, ...] = state.legal_actions(seat)
    search = TurnSearch(*_game_and_data(state), race=False)
    values = [search.action_value(action) for action in legal]
    return legal[values.index(max(values))]


class HardBot:
    """Expectimax over the current turn, leaves valued by the chance to win the race.

    Args:
        rng: not drawn from (the search is exact and deterministic; ties go to the first
            legal action); taken so that every bot is built the same way.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """The action of ``seat`` with the highest chance to win (ties: the first listed)."""
        legal: tuple[Hashable, ...] = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        search = TurnSearch(*_game_and_data(state))
        values = [search.action_value(action) for action in legal]
        best = max(values)
        return legal[values.index(best)]


class TurnSearch:
    """The exact values of the choices of one turn (the other cars stand still meanwhile).

    Args:
        game, data: the game and the position (the player to move is searched).
        race: value the end of the turn by the chance to win the race (the hard bot); when
            false, by minus the expected turns still needed alone (the solo race's best
            play, used to measure what racing adds).
    """

    def __init__(self, game: ShortcutRules, data: ShortcutData, race: bool = True) -> None:
        self.game = game
        self.race = race
        self.board = game.board
        self.data = data
        self.seat = data.player
        self.here = data.cars[self.seat]
        self.blocked = game.blocked(data, self.seat)
        planner = planner_for(game)
        self.within = planner.within
        self.expected_turns = planner.expected_turns
        survive = [1.0] * (HORIZON + 1)  # P(no other car has finished after n rounds)
        for other, cell in enumerate(data.cars):
            if other != self.seat:
                law = self.within[cell]
                survive = [s * (1.0 - law[n]) for n, s in enumerate(survive)]
        self.survive = survive
        self.leaves: dict[int, float] = {}
        self.reach = self.board.reachable(self.here, 10_000, self.blocked)
        self.deepest = max(self.reach.values())
        self.waits: dict[int, float] = {}

    def leaf(self, cell: int) -> float:
        """The chance to win when the turn ends with this car on ``cell``."""
        value = self.leaves.get(cell)
        if value is None:
            if not self.race:
                value = -self.expected_turns[cell]  # 0 on the finish
            elif cell == self.board.finish:
                value = 1.0
            else:
                law, survive = self.within[cell], self.survive
                value = sum((law[n] - law[n - 1]) * survive[n] for n in range(1, HORIZON + 1))
            self.leaves[cell] = value
        return value

    def stop_value(self, total: int) -> float:
        """The best cell within ``total`` steps (the car's own cell included)."""
        return max(self.leaf(c) for c, d in self.reach.items() if d <= total)

    def wait(self, total: int) -> float:
        """The value of having rolled ``total`` on the shortcut, before pressing or stopping."""
        value = self.waits.get(total)
        if value is None:
            value = self.stop_value(total)
            if total < self.deepest:
                value = max(value, self.press_value(total))
            self.waits[total] = value
        return value

    def press_value(self, total: int) -> float:
        """The value of rolling (again) with ``total`` so far: 4-6 leaves the car where it is."""
        return self.leaf(self.here) / 2 + sum(self.wait(total + k) for k in (1, 2, 3)) / 6

    def action_value(self, action: Hashable) -> float:
        """The chance to win after ``action`` (a legal action of the current decision)."""
        board, here = self.board, self.here
        if isinstance(action, Cell):
            return self.leaf(action.index)
        if action is Press.PRESS:
            return self.press_value(sum(self.data.rolls))
        if action is Declaration.ROAD:
            total = 0.0
            for roll in range(1, 7):
                target = board.road_target(here, roll)
                total += self.leaf(here if target is None else target)
            return total / 6
        if action is Declaration.PUSH:
            return max(self.leaf(c) for c in board.push_targets(here, self.blocked))
        return self.press_value(0)
