"""Shortcut for graphical front ends: the board as JSON and the choices as clickable hints.

The web app's ``board.js`` draws whatever board the game was made with (boards are data, so
nothing here knows the default layout): every cell of the grid with its kind, road number and
notation; the cars on their cells; whose turn it is and how far their shortcut dice go.

Choices are made meaningful on the board:

* a destination (after a shortcut roll, or a push with several steps) is picked on its cell;
* a declaration (``road``, ``shortcut``, ``push``) and ``press`` are picked on a *sign*: a
  labelled badge the board draws on the cell where that choice leads (road: the next road
  square; shortcut: the entrance of the grey field; push: the one square it moves to). A sign
  also lists its *preview*: the cells the choice may bring the car to, each with a short text
  (the die value that lands there), which the board shows while the sign has focus.

Everything is computed from the state alone. The grid itself (every cell with its kind,
road number and notation) is the same in every state: :func:`static_board` builds it, and
the web app sends it once per viewer. The rest (:func:`moving_view`: cars, turn, signs,
destinations) is built at every move of every match, cheaply even on a board at the size
limits (a few breadth-first searches that stop early).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from dicegames.core.model import JsonObject, Seat
from dicegames.core.presenter import SEAT_COLOURS
from dicegames.games.shortcut.board import Board, Kind
from dicegames.games.shortcut.data import Cell, Declaration, Phase, Press, ShortcutData
from dicegames.games.shortcut.render import letter, where
from dicegames.i18n import _

if TYPE_CHECKING:
    from dicegames.games.shortcut.rules import ShortcutRules

KIND_NAMES = {Kind.START: "start", Kind.ROAD: "road", Kind.GREY: "grey", Kind.FINISH: "finish"}
"""The ``kind`` of a cell in the view."""

PHASE_NAMES = {Phase.DECLARE: "declare", Phase.ROAD_ROLL: "road-roll",
               Phase.SHORTCUT_ROLL: "shortcut-roll", Phase.CHOOSE: "choose",
               Phase.PUSH_TO: "push-to", Phase.OVER: "over"}
"""The ``phase`` of the turn in the view."""

MAX_FIRST_SHORTCUT = 3
"""A first shortcut roll that lets the car move shows 1-3 (4-6 forfeits the turn)."""


def cell_id(board: Board, cell: int) -> str:
    """The element id of a cell on the board: ``cell-c4``."""
    return f"cell-{board.names[cell]}"


def sign_id(move: str) -> str:
    """The element id of the sign for a declaration or ``press``: ``sign-road``."""
    return f"sign-{move}"


def _cells(board: Board) -> list[JsonObject]:
    """Every cell of the grid with its place, kind, road number and short text."""
    cells: list[JsonObject] = []
    texts = {Kind.START: _("Start"), Kind.FINISH: _("Finish"), Kind.GREY: ""}
    for line, row in enumerate(board.grid):
        for column, cell in enumerate(row):
            if cell < 0:
                continue
            kind = board.kinds[cell]
            road = board.road_pos[cell] if kind is Kind.ROAD else None
            cells.append({"id": cell_id(board, cell), "name": board.names[cell],
                          "kind": KIND_NAMES[kind], "col": column, "row": line,
                          "road": road, "text": texts.get(kind, str(road)),
                          "where": where(board, cell)})
    return cells


def _cars(board: Board, data: ShortcutData) -> list[JsonObject]:
    """Each seat's car: its letter, its cell and how far it is from the finish by road."""
    cars: list[JsonObject] = []
    for seat, cell in enumerate(data.cars):
        to_go = (board.road_distance(cell)
                 if board.kinds[cell] is not Kind.GREY else None)
        cars.append({"id": f"car-{seat}", "seat": seat, "letter": letter(seat),
                     "cell": cell_id(board, cell), "where": where(board, cell),
                     "to_go": to_go})
    return cars


def _road_preview(board: Board, here: int) -> list[JsonObject]:
    """Where each road roll 1..6 would end (rolls past the finish do not move the car)."""
    preview: list[JsonObject] = []
    for roll in range(1, 7):
        target = board.road_target(here, roll)
        if target is not None:
            preview.append({"cell": cell_id(board, target), "text": str(roll)})
    return preview


def _reach_preview(board: Board, here: int, total: int,
                   blocked: frozenset[int]) -> list[JsonObject]:
    """The cells within ``total`` steps (not the car's own), with the steps each takes."""
    reach = board.reachable(here, total, blocked)
    return [{"cell": cell_id(board, c), "text": str(n)}
            for c, n in sorted(reach.items(), key=lambda item: (item[1], item[0])) if n > 0]


def _entrance(board: Board, here: int, blocked: frozenset[int]) -> int:
    """The grey cell nearest the car (the entrance of the shortcut field; of several as
    near, the first in reading order); the next road square when no grey cell can be reached
    any more.

    A breadth-first search that stops at the first ring of cells holding a grey one, so on
    a large board it looks only as far as the nearest grey cell (the legal steps and cars
    in the way as :meth:`~dicegames.games.shortcut.board.Board.reachable` has them)."""
    seen = {here}
    ring = [here]
    finish = board.finish
    while ring:
        grey = [cell for cell in ring if board.is_grey(cell)]
        if grey:
            return min(grey)
        following: list[int] = []
        for cell in ring:
            if cell == finish:
                continue
            for step in board.steps[cell]:
                if step not in seen and step not in blocked:
                    seen.add(step)
                    following.append(step)
        ring = following
    ahead = board.road_target(here, 1)
    return here if ahead is None else ahead


def _signs(game: ShortcutRules, data: ShortcutData) -> list[JsonObject]:
    """The signs of the current player's declarations (DECLARE) or of ``press`` (CHOOSE).

    A declaration's ``cell`` is the square it leads to first and ``preview`` the squares it
    may reach (the board draws the signs beside the grid, so none hides a number or a car,
    and shows the preview while a sign is hovered); ``press`` has no cell (it moves nothing,
    so the board shows it beside the dice total instead)."""
    board = game.board
    here = data.cars[data.player]
    blocked = game.blocked(data, data.player)
    signs: list[JsonObject] = []
    if data.phase is Phase.DECLARE:
        steps = board.push_targets(here, blocked)
        if not board.is_grey(here):
            ahead = board.road_target(here, 1)
            anchor = here if ahead is None else ahead
            signs.append({"id": sign_id("road"), "move": str(Declaration.ROAD),
                          "text": _("Road"), "cell": cell_id(board, anchor),
                          "preview": _road_preview(board, here)})
        entrance = here if board.is_grey(here) else _entrance(board, here, blocked)
        signs.append({"id": sign_id("shortcut"), "move": str(Declaration.SHORTCUT),
                      "text": _("Shortcut"), "cell": cell_id(board, entrance),
                      "preview": _reach_preview(board, here, MAX_FIRST_SHORTCUT, blocked)})
        if steps:
            anchor = steps[0] if len(steps) == 1 else here
            signs.append({"id": sign_id("push"), "move": str(Declaration.PUSH),
                          "text": _("Push"), "cell": cell_id(board, anchor),
                          "preview": [{"cell": cell_id(board, c), "text": "1"}
                                      for c in steps]})
    elif data.phase is Phase.CHOOSE:
        signs.append({"id": sign_id("press"), "move": str(Press.PRESS),
                      "text": _("Roll again"), "cell": None, "preview": []})
    return signs


def static_board(game: ShortcutRules) -> JsonObject:
    """The part of the board's view that no move changes: the grid's name, size, road length
    and every cell (see :meth:`dicegames.core.presenter.Presenter.static_board`)."""
    board = game.board
    return {
        "name": board.name,
        "width": board.width,
        "height": board.height,
        "road_length": board.road_length,
        "cells": _cells(board),
    }


def moving_board(game: ShortcutRules, data: ShortcutData) -> JsonObject:
    """The part of the board's view a move may change: cars, turn, signs, destinations."""
    board = game.board
    over = data.phase is Phase.OVER
    destinations = ([cell_id(board, c.index) for c in game.destinations(data)]
                    if data.phase in (Phase.CHOOSE, Phase.PUSH_TO) else [])
    return {
        "cars": _cars(board, data),
        "turn": {"seat": data.player, "number": data.turn, "phase": PHASE_NAMES[data.phase],
                 "rolls": list(data.rolls), "total": sum(data.rolls)},
        "winner": data.winner if over else None,
        "signs": [] if over else _signs(game, data),
        "destinations": destinations,
    }


def view(game: ShortcutRules, data: ShortcutData, chance: bool) -> JsonObject:
    """The whole view (see :meth:`dicegames.core.presenter.Presenter.view`)."""
    moving = moving_view(game, data, chance)
    return {**moving, "board": {**static_board(game), **moving["board"]}}


def moving_view(game: ShortcutRules, data: ShortcutData, chance: bool) -> JsonObject:
    """The view without the :func:`static_board` part of its board (see
    :meth:`dicegames.core.presenter.Presenter.moving_view`).

    The dice shown are the current shortcut turn's 1-3 rolls (their sum is the movement
    allowed; none is spent before the car moves, so none is marked used). A road roll ends
    the turn at once and leaves no die here; the web app still shows it, spent, through
    :meth:`~dicegames.core.presenter.Presenter.roll_dice`. At a chance node a person with a real die
    picks its face (one die, faces 1-6).
    """
    dice: list[JsonObject] = [{"value": roll, "label": str(roll)} for roll in data.rolls]
    entry: JsonObject | None = None
    if chance:
        entry = {"count": 1, "join": " ",
                 "faces": [{"value": str(face), "label": str(face)} for face in range(1, 7)]}
    return {"game": game.spec.id, "board": moving_board(game, data), "dice": dice,
            "dice_entry": entry,
            "seat_colours": list(SEAT_COLOURS[:game.players])}  # cars also carry a letter


def _destination_label(board: Board, data: ShortcutData, cell: Cell) -> str:
    """A button's text for stopping on (or pushing to) ``cell``, in the current language."""
    here = data.cars[data.player]
    target = cell.index
    if data.phase is Phase.PUSH_TO:
        return _("Push to {cell}", cell=where(board, target))
    if target == here:
        return _("Stay on {cell}", cell=where(board, target))
    if target == board.finish:
        return _("Drive to the finish!")
    return _("Move to {cell}", cell=where(board, target))


def hints(game: ShortcutRules, data: ShortcutData, seat: Seat,
          actions: Sequence[Hashable]) -> list[JsonObject]:
    """The hints of ``seat``'s legal ``actions`` (see
    :meth:`dicegames.core.presenter.Presenter.action_hints`): a destination is clicked on
    its cell, a declaration or ``press`` on its sign."""
    board = game.board
    found: list[JsonObject] = []
    for action in actions:
        move = str(action)
        if isinstance(action, Cell):
            found.append({"move": move, "label": _destination_label(board, data, action),
                          "targets": [cell_id(board, action.index)]})
            continue
        if action is Declaration.ROAD:
            label = _("Road: roll the die and drive")
        elif action is Declaration.SHORTCUT:
            label = _("Shortcut: 1-3 go, 4-6 stuck")
        elif action is Declaration.PUSH:
            steps = board.push_targets(data.cars[seat], game.blocked(data, data.player))
            label = (_("Push one square to {cell}", cell=where(board, steps[0]))
                     if len(steps) == 1 else _("Push one square"))
        else:
            label = _("Roll again ({total} so far; 4-6 loses it)", total=sum(data.rolls))
        found.append({"move": move, "label": label, "targets": [sign_id(move)]})
    return found
