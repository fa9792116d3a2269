"""Exact win chances of fixed two-player Monza policies (the figures of the rules page).

Two fixed policies make the race a Markov chain over the solver's states (:mod:`.solver`):
red to roll at ``(x, y)``, yellow to roll at ``(x, y)``, and yellow's last turn against red on
a target with ``k`` dice. A policy here maps a car's situation (both cars, the seat, the roll,
and in the last round red's dice count) to a distribution over the (end, dice used) pairs its
move can give: ``medium`` and ``optimal`` pick one, ``easy`` (uniform random steps) spreads
over them. :func:`red_chance` builds the chain and iterates it to its fixed point, exactly as
the solver does but with the choices fixed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from dicegames.games.monza.circuit import Circuit, remove
from dicegames.games.monza.data import DICE, START
from dicegames.games.monza.heuristics import end_key, medium_end
from dicegames.games.monza.rules import ROLLS
from dicegames.games.monza.solver import TOLERANCE, Solution, push_squares

Ends = dict[tuple[int, int], float]
Policy = Callable[[tuple[int, int], int, tuple[int, ...], bool, int], Ends]
"""(cars, seat, dice, finishing, red's dice) -> {(end, used): chance}."""


def random_policy(circuit: Circuit, longest: bool) -> Policy:
    """``easy`` (and the generic ``random``): each step uniformly among the legal ones."""

    @cache
    def spread(position: int, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, int], float], ...]:
        steps = circuit.steps(position, dice, longest)
        if not steps:
            return (((position, 0), 1.0),)
        total: Ends = {}
        for j in steps:
            for (end, used), p in spread(j, remove(dice, circuit.colour_of[j])):
                key = (end, used + 1)
                total[key] = total.get(key, 0.0) + p / len(steps)
        return tuple(total.items())

    def policy(cars: tuple[int, int], seat: int, dice: tuple[int, ...], finishing: bool,
               red_used: int) -> Ends:
        return dict(spread(cars[seat], dice))

    return policy


def medium_policy(circuit: Circuit, longest: bool) -> Policy:
    """``medium``: the end fewest steps from a target (see :mod:`.heuristics`)."""

    def policy(cars: tuple[int, int], seat: int, dice: tuple[int, ...], finishing: bool,
               red_used: int) -> Ends:
        return {medium_end(circuit, cars, seat, dice, longest): 1.0}

    return policy


def hard_policy(game: Any) -> Policy:
    """``hard``: the end with the best race value after the next player's reply
    (:func:`.heuristics.hard_value`), ties broken by the medium preference, as the bot."""
    from dicegames.games.monza.data import MonzaData
    from dicegames.games.monza.heuristics import hard_value

    circuit, longest = game.circuit, game.longest_rule

    def policy(cars: tuple[int, int], seat: int, dice: tuple[int, ...], finishing: bool,
               red_used: int) -> Ends:
        ends = sorted(circuit.ends(cars[seat], dice, longest))
        if len(ends) == 1:
            return {ends[0]: 1.0}
        data = MonzaData(cars=cars, player=seat, finishing=finishing)
        best = max(ends, key=lambda e: (hard_value(game, data, seat, *e),
                                        end_key(circuit, cars, seat, *e)))
        return {best: 1.0}

    return policy


def optimal_policy(solution: Solution) -> Policy:
    """``optimal``: the end with the best exact chance, ties broken as the bot does."""
    circuit = solution.circuit

    def policy(cars: tuple[int, int], seat: int, dice: tuple[int, ...], finishing: bool,
               red_used: int) -> Ends:
        best: tuple[float, tuple[int, int, int, int], tuple[int, int]] | None = None
        for end, used in sorted(circuit.ends(cars[seat], dice, solution.longest)):
            red = solution.after_move(cars, seat, end, used, finishing=finishing,
                                      red_used=red_used)
            mine = red if seat == 0 else 1.0 - red
            key = end_key(circuit, cars, seat, end, used)
            if best is None or mine > best[0] + 1e-12 or (
                    mine > best[0] - 1e-12 and key > best[1]):
                best = (max(mine, best[0]) if best else mine, key, (end, used))
        assert best is not None
        return {best[2]: 1.0}

    return policy


def red_chance(solution: Solution, red: Policy, yellow: Policy) -> float:
    """Seat 0's exact chance to win (a shared win half) from the start, red playing ``red``
    and yellow ``yellow``."""
    import numpy as np

    circuit = solution.circuit
    n = len(circuit.squares)
    size = n + 1
    pushed = push_squares(circuit)
    targets = circuit.targets
    places = [START, *(j for j in range(n)
                       if j not in targets and not circuit.squares[j].is_tyre)]

    def at(car: int) -> int:
        return n if car == START else car

    rows: list[int] = []
    cols: list[int] = []
    probs: list[float] = []
    const = np.zeros(2 * size * size + size * (DICE + 1))
    final = 2 * size * size
    some_target = min(targets)
    for x in places:
        for y in places:
            cars = (x, y)
            a_row, b_row = at(x) * size + at(y), size * size + at(x) * size + at(y)
            for roll, weight in ROLLS:
                p = float(weight)
                for (end, used), q in red(cars, 0, roll.counts, False, 0).items():
                    if end in targets:
                        rows.append(a_row)
                        cols.append(final + at(y) * (DICE + 1) + used)
                    else:
                        e = at(end)
                        other = pushed[e] if at(y) == e and end != START else at(y)
                        rows.append(a_row)
                        cols.append(size * size + e * size + other)
                    probs.append(p * q)
                for (end, _used), q in yellow(cars, 1, roll.counts, False, 0).items():
                    if end in targets:
                        continue  # yellow wins: worth 0 to red
                    e = at(end)
                    other = pushed[e] if at(x) == e and end != START else at(x)
                    rows.append(b_row)
                    cols.append(other * size + e)
                    probs.append(p * q)
    for y in places:
        for k in range(1, DICE + 1):
            value = 0.0
            for roll, weight in ROLLS:
                for (end, used), q in yellow((some_target, y), 1, roll.counts, True,
                                             k).items():
                    won = end in targets
                    score = (0.0 if used < k else 0.5 if used == k else 1.0) if won else 1.0
                    value += float(weight) * q * score
            const[final + at(y) * (DICE + 1) + k] = value
    row = np.array(rows, dtype=np.intp)
    col = np.array(cols, dtype=np.intp)
    prob = np.array(probs)
    values = const.copy()
    for _ in range(100_000):
        new = const + np.bincount(row, weights=prob * values[col], minlength=len(values))
        change = float(np.abs(new - values).max())
        values = new
        if change <= TOLERANCE:
            break
    return float(values[n * size + n])


def policies(solution: Solution, game: Any = None) -> dict[str, Policy]:
    """The levels evaluated exactly, by name (``hard`` too when the configured ``game`` is
    given: its look-ahead reads the game)."""
    circuit, longest = solution.circuit, solution.longest
    found = {"easy": random_policy(circuit, longest), "medium": medium_policy(circuit, longest),
             "optimal": optimal_policy(solution)}
    if game is not None:
        found["hard"] = hard_policy(game)
    return found


def table(solution: Solution, game: Any = None) -> dict[str, Any]:
    """Each level's exact chance against ``optimal`` in both seat orders, and their mean
    (``hard`` too when ``game`` is given: slow, minutes on the default circuit)."""
    found = policies(solution, game)
    best = found["optimal"]
    result: dict[str, Any] = {}
    for name, policy in found.items():
        first = red_chance(solution, policy, best)
        second = 1.0 - red_chance(solution, best, policy)
        result[name] = {"first": first, "second": second, "mean": (first + second) / 2}
    return result
