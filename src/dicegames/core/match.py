"""The match runner behind every front end: players, a dice source, and events.

:func:`play` drives a :class:`~dicegames.core.session.Session` to the end: at a chance node it
asks the dice source, at a decision it asks each deciding seat's agent (a bot, or a person
behind the command line), and it hands every event to a callback a UI renders. A forced
pass is played without asking anyone. Dice come from a seeded generator, a test script, or a
person reading physical dice.

Games nobody watches (simulations, estimates, a search's continuations) are played by the
rollout primitive, :func:`dicegames.core.rollout.rollout`, with the same rules for whose
turn it is and for forced passes, and the same move cap (:data:`~dicegames.core.rollout.
MAX_MOVES`), but no session, no events and, where it can, the game's bulk kernel.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol

from dicegames.core.chance import sample
from dicegames.core.errors import DiceGamesError, IllegalAction, Reroll
from dicegames.core.game import State
from dicegames.core.model import PASS, Agent, Result
from dicegames.core.rollout import MAX_MOVES
from dicegames.core.session import Event, Session


class DiceSource(Protocol):
    """Where chance outcomes come from."""

    def roll(self, state: State[Any, Any, Any]) -> Hashable:
        """Return one of ``state.chance_outcomes()``."""
        ...


class RandomDice:
    """Dice rolled by a seeded generator: same seed, same rolls."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, state: State[Any, Any, Any]) -> Hashable:
        """Draw an outcome by its exact probability."""
        outcome: Hashable = sample(state.chance_outcomes(), self.rng)
        return outcome


class ScriptExhausted(DiceGamesError):
    """A scripted dice source was asked for more rolls than it was given."""


class ScriptedDice:
    """Dice that show a fixed list of outcomes, in order (for tests and demos).

    Items may be outcome objects or notation (``"5"``); each is checked when used.
    """

    def __init__(self, rolls: Iterable[Hashable]) -> None:
        self._rolls = list(rolls)
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls are left."""
        return len(self._rolls) - self._next

    def roll(self, state: State[Any, Any, Any]) -> Hashable:
        """The next scripted outcome, parsed and checked against this state."""
        if self._next >= len(self._rolls):
            raise ScriptExhausted(f"the dice script ran out after {len(self._rolls)} rolls")
        item = self._rolls[self._next]
        self._next += 1
        if isinstance(item, str):
            return state.game.parse(state, item)
        return item


class ManualDice:
    """Physical dice: a person types what they show, and the rules check it.

    Args:
        ask: called with the state and the problem with the last answer (None at first);
            returns the typed text. It may raise ``EOFError``/``KeyboardInterrupt`` to stop.
    """

    def __init__(self, ask: Callable[[State[Any, Any, Any], str | None], str]) -> None:
        self.ask = ask

    def roll(self, state: State[Any, Any, Any]) -> Hashable:
        """Ask until the typed dice name a possible outcome."""
        problem: str | None = None
        while True:
            text = self.ask(state, problem)
            try:
                return state.game.parse(state, text)
            except Reroll as reroll:
                problem = str(reroll)
            except IllegalAction as error:
                problem = str(error)


def play(
    session: Session,
    agents: Sequence[Agent],
    dice: DiceSource,
    on_event: Callable[[Event], None] | None = None,
    max_moves: int = MAX_MOVES,
) -> Result | None:
    """Play ``session`` to the end (or ``max_moves`` more moves) and return the result.

    Returns None when ``max_moves`` ran out first. Exceptions from agents and the dice source
    (e.g. ``KeyboardInterrupt`` from a person) propagate with the session intact, so the
    caller can save it.
    """
    if len(agents) != session.game.players:
        raise ValueError(f"{len(agents)} agents for a {session.game.players}-player game")
    for _ in range(max_moves):
        state = session.state
        if state.is_terminal:
            return state.result
        if state.is_chance:
            events = session.apply(dice.roll(state))
        else:
            seat = state.current_players[0]
            legal = state.legal_actions(seat)
            move = PASS if legal == (PASS,) else agents[seat].choose(state, seat)
            events = session.apply(move, seat)
        if on_event is not None:
            for event in events:
                on_event(event)
    return session.state.result if session.state.is_terminal else None
