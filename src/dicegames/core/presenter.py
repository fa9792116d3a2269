"""What a front end shows of a game: text, log sentences, the web board's data.

A :class:`Presenter` wraps one configured game (``Presenter(game)``) and answers everything
the terminal, the web app and the logs show, in the current language
(:mod:`dicegames.i18n`): the board as rich text (:meth:`~Presenter.render`), a sentence per
move (:meth:`~Presenter.describe`), the result's line, and the web board's JSON
(:meth:`~Presenter.view`, :meth:`~Presenter.action_hints`...). The rules class
(:mod:`dicegames.core.game`) knows none of it: a game declares its presenter in its
:class:`~dicegames.core.definition.GameDefinition`, and front ends ask
:func:`dicegames.core.registry.presenter_of` for it. The defaults here are what a game
without a presenter of its own shows: its data as text, moves by their notation, no board
(the web app then plays it with the text board and buttons).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from dicegames.core.game import Game, State
from dicegames.core.model import PASS, JsonObject, Result, Seat
from dicegames.core.text import says
from dicegames.i18n import N_, _

G = TypeVar("G", bound=Game[Any, Any, Any])

SEAT_COLOURS = ("#d33", "#2a6fd6", "#e0a800", "#2e9d4f", "#8e44ad", "#e67e22", "#16a0a0",
                "#7a5230")
"""The web page's seat colours (``--seat-0`` .. ``--seat-7`` in style.css), for views whose
seats have no colours of their own."""



class Presenter(Generic[G]):
    """The presentation of one configured game (the generic one, or a game's subclass).

    ``presenter.game`` is the configured game; subclasses read its options and player count
    from it. Build one with :func:`dicegames.core.registry.presenter_of`, which keeps one per
    configured game.
    """

    def __init__(self, game: G) -> None:
        self.game = game

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game!r}>"

    def describe(
        self, state: State[Any, Any, Any], move: Hashable, seat: Seat | None, names: Sequence[str]
    ) -> str:
        """A short plain-text sentence for logs about ``move`` played in ``state`` (before it).

        ``seat`` is None for a roll of the dice; ``names`` are the players' display names.
        The sentence of :data:`~dicegames.core.model.PASS` is the session's pass event too,
        so a game can say why nothing moves (the default: the turn passes).
        The sentence is in the current language (:mod:`dicegames.i18n`): write whole
        messages through :func:`dicegames.core.text.says` so that a player called "You"
        reads right in every language; notation stays as it is.
        """
        who = names[seat if seat is not None else state.turn.seat]
        if seat is None:
            return says(who, N_("{name} rolls {value}"), N_("You roll {value}"), value=move)
        if move == PASS:
            return says(who, N_("{name} cannot move: the turn passes"),
                        N_("You cannot move: the turn passes"))
        return _("{name}: {move}", name=who, move=move)

    def describe_summary(self, state: State[Any, Any, Any], result: Result) -> str:
        """The result's one-line summary (``result.summary``, written by the rules in
        English) in the current language (:mod:`dicegames.i18n`); ``state`` is the final
        state. Games whose presentation translates it override this."""
        return result.summary

    def describe_score(self, state: State[Any, Any, Any], result: Result, seat: Seat) -> str:
        """What ``seat``'s final score means, in words, for the end screen ("4 steps from
        the finish", "12 points"), in the current language; ``state`` is the final state.
        The default is the number itself: a game whose scores are not plain points says
        what they are."""
        score = result.scores[seat]
        return str(int(score)) if float(score).is_integer() else f"{score:g}"

    def explain_result(self, state: State[Any, Any, Any], result: Result,
                       names: Sequence[str]) -> str:
        """Why the winners won, and what the scores beside the names mean, in a sentence
        or two for a family reading the end screen (a tie-break said in words), in the
        current language; ``names`` are the players' display names. The default says
        nothing more than the result's line."""
        return ""

    def dice_note(self, state: State[Any, Any, Any]) -> str:
        """A sentence shown where a person enters real dice at ``state`` (a chance node),
        for a rule about the roll itself ("a 6 on the first roll is rolled again"), in the
        current language; empty for none (the default)."""
        return ""

    def render(self, state: State[Any, Any, Any], names: Sequence[str] | None = None) -> str:
        """The state as text for a terminal, with rich markup for colours.

        ``names`` are the players' display names as plain text (default "Player 1",
        "Player 2"...); the game escapes them, so a name like ``Ann [x]`` is safe.
        """
        return repr(state.data)

    def view(self, state: State[Any, Any, Any]) -> JsonObject:
        """The state as JSON-ready data for graphical front ends (the web app's SVG board).

        Every game returns at least these keys:

        - ``"game"``: the game id;
        - ``"board"``: game-specific drawing data (geometry and pieces), or None;
        - ``"dice"``: the dice to show, a list of ``{"value": str|int, "label": str}``
          (``"used": true`` marks a die already spent this turn; a colour die adds
          ``"colour"``, a CSS colour from the board's own palette), empty when none are out;
        - ``"dice_entry"``: at a chance node, how a person types physical dice:
          ``{"count": n, "faces": [{"value": notation, "label": str}], "join": " "}``
          (the outcome's notation is the chosen faces, in any order, joined by ``join``;
          a colour face adds ``"colour"`` as the dice do), or None when the outcomes are
          best offered as a plain list.

        A game may add ``"seat_colours"``: one CSS colour per seat, when its pieces have
        colours of their own (the page's seat markers then match the board); a game whose
        seats have no colours of their own uses :data:`SEAT_COLOURS`.

        The default has no board; games override it (see ``games/<game>/view.py``).
        """
        return {"game": self.game.spec.id, "board": None, "dice": [], "dice_entry": None}

    def static_board(self) -> JsonObject:
        """The entries of ``view(state)["board"]`` that are the same in every state of this
        configured game, in the current language: the drawing of a board that is data (a
        custom Shortcut grid, a Monza circuit), as large as the limits allow. Empty (the
        default) when the board has no such part worth sending once.

        :meth:`view` holds them too; :meth:`moving_view` leaves them out, so a front end
        that shows every move (the web app's pushes) builds and sends them once, not at
        every move. They depend on the game's options and player count only.
        """
        return {}

    def moving_view(self, state: State[Any, Any, Any]) -> JsonObject:
        """:meth:`view` without the :meth:`static_board` entries in its ``"board"``: what may
        change from one state to the next, cheap enough to build at every move of a board
        at the size limits. The default is the whole view (a game without a static part)."""
        return self.view(state)

    def roll_dice(self, state: State[Any, Any, Any], outcome: Any) -> list[JsonObject]:
        """The dice a roll shows, drawn as in :meth:`view` (``state`` is the chance node).

        Front ends keep the last roll on the table after the game has spent it. The default
        is the dice of the view just after the roll; when that shows none because the roll
        took effect at once (a road roll in Shortcut moves the car and ends the turn, a third
        6 under Petits Chevaux's penalty ends it), a die roll (an ``int`` outcome, the
        games' convention for one die's face) is shown as that one die. Other outcomes (a
        colour drawn for the first player) show nothing; a game whose table should show more
        (Extra Meters keeps the turn's earlier dice) overrides this.
        """
        dice: list[JsonObject] = self.moving_view(state.apply_unchecked(outcome))["dice"]
        if not dice and type(outcome) is int:
            return [{"value": outcome, "label": str(outcome)}]
        return dice

    def action_hints(self, state: State[Any, Any, Any], seat: Seat) -> list[JsonObject]:
        """The legal actions of ``seat`` for graphical front ends, in legal order.

        Each item is ``{"move": notation, "label": short text for a button,
        "targets": [ids of elements of view()["board"] the move can be picked on]}``.
        Front ends act by sending ``move`` back; ``targets`` only say where to click.
        The default labels each action with its notation and names no target.
        """
        return [
            {"move": str(action), "label": str(action), "targets": []}
            for action in state.legal_actions(seat)
        ]


__all__ = ["SEAT_COLOURS", "Presenter"]
