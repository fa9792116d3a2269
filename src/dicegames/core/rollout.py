"""One way to play a game out: the rollout primitive every simulation, estimate and bot uses.

:func:`rollout` plays a state on to its end (or to a horizon) with one bot per seat, like
OpenSpiel's ``evaluate_bots``; :func:`playouts` plays many whole games from one state.
Both use the game's bulk kernel (:mod:`dicegames.core.kernel`) whenever it can play every
seat's bot from that state, and the engine otherwise; :func:`play_out` is the engine loop
itself, for callers that bring already-built agents and their own dice generator.
:func:`dicegames.core.match.play` remains the runner of sessions (events, records, people);
this module is its fast sibling for games nobody watches.

The rules every caller shares:

* **One move cap**, :data:`MAX_MOVES`: rolls and decisions applied in one game. No correct
  game comes near it (in 2,000 games of random bots at each game's largest table, on
  26 November 2026, the longest took 1,623 moves); a game that reaches it stops there and
  the :class:`Ending` says ``capped``. Simulations treat that as a bug
  (:class:`RolloutError`); a search scores the position reached.
* **One rule for generators**: a rollout takes one ``seed``. On the engine, a master
  ``random.Random(seed)`` draws, in this order, the seed of the dice's own generator and
  then one seed per seat for that seat's bot: the dice never depend on what the bots draw,
  so the same seed and the same decisions give the same game. The kernel takes the seed as
  is: its dice draw from a generator seeded with ``seed`` and its random policies from one
  seeded with ``~seed`` (:meth:`GameKernel.rollout`), the same separation. The two paths
  play the same rules and bots with different generators, so they agree in distribution,
  not game by game.
* **One rule for forced moves**: a seat whose only legal action is ``pass`` passes without
  being asked (as :func:`~dicegames.core.match.play` does); any other decision, a single
  legal move included, is the bot's, and an illegal answer raises :class:`RolloutError`.
* When several seats decide on one state, the first of them acts first, as in
  :func:`~dicegames.core.match.play`.

A seat's bot is a :class:`BotSpec`: a factory (how the engine builds the bot from its
generator) and a name the kernel may know (a bot level, mapped by
:meth:`GameKernel.policy_of`, or a kernel policy name). This module imports no game and no
bot; ``dicegames.bots`` builds the specs of a game's levels (``bots.bot_spec``) and names
the bot that plays the rollouts of estimates and hints (``bots.rollout_level``: ``medium``,
else the one fallback bot, ``random``). The primitive takes a seed where OpenSpiel's takes a
generator for the dice: the seed is what both paths can share, and one seed for dice and
bots together is what keeps their streams apart by construction.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.core.chance import sample
from dicegames.core.errors import DiceGamesError
from dicegames.core.game import Game, State
from dicegames.core.model import PASS, Agent, BotFactory, NodeKind, Seat

if TYPE_CHECKING:  # the kernel layer (numba) is imported when a rollout first asks for it
    from dicegames.core.kernel import GameKernel, Playouts

MAX_MOVES = 200_000
"""The one move cap: rolls and decisions (passes included) one game may take."""


class RolloutError(DiceGamesError, RuntimeError):
    """A game played out misbehaved: a bot chose an illegal move, or the game ran past the
    move cap. This points at a bug in a game's rules or a bot, not at the caller's input."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One seat's bot as a rollout takes it.

    Attributes:
        name: the name the game's kernel may know it by: a bot level (``"medium"``), mapped
            to a kernel policy by :meth:`GameKernel.policy_of`, or a kernel policy name.
            None: the kernel never plays it (an injected policy the kernel lacks).
        factory: builds the bot for the engine from the game and the seat's own generator.
    """

    name: str | None
    factory: BotFactory

    def build(self, game: Game[Any, Any, Any], rng: random.Random) -> Agent:
        """The engine's bot, drawing only from ``rng``."""
        return self.factory(game, rng)


@dataclass(frozen=True, slots=True)
class Horizon:
    """Where a rollout stops before the end: when ``seat`` begins its ``turns + 1``-th new
    turn (a state whose turn is the seat's, with a turn number other than the one at the
    start). ``turns=0`` stops at the start of the seat's next turn, after every opponent
    has played once (:class:`~dicegames.bots.rollout.RolloutBot`'s horizon)."""

    seat: Seat
    turns: int = 0


@dataclass(frozen=True, slots=True)
class Ending:
    """Where a rollout stopped.

    Attributes:
        state: the state reached: terminal, at the horizon, or where the cap stopped it.
        moves: rolls and decisions applied (passes included); None when the kernel played
            (it does not count them one rollout at a time).
        capped: True when :data:`MAX_MOVES` (or the caller's ``max_moves``) ran out first.
    """

    state: State[Any, Any, Any]
    moves: int | None
    capped: bool = False

    def returns(self) -> tuple[float, ...]:
        """Each seat's return at the end: 1 split among the winners (the game must be over).

        Raises:
            RolloutError: the game did not end (capped, or stopped at a horizon).
        """
        if not self.state.is_terminal:
            raise RolloutError(f"a rollout of {self.state.game.spec.id} stopped before the "
                               f"end ({'the move cap' if self.capped else 'a horizon'})")
        return self.state.result.returns()


# --------------------------------------------------------------------------- seeds


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run with master ``seed``.

    A hash of both numbers, so seeds of different runs do not overlap the way
    ``seed + index`` would, and independent of the process that plays the game.
    """
    digest = hashlib.blake2b(f"dicegames:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def engine_streams(seed: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """The engine's generators of a rollout seeded ``seed``: the dice's, then each seat's.

    See the module docstring: a master generator draws the dice's seed first, then one
    seed per seat in seat order.
    """
    master = random.Random(seed)
    dice = random.Random(master.getrandbits(64))
    return dice, [random.Random(master.getrandbits(64)) for _ in range(players)]


# --------------------------------------------------------------------------- the kernel


@dataclass(frozen=True, slots=True)
class Plan:
    """Whether the kernel plays a set of bots, and one phrase saying which path plays.

    Attributes:
        kernel: the game's kernel, or None for the engine.
        policies: the kernel policy of each seat's bot (None for the engine).
        description: e.g. ``"compiled kernel (numba)"`` or ``"engine (bot 'search' has no
            kernel policy)"``.
    """

    kernel: GameKernel | None
    policies: tuple[str, ...] | None
    description: str


_ENGINE = Plan(None, None, "engine (kernel not asked for)")


def plan(game: Game[Any, Any, Any], names: Sequence[str | None],
         use_kernel: bool = True) -> Plan:
    """How bots of these names (one per seat, or per entry) are played on ``game``."""
    return _plan(game, tuple(names)) if use_kernel else _ENGINE


@lru_cache(maxsize=128)
def _plan(game: Game[Any, Any, Any], names: tuple[str | None, ...]) -> Plan:
    from dicegames.core.kernel import BACKEND, kernel_for, why_not_compiled

    kernel = kernel_for(game)
    if kernel is None:
        return Plan(None, None, f"engine ({game.spec.id} has no bulk kernel for these options)")
    policies: list[str] = []
    for name in names:
        policy = kernel.policy_of(name) if name is not None else None
        if policy is None:
            return Plan(None, None, f"engine (bot {name!r} has no kernel policy)")
        policies.append(policy)
    if BACKEND == "numba":
        return Plan(kernel, tuple(policies), "compiled kernel (numba)")
    return Plan(kernel, tuple(policies), f"kernel in plain Python ({why_not_compiled()})")


# --------------------------------------------------------------------------- the primitive


def rollout(
    state: State[Any, Any, Any],
    agents: Sequence[BotSpec],
    seed: int,
    max_moves: int = MAX_MOVES,
    *,
    horizon: Horizon | None = None,
    use_kernel: bool = True,
) -> Ending:
    """Play ``state`` on with ``agents[s]`` in seat ``s`` until the end (or the horizon).

    The game's kernel plays when it can play every seat's bot (and ``use_kernel``); the
    engine otherwise (see the module docstring for the generators and the cap). The kernel
    plays to the end or the horizon: its games always end, so the cap is the engine's.
    """
    game = state.game
    if len(agents) != game.players:
        raise ValueError(f"{len(agents)} bots for a {game.players}-player game")
    if state.is_terminal:
        return Ending(state, 0)
    how = _plan(game, tuple(agent.name for agent in agents)) if use_kernel else _ENGINE
    if how.kernel is not None and how.policies is not None:
        kernel = how.kernel
        stop_seat, stop_turns = (horizon.seat, horizon.turns) if horizon else (-1, 0)
        final = kernel.rollout(kernel.encode(state.data), how.policies, seed,
                               stop_seat=stop_seat, stop_turns=stop_turns)
        return Ending(game.state_from(kernel.decode(final)), None)
    dice, rngs = engine_streams(seed, game.players)
    built = [agent.build(game, rng) for agent, rng in zip(agents, rngs, strict=True)]
    return play_out(state, built, dice, max_moves, horizon=horizon)


def playouts(state: State[Any, Any, Any], agents: Sequence[BotSpec], games: int, seed: int,
             *, use_kernel: bool = True, max_moves: int = MAX_MOVES) -> Playouts:
    """Play ``games`` whole games from ``state`` (bots by seat) and say how each ended.

    The kernel plays them all at once (:meth:`GameKernel.playouts`, seeded with ``seed``)
    when it can play every seat's bot; the engine plays game ``i`` as :func:`rollout` with
    the seed :func:`game_seed` ``(seed, i)`` otherwise. Either way the result is a
    :class:`~dicegames.core.kernel.Playouts` (each game's ``moves`` included, so a caller
    can hold them against a cap: an engine game that reaches ``max_moves`` counts
    ``max_moves + 1``).
    """
    game = state.game
    how = plan(game, [agent.name for agent in agents], use_kernel)
    if how.kernel is not None and how.policies is not None:
        return how.kernel.playouts(state.data, how.policies, games, seed)
    from dicegames.core.kernel import Playouts

    players = game.players
    winners: list[int] = []
    scores: list[float] = []
    turns: list[int] = []
    moves: list[int] = []
    for index in range(games):
        ending = rollout(state, agents, game_seed(seed, index), max_moves, use_kernel=False)
        final = ending.state
        moves.append(max_moves + 1 if ending.capped else ending.moves or 0)
        turns.append(final.turn.number)
        if final.is_terminal:
            result = final.result
            winners += [1 if seat in result.winners else 0 for seat in range(players)]
            scores += list(result.scores)
        else:
            winners += [0] * players
            scores += [0] * players
    return Playouts(players, winners, scores, turns, moves)


def play_out(
    state: State[Any, Any, Any],
    agents: Sequence[Agent],
    dice: random.Random,
    max_moves: int = MAX_MOVES,
    *,
    horizon: Horizon | None = None,
    watch: Callable[[State[Any, Any, Any]], None] | None = None,
) -> Ending:
    """The engine loop: play ``state`` on with built ``agents`` (by seat) and ``dice``.

    ``dice`` rolls exactly as :class:`~dicegames.core.match.RandomDice` does; nothing else
    draws from it. ``watch``, when given, sees every state before it is played on (the
    last one included). Moves go through :meth:`State.apply_unchecked` after a legality
    check of each bot's choice.

    Raises:
        RolloutError: a bot chose an action that is not legal.
    """
    chance = NodeKind.CHANCE
    stop_seat = horizon.seat if horizon is not None else -1
    starts = horizon.turns + 1 if horizon is not None else 0
    number = state.turn.number if stop_seat >= 0 and state.turn.seat == stop_seat else None
    terminal = NodeKind.TERMINAL
    for moves in range(max_moves + 1):
        if watch is not None:
            watch(state)
        node = state.node
        kind = node.kind
        if kind is terminal:
            return Ending(state, moves)
        if stop_seat >= 0:
            turn = state.turn
            if turn.seat == stop_seat and turn.number != number:
                number = turn.number
                starts -= 1
                if starts == 0:
                    return Ending(state, moves)
        if moves == max_moves:
            break
        if kind is chance:
            state = state.apply_unchecked(sample(state.chance_outcomes(), dice))
        else:
            seat = node.players[0]
            legal = state.legal_actions(seat)
            action: Hashable
            if len(legal) == 1 and legal[0] == PASS:
                action = PASS
            else:
                action = agents[seat].choose(state, seat)
                if action not in legal:
                    raise RolloutError(
                        f"the bot in seat {seat} of {state.game.spec.id} chose {action!s}, "
                        f"which is not legal; legal: {', '.join(map(str, legal[:30]))}")
            state = state.apply_unchecked(action, seat)
    return Ending(state, max_moves, capped=True)


def runaway(game: Game[Any, Any, Any], max_moves: int, what: str = "rules or its bots"
            ) -> RolloutError:
    """The error of a game that did not end within ``max_moves`` moves."""
    return RolloutError(f"a game of {game.spec.id} did not end within {max_moves} moves; "
                        f"this is a bug in the game's {what}")


__all__ = [
    "MAX_MOVES",
    "BotSpec",
    "Ending",
    "Horizon",
    "Plan",
    "RolloutError",
    "engine_streams",
    "game_seed",
    "plan",
    "play_out",
    "playouts",
    "rollout",
    "runaway",
]
