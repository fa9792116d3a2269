"""The steps ``medium`` and ``hard`` choose, tabulated for the variant's exact evaluation.

:mod:`.evaluate_variant` iterates a Markov chain over the variant solver's states in compiled
code; a fixed bot's move there is read from a table made here once, by asking the engine's
own rule (:func:`.evaluate.medium_policy`, :func:`.evaluate.hard_policy`: the functions the
bots call, :func:`.heuristics.medium_end` and :func:`.heuristics.hard_value`) for every
position of both cars, seat and roll. Neither rule looks at the dice beyond the (end, dice
used) pairs they allow, nor at the round's dice counts, so each position's 462 rolls are
asked once per distinct set of ends; and neither looks at the variant: their free step is
:func:`.heuristics.advance_choice`, which the chain applies itself.

A table holds, for seat ``s``, the other car and the roll, the chosen end's index among the
sorted (end, dice used) pairs of :meth:`.Circuit.ends` (the order of
:func:`.evaluate_variant._roll_tables`); 0 where the move has a single end or the position
never occurs (both cars on one square off the start zone and the targets).
"""

from __future__ import annotations

from typing import Any

from dicegames.games.monza.data import START
from dicegames.games.monza.rules import ROLLS

Array = Any
"""A numpy array."""

LEVELS = ("medium", "hard")
"""The fixed levels tabulated here."""


def step_table(game: Any, level: str) -> Array:
    """``level``'s step choices in ``game`` (a two-player Monza game; its circuit and
    compulsion), as an ``int16`` array ``[seat, red's car, yellow's car, roll]`` of indices
    among the move's sorted ends (cars as table indices: the start zone is the last).

    Red moves only at the start of a round (nobody on a target); yellow also in the last
    round, red on a target (``finishing``: ``hard`` then values the race without a reply).
    """
    import numpy as np

    from dicegames.games.monza import evaluate

    if level not in LEVELS:
        raise ValueError(f"no step table for {level!r}: only {', '.join(LEVELS)}")
    circuit, longest = game.circuit, game.longest_rule
    policy = (evaluate.medium_policy(circuit, longest) if level == "medium"
              else evaluate.hard_policy(game))
    n = len(circuit.squares)
    positions = [*range(n), START]
    table = np.zeros((2, n + 1, n + 1, len(ROLLS)), dtype=np.int16)
    for mover, here in enumerate(positions):
        if here != START and (here in circuit.targets or circuit.squares[here].is_tyre):
            continue
        for ends, dice, rolls in _roll_groups(circuit, longest, here):
            for other, there in enumerate(positions):
                if there != START and circuit.squares[there].is_tyre:
                    continue
                if there == here != START:
                    continue  # two cars never share a square off the start zone
                for seat in (0, 1):
                    finishing = seat == 1 and there != START and there in circuit.targets
                    if seat == 0 and there != START and there in circuit.targets:
                        continue  # red never moves with yellow on a target
                    cars = (here, there) if seat == 0 else (there, here)
                    chosen = policy(cars, seat, dice, finishing, 0)
                    (end_used,) = chosen
                    index = ends.index(end_used)
                    if seat == 0:
                        table[0, mover, other, rolls] = index
                    else:
                        table[1, other, mover, rolls] = index
    return table


def _roll_groups(circuit: Any, longest: bool,
                 here: int) -> list[tuple[list[tuple[int, int]], tuple[int, ...], list[int]]]:
    """The rolls from ``here`` grouped by the sorted (end, dice used) pairs they allow: for
    each set with more than one end, the ends, one roll's dice and the rolls' indices."""
    groups: dict[tuple[tuple[int, int], ...], tuple[tuple[int, ...], list[int]]] = {}
    for index, (roll, _) in enumerate(ROLLS):
        ends = tuple(sorted(circuit.ends(here, roll.counts, longest)))
        if len(ends) > 1:
            groups.setdefault(ends, (roll.counts, []))[1].append(index)
    return [(list(ends), dice, rolls) for ends, (dice, rolls) in groups.items()]
