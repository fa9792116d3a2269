"""Jeu des Petits Chevaux as people play it: the pure rules of :mod:`.rules` bound to their
presentation. :class:`PetitsChevaux` adds the cross board drawn as text and as the web board,
the log's sentences, and the bots of :mod:`.bots`; :mod:`.rules` imports none of these (see
:mod:`dicegames.games.binding`), and the registry registers this class.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicegames.core.game import State
from dicegames.core.model import BotLevel, JsonObject, Result, Seat
from dicegames.core.text import colour_word
from dicegames.games.petits_chevaux import render as text
from dicegames.games.petits_chevaux import view as web
from dicegames.games.petits_chevaux.data import ChevauxData
from dicegames.games.petits_chevaux.rules import Move, Outcome, PetitsChevauxRules
from dicegames.i18n import _


class PetitsChevaux(PetitsChevauxRules):
    """:class:`PetitsChevauxRules` with its board, sentences and bots (the registered class)."""

    def render(self, state: State[ChevauxData, Move, Outcome],
               names: Sequence[str] | None = None) -> str:
        """The cross board with every horse, and a legend of the players and the roll."""
        return text.render(state.data, self.colours, names)

    def describe(self, state: State[ChevauxData, Move, Outcome], move: Hashable,
                 seat: Seat | None, names: Sequence[str]) -> str:
        """One sentence about a draw, a roll, a move or a pass, for logs."""
        return text.describe(self, state.data, move, seat, names)

    def describe_summary(self, state: State[ChevauxData, Move, Outcome],
                         result: Result) -> str:
        """ "red fills its stable in turn 40", in the current language."""
        data = state.data
        return _("{colour} fills its stable in turn {turn}",
                 colour=colour_word(self.colours[data.winner].label), turn=data.turn)

    def view(self, state: State[ChevauxData, Move, Outcome]) -> JsonObject:
        """The cross board, the die and the colours for the web app (see :mod:`.view`)."""
        return web.view(self, state.data)

    def action_hints(self, state: State[ChevauxData, Move, Outcome],
                     seat: Seat) -> list[JsonObject]:
        """Button labels and board targets of the legal moves (see :mod:`.view`)."""
        return web.hints(self, state.data, seat, state.legal_actions(seat))

    def bot_levels(self) -> tuple[BotLevel, ...]:
        """easy: random; medium: the heuristic player; hard: the risk-aware policy; expert:
        hard plus a learned win chance; search: hard corrected by simulated continuations
        (and search-60, its small-budget form; search-expert-60, the same built on
        expert)."""
        from dicegames.games.petits_chevaux.bots import levels

        return levels()

