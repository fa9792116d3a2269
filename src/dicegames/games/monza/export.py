"""Monza's exact two-player solution as arrays: what ``dicegames solve monza`` writes.

The ``solution`` part of the game's definition: :func:`solution_tables` returns the arrays of
a configuration the solver covers (:func:`.solver.supported`: two players on a circuit of
at most :data:`.solver.LARGEST` playable positions), None for the others; with
``variant_last_colour`` the arrays of :func:`variant_tables`. Positions are square ids (the
circuit's order), the start zone being the last index ``n`` (the number of squares);
``S = n + 1``. The layout (also in docs/rl.md):

- ``a`` ``(S, S)`` float64: ``a[x, y]``, seat 0's chance to win (a shared win counting half)
  at the start of seat 0's turn, seat 0's car on ``x`` and seat 1's on ``y``, nobody on a
  target; ``b`` ``(S, S)``: the same at the start of seat 1's turn in the same round;
- ``f`` ``(S, 7)``: ``f[y, k]``, seat 0's chance when its car reached a target with ``k``
  dice and seat 1, on ``y``, plays the last turn (it takes the fewest dice onto a target);
- ``rolls`` ``(462, 6)`` int8: the 462 rolls as counts per colour (red, yellow, green,
  blue, white, purple), and ``roll_p`` ``(462,)`` their exact probabilities;
- ``end`` ``(2, S, S, 462)`` int16 and ``used`` int8: ``end[seat, x, y, r]`` is where the
  optimal move of ``seat`` ends with roll ``r`` (cars on ``x`` and ``y`` as above, nobody on a
  target), with ``used`` dice; -1 where ``x`` or ``y`` is no playable position (a tyre, a
  target). The ``optimal`` bot plays exactly these moves (equal chances within 1e-12 are
  broken by the ``medium`` preference, as the bot does); any sequence of steps that ends
  there with that many dice is optimal.

It also holds ``players``, ``value`` (seat 0's chance at the start, ``a[n, n]``) and
``summary``.
"""

from __future__ import annotations

from typing import Any

from dicegames.games.monza.data import DICE, START
from dicegames.games.monza.heuristics import end_key
from dicegames.games.monza.optimal import NEAR, covered
from dicegames.games.monza.rules import ROLLS
from dicegames.games.monza.solver import Solution, push_squares, solution_for


def solution_tables(game: Any) -> dict[str, Any] | None:
    """The exact solution's arrays for a configured game (see the module docstring), or
    None where the solver does not cover it."""
    import numpy as np

    if not covered(game):
        return None
    if game.variant:
        return variant_tables(game)
    solution = solution_for(game)
    n = len(solution.circuit.squares)
    end, used = policy_arrays(solution)
    value = float(solution.a[n, n])
    return {"players": 2, "value": value, "a": solution.a, "b": solution.b, "f": solution.f,
            "rolls": np.array([roll.counts for roll, _ in ROLLS], dtype=np.int8),
            "roll_p": np.array([float(p) for _, p in ROLLS]), "end": end, "used": used,
            "summary": f"the first player wins {value:.4%} under optimal play (a shared "
                       f"win counting half)"}


def variant_tables(game: Any) -> dict[str, Any]:
    """The arrays of the solution with ``variant_last_colour`` (:mod:`.solver_variant`):
    ``a`` ``(S, S)`` as without the variant, ``y`` ``(S, S, 7)``: ``y[x, w, k]``, seat 0's
    chance at the start of seat 1's turn, seat 1 on ``w`` off the targets, seat 0 on ``x``
    (a target too) having used ``k`` dice in the round; the rolls, ``value`` and
    ``summary``. The moves are not tabulated (they depend on the round's dice counts too):
    the ``optimal`` bot takes the move and the free step of the best chance."""
    import numpy as np

    from dicegames.games.monza.solver import exact_solution
    from dicegames.games.monza.solver_variant import VariantSolution

    solution = exact_solution(game)
    assert isinstance(solution, VariantSolution)
    n = len(solution.circuit.squares)
    value = float(solution.a[n, n])
    return {"players": 2, "value": value, "a": solution.a, "y": solution.y,
            "rolls": np.array([roll.counts for roll, _ in ROLLS], dtype=np.int8),
            "roll_p": np.array([float(p) for _, p in ROLLS]),
            "summary": f"the first player wins {value:.4%} under optimal play with the "
                       f"last-colour variant (a shared win counting half)"}


def playable_positions(solution: Solution) -> list[int]:
    """The table indices a car can stand on outside the targets (the start zone last)."""
    circuit = solution.circuit
    n = len(circuit.squares)
    return [j for j in range(n) if j not in circuit.targets
            and not circuit.squares[j].is_tyre] + [n]


def policy_arrays(solution: Solution) -> tuple[Any, Any]:
    """``end`` and ``used`` (see the module docstring): for each seat, mover's position and
    roll, the optimal end against every position of the other car at once."""
    import numpy as np

    circuit = solution.circuit
    n = len(circuit.squares)
    size = n + 1
    places = playable_positions(solution)
    others = np.array(places, dtype=np.intp)
    pushed = np.array(push_squares(circuit), dtype=np.intp)
    ends_out = np.full((2, size, size, len(ROLLS)), -1, dtype=np.int16)
    used_out = np.full((2, size, size, len(ROLLS)), -1, dtype=np.int8)
    for seat in (0, 1):
        for mover in places:
            car = START if mover == n else mover
            for r, (roll, _) in enumerate(ROLLS):
                options = sorted(circuit.ends(car, roll.counts, solution.longest))
                if len(options) == 1:
                    chosen = [options[0]] * len(places)
                else:
                    values = np.array([_mine(solution, seat, e, u, others=others, pushed=pushed)
                                       for e, u in options])
                    chosen = _pick(solution, seat, mover, options=options, values=values,
                                   places=places)
                row = (seat, mover, others, r) if seat == 0 else (seat, others, mover, r)
                ends_out[row] = [n if e == START else e for e, _ in chosen]
                used_out[row] = [u for _, u in chosen]
    return ends_out, used_out


def _mine(solution: Solution, seat: int, end: int, used: int, *, others: Any,
          pushed: Any) -> Any:
    """The mover's exact chance after ending on ``end`` with ``used`` dice, against each
    position of the other car (as :meth:`.solver.Solution.after_move`, vectorised)."""
    import numpy as np

    n = len(solution.circuit.squares)
    if end != START and end in solution.circuit.targets:
        if seat == 0:
            return solution.f[others, min(used, DICE)]
        return np.ones(len(others))  # seat 1 on a target first wins
    e = n if end == START else end
    other = others.copy()
    if end != START:
        other[other == e] = pushed[e]
    if seat == 0:
        return solution.b[e, other]
    return 1.0 - solution.a[other, e]


def _pick(solution: Solution, seat: int, mover: int, *, options: list[tuple[int, int]],
          values: Any, places: list[int]) -> list[tuple[int, int]]:
    """For each position of the other car: the best option, ties within :data:`NEAR`
    broken by the ``medium`` preference (:func:`.heuristics.end_key`), as
    :func:`.optimal.best_end` does."""
    n = len(solution.circuit.squares)
    top = values.max(axis=0)
    near = values >= top - NEAR
    first = near.argmax(axis=0)
    chosen = [options[int(i)] for i in first]
    for column in (near.sum(axis=0) > 1).nonzero()[0].tolist():
        me = START if mover == n else mover
        other = START if places[column] == n else places[column]
        cars = (me, other) if seat == 0 else (other, me)
        candidates = [options[i] for i in near[:, column].nonzero()[0].tolist()]
        chosen[column] = max(candidates,
                             key=lambda e: end_key(solution.circuit, cars, seat, *e))
    return chosen
