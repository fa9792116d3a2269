"""What to play here, and how likely each choice is to win: the ``dicegames hint`` answer.

The move is the game's hint bot's (:func:`dicegames.bots.adviser`, the strongest bot that
answers in milliseconds). The win chances come from the package's one estimator
(:func:`dicegames.analysis.estimate.estimator_for`, learned models left out so that every
figure has an interval):

* **exact** where the game's ``estimator`` part solves the configuration (the races solved
  for two players, or more runners where a game's solution covers them: ``dicegames solve``
  lists them; there the values are those the ``optimal`` bot plays by);
* else by **rollouts**: whole games played to the end by the game's ``medium`` bot in every
  seat (``random`` where it has none) with random dice, in the game's kernel when it plays
  that bot; the share the seat wins (a shared win counts 1/k) is the estimate, with its
  95% Wilson interval. Continuation ``i`` after every choice has the same seed, so the
  choices are compared on the same dice as far as their moves allow.

At a **decision**, each legal choice gets its chance. With many choices (a game may offer 30
on a roll) every choice is first screened with a fifth of the rollouts; the bot's choice and
the best of the others then get the full count.

At a **chance node** (the dice roll next) the hint is the chance of the seat whose turn it
is *before* the roll: the expectation over the outcomes with their exact probabilities,
each outcome's chance listed (exact where solved, else ``rollouts`` continuations after
each outcome); with more than :data:`LISTED_OUTCOMES` outcomes the continuations start
from the roll itself.

Everything is seeded, so the same position and seed give the same answer.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.estimate import Rollouts, Tally, estimator_for
from dicegames.bots import adviser, bot_levels
from dicegames.core.errors import GameOver
from dicegames.core.game import State
from dicegames.core.model import Seat
from dicegames.i18n import _

LISTED_OUTCOMES = 12
"""A roll with at most this many outcomes is estimated outcome by outcome (and listed)."""


@dataclass(frozen=True, slots=True)
class ChoiceEstimate:
    """One legal choice (or one outcome of a roll) and the seat's estimated chance after it.

    Attributes:
        move: the choice (or the outcome) in notation.
        win_chance: the estimate, 0 to 1.
        low, high: its 95% interval (both equal to ``win_chance`` when exact).
        rollouts: the games played from it (0 when exact).
        probability: the outcome's exact probability (None for a choice).
    """

    move: str
    win_chance: float
    low: float
    high: float
    rollouts: int
    probability: float | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """The answer of :func:`hint`.

    Attributes:
        seat: the seat the hint is for (at a chance node: the seat whose turn it is).
        bot: the hint bot's level, and ``reason`` how it decides (its documentation).
        move: the hint bot's choice, in notation; None at a chance node.
        exact: True when the win chances are exact, False for rollouts.
        method: how the win chances were estimated, in a sentence.
        choices: the estimated choices, highest win chance first; at a chance node, the
            outcomes in the game's order (empty when there are too many to list).
        screened_out: legal choices left out after screening (their estimates were low).
        win_chance, low, high: the seat's chance here (after the bot's move at a decision,
            before the roll at a chance node) and its 95% interval.
    """

    seat: Seat
    bot: str
    reason: str
    move: str | None
    exact: bool
    method: str
    choices: tuple[ChoiceEstimate, ...]
    screened_out: int
    win_chance: float
    low: float
    high: float

    @property
    def before_roll(self) -> bool:
        """True at a chance node: the hint is the chance before the dice roll."""
        return self.move is None


def hint(state: State[Any, Any, Any], seat: Seat | None = None, *, rollouts: int = 60,
         shown: int = 8, seed: int = 0) -> Hint:
    """What the hint bot plays for ``seat`` (default: the only deciding seat) and each
    choice's estimated win chance, or at a chance node the chance before the roll (see
    the module docstring).

    Args:
        rollouts: games played from each shown choice (or outcome) when not exact.
        shown: at most this many choices get the full rollouts (the bot's among them).
        seed: the seed of the bots and the dice.

    Raises:
        GameOver: the game is over.
        NotYourTurn: ``seat`` is not deciding.
    """
    if state.is_terminal:
        raise GameOver("the game is over: there is nothing to decide")
    game = state.game
    level, bot = adviser(game, random.Random(seed))
    reason = _(next(lv.doc for lv in bot_levels(game) if lv.name == level))
    estimator = estimator_for(game, rollouts, seed, learned=False)
    if state.is_chance:
        return _before_roll(state, level, reason, estimator, rollouts)
    seat = state.deciding_seat(seat)
    move = bot.choose(state, seat)
    legal = state.legal_actions(seat)
    if not isinstance(estimator, Rollouts):
        values = estimator.choices(state, seat)
        choices = sorted((_exact(str(action), values[action].chances[seat])
                          for action in legal), key=lambda c: -c.win_chance)
        mine = values[move].chances[seat]
        return Hint(seat, level, reason, str(move), True, _("exact: the solved game"),
                    tuple(choices), 0, mine, mine, mine)
    children = {action: state.apply_unchecked(action, seat) for action in legal}
    tallies = {action: Tally(game.players) for action in legal}
    screen = max(1, rollouts // 5) if len(legal) > shown else 0
    if screen:
        for action in legal:
            estimator.tally(children[action], screen, tallies[action])
        others = sorted((a for a in legal if a != move),
                        key=lambda a: tallies[a].mean(seat), reverse=True)
        kept = [move, *others[:shown - 1]]
    else:
        kept = list(legal)
    for action in kept:
        estimator.tally(children[action], rollouts - tallies[action].count, tallies[action])
    estimates = [_sampled(str(action), tallies[action], seat) for action in kept]
    method = _("{rollouts} rollouts a choice: games played to the end by the {level} bot in "
               "every seat with random dice; 95% intervals", rollouts=rollouts,
               level=estimator.level)
    mine_estimate = next(c for c in estimates if c.move == str(move))
    return Hint(seat, level, reason, str(move), False, method,
                tuple(sorted(estimates, key=lambda c: -c.win_chance)), len(legal) - len(kept),
                mine_estimate.win_chance, mine_estimate.low, mine_estimate.high)


def _exact(move: str, chance: float, probability: float | None = None) -> ChoiceEstimate:
    return ChoiceEstimate(move, chance, chance, chance, 0, probability)


def _sampled(move: str, tally: Tally, seat: Seat,
             probability: float | None = None) -> ChoiceEstimate:
    low, high = tally.interval(seat)
    return ChoiceEstimate(move, tally.mean(seat), low, high, tally.count, probability)


def _before_roll(state: State[Any, Any, Any], level: str, reason: str, estimator: Any,
                 rollouts: int) -> Hint:
    """The hint at a chance node: the chance of the seat whose turn it is before the roll."""
    seat = state.turn.seat
    outcomes = state.chance_outcomes()
    if not isinstance(estimator, Rollouts):
        listed = tuple(_exact(str(outcome), estimator.position(
            state.apply_unchecked(outcome)).chances[seat], float(p)) for outcome, p in outcomes)
        chance = estimator.position(state).chances[seat]
        return Hint(seat, level, reason, None, True, _("exact: the solved game"), listed, 0,
                    chance, chance, chance)
    if len(outcomes) > LISTED_OUTCOMES:
        tally = estimator.tally(state, rollouts * 4)
        whole = _sampled("", tally, seat)
        method = _("{rollouts} games played to the end from the roll by the {level} bot in "
                   "every seat with random dice; 95% interval", rollouts=tally.count,
                   level=estimator.level)
        return Hint(seat, level, reason, None, False, method, (), 0,
                    whole.win_chance, whole.low, whole.high)
    listed = tuple(_sampled(str(outcome), estimator.tally(state.apply_unchecked(outcome),
                                                          rollouts), seat, float(p))
                   for outcome, p in outcomes)
    chance = math.fsum(c.win_chance * (c.probability or 0.0) for c in listed)
    # The outcomes' samples are independent: their variances add, weighted by p squared.
    spread = math.sqrt(math.fsum(((c.probability or 0.0) * (c.high - c.low) / 3.92) ** 2
                                 for c in listed))
    method = _("{rollouts} rollouts after each outcome: games played to the end by the "
               "{level} bot in every seat with random dice, weighted by the outcomes' exact "
               "probabilities; 95% intervals", rollouts=rollouts, level=estimator.level)
    return Hint(seat, level, reason, None, False, method, listed, 0, chance,
                max(0.0, chance - 1.96 * spread), min(1.0, chance + 1.96 * spread))
