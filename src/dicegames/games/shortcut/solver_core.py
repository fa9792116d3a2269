"""The compiled loops of Shortcut's two-player solution (:mod:`.solver`) and of the exact
evaluation of fixed policies (:mod:`.solver_evaluate`).

Everything is seen from the car about to declare (the *mover*) on cell ``a``, the other car
on cell ``b``; the two seats follow the same rules, so one table serves both. A turn only
moves the mover, so a turn is a distribution over the cell ``c`` where it ends, and
``E(c) = 1`` on the finish, else ``1 - W[b, c]`` (the other car then declares).

**The board as arrays** (built by :func:`.solver.board_arrays`):

- ``grey[c]``: 1 for a grey cell; ``kidx[b]``: which set of blocked cells the other car on
  ``b`` makes (0: none, on the road; ``1 + j``: the ``j``-th grey cell).
- ``road_to[a * 6 + r - 1]``: where a road roll ``r`` takes a car from ``a`` (``a`` itself when
  it overshoots the finish).
- ``steps[a * 4 + j]`` (``nsteps[a]`` of them): the one-step destinations of ``a``.
- Shortcut reach, one list per (blocked set ``k``, cell ``a``), sorted by distance:
  ``rcell[rstart[k * n + a] : rstart[k * n + a + 1]]`` with distances ``rdist`` (the first is
  ``a`` itself at 0). The last distance is ``maxd``: from there on a larger total reaches
  nothing more.

**A shortcut turn.** With ``M(t)`` the best ``E`` within ``t`` steps (own cell included) and
``E0 = E(a)`` (stuck), the value of rolling with total ``t`` is
``S(t) = E0 / 2 + (C(t+1) + C(t+2) + C(t+3)) / 6`` with ``C(t) = max(S(t), M(t))``. Past
``maxd``, ``C = M(maxd)`` (pressing there only risks the turn: ``S = (E0 + M) / 2 <= M``), so
``S`` is found from ``maxd`` downwards: exact, whatever the number of presses.

The functions are compiled by :func:`dicegames.core.kernel.njit` (plain Python without
numba, on the same numpy arrays).
"""

from __future__ import annotations

from typing import Any

from dicegames.core.kernel import njit

Array = Any
"""A numpy array (the compiled functions take and fill numpy arrays)."""

ROAD, SHORTCUT, PUSH, UNIFORM = range(4)
"""Declaration codes of the policy tables; UNIFORM: each legal declaration equally likely."""

PRESS = -1
"""In a ``choose`` table: roll again."""

ANY = -2
"""In a ``push`` or ``choose`` table: each legal choice equally likely (the random bot)."""

NONE = -3
"""In a ``push`` table: no push is legal."""

NEAR = 1e-12
"""Chances closer than this count as equal: the first declaration listed (road, shortcut,
push) wins, and a stop is preferred to a press."""


@njit
def _edge(w: Array, finish: int, b: int, c: int) -> float:
    """E(c): the mover's chance when its turn ends on ``c`` with the other car on ``b``."""
    if c == finish:
        return 1.0
    return 1.0 - float(w[b, c])


@njit
def _road_value(w: Array, finish: int, road_to: Array, a: int, b: int) -> float:
    """The mover's chance after declaring the road."""
    total = 0.0
    for r in range(6):
        total += _edge(w, finish, b, road_to[a * 6 + r])
    return total / 6.0


@njit
def _push_best(w: Array, finish: int, grey: Array, steps: Array, nsteps: Array, a: int,  # noqa: PLR0917
               b: int) -> tuple[float, int]:
    """The best push (its chance and cell; the first cell on a tie), or (-1, NONE)."""
    best, where = -1.0, NONE
    for j in range(nsteps[a]):
        c = steps[a * 4 + j]
        if c == b and grey[c] == 1:
            continue
        value = _edge(w, finish, b, c)
        if value > best:
            best, where = value, c
    return best, where


@njit
def _shortcut_value(w: Array, finish: int, rcell: Array, rdist: Array, lo: int, hi: int,  # noqa: PLR0917
                    a: int, b: int, m: Array, s: Array) -> float:
    """The mover's chance after declaring the shortcut and playing it best (``m``, ``s``:
    scratch, filled with M(t) and S(t) for t = 0..maxd)."""
    maxd = rdist[hi - 1]
    for t in range(maxd + 1):
        m[t] = -1.0
    for i in range(lo, hi):
        value = _edge(w, finish, b, rcell[i])
        d = rdist[i]
        m[d] = max(m[d], value)
    for t in range(1, maxd + 1):
        m[t] = max(m[t], m[t - 1])
    e0 = _edge(w, finish, b, a)
    top = m[maxd]
    s[maxd] = (e0 + top) / 2.0
    for t in range(maxd - 1, -1, -1):
        total = 0.0
        for r in range(1, 4):
            u = t + r
            if u >= maxd:
                total += top
            else:
                total += max(s[u], m[u])
        s[t] = e0 / 2.0 + total / 6.0
    return float(s[0])


@njit
def sweep(w: Array, finish: int, grey: Array, kidx: Array, road_to: Array, steps: Array,  # noqa: PLR0917
          nsteps: Array, rstart: Array, rcell: Array, rdist: Array, m: Array,
          s: Array) -> float:
    """One Gauss-Seidel sweep of the optimal values ``w[a, b]`` (in place); the largest
    change."""
    n = w.shape[0]
    change = 0.0
    for a in range(n):
        if a == finish:
            continue
        for b in range(n):
            if b == finish or (a == b and grey[a] == 1):
                continue
            best = -1.0
            if grey[a] == 0:
                best = _road_value(w, finish, road_to, a, b)
            k = kidx[b] * n + a
            value = _shortcut_value(w, finish, rcell, rdist, rstart[k], rstart[k + 1], a, b,
                                    m, s)
            best = max(best, value)
            value = _push_best(w, finish, grey, steps, nsteps, a, b)[0]
            best = max(best, value)
            delta = abs(best - w[a, b])
            change = max(change, delta)
            w[a, b] = best
    return change


@njit
def extract(w: Array, finish: int, grey: Array, kidx: Array, road_to: Array, steps: Array,  # noqa: PLR0917
            nsteps: Array, rstart: Array, rcell: Array, rdist: Array, m: Array, s: Array,
            declare: Array, push: Array, choose: Array) -> None:
    """The optimal decisions from the solved ``w``: ``declare[a, b]`` (ROAD, SHORTCUT,
    PUSH), ``push[a, b]`` (the cell, NONE when no push is legal) and ``choose[a, b, t]`` for
    a shortcut total ``t`` (PRESS or the cell to stop on; the last column holds every
    larger total)."""
    n = w.shape[0]
    cap = choose.shape[2] - 1
    for a in range(n):
        if a == finish:
            continue
        for b in range(n):
            if b == finish or (a == b and grey[a] == 1):
                continue
            k = kidx[b] * n + a
            lo, hi = rstart[k], rstart[k + 1]
            shortcut = _shortcut_value(w, finish, rcell, rdist, lo, hi, a, b, m, s)
            pushed, target = _push_best(w, finish, grey, steps, nsteps, a, b)
            push[a, b] = target
            road = _road_value(w, finish, road_to, a, b) if grey[a] == 0 else -1.0
            top = max(road, shortcut, pushed)  # -1 stands for an illegal declaration
            if road >= top - NEAR:
                declare[a, b] = ROAD
            elif shortcut >= top - NEAR:
                declare[a, b] = SHORTCUT
            else:
                declare[a, b] = PUSH
            maxd = rdist[hi - 1]
            top, where = -1.0, -1
            i = lo
            for t in range(cap + 1):
                while i < hi and rdist[i] <= t:
                    c = rcell[i]
                    value = _edge(w, finish, b, c)
                    if value > top or (value == top and c < where):
                        top, where = value, c
                    i += 1
                if t < maxd and s[t] > m[t] + NEAR:
                    choose[a, b, t] = PRESS
                else:
                    choose[a, b, t] = where


@njit
def _policy_shortcut(v: Array, finish: int, rcell: Array, rdist: Array, lo: int, hi: int,  # noqa: PLR0917
                     a: int, b: int, plan: Array, c_: Array, s: Array) -> float:
    """The mover's chance on a shortcut played by the table ``plan[t]`` (PRESS, a cell, or
    ANY), ``v`` the other seat's table; ``c_``, ``s``: scratch."""
    cap = plan.shape[0] - 1
    e0 = _edge(v, finish, b, a)
    # totals from cap on decide alike (every reachable cell is in range): stationary
    last = plan[cap]
    if last == PRESS:
        s_cap = e0
        c_cap = e0
    elif last == ANY:
        total, count = 0.0, 0
        for i in range(lo, hi):
            total += _edge(v, finish, b, rcell[i])
            count += 1
        s_cap = ((count + 1) * e0 + total) / (2 * count + 1)
        c_cap = (s_cap + total) / (count + 1)
    else:
        c_cap = _edge(v, finish, b, last)
        s_cap = (e0 + c_cap) / 2.0
    s[cap] = s_cap
    c_[cap] = c_cap
    for t in range(cap - 1, -1, -1):
        total = 0.0
        for r in range(1, 4):
            total += c_[min(t + r, cap)]
        s[t] = e0 / 2.0 + total / 6.0
        if t == 0:
            break
        choice = plan[t]
        if choice == PRESS:
            c_[t] = s[t]
        elif choice == ANY:
            within, count = 0.0, 0
            for i in range(lo, hi):
                if rdist[i] <= t:
                    within += _edge(v, finish, b, rcell[i])
                    count += 1
            c_[t] = (s[t] + within) / (count + 1)
        else:
            c_[t] = _edge(v, finish, b, choice)
    return float(s[0])


@njit
def policy_sweep(v: Array, finish: int, grey: Array, kidx: Array, road_to: Array,  # noqa: PLR0917
                 steps: Array, nsteps: Array, rstart: Array, rcell: Array, rdist: Array,
                 declare: Array, push: Array, choose: Array, c_: Array, s: Array) -> float:
    """One Gauss-Seidel sweep of the chances of two fixed policies (in place):
    ``v[p, a, b]`` is seat ``p``'s chance to win when it declares on ``a``, the other car
    on ``b``. ``declare[p]``, ``push[p]``, ``choose[p]`` are seat ``p``'s tables (as
    :func:`extract` writes them, or UNIFORM / ANY for a uniformly random choice). The
    largest change."""
    n = v.shape[1]
    change = 0.0
    for p in range(2):
        other = v[1 - p]
        for a in range(n):
            if a == finish:
                continue
            for b in range(n):
                if b == finish or (a == b and grey[a] == 1):
                    continue
                k = kidx[b] * n + a
                lo, hi = rstart[k], rstart[k + 1]
                # each declaration's value, NaN where illegal
                targets = 0
                pushed = 0.0
                for j in range(nsteps[a]):
                    c = steps[a * 4 + j]
                    if not (c == b and grey[c] == 1):
                        targets += 1
                        pushed += _edge(other, finish, b, c)
                code = declare[p, a, b]
                value = 0.0
                count = 0
                if grey[a] == 0 and (code in (ROAD, UNIFORM)):
                    value += _road_value(other, finish, road_to, a, b)
                    count += 1
                if code in (SHORTCUT, UNIFORM):
                    value += _policy_shortcut(other, finish, rcell, rdist, lo, hi, a, b,
                                              choose[p, a, b], c_, s)
                    count += 1
                if targets > 0 and (code in (PUSH, UNIFORM)):
                    where = push[p, a, b]
                    if targets == 1 or where == ANY:
                        value += pushed / targets
                    else:
                        value += _edge(other, finish, b, where)
                    count += 1
                value /= count
                delta = abs(value - v[p, a, b])
                change = max(change, delta)
                v[p, a, b] = value
    return change


@njit
def reach_lists(n: int, finish: int, grey: Array, greys: Array, steps: Array,  # noqa: PLR0917
                nsteps: Array, rstart: Array, rcell: Array, rdist: Array,
                queue: Array, dist: Array) -> int:
    """Fill the reach lists (breadth-first from every cell, for every blocked set; see the
    module docstring); with ``rcell`` None-sized (length 0) only count. The entries."""
    total = 0
    blocks = greys.shape[0] + 1
    for k in range(blocks):
        blocked = -1 if k == 0 else greys[k - 1]
        for a in range(n):
            rstart[k * n + a] = total
            if a in (finish, blocked):
                continue
            for c in range(n):
                dist[c] = -1
            dist[a] = 0
            queue[0] = a
            head, tail = 0, 1
            while head < tail:
                here = queue[head]
                head += 1
                if here == finish:
                    continue
                for j in range(nsteps[here]):
                    c = steps[here * 4 + j]
                    if dist[c] < 0 and c != blocked:
                        dist[c] = dist[here] + 1
                        queue[tail] = c
                        tail += 1
            if rcell.shape[0] > 0:
                for i in range(tail):  # the queue is in order of distance already
                    rcell[total + i] = queue[i]
                    rdist[total + i] = dist[queue[i]]
            total += tail
    rstart[blocks * n] = total
    return total
