"""What people see of Monza: the circuit drawn as text (:mod:`.render`) and as the
web board (:mod:`.view`), and the log's sentences, in the current language. The game's
definition declares :class:`MonzaPresenter` as its ``presenter`` part; the rules
(:mod:`.rules`) import none of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.core.game import State
from dicegames.core.model import JsonObject, Result, Seat
from dicegames.core.presenter import Presenter
from dicegames.core.text import colour_word, counted, listing
from dicegames.games.monza import render as text
from dicegames.games.monza import view as web
from dicegames.games.monza.data import COLOURS, MonzaData, Roll
from dicegames.games.monza.rules import MonzaRules, Move
from dicegames.i18n import N_, _


class MonzaPresenter(Presenter[MonzaRules]):
    """The board as text and as the web board, and the log's sentences, of
    Monza (the ``presenter`` part of its definition)."""

    def render(self, state: State[MonzaData, Move, Roll],
               names: Sequence[str] | None = None) -> str:
        """The three lanes with coloured, lettered squares, cars, tyres and targets."""
        return text.render(self.game, state.data, names)

    def describe(self, state: State[MonzaData, Move, Roll], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a roll or a decision, for logs."""
        return text.describe(self.game, state.data, move, seat, names)

    def describe_summary(self, state: State[MonzaData, Move, Roll], result: Result) -> str:
        """ "the red car on square 5 of the middle lane, 2 dice in the last round", in the
        current language."""
        data = state.data
        squares = listing(list(dict.fromkeys(
            text.square_words(self.game.circuit, data.cars[s]) for s in data.winners)))
        colours = listing([colour_word(COLOURS[s]) for s in data.winners])
        used = data.round_used[data.winners[0]] if data.winners else 0
        dice = counted(used, N_("1 die"), N_("{count} dice"))
        if len(data.winners) > 1:
            return _("the {colours} cars on {squares}, {dice} each in the last round",
                     colours=colours, squares=squares, dice=dice)
        return _("the {colours} car on {squares}, {dice} in the last round",
                 colours=colours, squares=squares, dice=dice)

    def describe_score(self, state: State[MonzaData, Move, Roll], result: Result,
                       seat: Seat) -> str:
        """ "at the finish, 2 dice in the last round" for a car that reached a target (the
        tie-break counts those dice), else "5 squares from the finish"."""
        data = state.data
        car = data.cars[seat]
        if car in self.game.circuit.targets:
            return _("at the finish, {dice} in the last round", dice=counted(
                data.round_used[seat], N_("1 die"), N_("{count} dice")))
        return counted(self.game.circuit.steps_to_finish(car), N_("1 square from the finish"),
                       N_("{count} squares from the finish"))

    def explain_result(self, state: State[MonzaData, Move, Roll], result: Result,
                       names: Sequence[str]) -> str:
        """Who reached the finish, and how a tie was broken (fewer dice in the last
        round) or shared."""
        data = state.data
        arrived = [s for s, car in enumerate(data.cars) if car in self.game.circuit.targets]
        winners = listing([names[s] for s in data.winners])
        if len(arrived) <= 1:
            return _("{name} reached the finish first; the round was played to its end. "
                     "Beside each name: how far each car got.", name=winners)
        if len(data.winners) == 1:
            return _("Several cars reached the finish in the last round: {name} wins by using "
                     "the fewest dice in that round. Beside each name: where each car got, "
                     "and for those at the finish the dice used in the last round.",
                     name=winners)
        return _("Several cars reached the finish in the last round with as few dice each: "
                 "{names} share the win. Beside each name: where each car got, and for those "
                 "at the finish the dice used in the last round.", names=winners)

    def view(self, state: State[MonzaData, Move, Roll]) -> JsonObject:
        """The circuit, cars and dice as JSON for the web board (see :mod:`.view`)."""
        return web.view(self.game, state.data, state.current_players)

    def static_board(self) -> JsonObject:
        """The circuit: its lanes of squares and the start zone (see :mod:`.view`)."""
        return web.static_board(self.game)

    def moving_view(self, state: State[MonzaData, Move, Roll]) -> JsonObject:
        """The view without the circuit: cars, turn and dice."""
        return web.moving_view(self.game, state.data, state.current_players)

    def action_hints(self, state: State[MonzaData, Move, Roll], seat: Seat) -> list[JsonObject]:
        """The legal actions as labelled buttons with their board targets (:mod:`.view`)."""
        return web.action_hints(self.game, state.data, seat, state.legal_actions(seat))
