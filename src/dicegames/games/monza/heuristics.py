"""Game knowledge for the bots: where a move can end, and which end is best.

A turn is a chain of step decisions, but what matters is where the chain ends. The circuit
lists, for a position and the unused dice, every (end square, dice used) a legal complete
move can reach (memoised), so a policy picks an end and then any step that still leads there.

- ``medium`` picks the end fewest steps from a target; among equals it prefers the fewest
  dice when the end is a target (the tie-break of the last round), then landing on an
  opponent (pushing it back), then the end furthest along the track.
- ``hard`` scores each end by the race margin (the leading opponent's steps to a target minus
  its own) expected after the next player's reply: the exact expectation over that player's
  462 rolls, the reply chosen by the ``medium`` rule. It sees when stopping right in front of
  a rival invites being pushed back, and when a push costs the rival most.

Both advance on a last-colour step when it brings their car closer to a target.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from dicegames.bots import PolicyBot, RandomBot
from dicegames.core.game import State
from dicegames.core.model import PASS, BotLevel, Seat
from dicegames.games.monza.circuit import Circuit, remove
from dicegames.games.monza.data import START, STAY, Advance, MonzaData, Phase, Step
from dicegames.games.monza.race import ROLL_WEIGHTS, finish_chances, win_chance
from dicegames.games.monza.rules import MonzaRules, Move


def end_key(circuit: Circuit, cars: tuple[int, ...], seat: Seat, end: int,
            used: int) -> tuple[int, int, int, int]:
    """The medium rule's preference for ending a move on ``end`` (bigger is better)."""
    on_target = end != START and end in circuit.targets
    pushes = int(end != START and not on_target
                 and any(c == end for s, c in enumerate(cars) if s != seat))
    return (-circuit.steps_to_finish(end), -used if on_target else 0, pushes,
            circuit.progress(end))


def medium_end(circuit: Circuit, cars: tuple[int, ...], seat: Seat, dice: tuple[int, ...],
               longest: bool) -> tuple[int, int]:
    """The (end, dice used) the medium rule aims for from ``seat``'s car with ``dice``."""
    ends = circuit.ends(cars[seat], dice, longest)
    return max(sorted(ends), key=lambda e: end_key(circuit, cars, seat, *e))


def step_towards(game: MonzaRules, data: MonzaData, seat: Seat, end: int, used: int) -> Step:
    """A legal step from which the move can still end on ``end`` after ``used`` dice."""
    circuit = game.circuit
    legal = game._legal_actions(data, seat)
    for action in legal:
        assert isinstance(action, Step)
        rest = remove(data.dice, circuit.colour_of[action.square])
        if (end, used - 1) in circuit.ends(action.square, rest, game.longest_rule):
            return action
    raise AssertionError("the chosen end is not reachable from any legal step")


def advance_choice(game: MonzaRules, data: MonzaData, seat: Seat) -> Move:
    """Last-colour step: the free square closest to a target, if it brings the car closer."""
    circuit = game.circuit
    here = circuit.steps_to_finish(data.cars[seat])
    best: Move = STAY
    for action in game._legal_actions(data, seat):
        if isinstance(action, Advance):
            distance = circuit.steps_to_finish(action.square)
            if distance < here:
                here, best = distance, action
    return best


def _game_data(state: State[Any, Any, Any]) -> tuple[MonzaRules, MonzaData]:
    game, data = state.game, state.data
    assert isinstance(game, MonzaRules) and isinstance(data, MonzaData)
    return game, data


def medium_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Move:
    """The medium bot: the furthest end (fewest steps to a target), preferring to push."""
    game, data = _game_data(state)
    if data.phase is Phase.STEP:
        end, used = medium_end(game.circuit, data.cars, seat, data.dice, game.longest_rule)
        return step_towards(game, data, seat, end, used)
    if data.phase is Phase.VARIANT:
        return advance_choice(game, data, seat)
    return PASS


def race_value(game: MonzaRules, cars: tuple[int, ...], seat: Seat, mover: Seat) -> float:
    """``seat``'s chance to win by the race model, ``mover`` having just moved."""
    return win_chance(game.circuit, game.longest_rule, cars, seat, mover)


@lru_cache(maxsize=200_000)
def reply_value(game: MonzaRules, cars: tuple[int, ...], seat: Seat, replier: Seat) -> float:
    """``seat``'s expected race value after ``replier`` rolls and moves by the medium rule."""
    circuit = game.circuit
    if cars[replier] != START and cars[replier] in circuit.targets:
        return race_value(game, cars, seat, replier)
    total = 0.0
    for dice, weight in ROLL_WEIGHTS:
        end, _ = medium_end(circuit, cars, replier, dice, game.longest_rule)
        moved = (*cars[:replier], end, *cars[replier + 1:])
        total += weight * race_value(game, game.push_back(moved, replier), seat, replier)
    return total


def hard_value(game: MonzaRules, data: MonzaData, seat: Seat, end: int, used: int) -> float:
    """The hard bot's score of ending the move on ``end`` having used ``used`` dice."""
    circuit = game.circuit
    moved = (*data.cars[:seat], end, *data.cars[seat + 1:])
    cars = game.push_back(moved, seat)
    if end != START and end in circuit.targets:
        return 2.0 - used / 100  # a target all but wins; fewer dice win the tie-break
    if data.finishing and seat == game.players - 1:
        return race_value(game, cars, seat, seat)  # nobody replies: the race is over
    return reply_value(game, cars, seat, (seat + 1) % game.players)


def hard_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Move:
    """The hard bot: the end with the best expected margin after the next player's reply."""
    game, data = _game_data(state)
    if data.phase is not Phase.STEP:
        return medium_policy(state, seat, rng)
    ends = sorted(game.circuit.ends(data.cars[seat], data.dice, game.longest_rule))
    if len(ends) == 1:
        end, used = ends[0]
    else:
        end, used = max(ends, key=lambda e: (hard_value(game, data, seat, *e),
                                            end_key(game.circuit, data.cars, seat, *e)))
    return step_towards(game, data, seat, end, used)


def hard_bot(game: Any, rng: random.Random) -> PolicyBot:
    """The hard bot, its race tables built now (under a second, once per circuit and
    compulsion) so that no decision pays for them."""
    assert isinstance(game, MonzaRules)
    finish_chances(game.circuit, game.longest_rule)
    return PolicyBot(hard_policy, rng)


OPTIMAL_DOC = ("plays perfectly: the exact solution of the two-player race; it takes the move "
               "with the highest chance to win against any opponent, and no player does better "
               "against it on average")
"""The optimal level's line (two players, with or without the last-colour variant)."""


TRAINED_DOC = ("hard's judgement of each move plus learned weights for what it leaves on the "
               "circuit (how likely the players after the next one are to push the car back, "
               "the lead, the dice used), fitted on kernel games against hard; an experiment, not "
               "measurably stronger than hard")
"""The trained level's line (:mod:`.trained`, :mod:`.kernel_trained`)."""


def bot_levels(game: object = None) -> tuple[BotLevel, ...]:
    """The bots Monza offers (the ``bots`` part of its definition): easy, medium, hard and
    trained (unlisted: see :mod:`.trained`) for every configuration, and ``optimal`` where
    the exact solution covers it (two players, a circuit of a solvable size; see
    :mod:`.solver` and :mod:`.solver_variant`)."""
    from dicegames.games.monza.optimal import covered, optimal_bot
    from dicegames.games.monza.trained import trained_bot

    levels: tuple[BotLevel, ...] = (
        BotLevel("easy", "steps at random among the legal steps",
                 lambda g, rng: RandomBot(rng)),
        BotLevel("medium", "picks the move ending fewest steps from a target, preferring to "
                 "push an opponent back (and fewest dice onto a target)",
                 lambda g, rng: PolicyBot(medium_policy, rng)),
        BotLevel("hard", "picks the move with the best race margin expected after the next "
                 "player's reply (exact over their 462 rolls, replying like medium)",
                 hard_bot),
        BotLevel("trained", TRAINED_DOC, trained_bot, listed=False),
    )
    if isinstance(game, MonzaRules) and covered(game):
        levels += (BotLevel("optimal", OPTIMAL_DOC, optimal_bot),)
    return levels
