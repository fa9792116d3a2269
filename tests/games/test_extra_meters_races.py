"""The exact race of three and four runners (:mod:`dicegames.games.extra_meters.races`):
brute-force expectimax over the real rules, the two fills, the disk cache and the levels."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.bots import bot_levels, make_bot
from dicegames.core import solution_cache
from dicegames.core.game import State
from dicegames.games.extra_meters import Decision, ExtraMetersData, Phase
from dicegames.games.extra_meters.races import covers, fill, race_solution, solve_race
from dicegames.games.extra_meters.rules import ExtraMetersRules
from dicegames.games.extra_meters.solver import MARGIN

pytest.importorskip("numpy")


@pytest.fixture
def deep_recursion() -> Iterator[None]:
    """The expectimax recursion follows a whole game: give it room."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    yield
    sys.setrecursionlimit(limit)


def expectimax(game: Any) -> tuple[Any, dict[tuple[Any, ...], bool]]:
    """Every runner's chance at every state of the real rules (``State`` steps, exact
    dice probabilities), each runner taking the decision that raises its own chance by more
    than the margin, else stopping; and the decision at every decision node seen. Past the
    end stopping wins at once, so rolling on is not explored there (it cannot do better)."""
    decided: dict[tuple[Any, ...], bool] = {}
    memo: dict[tuple[Any, ...], tuple[float, ...]] = {}
    n = game.track_length

    def visit(state: State[Any, Any, Any]) -> tuple[float, ...]:
        data = state.data
        # the rules read only the sum and the number of the turn's dice
        node = (data.positions, data.player, data.phase, sum(data.dice), len(data.dice))
        if node not in memo:
            memo[node] = value(state, node)
        return memo[node]

    def value(state: State[Any, Any, Any], node: tuple[Any, ...]) -> tuple[float, ...]:
        if state.is_terminal:
            return tuple(float(s in state.result.winners) for s in range(game.players))
        if state.is_chance:
            total = [0.0] * game.players
            for outcome, p in state.chance_outcomes():
                for seat, v in enumerate(visit(state.apply_unchecked(outcome))):
                    total[seat] += float(p) * v
            return tuple(total)
        data = state.data
        seat = data.player
        stop = visit(state.apply_unchecked(Decision.STOP, seat))
        if data.positions[seat] + sum(data.dice) > n:
            decided[node] = False
            return stop
        roll = visit(state.apply_unchecked(Decision.ROLL, seat))
        rolls = roll[seat] > stop[seat] + MARGIN
        decided[node] = rolls
        return roll if rolls else stop

    return visit, decided


@pytest.mark.usefixtures("deep_recursion")
@pytest.mark.parametrize(("players", "n"), [(3, 7), (4, 5)])
def test_every_state_and_decision_matches_brute_force_expectimax(players: int, n: int) -> None:
    # tracks shorter than the option allows: the rules class itself takes any length
    game = ExtraMetersRules(players, {"track_length": n, "finish": "first"})
    visit, decided = expectimax(game)
    solution = solve_race(players, n)
    squares = range(n + 1)
    checked = 0
    for positions in _tuples(players, n):
        for mover in range(players):
            seated = tuple(positions[(k - mover) % players] for k in range(players))
            data = ExtraMetersData(positions=seated, player=mover, turn=1 + mover)
            expected = visit(game.state_from(data))
            assert solution.start_chances(data) == pytest.approx(expected, abs=1e-12)
            checked += 1
    assert checked == players * len(squares) ** players
    for (positions, mover, phase, total, count), rolls in decided.items():
        assert phase is Phase.DECIDE
        dice = (total - 5 * (count - 1), *([5] * (count - 1))) if count > 1 else (total,)
        data = ExtraMetersData(positions, mover, 1, Phase.DECIDE, dice)
        assert solution.rolls(data) == rolls, data
    assert len(decided) > 200


def _tuples(players: int, n: int) -> Iterator[tuple[int, ...]]:
    if players == 0:
        yield ()
        return
    for first in range(n + 1):
        for rest in _tuples(players - 1, n):
            yield (first, *rest)


@pytest.mark.parametrize(("players", "n"), [(3, 15), (4, 9)])
def test_the_compiled_and_numpy_fills_give_the_same_bits(players: int, n: int) -> None:
    compiled, numpy = fill(players, n, compiled=True), fill(players, n, compiled=False)
    assert compiled[0].tobytes() == numpy[0].tobytes()
    assert compiled[1].tobytes() == numpy[1].tobytes()
    sums = compiled[0].sum(axis=1)
    assert abs(sums - 1.0).max() < 1e-12  # nobody shares a win under finish=first


def test_decision_chances_are_what_the_start_of_the_turn_averages() -> None:
    solution = solve_race(4, 12)
    data = ExtraMetersData((3, 7, 1, 9), 2, 3, Phase.OPENING)
    opening = [solution.decision_chances(
        ExtraMetersData(data.positions, 2, 3, Phase.DECIDE, (face,))) for face in range(1, 6)]
    chosen = [values[Decision.ROLL if solution.rolls(
        ExtraMetersData(data.positions, 2, 3, Phase.DECIDE, (face,))) else Decision.STOP]
        for face, values in zip(range(1, 6), opening, strict=True)]
    mean = tuple(sum(v[s] for v in chosen) / 5 for s in range(4))
    assert solution.start_chances(data) == pytest.approx(mean, abs=1e-12)


def test_solutions_are_cached_on_disk_by_runners_track_and_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solution_cache, "folder", lambda: tmp_path)
    older = tmp_path / "extra-meters-0123456789abcdef-000000000000000000000000.npz"
    kept = [tmp_path / "monza-0123456789abcdef-000000000000000000000000.npz",
            tmp_path / "extra-0123456789abcdef-000000000000000000000000.npz"]
    for path in (older, *kept):
        path.write_bytes(b"an older table")
    solve_race.cache_clear()
    first = solve_race(4, 11)
    assert first.seconds > 0 and len(list(tmp_path.glob("extra-meters-*.npz"))) == 1
    assert not older.exists()  # another code version of the same game: removed
    assert all(path.exists() for path in kept)  # other games' solutions stay
    solve_race.cache_clear()
    again = solve_race(4, 11)
    assert again.seconds == 0.0  # read back, not computed
    assert again.table.tobytes() == first.table.tobytes()
    assert again.decisions.tobytes() == first.decisions.tobytes()
    solve_race(3, 11)
    assert len(list(tmp_path.glob("extra-meters-*.npz"))) == 2
    solve_race.cache_clear()


def test_optimal_is_a_level_wherever_the_race_is_solved() -> None:
    def listed(players: int, **options: object) -> list[str]:
        game = dicegames.make("extra-meters", players=players, **options)
        return [level.name for level in bot_levels(game) if level.listed]

    assert listed(3) == ["easy", "medium", "hard", "optimal"]
    assert listed(4) == ["easy", "medium", "hard", "optimal"]
    assert "optimal" not in listed(4, track_length=51)
    assert "optimal" not in listed(3, finish="same_round")
    assert "optimal" not in listed(5)
    assert covers(50, "first", 4) and covers(100, "first", 3)
    assert not covers(101, "first", 3) and not covers(50, "same_round", 4)
    assert race_solution(101, "first", 3) is None


def test_four_runners_play_the_table_through_the_real_rules() -> None:
    """Four optimal bots through the engine win as often as the table says (4 sigma)."""
    game = dicegames.make("extra-meters", players=4, track_length=10)
    predicted = solve_race(4, 10).chances(0, 0, 0, 0)
    rng = random.Random(20261126)
    bots = [make_bot(game, "optimal", rng) for _ in range(4)]
    from dicegames.analysis.simulate import play_one

    games, shares = 2000, [0.0] * 4
    for _ in range(games):
        for seat in play_one(game, bots, rng).winners:
            shares[seat] += 1
    for seat in range(4):
        sigma = (predicted[seat] * (1 - predicted[seat]) / games) ** 0.5
        assert abs(shares[seat] / games - predicted[seat]) < 4 * sigma


def test_optimal_rolls_on_when_another_runner_is_about_to_win() -> None:
    game = dicegames.make("extra-meters", players=4, track_length=30)
    state = game.state_from(ExtraMetersData(positions=(5, 29, 3, 4), player=0,
                                            phase=Phase.DECIDE, dice=(5, 5, 5, 5)))
    assert make_bot(game, "optimal", random.Random(0)).choose(state, 0) is Decision.ROLL
    assert make_bot(game, "medium", random.Random(0)).choose(state, 0) is Decision.STOP


@pytest.mark.slow
def test_four_runners_on_the_default_track() -> None:
    solution = solve_race(4, 50)
    chances = solution.chances(0, 0, 0, 0)
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)
    assert chances[0] > chances[1] > chances[2] > chances[3] > 0.15


def test_the_estimator_is_exact_for_four_runners() -> None:
    """Hints and reviews of a four-runner race read the solution: the chances of a turn's
    start are the solution's, and a decision's are those of the choice ``optimal`` makes."""
    from dicegames.analysis.estimate import estimator_for

    game = dicegames.make("extra-meters", players=4, track_length=12)
    estimator = estimator_for(game)
    assert estimator.kind == "exact"
    state = game.from_position("3/7/1/9 3 opening - 3")
    solution = solve_race(4, 12)
    chances = estimator.position(state).chances
    assert chances == pytest.approx(solution.start_chances(state.data), abs=1e-12)
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)
    deciding = game.from_position("3/7/1/9 3 decide 4 3")
    choices = estimator.choices(deciding, 2)
    best = max(choices, key=lambda action: choices[action].chances[2])
    assert (best is Decision.ROLL) == solution.rolls(deciding.data)
