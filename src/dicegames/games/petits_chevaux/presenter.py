"""What people see of Jeu des Petits Chevaux: the cross board drawn as text
(:mod:`.render`) and as the web board (:mod:`.view`), and the log's sentences, in the
current language. The game's definition declares :class:`PetitsChevauxPresenter` as its
``presenter`` part; the rules (:mod:`.rules`) import none of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.core.game import State
from dicegames.core.model import JsonObject, Result, Seat
from dicegames.core.presenter import Presenter
from dicegames.core.text import colour_word, counted
from dicegames.games.petits_chevaux import render as text
from dicegames.games.petits_chevaux import view as web
from dicegames.games.petits_chevaux.data import ChevauxData
from dicegames.games.petits_chevaux.rules import Move, Outcome, PetitsChevauxRules
from dicegames.i18n import N_, _


class PetitsChevauxPresenter(Presenter[PetitsChevauxRules]):
    """The board as text and as the web board, and the log's sentences, of
    Jeu des Petits Chevaux (the ``presenter`` part of its definition)."""

    def render(self, state: State[ChevauxData, Move, Outcome],
               names: Sequence[str] | None = None) -> str:
        """The cross board with every horse, and a legend of the players and the roll."""
        return text.render(state.data, self.game.colours, names)

    def describe(self, state: State[ChevauxData, Move, Outcome], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a draw, a roll, a move or a pass, for logs."""
        return text.describe(self.game, state.data, move, seat, names)

    def describe_summary(self, state: State[ChevauxData, Move, Outcome],
                         result: Result) -> str:
        """ "red fills its stable in turn 40", in the current language."""
        data = state.data
        return _("{colour} fills its stable in turn {turn}",
                 colour=colour_word(self.game.colours[data.winner].label), turn=data.turn)

    def describe_score(self, state: State[ChevauxData, Move, Outcome], result: Result,
                       seat: Seat) -> str:
        """ "3 horses in the stable": the score counts them."""
        return counted(int(result.scores[seat]), N_("1 horse in the stable"),
                       N_("{count} horses in the stable"))

    def explain_result(self, state: State[ChevauxData, Move, Outcome], result: Result,
                       names: Sequence[str]) -> str:
        """Who filled their stable first, and what the numbers count."""
        return _("{name} was the first to bring all four horses into the stable. Beside each "
                 "name: the horses that player has in the stable.",
                 name=names[state.data.winner])

    def view(self, state: State[ChevauxData, Move, Outcome]) -> JsonObject:
        """The cross board, the die and the colours for the web app (see :mod:`.view`)."""
        return web.view(self.game, state.data)

    def action_hints(self, state: State[ChevauxData, Move, Outcome],
                     seat: Seat) -> list[JsonObject]:
        """Button labels and board targets of the legal moves (see :mod:`.view`)."""
        return web.hints(self.game, state.data, seat, state.legal_actions(seat))
