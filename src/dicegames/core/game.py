"""The engine: a game's rules as pure functions over immutable states.

A game subclasses :class:`Game` and implements a handful of template methods on its own
frozen data type (``_initial``, ``_node``, ``_legal_actions``, ``_apply_action``,
``_chance_outcomes``, ``_apply_outcome``, ``_result``, ``_turn``). :class:`State` wraps that
data and is what everyone else sees: it answers whose decision it is, lists legal actions and
chance outcomes, and checks every move exactly once before the game's code runs, raising a
specific :class:`~dicegames.core.errors.IllegalAction` whose message names what is allowed.

Actions and chance outcomes are any hashable values whose ``str()`` is their canonical
notation (like chess's UCI): ``game.parse(state, str(x)) == x`` always holds.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import ClassVar, Generic, TypeVar, final

from dicegames.core.errors import (
    GameNotOver,
    GameOver,
    IllegalAction,
    NotYourTurn,
    PositionError,
)
from dicegames.core.model import (
    GameSpec,
    Node,
    NodeKind,
    Result,
    Seat,
    TurnInfo,
)
from dicegames.core.options import OptionValue
from dicegames.core.position import Facts

D = TypeVar("D", bound=Hashable)
A = TypeVar("A", bound=Hashable)
Out = TypeVar("Out", bound=Hashable)


def normalize(text: str) -> str:
    """Canonical form of typed notation: trimmed, lower case, single spaces."""
    return " ".join(text.strip().lower().split())


def _listing(items: tuple[Hashable, ...], limit: int = 30) -> str:
    shown = ", ".join(str(item) for item in items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")


class Game(ABC, Generic[D, A, Out]):
    """A configured game: its frozen spec, player count and option values.

    Build one with :func:`dicegames.make`. Subclasses set ``spec`` and implement the
    template methods below on their own immutable data type ``D``; they never check
    legality themselves (the :class:`State` methods do that once).
    """

    spec: ClassVar[GameSpec]

    def __init__(self, players: int, options: Mapping[str, OptionValue]) -> None:
        self.players = players
        self.options: Mapping[str, OptionValue] = dict(options)
        self._key = (self.spec.id, players, tuple(sorted(self.options.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"dicegames.make({self.spec.id!r}, players={self.players}{opts})"

    # ----------------------------------------------------------------- public surface

    @final
    def new_state(self) -> State[D, A, Out]:
        """The state before the first move."""
        return State(self, self._initial())

    @final
    def state_from(self, data: D) -> State[D, A, Out]:
        """Wrap game data (e.g. a scenario set up by a test) as a state of this game."""
        return State(self, data)

    @final
    def position(self, state: State[D, A, Out]) -> str:
        """The position notation of ``state``: one line holding everything the rules need.

        ``game.from_position(game.position(state)) == state`` for every reachable state. The
        fields are documented on the game's rules page (section "Positions").
        """
        return self._position(state.data)

    @final
    def from_position(self, text: str) -> State[D, A, Out]:
        """The state a position text describes (the inverse of :meth:`position`).

        Extra spaces are ignored. The position must fit this configured game: as many
        seats as players, squares of its board, phases its options allow.

        Raises:
            PositionError: the text is malformed or describes a position the rules cannot
                reach; the message names the field, what is wrong and what is allowed.
        """
        if not isinstance(text, str):
            raise PositionError(f"a position is text, not {type(text).__name__}")
        return State(self, self._from_position(" ".join(text.split())))

    def facts(self, state: State[D, A, Out]) -> Facts:
        """The typed, public reading of ``state``: whose turn, the phase, and each game's
        pieces (runners, cars, horses, sheets; see the game's ``Facts`` subclass, which
        each game's ``facts`` returns). The default knows only the turn and the end."""
        data = state.data
        turn = self._turn(data)
        over = self._node(data).kind is NodeKind.TERMINAL
        winners = self._result(data).winners if over else ()
        return Facts(turn.seat, turn.number, "over" if over else "play", over, winners)

    def parse(self, state: State[D, A, Out], text: str, seat: Seat | None = None) -> Hashable:
        """Turn notation into the action or chance outcome it names in ``state``.

        Raises:
            IllegalAction: the text names nothing legal here; the message lists what is.
        """
        if state.is_terminal:
            raise GameOver("the game is over: nothing more can be played")
        if state.is_chance:
            return self._parse_outcome(state.data, text)
        return self._parse_action(state.data, state.deciding_seat(seat), text)

    # ----------------------------------------------------------------- template methods

    @abstractmethod
    def _initial(self) -> D:
        """The data of the state before the first move."""

    @abstractmethod
    def _node(self, data: D) -> Node:
        """Whether the dice, one or several seats, or nobody (game over) act next."""

    @abstractmethod
    def _turn(self, data: D) -> TurnInfo:
        """Whose turn it is and the turn count (also at chance and terminal nodes)."""

    @abstractmethod
    def _legal_actions(self, data: D, seat: Seat) -> tuple[A, ...]:
        """The legal actions of ``seat`` (one of the deciding seats), in a fixed order."""

    @abstractmethod
    def _apply_action(self, data: D, seat: Seat, action: A) -> D:
        """The data after ``seat`` plays the legal ``action``."""

    @abstractmethod
    def _chance_outcomes(self, data: D) -> tuple[tuple[Out, Fraction], ...]:
        """The outcomes of the dice at a chance node, exact and summing to 1."""

    @abstractmethod
    def _apply_outcome(self, data: D, outcome: Out) -> D:
        """The data after the dice show ``outcome``."""

    @abstractmethod
    def _result(self, data: D) -> Result:
        """Winners, scores and ranks of a finished game."""

    def _position(self, data: D) -> str:
        """The position notation of ``data`` (games with a notation override this)."""
        raise PositionError(f"{self.spec.name} has no position notation")

    def _from_position(self, text: str) -> D:
        """The data a normalized position text describes, checked to be reachable."""
        raise PositionError(f"{self.spec.name} has no position notation")

    def _parse_action(self, data: D, seat: Seat, text: str) -> A:
        """Notation to action; the default looks the text up among the legal actions."""
        legal = self._legal_actions(data, seat)
        wanted = normalize(text)
        for action in legal:
            if normalize(str(action)) == wanted:
                return action
        raise IllegalAction(f"{text.strip()!r} is not a legal move here; legal: {_listing(legal)}")

    def _parse_outcome(self, data: D, text: str) -> Out:
        """Notation to outcome; the default looks the text up among the chance outcomes."""
        outcomes = tuple(o for o, _ in self._chance_outcomes(data))
        wanted = normalize(text)
        for outcome in outcomes:
            if normalize(str(outcome)) == wanted:
                return outcome
        raise IllegalAction(
            f"{text.strip()!r} is not a possible roll here; possible: {_listing(outcomes)}"
        )


_CHANCE = NodeKind.CHANCE
_DECISION = NodeKind.DECISION
_TERMINAL = NodeKind.TERMINAL


@final
class State(Generic[D, A, Out]):
    """An immutable position of a game, with the checked way to move on from it.

    States compare equal when their game and data are equal, so replays can be checked
    state by state. ``apply`` never changes a state: it returns a new one.
    """

    __slots__ = {
        "_legal": "The legal actions of the single deciding seat, once computed.",
        "data": "The game's own immutable data of this position.",
        "game": "The configured game this state belongs to.",
        "node": "The kind of this state and the seats deciding now (read it, never set it).",
    }

    def __init__(self, game: Game[D, A, Out], data: D) -> None:
        self.game = game
        self.data = data
        # Every state is asked its node (who acts next) before anything else, so it is
        # computed here, once. The legal actions (of a single deciding seat,
        # ``node.players[0]``) are computed on first use and kept: the state is immutable,
        # so however many callers ask (the runner, the bot, the checked apply), once.
        self.node: Node = game._node(data)
        self._legal: tuple[A, ...] | None = None

    # ------------------------------------------------------------------ inspection

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.node.kind is _TERMINAL

    @property
    def is_chance(self) -> bool:
        """True when the dice decide next."""
        return self.node.kind is _CHANCE

    @property
    def current_players(self) -> tuple[Seat, ...]:
        """The seats to decide now: one, several (a shared roll), or none."""
        return self.node.players

    @property
    def turn(self) -> TurnInfo:
        """Whose turn it is (the roller at a chance node) and the turn count."""
        return self.game._turn(self.data)

    @property
    def result(self) -> Result:
        """Winners, scores and ranks. Raises :class:`GameNotOver` before the end."""
        if not self.is_terminal:
            raise GameNotOver("the game is not over yet: there is no result")
        return self.game._result(self.data)

    def chance_outcomes(self) -> tuple[tuple[Out, Fraction], ...]:
        """The outcomes of the dice with their exact probabilities (chance nodes only)."""
        if self.node.kind is not _CHANCE:
            raise IllegalAction("no dice are rolled in this state: it is not a chance node")
        return self.game._chance_outcomes(self.data)

    def deciding_seat(self, seat: Seat | None = None) -> Seat:
        """Check that ``seat`` (or the only deciding seat, when None) may decide now."""
        node = self.node
        if node.kind is NodeKind.TERMINAL:
            raise GameOver("the game is over: nothing more can be played")
        if node.kind is NodeKind.CHANCE:
            raise NotYourTurn("the dice must be rolled now; no player decides")
        if seat is None:
            if len(node.players) == 1:
                return node.players[0]
            raise NotYourTurn(
                f"seats {_listing(node.players)} all decide on this roll: say which seat acts"
            )
        if seat not in node.players:
            raise NotYourTurn(
                f"seat {seat} may not act now; deciding now: {_listing(node.players)}"
            )
        return seat

    def legal_actions(self, seat: Seat | None = None) -> tuple[A, ...]:
        """The legal actions of ``seat``, or of the only deciding seat when None."""
        legal = self._legal
        node = self.node
        players = node.players
        if legal is not None and (seat is None or seat == players[0]):
            return legal  # kept only for a node of a single deciding seat
        if node.kind is _DECISION and len(players) == 1 and (seat is None or seat == players[0]):
            legal = self._legal = self.game._legal_actions(self.data, players[0])
            return legal
        return self.game._legal_actions(self.data, self.deciding_seat(seat))

    # ------------------------------------------------------------------ moving on

    def apply(self, move: Hashable, seat: Seat | None = None) -> State[D, A, Out]:
        """Play an action, or set the dice at a chance node, and return the new state.

        ``move`` may be the action or outcome itself or its notation text. Every move is
        checked here, once.

        Raises:
            GameOver: the game has ended.
            NotYourTurn: ``seat`` is not deciding now (or is needed and missing).
            IllegalAction: the move is not legal here; the message lists what is.
        """
        if isinstance(move, str):
            move = self.game.parse(self, move, seat)
        if self.is_terminal:
            raise GameOver("the game is over: nothing more can be played")
        if self.is_chance:
            if seat is not None:
                raise NotYourTurn("the dice decide this state, not a seat")
            outcomes = tuple(o for o, _ in self.chance_outcomes())
            if move not in outcomes:
                raise IllegalAction(
                    f"{move} is not a possible roll here; possible: {_listing(outcomes)}"
                )
            return State(self.game, self.game._apply_outcome(self.data, move))
        acting = self.deciding_seat(seat)
        legal = self.legal_actions(acting)
        if move not in legal:
            raise IllegalAction(f"{move} is not a legal move here; legal: {_listing(legal)}")
        return State(self.game, self.game._apply_action(self.data, acting, move))

    def apply_unchecked(self, move: Hashable, seat: Seat | None = None) -> State[D, A, Out]:
        """Apply a move known to be legal, skipping every check (the bots' fast path).

        The caller guarantees ``move`` came from ``legal_actions`` or ``chance_outcomes``
        of this very state; anything else gives undefined results.
        """
        game = self.game
        node = self.node
        if node.kind is _CHANCE:
            return State(game, game._apply_outcome(self.data, move))  # type: ignore[arg-type]
        return State(game, game._apply_action(
            self.data, node.players[0] if seat is None else seat, move))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ dunder

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.game == other.game and self.data == other.data

    def __hash__(self) -> int:
        return hash(self.data)

    def __repr__(self) -> str:
        return f"<State {self.game.spec.id} {self.data!r}>"

    def __str__(self) -> str:
        """The state drawn as text by its game's presenter (see :mod:`dicegames.core.presenter`)."""
        from dicegames.core.registry import presenter_of  # the registry imports this module

        return presenter_of(self.game).render(self)

