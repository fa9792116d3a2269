"""A game being played: the current state, the move history, events and undo.

:class:`Session` is the one object every front end drives (the command line, the web server,
tests): it applies checked moves, remembers them in notation for records and replays, turns
each move into an :class:`Event` a UI can show, and can take back the last move.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, get_args

from dicegames.core.fair import FairDice
from dicegames.core.game import Game, State
from dicegames.core.model import PASS, Result, Seat
from dicegames.core.presenter import Presenter
from dicegames.core.registry import presenter_of
from dicegames.core.text import listing, says
from dicegames.i18n import N_, _

DiceMode = Literal["auto", "manual"]
"""How a game's dice are rolled: ``auto`` by the computer (from the session's seed) or
``manual``, physical dice whose faces a person types in."""

DICE_MODES: tuple[DiceMode, ...] = get_args(DiceMode)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who sits in a seat: a display name and ``human`` or ``bot:<level>``."""

    name: str
    kind: str = "human"

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.kind.startswith("bot:")


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One entry of the history: who moved (None for the dice) and the move's notation.

    ``several`` is true when several seats were deciding on that state; the record then
    writes the seat in front of the notation (``"1:4+6 x3"``) so the move replays exactly.
    """

    seat: Seat | None
    text: str
    several: bool = False

    def to_record(self) -> str:
        """The entry as it is written in a record's ``moves`` list."""
        return f"{self.seat}:{self.text}" if self.several else self.text


class EventKind(StrEnum):
    """What happened, for UIs and logs."""

    ROLL = "roll"
    MOVE = "move"
    PASS = "pass"
    TURN = "turn"
    GAME_OVER = "game_over"
    UNDO = "undo"


@dataclass(frozen=True, slots=True)
class Event:
    """Something a UI can render: a roll, a move, a pass, a new turn, the end, an undo.

    Attributes:
        kind: what happened.
        seat: the seat it concerns (the roller for a roll, the new player for a turn).
        text: the move's notation (empty for turn and game-over events).
        description: a short sentence for people.
        turn: the turn count after the event.
        result: the result, for a game-over event.
    """

    kind: EventKind
    seat: Seat | None
    text: str
    description: str
    turn: int
    result: Result | None = None


class Session:
    """A game in progress (or finished) with its full history.

    Args:
        game: the configured game.
        players: who sits in each seat; defaults to "Player 1", "Player 2"...
        seed: the seed of the random dice (and of the bots), kept in the record; None when
            there is none (physical dice, or a seed nobody noted).
        dice: how the dice are rolled, ``auto`` (by the computer) or ``manual`` (physical
            dice typed in); kept in the record, so a resumed game carries on the same way.
        start: the state to start from (a position set up with ``game.from_position``);
            None for the start of the game. A record keeps its position.
        fair: a web match's committed dice (:mod:`dicegames.core.fair`); None for a game
            whose seed is its player's own (the terminal). With it, a record of the
            unfinished game shows the commitment and never the seed or the secret.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        players: Sequence[PlayerInfo] | None = None,
        seed: int | None = None,
        dice: DiceMode = "auto",
        *,
        start: State[Any, Any, Any] | None = None,
        fair: FairDice | None = None,
    ) -> None:
        if players is None:
            players = [PlayerInfo(f"Player {i + 1}") for i in range(game.players)]
        if len(players) != game.players:
            raise ValueError(f"{len(players)} players given for a {game.players}-player game")
        if dice not in DICE_MODES:
            raise ValueError(f"dice must be one of {', '.join(DICE_MODES)}, not {dice!r}")
        self.game = game
        self.players: tuple[PlayerInfo, ...] = tuple(players)
        self.seed = seed
        self.dice: DiceMode = dice
        self.fair = fair
        if start is not None and start.game != game:
            raise ValueError(f"the start state is a state of {start.game!r}, not of {game!r}")
        self._states: list[State[Any, Any, Any]] = [game.new_state() if start is None
                                                    else start]
        self._moves: list[MoveEntry] = []
        self.position: str | None = None if start is None else game.position(start)
        """The position the session started from (None: the start of the game)."""

    @property
    def presenter(self) -> Presenter[Any]:
        """The game's presenter (its sentences for the events; see
        :func:`dicegames.core.registry.presenter_of`)."""
        return presenter_of(self.game)

    @property
    def state(self) -> State[Any, Any, Any]:
        """The current state."""
        return self._states[-1]

    @property
    def moves(self) -> tuple[MoveEntry, ...]:
        """Every move so far, in order."""
        return tuple(self._moves)

    @property
    def states(self) -> tuple[State[Any, Any, Any], ...]:
        """The state before the first move, then the state after each move."""
        return tuple(self._states)

    def name(self, seat: Seat | None) -> str:
        """The display name of ``seat`` ("Dice" for None)."""
        return "Dice" if seat is None else self.players[seat].name

    def apply(self, move: Hashable, seat: Seat | None = None) -> list[Event]:
        """Check and play ``move`` (object or notation) and return what happened.

        Raises:
            IllegalAction: as :meth:`State.apply`; the session is unchanged.
        """
        before = self.state
        if isinstance(move, str):
            move = self.game.parse(before, move, seat)
        after = before.apply(move, seat)
        acting = None if before.is_chance else before.deciding_seat(seat)
        several = not before.is_chance and len(before.current_players) > 1
        self._states.append(after)
        self._moves.append(MoveEntry(acting, str(move), several))
        return self._events(before, after, move, acting)

    def events_at(self, index: int) -> list[Event]:
        """The events of move ``index`` as :meth:`apply` returned them, written again in the
        current language (:func:`dicegames.i18n.use`): a web page shows each viewer the log
        in their own language.

        Raises:
            IndexError: there is no move ``index``.
        """
        entry = self._moves[index]
        before, after = self._states[index], self._states[index + 1]
        move = self.game.parse(before, entry.text, entry.seat)
        return self._events(before, after, move, entry.seat)

    def _events(
        self,
        before: State[Any, Any, Any],
        after: State[Any, Any, Any],
        move: Hashable,
        acting: Seat | None,
    ) -> list[Event]:
        turn = after.turn
        description = self.presenter.describe(before, move, acting,
                                              [p.name for p in self.players])
        if acting is None:
            events = [Event(EventKind.ROLL, before.turn.seat, str(move), description, turn.number)]
        elif move == PASS:
            events = [Event(EventKind.PASS, acting, str(move), description, turn.number)]
        else:
            events = [Event(EventKind.MOVE, acting, str(move), description, turn.number)]
        if after.is_terminal:
            result = after.result
            events.append(Event(EventKind.GAME_OVER, None, "", self.describe_result(result, after),
                                turn.number, result))
        elif turn.number != before.turn.number:
            events.append(Event(EventKind.TURN, turn.seat, "",
                                says(self.name(turn.seat), N_("{name}'s turn"),
                                     N_("Your turn")), turn.number))
        return events

    def describe_result(self, result: Result,
                        state: State[Any, Any, Any] | None = None) -> str:
        """One line naming the winner(s), in the current language, and the game's summary
        of the final ``state`` (default: the current one; see
        :meth:`~dicegames.core.presenter.Presenter.describe_summary`)."""
        summary = self.presenter.describe_summary(self.state if state is None else state, result)
        if len(result.winners) == 1:
            name = self.name(result.winners[0])
            if summary:
                return says(name, N_("{name} wins: {summary}"), N_("You win: {summary}"),
                            summary=summary)
            return says(name, N_("{name} wins"), N_("You win"))
        if result.winners:
            names = listing([self.name(seat) for seat in result.winners])
            if summary:
                return _("{names} share the win: {summary}", names=names, summary=summary)
            return _("{names} share the win", names=names)
        return _("Nobody wins: {summary}", summary=summary) if summary else _("Nobody wins")

    def can_undo(self, seat: Seat | None = None) -> bool:
        """True when there is a last move to take back (by ``seat``, when given).

        A person may take back their own last decision only while nothing has happened
        since: no roll, no other player's move.
        """
        if not self._moves:
            return False
        last = self._moves[-1]
        return seat is None or (last.seat == seat and last.text != str(PASS))

    def undo(self) -> Event:
        """Take back the last move and return an event saying so.

        Raises:
            IndexError: there is nothing to undo.
        """
        if not self._moves:
            raise IndexError("there is no move to undo")
        entry = self._moves.pop()
        self._states.pop()
        return Event(EventKind.UNDO, entry.seat, entry.text,
                     says(self.name(entry.seat), N_("{name} takes back {move}"),
                          N_("You take back {move}"), move=entry.text),
                     self.state.turn.number)
