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
:func:`.heuristics.should_roll`), ``exact`` (``hard`` / ``optimal`` / ``duel``: the
decision of :func:`.solver.optimal_policy`, the exact two-runner race, against the leading
opponent with three or more runners), read from a table of roll-or-stop bits per turn position
computed once from the exact solution by the same float operations, so it decides exactly as
the engine's bot, and ``race`` (``optimal`` with three or four runners and three-runner
``hard``, where :mod:`.races` solves the race): the solution's own packed decision bits,
read with the index :mod:`.kernel_race` writes them at.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from dicegames.core.array_kernel import (
    ArrayKernel,
    horizon_start,
    horizon_step,
    no_work,
)
from dicegames.core.kernel import (
    HAVE_NUMBA,
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    ByteArray,
    FloatArray,
    IntArray,
    array,
    below,
    byte_zeros,
    copy,
    float_array,
    limit_of,
    njit,
    njit_inline,
    njit_uncounted,
    step_u32,
    zeros,
)
from dicegames.games.extra_meters.data import Decision, ExtraMetersData, Phase

PLAYER, TURN, PHASE, SUM, COUNT, POS = 0, 1, 2, 3, 4, 5
"""Slots of the state array (the positions from ``POS``, then the winner flags and dice)."""

OPENING, DECIDE, ROLLING, OVER = (int(phase) for phase in Phase)
"""Phase codes, :class:`~.data.Phase`'s values."""

DICE_CAP = 64
"""Dice of one turn kept in the array (only for decoding; the rules need the sum and count)."""

RANDOM, THRESHOLD, EXACT, RACE = 0, 1, 2, 3
"""Policy codes, in :attr:`ExtraMetersKernel.policies` order."""

ROLL, STOP = 0, 1
"""Action codes."""

EXACT_MAX_TRACK = 120
"""The exact policy's table grows as N**4 / 8 bytes: it is offered up to this track length."""

MAX_MOVES = 1_000_000
"""A safety cap on the moves of one game in the kernel."""


class Tables(NamedTuple):
    """The configured game as the compiled functions take it."""

    players: int
    """Runners in the race."""
    track: int
    """The track length: a runner past this square has finished."""
    same_round: bool
    """``finish=same_round``: the round is played out and every finisher shares the win."""
    exact: ByteArray
    """The exact policy's roll bits (:func:`exact_table`; one unused byte without it)."""
    offsets: IntArray
    """Where each turn position's bits start in ``exact``."""
    race: ByteArray
    """The ``race`` policy's packed decisions (:mod:`.kernel_race`'s ``decisions``, flat;
    one unused byte without it)."""


def size(players: int) -> int:
    """The array length for ``players`` runners."""
    return POS + 2 * players + DICE_CAP


# ------------------------------------------------------------------------ the rules


@njit_uncounted
def _end_turn(v: IntArray, t: Tables, distance: int) -> None:
    """The runner moves ``distance``; a win ends the game, else the next runner's turn."""
    players, player = t.players, v[PLAYER]
    v[POS + player] += distance
    v[SUM] = 0
    v[COUNT] = 0
    if not t.same_round:
        if v[POS + player] > t.track:
            v[POS + players + player] = 1
            v[PHASE] = OVER
            return
    elif player == players - 1:
        found = 0
        for seat in range(players):
            if v[POS + seat] > t.track:
                v[POS + players + seat] = 1
                found = 1
        if found:
            v[PHASE] = OVER
            return
    v[PLAYER] = (player + 1) % players
    v[TURN] += 1
    v[PHASE] = OPENING


@njit_uncounted
def _outcome(v: IntArray, t: Tables, face: int) -> None:
    """The die shows ``face``, in place."""
    if face == 6:
        _end_turn(v, t, v[COUNT] + 1)
        return
    count = v[COUNT]
    if count < DICE_CAP:
        v[POS + 2 * t.players + count] = face
    v[SUM] += face
    v[COUNT] = count + 1
    v[PHASE] = DECIDE


@njit_uncounted
def _action(v: IntArray, t: Tables, code: int) -> None:
    """The runner rolls again or stops, in place."""
    if code == ROLL:
        v[PHASE] = ROLLING
    else:
        _end_turn(v, t, v[SUM])


@njit_uncounted
def _exact_index(a: int, b: int, k: int, total: int, tab: int, n: int,
                 offsets: IntArray) -> int:
    """Where the exact bit of a turn position is: the runner at ``a``, its rival at ``b``,
    ``k`` dice summing to ``total`` this turn, in table ``tab`` of track ``n``."""
    top = n - a
    base = offsets[(tab * (n + 1) + a) * (n + 2) + b]
    return int(base + (k - 1) * (top + 1) - ((k - 1) * k) // 2 + (total - k))


@njit_inline
def _exact_rolls(t: Tables, pos: IntArray, at: int, player: int, count: int,
                 total: int) -> bool:
    """The exact policy's decision: roll again? (against the leading opponent; runner
    positions are ``pos[at + seat]``)."""
    players = t.players
    rival = (player + 1) % players
    for step in range(2, players):
        other = (player + step) % players
        if pos[at + other] > pos[at + rival]:
            rival = other
    tab = player if (t.same_round and players == 2) else 0
    index = _exact_index(pos[at + player], min(pos[at + rival], t.track + 1), count, total,
                         tab, t.track, t.offsets)
    return bool(t.exact[index] == 1)


@njit_inline
def _race_rolls(t: Tables, pos: IntArray, at: int, player: int, count: int,
                total: int) -> bool:
    """The ``race`` policy's decision: roll again? (the solved race of three or four
    runners; runner positions are ``pos[at + seat]``, every one on the track)."""
    players, n = t.players, t.track
    rest = 0
    for step in range(1, players):
        rest = rest * (n + 1) + pos[at + (player + step) % players]
    a = pos[at + player]
    square = a + total
    index = (rest * (n + 3) + a + count + 1) * ((n + 8) // 8) + (square >> 3)
    return bool((t.race[index] >> (square & 7)) & 1 == 1)


@njit_uncounted
def _choose(v: IntArray, t: Tables, policy: int, whims: IntArray, work: Any) -> int:
    """The action code ``policy`` picks at this decision."""
    if policy == RANDOM:
        return below(whims, 2)
    seat = v[PLAYER]
    total = v[SUM]
    if v[POS + seat] + total > t.track:
        return STOP
    if policy == THRESHOLD:
        return ROLL if total < 16 + v[COUNT] else STOP
    if policy == RACE:
        return ROLL if _race_rolls(t, v, POS, seat, v[COUNT], total) else STOP
    return ROLL if _exact_rolls(t, v, POS, seat, v[COUNT], total) else STOP


@njit_uncounted
def _run(v: IntArray, t: Tables, policies: IntArray, dice: IntArray, whims: IntArray,
         work: Any, stop_seat: int, stop_turns: int) -> int:
    """Play on in place until the game ends (or the horizon); the moves applied."""
    seen, left = horizon_start(v[PLAYER], v[TURN], stop_seat, stop_turns)
    moves = 0
    while v[PHASE] != OVER and moves < MAX_MOVES:
        seen, left = horizon_step(v[PLAYER], v[TURN], stop_seat, seen, left)
        if left == 0:
            break
        phase = v[PHASE]
        if phase == OPENING:
            _outcome(v, t, below(dice, 5) + 1)
        elif phase == ROLLING:
            _outcome(v, t, below(dice, 6) + 1)
        else:
            _action(v, t, _choose(v, t, policies[v[PLAYER]], whims, work))
        moves += 1
    return moves


@njit
def _playouts(start: IntArray, t: Tables, policies: IntArray, dice: IntArray,
              whims: IntArray, out: Any) -> None:
    """Whole games from ``start``, one per row of ``out = (winners, scores, turns, moves)``:
    :func:`_run`'s rules and draws (with no horizon), with the turn and both generators in
    local variables (the hot loop of every simulation)."""
    winners, scores, turns, moves = out
    players, n, same_round = t.players, t.track, t.same_round
    d0, d1, d2, d3 = dice[0], dice[1], dice[2], dice[3]
    w0, w1, w2, w3 = whims[0], whims[1], whims[2], whims[3]
    limit5, limit6 = limit_of(5), limit_of(6)
    pos = zeros(players)
    for g in range(len(turns)):
        for seat in range(players):
            pos[seat] = start[POS + seat]
            winners[g * players + seat] = start[POS + players + seat]
        player, turn, phase = start[PLAYER], start[TURN], start[PHASE]
        total, count = start[SUM], start[COUNT]
        played = 0
        while phase != OVER and played < MAX_MOVES:
            played += 1
            distance = -1
            if phase == DECIDE:
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
                    elif policy == RACE:
                        roll = _race_rolls(t, pos, 0, player, count, total)
                    else:
                        roll = _exact_rolls(t, pos, 0, player, count, total)
                if roll:
                    phase = ROLLING
                else:
                    distance = total
            else:
                while True:
                    x, d0, d1, d2, d3 = step_u32(d0, d1, d2, d3)
                    if x < (limit5 if phase == OPENING else limit6):
                        break
                face = x % (5 if phase == OPENING else 6) + 1
                if face == 6:
                    distance = count + 1
                else:
                    total += face
                    count += 1
                    phase = DECIDE
            if distance >= 0:
                pos[player] += distance
                total = 0
                count = 0
                if not same_round:
                    if pos[player] > n:
                        winners[g * players + player] = 1
                        phase = OVER
                elif player == players - 1:
                    for seat in range(players):
                        if pos[seat] > n:
                            winners[g * players + seat] = 1
                            phase = OVER
                if phase != OVER:
                    player = (player + 1) % players
                    turn += 1
                    phase = OPENING
        moves[g] = played
        turns[g] = turn
        for seat in range(players):
            scores[g * players + seat] = pos[seat]
    dice[0], dice[1], dice[2], dice[3] = d0, d1, d2, d3
    whims[0], whims[1], whims[2], whims[3] = w0, w1, w2, w3


# ------------------------------------------------------------------------ the exact table


@njit
def _fill_exact(table: ByteArray, offsets: IntArray, wins: FloatArray, reach: FloatArray, n: int,
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
def exact_table(n: int, same_round: bool) -> tuple[ByteArray, IntArray]:
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


class ExtraMetersKernel(ArrayKernel):
    """The Extra Meters kernel (see the module docstring)."""

    game_id: ClassVar[str] = "extra-meters"
    policies: ClassVar[tuple[str, ...]] = ("random", "threshold", "exact", "race")
    bot_names: ClassVar[dict[str, str]] = {"easy": "random", "medium": "threshold",
                                           "hard": "exact", "optimal": "exact",
                                           "duel": "exact"}
    compiled_choose = staticmethod(_choose)
    compiled_run = staticmethod(_run)
    compiled_playouts = staticmethod(_playouts)
    compiled_work = staticmethod(no_work)

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.players: int = game.players
        self.n: int = game.track_length
        self.same_round = game.options["finish"] == "same_round"
        self.tabs: Tables = Tables(self.players, self.n, self.same_round, byte_zeros(1),
                                   zeros(1), byte_zeros(1))
        self._exact: Tables | None = None
        self._race: ByteArray | None = None

    @classmethod
    def supports(cls, game: Any) -> bool:
        """Every configuration of the game."""
        return bool(game.spec.id == cls.game_id)

    def _race_solved(self) -> bool:
        """Whether :mod:`.races` solves this configuration (three or four runners)."""
        from dicegames.games.extra_meters.races import covers

        return covers(self.n, "same_round" if self.same_round else "first", self.players)

    def policy_of(self, bot: str) -> str | None:
        """As the base class; ``race`` for the bots that play :mod:`.races`' solution
        (``optimal`` with three or four runners, ``hard`` with three) and only where it is
        solved; ``exact`` only up to :data:`EXACT_MAX_TRACK` squares."""
        policy = super().policy_of(bot)
        exact_race = self.players > 2 and (bot == "optimal" or (bot == "hard"
                                                                 and self.players == 3))
        if exact_race or policy == "race":
            if self._race_solved():
                return "race"
            if bot != "hard":  # unsolved: no such level (hard plays the duel instead)
                return None
        if policy == "exact" and self.n > EXACT_MAX_TRACK:
            return None
        return policy

    def tables_for(self, policies: Sequence[int]) -> Tables:
        """:attr:`tabs`, with the exact and race policies' tables (built on first use) when
        they play."""
        tables = self._exact_tables() if EXACT in policies else self.tabs
        if RACE in policies:
            if not self._race_solved():
                raise ValueError("the race policy plays only where the race is solved")
            if self._race is None:
                from dicegames.games.extra_meters.races import solve_race

                flat = solve_race(self.players, self.n).decisions.reshape(-1)
                self._race = flat if HAVE_NUMBA else bytearray(flat.tobytes())
            tables = tables._replace(race=self._race)
        return tables

    def _exact_tables(self) -> Tables:
        """:attr:`tabs` with the exact policy's table (built on first use)."""
        if self.n > EXACT_MAX_TRACK:
            raise ValueError(f"the exact policy is offered up to {EXACT_MAX_TRACK} squares")
        if self._exact is None:
            table, offsets = exact_table(self.n, self.same_round and self.players == 2)
            self._exact = self.tabs._replace(exact=table, offsets=offsets)
        return self._exact

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
        return (KIND_TERMINAL if phase == OVER else KIND_DECISION if phase == DECIDE
                else KIND_CHANCE)

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
        _outcome(moved, self.tabs, code)
        return moved

    def legal(self, values: IntArray) -> list[int]:
        """Roll and stop."""
        return [ROLL, STOP]

    def apply_action(self, values: IntArray, code: int) -> IntArray:
        """The state after roll (0) or stop (1)."""
        moved = copy(values)
        _action(moved, self.tabs, code)
        return moved
