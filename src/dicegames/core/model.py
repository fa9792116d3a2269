"""Plain values shared by the engine: game specs, node kinds, turns, results, bot levels.

Kept apart from :mod:`dicegames.core.game` so that games, bots and shells can import these
small frozen types without the engine itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from dicegames.core.options import OptionSpec

if TYPE_CHECKING:
    from dicegames.core.game import Game, State

Seat = int
"""A player's place at the table, 0-based (seat 0 starts)."""

JsonObject = dict[str, Any]
"""A JSON-ready object (str keys; values are str, int, float, bool, None, lists, objects).

What :meth:`~dicegames.core.presenter.Presenter.view` and ``action_hints`` return for graphical
front ends; ``json.dumps`` must accept it as is.
"""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The static description of a game: what the registry lists.

    Attributes:
        id: the registry name, e.g. ``extra-meters``.
        name: the game's printed name.
        pitch: one paragraph for people choosing a game.
        min_players, max_players, default_players: the player range.
        options: the declared options with their defaults (RULINGS.md's rulings).
        aliases: other names ``make`` accepts.
        age: the youngest age the game suits, as its publisher prints it (or, where the
            rule sheet gives none, our own suggestion, said so on the rules page).
        minutes: how long a game lasts, in minutes (shortest, longest), for people
            choosing a game; the publisher's figure where there is one, else ours from
            simulated games at a person's pace.
    """

    id: str
    name: str
    pitch: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[OptionSpec, ...] = ()
    aliases: tuple[str, ...] = ()
    age: int = 0
    minutes: tuple[int, int] = (0, 0)

    def option(self, name: str) -> OptionSpec:
        """The option called ``name`` (KeyError when there is none)."""
        for spec in self.options:
            if spec.name == name:
                return spec
        raise KeyError(name)


class NodeKind(Enum):
    """Who acts next: one or more deciding seats, chance (the dice), or nobody."""

    DECISION = "decision"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(frozen=True, slots=True)
class Node:
    """The kind of a state, and the seats deciding now (several for a shared roll)."""

    kind: NodeKind
    players: tuple[Seat, ...] = ()

    @staticmethod
    def decision(*players: Seat) -> Node:
        """A node where ``players`` decide (each on their own, on the same state).

        The node of one deciding seat is built once per seat and shared (nodes are frozen),
        so games may call this on every state at no cost.
        """
        if len(players) == 1 and 0 <= players[0] < len(_SINGLE):
            return _SINGLE[players[0]]
        if not players:
            raise ValueError("a decision node needs at least one deciding seat")
        return Node(NodeKind.DECISION, tuple(players))


_SINGLE = tuple(Node(NodeKind.DECISION, (seat,)) for seat in range(16))
"""The decision node of each single seat (0..15), shared."""


class Special(StrEnum):
    """Actions the engine itself knows about."""

    PASS = "pass"
    """The only legal action of a seat the rules leave without a move: the turn passes.

    Front ends play it automatically, and the game record shows it.
    """


PASS = Special.PASS


CHANCE = Node(NodeKind.CHANCE)
"""The node kind of a state waiting for dice."""

TERMINAL = Node(NodeKind.TERMINAL)
"""The node kind of a finished game."""


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """Whose turn it is (the roller, also at chance nodes) and the 1-based turn count."""

    seat: Seat
    number: int


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game.

    Attributes:
        winners: the winning seats (several when the win is shared).
        scores: a number per seat, as the game defines it (position, points...).
        ranks: 1 for the winners, then 2, 3... by score, equal scores sharing a rank.
        summary: one line for people, e.g. "Ann wins, 51 squares".
    """

    winners: tuple[Seat, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    summary: str = ""

    @staticmethod
    def from_scores(
        winners: Sequence[Seat], scores: Sequence[float], summary: str = ""
    ) -> Result:
        """Build a result whose ranks put ``winners`` first, then the rest by score."""
        winner_set = set(winners)
        ranks = [0] * len(scores)
        for seat in winner_set:
            ranks[seat] = 1
        rest = sorted((s for s in range(len(scores)) if s not in winner_set),
                      key=lambda s: -scores[s])
        next_rank = 2 if winner_set else 1
        previous: float | None = None
        current = next_rank
        for position, seat in enumerate(rest):
            if previous is None or scores[seat] != previous:
                current = next_rank + position
            ranks[seat] = current
            previous = scores[seat]
        return Result(tuple(sorted(winner_set)), tuple(scores), tuple(ranks), summary)

    def returns(self) -> tuple[float, ...]:
        """Utility per seat for bots: 1 split among the winners, 0 for everyone else."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if seat in self.winners else 0.0 for seat in range(len(self.scores)))

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {"winners": list(self.winners), "scores": list(self.scores),
                "ranks": list(self.ranks), "summary": self.summary}


class Agent(Protocol):
    """Anything that picks a legal action for a seat: a bot, or a person behind a UI."""

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """Return one of ``state.legal_actions(seat)``."""
        ...


BotFactory = Callable[["Game[Any, Any, Any]", random.Random], Agent]


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A named bot a game offers (``easy``, ``medium``, ``hard``...) and how to build it.

    ``listed`` is False for bots meant for simulations and research (a fixed-budget search
    whose figures can be reproduced, the generic ``random`` and ``mcts``): every front end
    and the API accept them by name, but the web app's player picker offers only the listed
    ones, so a family chooses among a few levels that say what they do.
    """

    name: str
    doc: str
    factory: BotFactory = field(repr=False, compare=False)
    listed: bool = True
