"""For a Few Extra Meters as a bulk kernel over an integer array (see :mod:`dicegames.core.kernel`).

Every player count and both finishes. The array (``P`` players, :data:`DICE_CAP` dice slots):

=========================  ==================================================
index                      value
=========================  ==================================================
0 ``PLAYER``               the seat whose turn it is
1 ``TURN``                 the turn number
2 ``PHASE``                :class:`~.data.Phase` (0 opening, 1 decide, 2 rolling, 3 over)
3 ``SUM``, 4 ``COUNT``     sum and number of the turn's non-6 dice
5 .. 5+P                   each runner's position
5+P .. 5+2P                winner flags (1 for each winning seat)
5+2P .. 5+2P+DICE_CAP      the turn's dice in order (the first DICE_CAP of them)
=========================  ==================================================

Codes: a chance outcome is the die face itself (1..5 on the opening roll, 1..6 after);
action 0 is ``roll``, 1 is ``stop`` (the engine's legal order).

Policies: ``random`` (the ``easy`` bot: roll or stop at even odds), ``threshold`` (``medium``:
:func:`.heuristics.should_roll`) and ``exact`` (``hard`` / ``optimal`` / ``duel``: the
decision of :func:`.solver.optimal_policy`, the exact two-runner race, against the leading
opponent with three or more runners), read from a table of roll-or-stop bits per turn position
computed once from the exact solution by the same float operations, so it decides exactly as
the engine's bot. Three-runner ``hard`` (``finish=first``, up to 50 squares) plays
:mod:`.race3`'s exact three-runner solution, which the kernel does not: simulations of it use
the engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from dicegames.core.kernel import (
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    GameKernel,
    IntArray,
    Playouts,
    array,
    below,
    byte_zeros,
    copy,
    float_array,
    limit_of,
    njit,
    njit_uncounted,
    seed_rng,
    step_u32,
    zeros,
)
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase

PLAYER, TURN, PHASE, SUM, COUNT, POS = 0, 1, 2, 3, 4, 5
DICE_CAP = 64
"""Dice of one turn kept in the array (only for decoding; the rules need the sum and count)."""

RANDOM, THRESHOLD, EXACT = 0, 1, 2
ROLL, STOP = 0, 1
EXACT_MAX_TRACK = 120
"""The exact policy's table grows as N**4 / 8 bytes: it is offered up to this track length."""

MAX_MOVES = 1_000_000
"""A safety cap on the moves of one game in the kernel."""


def size(players: int) -> int:
    """The array length for ``players`` runners."""
    return POS + 2 * players + DICE_CAP


# ------------------------------------------------------------------------ the rules


@njit_uncounted
def _end_turn(v: IntArray, players: int, n: int, same_round: int, distance: int) -> None:
    player = v[PLAYER]
    v[POS + player] += distance
    v[SUM] = 0
    v[COUNT] = 0
    if same_round == 0:
        if v[POS + player] > n:
            v[POS + players + player] = 1
            v[PHASE] = 3
            return
    elif player == players - 1:
        found = 0
        for seat in range(players):
            if v[POS + seat] > n:
                v[POS + players + seat] = 1
                found = 1
        if found:
            v[PHASE] = 3
            return
    v[PLAYER] = (player + 1) % players
    v[TURN] += 1
    v[PHASE] = 0


@njit_uncounted
def _outcome(v: IntArray, players: int, n: int, same_round: int, face: int) -> None:
    if face == 6:
        _end_turn(v, players, n, same_round, v[COUNT] + 1)
        return
    count = v[COUNT]
    if count < DICE_CAP:
        v[POS + 2 * players + count] = face
    v[SUM] += face
    v[COUNT] = count + 1
    v[PHASE] = 1


@njit_uncounted
def _action(v: IntArray, players: int, n: int, same_round: int, code: int) -> None:
    if code == ROLL:
        v[PHASE] = 2
    else:
        _end_turn(v, players, n, same_round, v[SUM])


@njit_uncounted
def _exact_index(a: int, b: int, k: int, total: int, tab: int, n: int,
                 offsets: IntArray) -> int:
    top = n - a
    base = offsets[(tab * (n + 1) + a) * (n + 2) + b]
    return int(base + (k - 1) * (top + 1) - ((k - 1) * k) // 2 + (total - k))


@njit_uncounted
def _choose(v: IntArray, players: int, n: int, same_round: int, policy: int,
            whims: IntArray, table: IntArray, offsets: IntArray) -> int:
    if policy == RANDOM:
        return below(whims, 2)
    seat = v[PLAYER]
    a = v[POS + seat]
    total = v[SUM]
    if a + total > n:
        return STOP
    if policy == THRESHOLD:
        return ROLL if total < 16 + v[COUNT] else STOP
    rival = (seat + 1) % players
    for step in range(2, players):
        other = (seat + step) % players
        if v[POS + other] > v[POS + rival]:
            rival = other
    b = min(v[POS + rival], n + 1)
    tab = seat if (same_round == 1 and players == 2) else 0
    return ROLL if table[_exact_index(a, b, v[COUNT], total, tab, n, offsets)] else STOP


@njit_uncounted
def _run(v: IntArray, players: int, n: int, same_round: int, policies: IntArray,
         dice: IntArray, whims: IntArray, table: IntArray, offsets: IntArray,
         stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends (or the horizon); the moves applied."""
    number = v[TURN] if v[PLAYER] == stop_seat else -1
    starts = stop_turns + 1
    moves = 0
    while v[PHASE] != 3 and moves < MAX_MOVES:
        if v[PLAYER] == stop_seat and v[TURN] != number:
            number = v[TURN]
            starts -= 1
            if starts == 0:
                break
        phase = v[PHASE]
        if phase == 0:
            _outcome(v, players, n, same_round, below(dice, 5) + 1)
        elif phase == 2:
            _outcome(v, players, n, same_round, below(dice, 6) + 1)
        else:
            code = _choose(v, players, n, same_round, policies[v[PLAYER]], whims, table,
                           offsets)
            _action(v, players, n, same_round, code)
        moves += 1
    return moves


@njit
def _playouts(start: IntArray, players: int, n: int, same_round: int, policies: IntArray,
              games: int, dice: IntArray, whims: IntArray, table: IntArray,
              offsets: IntArray, winners: IntArray, scores: IntArray, turns: IntArray,
              moves: IntArray) -> None:
    """Whole games from ``start``: :func:`_run`'s rules and draws, with the turn and both
    generators in local variables (the hot loop of every simulation)."""
    d0, d1, d2, d3 = dice[0], dice[1], dice[2], dice[3]
    w0, w1, w2, w3 = whims[0], whims[1], whims[2], whims[3]
    limit5, limit6 = limit_of(5), limit_of(6)
    pos = zeros(players)
    for g in range(games):
        for seat in range(players):
            pos[seat] = start[POS + seat]
            winners[g * players + seat] = start[POS + players + seat]
        player, turn, phase = start[PLAYER], start[TURN], start[PHASE]
        total, count = start[SUM], start[COUNT]
        played = 0
        while phase != 3 and played < MAX_MOVES:
            played += 1
            distance = -1
            if phase == 1:
                policy = policies[player]
                roll = False
                if policy == RANDOM:
                    while True:
                        x, w0, w1, w2, w3 = step_u32(w0, w1, w2, w3)
                        if x < limit_of(2):
                            break
                    roll = x % 2 == ROLL
                elif pos[player] + total <= n:
                    if policy == THRESHOLD:
                        roll = total < 16 + count
                    else:
                        rival = (player + 1) % players
                        for step in range(2, players):
                            other = (player + step) % players
                            if pos[other] > pos[rival]:
                                rival = other
                        tab = player if (same_round == 1 and players == 2) else 0
                        index = _exact_index(pos[player], min(pos[rival], n + 1), count,
                                             total, tab, n, offsets)
                        roll = table[index] == 1
                if roll:
                    phase = 2
                else:
                    distance = total
            else:
                while True:
                    x, d0, d1, d2, d3 = step_u32(d0, d1, d2, d3)
                    if x < (limit5 if phase == 0 else limit6):
                        break
                face = x % (5 if phase == 0 else 6) + 1
                if face == 6:
                    distance = count + 1
                else:
                    total += face
                    count += 1
                    phase = 1
            if distance >= 0:
                pos[player] += distance
                total = 0
                count = 0
                if same_round == 0:
                    if pos[player] > n:
                        winners[g * players + player] = 1
                        phase = 3
                elif player == players - 1:
                    for seat in range(players):
                        if pos[seat] > n:
                            winners[g * players + seat] = 1
                            phase = 3
                if phase != 3:
                    player = (player + 1) % players
                    turn += 1
                    phase = 0
        moves[g] = played
        turns[g] = turn
        for seat in range(players):
            scores[g * players + seat] = pos[seat]
    dice[0], dice[1], dice[2], dice[3] = d0, d1, d2, d3
    whims[0], whims[1], whims[2], whims[3] = w0, w1, w2, w3


# ------------------------------------------------------------------------ the exact table


@njit
def _fill_exact(table: IntArray, offsets: IntArray, wins: IntArray, reach: IntArray, n: int,
                tabs: int, same_round: int) -> None:
    """The roll bits of every turn position, by :meth:`.solver.Solution.turn_table`'s sums.

    ``wins[(seat * (n + 1) + a) * (n + 1) + b]`` is the solution's table; ``reach`` its
    reach probabilities. Bit set: rolling is better by more than 1e-12 (the engine's test).
    """
    after = [0.0] * (n + 3)
    nxt = [0.0] * (n + 7)
    cur = [0.0] * (n + 7)
    for tab in range(tabs):
        for a in range(n + 1):
            top = n - a
            for b in range(n + 2):
                for d in range(top + 2):
                    moved = a + d
                    if b > n:
                        after[d] = 0.5 if moved > n else 0.0
                    elif moved > n:
                        if same_round == 1 and tab == 0:
                            after[d] = 1.0 - 0.5 * reach[n - b + 1]
                        else:
                            after[d] = 1.0
                    else:
                        after[d] = 1.0 - wins[((1 - tab) * (n + 1) + b) * (n + 1) + moved]
                passed = after[top + 1]
                for s in range(top + 6):
                    nxt[s] = passed
                for k in range(top, 0, -1):
                    bust = after[min(k + 1, top + 1)]
                    for s in range(top + 1):
                        cur[s] = 0.0
                    for s in range(top + 1, top + 6):
                        cur[s] = passed
                    for total in range(k, min(5 * k, top) + 1):
                        acc = 0.0
                        for f in range(1, 6):
                            acc += nxt[total + f]
                        roll = (bust + acc) / 6
                        stop = after[total]
                        cur[total] = roll if roll > stop else stop
                        if roll > stop + 1e-12:
                            table[_exact_index(a, b, k, total, tab, n, offsets)] = 1
                    for s in range(top + 6):
                        nxt[s] = cur[s]


@lru_cache(maxsize=4)
def exact_table(n: int, same_round: bool) -> tuple[IntArray, IntArray]:
    """The exact policy's roll bits and their offsets for track ``n`` (cached).

    ``same_round`` is the two-player same-round solution (one table per seat); otherwise one
    table of the ``first`` solution serves every seat.
    """
    from dicegames.games.extra_meters.solver import solve

    solution = solve(n, "same_round" if same_round else "first")
    tabs = 2 if same_round else 1
    offsets = [0] * (tabs * (n + 1) * (n + 2))
    total = 0
    for index in range(len(offsets)):
        top = n - (index // (n + 2)) % (n + 1)
        offsets[index] = total
        total += top * (top + 1) // 2
    wins = [solution.tables[seat][a][b] for seat in (0, 1) for a in range(n + 1)
            for b in range(n + 1)]
    reach = list(solution.reach) if same_round else [0.0]
    table = byte_zeros(max(total, 1))
    offs = array(offsets)
    _fill_exact(table, offs, float_array(wins), float_array(reach), n, tabs,
                1 if same_round else 0)
    return table, offs


# ------------------------------------------------------------------------ the protocol


class ExtraMetersKernel(GameKernel):
    """The Extra Meters kernel (see the module docstring)."""

    game_id: ClassVar[str] = "extra-meters"
    policies: ClassVar[tuple[str, ...]] = ("random", "threshold", "exact")
    bot_names: ClassVar[dict[str, str]] = {"easy": "random", "medium": "threshold",
                                           "hard": "exact", "optimal": "exact",
                                           "duel": "exact"}

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.players: int = game.players
        self.n: int = game.track_length
        self.same_round = 1 if game.options["finish"] == "same_round" else 0
        self._table: tuple[IntArray, IntArray] | None = None

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every configuration of the game."""
        return bool(game.spec.id == cls.game_id)

    def policy_of(self, bot: str) -> str | None:
        """As the base class; ``exact`` only up to :data:`EXACT_MAX_TRACK` squares, and not
        for ``hard`` where it plays the exact three-runner race (:mod:`.race3`)."""
        from dicegames.games.extra_meters.race3 import three_runner_solution

        policy = super().policy_of(bot)
        if policy == "exact" and self.n > EXACT_MAX_TRACK:
            return None
        if bot == "hard" and self.players == 3 and three_runner_solution(
                self.n, "same_round" if self.same_round else "first", 3) is not None:
            return None
        return policy

    def _tables(self, policies: Sequence[int]) -> tuple[IntArray, IntArray]:
        if EXACT not in policies:
            return byte_zeros(1), zeros(1)
        if self.n > EXACT_MAX_TRACK:
            raise ValueError(f"the exact policy is offered up to {EXACT_MAX_TRACK} squares")
        if self._table is None:
            self._table = exact_table(self.n, self.same_round == 1 and self.players == 2)
        return self._table

    # ---------------------------------------------------------------- states

    def encode(self, data: Any) -> IntArray:
        """The array of engine data (a turn of more than :data:`DICE_CAP` dice is refused)."""
        assert isinstance(data, ExtraMetersData)
        if len(data.dice) > DICE_CAP:
            raise ValueError(f"a turn of more than {DICE_CAP} dice is beyond the kernel")
        p = self.players
        values = [0] * size(p)
        values[PLAYER], values[TURN], values[PHASE] = data.player, data.turn, int(data.phase)
        values[SUM], values[COUNT] = sum(data.dice), len(data.dice)
        for seat, position in enumerate(data.positions):
            values[POS + seat] = position
        for seat in data.winners:
            values[POS + p + seat] = 1
        for index, face in enumerate(data.dice):
            values[POS + 2 * p + index] = face
        return array(values)

    def decode(self, values: IntArray) -> ExtraMetersData:
        """The engine data of an array."""
        p = self.players
        count = int(values[COUNT])
        if count > DICE_CAP:
            raise ValueError(f"a turn of more than {DICE_CAP} dice cannot be decoded")
        return ExtraMetersData(
            positions=tuple(int(values[POS + s]) for s in range(p)),
            player=int(values[PLAYER]), turn=int(values[TURN]),
            phase=Phase(int(values[PHASE])),
            dice=tuple(int(values[POS + 2 * p + i]) for i in range(count)),
            winners=tuple(s for s in range(p) if values[POS + p + s]),
        )

    # ---------------------------------------------------------------- steps

    def kind(self, values: IntArray) -> int:
        """Chance at the opening and further rolls, a decision in between."""
        phase = int(values[PHASE])
        return KIND_TERMINAL if phase == 3 else KIND_DECISION if phase == 1 else KIND_CHANCE

    def outcome_code(self, values: IntArray, outcome: Hashable) -> int:
        """The die face."""
        assert isinstance(outcome, int)
        return outcome

    def outcome_of(self, values: IntArray, code: int) -> Hashable:
        """The die face."""
        return code

    def action_code(self, values: IntArray, action: Hashable) -> int:
        """0 for roll, 1 for stop."""
        return ROLL if action is Decision.ROLL else STOP

    def action_of(self, values: IntArray, code: int) -> Hashable:
        """roll for 0, stop for 1."""
        return Decision.ROLL if code == ROLL else Decision.STOP

    def apply_outcome(self, values: IntArray, code: int) -> IntArray:
        """The state after the die shows ``code``."""
        moved = copy(values)
        _outcome(moved, self.players, self.n, self.same_round, code)
        return moved

    def legal(self, values: IntArray) -> list[int]:
        """Roll and stop."""
        return [ROLL, STOP]

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after roll (0) or stop (1)."""
        moved = copy(values)
        _action(moved, self.players, self.n, self.same_round, code)
        return moved

    def choose(self, values: IntArray, policy: str, rng: IntArray) -> int:
        """The policy's decision here."""
        code = self.check_policies([policy] * self.players)[0]
        table, offsets = self._tables([code])
        return int(_choose(values, self.players, self.n, self.same_round, code, rng, table,
                           offsets))

    # ---------------------------------------------------------------- bulk

    def playouts(self, data: Any, seat_policies: Sequence[str], games: int,
                 seed: int) -> Playouts:
        """Whole games from ``data`` (see :meth:`GameKernel.playouts`)."""
        codes = self.check_policies(seat_policies)
        table, offsets = self._tables(codes)
        p = self.players
        winners, scores = zeros(games * p), zeros(games * p)
        turns, moves = zeros(games), zeros(games)
        _playouts(self.encode(data), p, self.n, self.same_round, array(codes), games,
                  seed_rng(seed), seed_rng(~seed), table, offsets, winners, scores, turns,
                  moves)
        return Playouts(p, winners, scores, turns, moves)

    def rollout(self, values: IntArray, seat_policies: Sequence[str], seed: int,
                stop_seat: int = -1, stop_turns: int = 0) -> IntArray:
        """Play on from ``values`` (see :meth:`GameKernel.rollout`)."""
        codes = self.check_policies(seat_policies)
        table, offsets = self._tables(codes)
        moved = copy(values)
        _run(moved, self.players, self.n, self.same_round, array(codes), seed_rng(seed),
             seed_rng(~seed), table, offsets, stop_seat, stop_turns)
        return moved
