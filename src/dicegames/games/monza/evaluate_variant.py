"""Exact win chances of fixed two-player policies with ``variant_last_colour``.

The variant's luck share and each level's exact loss against ``optimal`` (:mod:`.evaluate`
covers the game without the variant): with each seat playing a fixed policy, the race is a
Markov chain over the solver's states (:mod:`.solver_variant`: ``A[x, y]`` and
``Y[x, y, k]``). :func:`red_chance` iterates it to its fixed point in compiled code, roll by
roll. The policies, as the engine's bots play them:

- ``optimal`` (:data:`OPTIMAL`): the solution's choices (:mod:`.optimal`: the best exact
  chance, the ``medium`` key within 1e-12 of it, then the smallest (end, dice used); the free
  step: the first legal choice within 1e-12 of the best);
- ``random`` / ``easy`` (:data:`RANDOM`): each step, and the free step, uniformly among the
  legal ones;
- ``medium`` and ``hard`` (:data:`MEDIUM`, :data:`HARD`): the step their rule picks, read
  from a table of :func:`.evaluate_choices.step_table`; the free step by
  :func:`.heuristics.advance_choice` (the first free square strictly closest to a target
  that is closer than the car's own, else stay), which both bots play.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from dicegames.core.kernel import njit
from dicegames.games.monza.circuit import Circuit
from dicegames.games.monza.data import START
from dicegames.games.monza.rules import ROLLS
from dicegames.games.monza.solver import MAX_SWEEPS, TOLERANCE
from dicegames.games.monza.solver_variant import (
    K,
    VariantSolution,
    _after_red,
    _after_yellow,
    _moves,
    _round_end,
    _yellow_start,
)

Array = Any
"""A numpy array."""

OPTIMAL, RANDOM, MEDIUM, HARD = 0, 1, 2, 3
"""Policy codes of a seat (:data:`MEDIUM` and above: steps from a table, free steps by the
``medium`` rule)."""

CODES = {"optimal": OPTIMAL, "easy": RANDOM, "random": RANDOM, "medium": MEDIUM,
         "hard": HARD}
"""The levels evaluated here by name."""

NEAR = 1e-12
"""Chances closer than this count as equal (:data:`.optimal.NEAR`)."""


@cache
def _roll_tables(circuit: Circuit, longest: bool) -> tuple[Any, ...]:
    """Per position and roll (``p * 462 + r``): where its ends start in ``ends`` (the move's
    (end, dice used) pairs, sorted; none when no die fits) and where its random-step
    distribution starts in ``dist`` ((end, dice used) pairs with ``chance``); the rolls'
    chances; each position's steps to a target and progress (the ``medium`` key)."""
    import numpy as np

    from dicegames.games.monza.evaluate import random_policy

    n = len(circuit.squares)
    spread = random_policy(circuit, longest)
    ends_at: list[int] = [0]
    dist_at: list[int] = [0]
    ends: list[int] = []
    dist: list[int] = []
    chance: list[float] = []
    for p in [*range(n), START]:
        playable = p == START or not (p in circuit.targets or circuit.squares[p].is_tyre)
        for roll, _ in ROLLS:
            found = sorted(circuit.ends(p, roll.counts, longest)) if playable else []
            if found and (p, 0) not in found:
                for e, u in found:
                    ends.extend((n if e == START else e, u))
                cars = (p, p)
                for (e, u), q in sorted(spread(cars, 0, roll.counts, False, 0).items()):
                    dist.extend((n if e == START else e, u))
                    chance.append(q)
            ends_at.append(len(ends) // 2)
            dist_at.append(len(dist) // 2)
    positions = [*range(n), START]
    return (np.array(ends_at, dtype=np.int64), np.array(ends, dtype=np.int64),
            np.array(dist_at, dtype=np.int64), np.array(dist, dtype=np.int64),
            np.array(chance), np.array([float(p) for _, p in ROLLS]),
            np.array([circuit.steps_to_finish(p) for p in positions], dtype=np.int64),
            np.array([circuit.progress(p) for p in positions], dtype=np.int64))


@njit
def _free(scratch: Array, here: float, red: int, count: int, mode: int) -> float:
    """The evaluated value of a free step decided by ``mode`` (``red``: 1 when red decides)
    among ``count`` choices (the advances in the legal order, then stay last) whose solution
    values are ``scratch[0]``, evaluated values ``scratch[1]`` and squares' steps to a
    target ``scratch[2]`` (``here``: the car's own)."""
    best, value, steps = scratch[0], scratch[1], scratch[2]
    if mode >= MEDIUM:  # the free square closest to a target, if closer than the car
        chosen = count - 1
        for i in range(count - 1):
            if steps[i] < here:
                here = steps[i]
                chosen = i
        return float(value[chosen])
    if mode == RANDOM:
        total = 0.0
        for i in range(count):
            total += value[i]
        return total / count
    top = -1.0
    for i in range(count):
        mine = best[i] if red == 1 else 1.0 - best[i]
        top = max(top, mine)
    for i in range(count):
        mine = best[i] if red == 1 else 1.0 - best[i]
        if mine >= top - NEAR:
            return float(value[i])
    return float(value[count - 1])


@njit
def _eval_red(a: Array, y: Array, sa: Array, sy: Array, c: Any, e: int, u: int, w: int,  # noqa: PLR0917
              modes: Array, scratch: Array, stf: Array) -> float:
    """Red's evaluated chance once red's move ends on ``e`` with ``u`` dice (yellow on
    ``w`` before any push), the free step decided by its owner's policy."""
    target, colour, succ, nsucc, width, pushed = c
    n = len(target) - 1
    if w == e and e != n and target[e] == 0:
        w = pushed[e]
    count = 0
    if colour[e] == 0:
        for i in range(nsucc[e]):
            j = succ[e * width + i]
            if j != w:
                scratch[0, count] = _yellow_start(sa, sy, target, j, w, u)
                scratch[1, count] = _yellow_start(a, y, target, j, w, u)
                scratch[2, count] = stf[j]
                count += 1
    elif colour[e] == 1 and target[w] == 0:
        for i in range(nsucc[w]):
            j = succ[w * width + i]
            if j != e:
                scratch[0, count] = _yellow_start(sa, sy, target, e, j, u)
                scratch[1, count] = _yellow_start(a, y, target, e, j, u)
                scratch[2, count] = stf[j]
                count += 1
    stay = _yellow_start(a, y, target, e, w, u)
    if count == 0:
        return stay
    scratch[0, count] = _yellow_start(sa, sy, target, e, w, u)
    scratch[1, count] = stay
    red = 1 if colour[e] == 0 else 0
    here = float(stf[e] if red == 1 else stf[w])
    return _free(scratch, here, red, count + 1, modes[1 - red])


@njit
def _eval_yellow(a: Array, sa: Array, c: Any, e: int, u: int, x: int, k: int,  # noqa: PLR0917
                 modes: Array, scratch: Array, stf: Array) -> float:
    """Red's evaluated chance once yellow's move ends on ``e`` with ``u`` dice (red on
    ``x`` before any push, ``k`` dice in the round), the free step by its owner's policy."""
    target, colour, succ, nsucc, width, pushed = c
    n = len(target) - 1
    if x == e and e != n and target[e] == 0:
        x = pushed[e]
    count = 0
    if colour[e] == 0 and target[x] == 0:
        for i in range(nsucc[x]):
            j = succ[x * width + i]
            if j != e:
                scratch[0, count] = _round_end(sa, target, j, e, k, u)
                scratch[1, count] = _round_end(a, target, j, e, k, u)
                scratch[2, count] = stf[j]
                count += 1
    elif colour[e] == 1 and target[e] == 0:
        for i in range(nsucc[e]):
            j = succ[e * width + i]
            if j != x:
                scratch[0, count] = _round_end(sa, target, x, j, k, u)
                scratch[1, count] = _round_end(a, target, x, j, k, u)
                scratch[2, count] = stf[j]
                count += 1
    stay = _round_end(a, target, x, e, k, u)
    if count == 0:
        return stay
    scratch[0, count] = _round_end(sa, target, x, e, k, u)
    scratch[1, count] = stay
    red = 1 if colour[e] == 0 else 0
    here = float(stf[x] if red == 1 else stf[e])
    return _free(scratch, here, red, count + 1, modes[1 - red])


@njit
def _key_better(stf: Array, progress: Array, target: Array, e: int, u: int, other: int,  # noqa: PLR0917
                be: int, bu: int) -> bool:
    """True when ending on ``e`` with ``u`` dice beats ``be``, ``bu`` on the ``medium`` key
    (:func:`.heuristics.end_key`; ``other``: the other car before the move); equal keys keep
    the earlier (smaller) end."""
    n = len(target) - 1
    ka = (-stf[e], -u if target[e] == 1 else 0,
          1 if (e == other and e != n and target[e] == 0) else 0, progress[e])
    kb = (-stf[be], -bu if target[be] == 1 else 0,
          1 if (be == other and be != n and target[be] == 0) else 0, progress[be])
    return ka > kb


@njit
def _optimal_steps(sa: Array, sy: Array, c: Any, r: Any, red_steps: Array,  # noqa: PLR0917
                   yellow_steps: Array) -> None:
    """``optimal``'s step at every state and roll, as the index of its end among the
    roll's ends (see :func:`_roll_tables`): the best solution value, the ``medium`` key
    among those within :data:`NEAR` of it, then the first (smallest) end."""
    target = c[0]
    ends_at, ends, _, _, _, roll_p, stf, progress, playable = r
    size = len(target)
    rolls = len(roll_p)
    for x in range(size):
        if playable[x] == 0 or target[x] == 1:
            continue
        for w in range(size):
            if playable[w] == 0 or target[w] == 1:
                continue
            for roll in range(rolls):
                row = x * rolls + roll
                lo, hi = ends_at[row], ends_at[row + 1]
                top = -1.0
                for o in range(lo, hi):
                    top = max(top, _after_red(sa, sy, c, ends[2 * o], ends[2 * o + 1], w))
                best = -1
                for o in range(lo, hi):
                    e, u = ends[2 * o], ends[2 * o + 1]
                    if _after_red(sa, sy, c, e, u, w) >= top - NEAR and (
                            best < 0 or _key_better(stf, progress, target, e, u, w,
                                                    ends[2 * best], ends[2 * best + 1])):
                        best = o
                red_steps[x, w, roll] = max(best - lo, 0)
    for w in range(size):
        if playable[w] == 0 or target[w] == 1:
            continue
        for x in range(size):
            if playable[x] == 0:
                continue
            for k in range(K):
                for roll in range(rolls):
                    row = w * rolls + roll
                    lo, hi = ends_at[row], ends_at[row + 1]
                    top = -1.0
                    for o in range(lo, hi):
                        top = max(top, 1.0 - _after_yellow(sa, c, ends[2 * o], ends[2 * o + 1],
                                                           x, k))
                    best = -1
                    for o in range(lo, hi):
                        e, u = ends[2 * o], ends[2 * o + 1]
                        if 1.0 - _after_yellow(sa, c, e, u, x, k) >= top - NEAR and (
                                best < 0 or _key_better(stf, progress, target, e, u, x,
                                                        ends[2 * best], ends[2 * best + 1])):
                            best = o
                    yellow_steps[x, w, k, roll] = max(best - lo, 0)


@njit
def _sweep(a: Array, y: Array, sa: Array, sy: Array, c: Any, r: Any,  # noqa: PLR0917
           modes: Array, steps: Any, scratch: Array) -> float:
    """One Gauss-Seidel sweep of the chain in place; the largest change. A seat that does
    not play random steps moves to the end its table in ``steps`` (red's ``[x, y, roll]``,
    yellow's ``[x, y, k, roll]``) names."""
    target = c[0]
    red_steps, yellow_steps = steps
    ends_at, ends, dist_at, dist, chance, roll_p, stf, _, playable = r
    size = len(target)
    rolls = len(roll_p)
    change = 0.0
    for x in range(size):
        if playable[x] == 0 or target[x] == 1:
            continue
        for w in range(size):
            if playable[w] == 0 or target[w] == 1:
                continue
            total = 0.0
            for roll in range(rolls):
                row = x * rolls + roll
                lo, hi = ends_at[row], ends_at[row + 1]
                if lo == hi:
                    value = y[x, w, 0]
                elif modes[0] == RANDOM:
                    value = 0.0
                    for o in range(dist_at[row], dist_at[row + 1]):
                        value += chance[o] * _eval_red(a, y, sa, sy, c, dist[2 * o],
                                                       dist[2 * o + 1], w, modes, scratch, stf)
                else:
                    o = lo + red_steps[x, w, roll]
                    value = _eval_red(a, y, sa, sy, c, ends[2 * o], ends[2 * o + 1], w, modes,
                                      scratch, stf)
                total += roll_p[roll] * value
            change = max(change, abs(total - a[x, w]))
            a[x, w] = total
    for w in range(size):
        if playable[w] == 0 or target[w] == 1:
            continue
        for x in range(size):
            if playable[x] == 0:
                continue
            for k in range(K):
                total = 0.0
                for roll in range(rolls):
                    row = w * rolls + roll
                    lo, hi = ends_at[row], ends_at[row + 1]
                    if lo == hi:
                        value = _round_end(a, target, x, w, k, 0)
                    elif modes[1] == RANDOM:
                        value = 0.0
                        for o in range(dist_at[row], dist_at[row + 1]):
                            value += chance[o] * _eval_yellow(a, sa, c, dist[2 * o],
                                                              dist[2 * o + 1], x, k, modes,
                                                              scratch, stf)
                    else:
                        o = lo + yellow_steps[x, w, k, roll]
                        value = _eval_yellow(a, sa, c, ends[2 * o], ends[2 * o + 1], x, k,
                                             modes, scratch, stf)
                    total += roll_p[roll] * value
                change = max(change, abs(total - y[x, w, k]))
                y[x, w, k] = total
    return change


def _step_tables(solution: VariantSolution, modes: tuple[int, int], game: Any,
                 c: Any, r: Any) -> tuple[Array, Array]:
    """Red's and yellow's step tables for :func:`_sweep` (a placeholder for random steps)."""
    import numpy as np

    size, rolls = len(solution.circuit.squares) + 1, len(ROLLS)
    red_steps = np.zeros((1, 1, 1), dtype=np.int16)
    yellow_steps = np.zeros((1, 1, 1, 1), dtype=np.int16)
    if OPTIMAL in modes:
        best_red = np.zeros((size, size, rolls), dtype=np.int16)
        best_yellow = np.zeros((size, size, K, rolls), dtype=np.int16)
        _optimal_steps(solution.a, solution.y, c, r, best_red, best_yellow)
        red_steps = best_red if modes[0] == OPTIMAL else red_steps
        yellow_steps = best_yellow if modes[1] == OPTIMAL else yellow_steps
    for seat, mode in enumerate(modes):
        if mode in {MEDIUM, HARD}:
            if game is None:
                raise ValueError("medium and hard are evaluated for a configured game")
            table = _fixed_table(game, "medium" if mode == MEDIUM else "hard")
            if seat == 0:
                red_steps = table[0]
            else:
                yellow_steps = np.ascontiguousarray(np.broadcast_to(
                    table[1][:, :, None, :], (size, size, K, rolls)))
    return red_steps, yellow_steps


@lru_cache(maxsize=4)
def _fixed_table(game: Any, level: str) -> Array:
    """:func:`.evaluate_choices.step_table`, kept for the other seat order."""
    from dicegames.games.monza.evaluate_choices import step_table

    return step_table(game, level)


def red_chance(solution: VariantSolution, red: int, yellow: int, game: Any = None) -> float:
    """Seat 0's exact chance to win from the start (a shared win half), red playing policy
    ``red`` and yellow ``yellow`` (:data:`OPTIMAL`, :data:`RANDOM`, :data:`MEDIUM` or
    :data:`HARD`; the last two read the configured ``game``, the solution's circuit and
    compulsion)."""
    import numpy as np

    moves = _moves(solution.circuit)
    c = moves[:1] + moves[2:]
    r = (*_roll_tables(solution.circuit, solution.longest), moves[1])
    size = len(solution.circuit.squares) + 1
    steps = _step_tables(solution, (red, yellow), game, c, r)
    a = np.full((size, size), 0.5)
    y = np.full((size, size, K), 0.5)
    modes = np.array([red, yellow], dtype=np.int64)
    scratch = np.zeros((3, 16))
    for _ in range(MAX_SWEEPS):
        if _sweep(a, y, solution.a, solution.y, c, r, modes, steps, scratch) <= TOLERANCE:
            return float(a[size - 1, size - 1])
    raise RuntimeError("the chain did not settle")


def luck(solution: VariantSolution) -> dict[str, float]:
    """``optimal``'s exact chance against random steps as first and second seat, their
    mean, and the share of the outcome due to skill (how far above one half the mean is,
    out of the half it could move)."""
    first = red_chance(solution, OPTIMAL, RANDOM)
    second = 1.0 - red_chance(solution, RANDOM, OPTIMAL)
    mean = (first + second) / 2
    return {"first": first, "second": second, "mean": mean, "skill": (mean - 0.5) / 0.5}


def against_optimal(solution: VariantSolution, names: list[str],
                    game: Any) -> dict[str, tuple[float, float]]:
    """Each named level's (:data:`CODES`) exact chance against ``optimal``, moving first and
    moving second (a shared win half): the variant's column of the strength table."""
    result: dict[str, tuple[float, float]] = {}
    for name in names:
        code = CODES[name]
        result[name] = (red_chance(solution, code, OPTIMAL, game),
                        1.0 - red_chance(solution, OPTIMAL, code, game))
    return result
