"""What to play here, and how likely each choice is to win: the ``dicegames hint`` answer.

The move is the game's hint bot's (:func:`dicegames.bots.adviser`, the strongest bot that
answers in milliseconds). Each legal choice then gets an estimated win chance for the seat
deciding:

* **exact**, when the game's package ships an ``estimates`` module whose ``win_chances``
  answers for the state (For a Few Extra Meters with two players: the solved race);
* else by **rollouts**: from the state after the choice, whole games are played to the end
  by the game's ``medium`` bot in every seat (the fallback ``random`` where it has none)
  with random dice, and the share of them the seat wins (a shared win counts 1/k) is the
  estimate, with its 95% Wilson interval. They are the rollouts of
  :class:`~dicegames.analysis.estimate.Rollouts` (each a
  :func:`dicegames.core.rollout.rollout`, in the game's kernel when it plays the bot):
  game ``i`` after every choice has the same seed, so the choices are compared on the
  same dice as far as their moves allow.

With many choices (a game may offer 30 on a roll) every choice is first screened with a
fifth of the rollouts; the bot's choice and the best of the others then get the full count.
Everything is seeded, so the same position and seed give the same answer.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.estimate import Rollouts
from dicegames.analysis.stats import wilson_interval
from dicegames.bots import adviser, bot_levels
from dicegames.core.errors import GameOver, NotYourTurn
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.core.registry import definition_of
from dicegames.i18n import _

WinChances = Callable[[State[Any, Any, Any], Seat], Mapping[Hashable, float] | None]
"""A game's exact win chances per legal action of ``seat`` (None: not exact here). Not an
estimator: :class:`dicegames.analysis.estimate.Estimator` is the one type of those."""


@dataclass(frozen=True, slots=True)
class ChoiceEstimate:
    """One legal choice and the deciding seat's estimated chance to win after it.

    Attributes:
        move: the choice in notation.
        win_chance: the estimate, 0 to 1.
        low, high: its 95% interval (both equal to ``win_chance`` when exact).
        rollouts: the games played from it (0 when exact).
    """

    move: str
    win_chance: float
    low: float
    high: float
    rollouts: int


@dataclass(frozen=True, slots=True)
class Hint:
    """The answer of :func:`hint`.

    Attributes:
        seat: the seat the hint is for.
        bot: the hint bot's level, and ``reason`` how it decides (its documentation).
        move: the hint bot's choice, in notation.
        exact: True when the win chances are exact, False for rollouts.
        method: how the win chances were estimated, in a sentence.
        choices: the estimated choices, highest win chance first.
        screened_out: legal choices left out after screening (their estimates were low).
    """

    seat: Seat
    bot: str
    reason: str
    move: str
    exact: bool
    method: str
    choices: tuple[ChoiceEstimate, ...]
    screened_out: int


def exact_chances_of(game: Game[Any, Any, Any]) -> WinChances | None:
    """The ``win_chances`` of the game package's ``estimates`` module, if it has one."""
    package = definition_of(game).rules.__module__.rpartition(".")[0]
    if not package:
        return None  # a game that is a module of its own, not a package
    name = f"{package}.estimates"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the module exists but something it imports is missing
            raise
        return None
    found: WinChances = module.win_chances
    return found


def hint(state: State[Any, Any, Any], seat: Seat | None = None, *, rollouts: int = 60,
         shown: int = 8, seed: int = 0) -> Hint:
    """What the hint bot plays for ``seat`` (default: the only deciding seat) and each
    choice's estimated win chance (see the module docstring).

    Args:
        rollouts: games played from each shown choice when the chances are not exact.
        shown: at most this many choices get the full rollouts (the bot's among them).
        seed: the seed of the bots and the dice.

    Raises:
        GameOver: the game is over.
        NotYourTurn: the dice decide here, or ``seat`` is not deciding.
    """
    if state.is_terminal:
        raise GameOver("the game is over: there is nothing to decide")
    if state.is_chance:
        raise NotYourTurn("the dice roll next: nobody decides here")
    seat = state.deciding_seat(seat)
    game = state.game
    rng = random.Random(seed)
    level, bot = adviser(game, rng)
    reason = _(next(lv.doc for lv in bot_levels(game) if lv.name == level))
    move = bot.choose(state, seat)
    legal = state.legal_actions(seat)
    chances = exact_chances_of(game)
    exact = chances(state, seat) if chances is not None else None
    if exact is not None:
        choices = [ChoiceEstimate(str(a), exact[a], exact[a], exact[a], 0) for a in legal]
        return Hint(seat, level, reason, str(move), True, _("exact: the solved game"),
                    tuple(sorted(choices, key=lambda c: -c.win_chance)), 0)
    runner = _Rollouts(state, seat, seed)
    screen = max(1, rollouts // 5) if len(legal) > shown else 0
    if screen:
        for action in legal:
            runner.run(action, screen)
        others = sorted((a for a in legal if a != move), key=runner.mean, reverse=True)
        kept = [move, *others[:shown - 1]]
    else:
        kept = list(legal)
    for action in kept:
        runner.run(action, rollouts - runner.count.get(action, 0))
    choices = [runner.estimate(action) for action in kept]
    method = _("{rollouts} rollouts a choice: games played to the end by the {level} bot in "
               "every seat with random dice; 95% intervals", rollouts=rollouts,
               level=runner.level)
    return Hint(seat, level, reason, str(move), False, method,
                tuple(sorted(choices, key=lambda c: -c.win_chance)), len(legal) - len(kept))


class _Rollouts:
    """Rollout games from the choices of one state, with running win tallies."""

    def __init__(self, state: State[Any, Any, Any], seat: Seat, seed: int) -> None:
        self.state, self.seat = state, seat
        self.games = Rollouts(state.game, seed=seed)
        self.level = self.games.level
        self.wins: dict[Hashable, float] = {}
        self.count: dict[Hashable, int] = {}

    def run(self, action: Hashable, games: int) -> None:
        """Play ``games`` more games after ``action``."""
        start = self.state.apply_unchecked(action, self.seat)
        done = self.count.get(action, 0)
        total = sum(self.games.play_out(start, index)[self.seat]
                    for index in range(done, done + games))
        self.wins[action] = self.wins.get(action, 0.0) + total
        self.count[action] = done + games

    def mean(self, action: Hashable) -> float:
        """The share of the games after ``action`` the seat won so far."""
        return self.wins[action] / self.count[action]

    def estimate(self, action: Hashable) -> ChoiceEstimate:
        """The estimate after ``action`` with its Wilson interval."""
        n = self.count[action]
        low, high = wilson_interval(self.wins[action], n)
        return ChoiceEstimate(str(action), self.mean(action), low, high, n)
