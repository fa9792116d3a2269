"""A race model for the hard bot: how many turns a lone car needs, and who wins the race.

Every step ends on a square whose far end is further along the track, so the squares can be
solved one pass from the finish backwards. For a lone car that always ends its move where
the expected number of turns to a target is least:

- ``expected_turns``: V(p) = (1 + sum over moving rolls of p(roll) min V(end)) / (1 - p(stuck));
- ``finish_chances``: F(p, k), the chance to stand on a target after k more turns.

``win_chance`` turns those into a seat's chance to win from a position (cars taken as
independent, a shared last round split evenly): the race ends with the first round in which a
car reaches a target, so a seat later in the round than the mover still has a turn in it.
"""

from __future__ import annotations

from functools import cache

from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import START
from dicegames.games.monza.rules import ROLLS

ROLL_WEIGHTS: tuple[tuple[tuple[int, ...], float], ...] = tuple(
    (roll.counts, float(p)) for roll, p in ROLLS)
"""The 462 rolls as colour counts with float probabilities (for fast expectations)."""

HORIZON = 40
"""Turns looked ahead by :func:`finish_chances` (a car still running then counts as last)."""


def _order(circuit: Circuit) -> list[int]:
    """Playable positions from the finish backwards, the start zone last."""
    squares = sorted((j for j, s in enumerate(circuit.squares) if not s.is_tyre),
                     key=lambda j: -circuit.squares[j].end)
    return [*squares, START]


@cache
def expected_turns(circuit: Circuit, longest: bool) -> tuple[float, ...]:
    """Expected turns to a target from each square id; the start zone is the last entry
    (index START = -1). Tyres get 0 (never occupied)."""
    values = [0.0] * (len(circuit.squares) + 1)
    for position in _order(circuit):
        if position in circuit.targets:
            continue
        stuck, total = 0.0, 1.0
        for dice, weight in ROLL_WEIGHTS:
            ends = circuit.ends(position, dice, longest)
            if (position, 0) in ends:  # no die fits: the car stays
                stuck += weight
            else:
                total += weight * min(values[end] for end, _ in ends)
        values[position] = total / (1.0 - stuck) if stuck < 1.0 else 1e9
    return tuple(values)


@cache
def finish_chances(circuit: Circuit, longest: bool) -> tuple[tuple[float, ...], ...]:
    """F[p][k]: the chance that a lone car at p stands on a target after k more turns
    (k = 0..HORIZON), playing to :func:`expected_turns`; the start zone is the last entry."""
    values = expected_turns(circuit, longest)
    table: list[tuple[float, ...]] = [(0.0,) * (HORIZON + 1)] * (len(circuit.squares) + 1)
    for position in _order(circuit):
        if position in circuit.targets:
            table[position] = (1.0,) * (HORIZON + 1)
            continue
        stuck = 0.0
        towards: dict[int, float] = {}
        for dice, weight in ROLL_WEIGHTS:
            ends = circuit.ends(position, dice, longest)
            if (position, 0) in ends:
                stuck += weight
            else:
                end = min((values[e], e) for e, _ in ends)[1]
                towards[end] = towards.get(end, 0.0) + weight
        chances = [0.0]
        for k in range(1, HORIZON + 1):
            chances.append(stuck * chances[k - 1] + sum(
                w * table[end][k - 1] for end, w in towards.items()))
        table[position] = tuple(chances)
    return tuple(table)


def win_chance(circuit: Circuit, longest: bool, cars: tuple[int, ...], seat: int,
               mover: int) -> float:
    """``seat``'s chance to win when ``mover`` has just finished a move and ``cars`` stand
    as given (independent lone cars; ties in the last round split evenly)."""
    table = finish_chances(circuit, longest)
    # by_round[j][r]: chance that seat j's car is on a target by the end of round r
    # (round 0 = the current one, in which only seats after the mover still play).
    by_round: list[list[float]] = []
    for j, car in enumerate(cars):
        chances = table[car]
        shift = 0 if j > mover else 1
        by_round.append([chances[min(HORIZON, r + 1 - shift)] for r in range(HORIZON)])
    total = 0.0
    mine = by_round[seat]
    previous = 0.0
    for r in range(HORIZON):
        arrive = mine[r] - previous
        previous = mine[r]
        if arrive <= 0.0:
            continue
        share = 1.0
        for j, rounds in enumerate(by_round):
            if j != seat:
                before = rounds[r - 1] if r else 0.0
                share *= 1.0 - before - 0.5 * (rounds[r] - before)
        total += arrive * share
    return total
