"""The exact two-player Shortcut solution (games/shortcut/solver.py) against brute force.

The brute force knows nothing of the solver: it walks every state the engine's rules reach
(every declaration, die, press, stop and push, the cars' blocking included) from every pair
of cells on tiny boards, and runs expectimax to its fixed point (stuck cars and the grey
field make the race cyclic), each seat maximising its own chance to win. A press is not
offered once the shortcut total reaches the board's cell count: everything reachable is then
in range, and another roll can only lose the turn. States are told apart by what the
rules read: the cars, the seat, the phase and the shortcut total.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.bots import bot_levels, bot_spec, make_bot
from dicegames.core import solution_cache
from dicegames.core.game import State
from dicegames.core.rollout import rollout
from dicegames.games.shortcut.data import Phase, Press, ShortcutData
from dicegames.games.shortcut.optimal import (
    ExactShortcut,
    OptimalBot,
    estimator,
    optimal_action,
)
from dicegames.games.shortcut.rules import ShortcutRules
from dicegames.games.shortcut.solver import (
    LARGEST,
    UnsolvedConfiguration,
    board_arrays,
    compute,
    solution_for,
    solve,
)
from dicegames.games.shortcut.solver_evaluate import (
    evaluate,
    exact_losses,
    first_wins,
    losses,
    optimal_policy,
    policy_of_bot,
    uniform_policy,
)

pytest.importorskip("numpy")

TINY = """\
S 1 2
. g 3
. g F
"""
"""Five road places and two grey cells: a shortcut past road 2 and 3, a grey cell one step
from the finish, a car on grey blocking the other's way across."""

FIELD = """\
S 1 2 3
. g g 4
. g g 5
. . F 6
"""
"""A field of four grey cells beside the road, entered from roads 1 to 5, reaching the
finish from below: pushes with several destinations, and a road needing exact rolls."""

BOARDS = {"tiny": TINY, "field": FIELD}


def game(text: str) -> ShortcutRules:
    return shortcut(2, board=text)


def shortcut(players: int, **options: str) -> ShortcutRules:
    g = dicegames.make("shortcut", players=players, **options)
    assert isinstance(g, ShortcutRules)
    return g


def _deepest(g: Any, data: ShortcutData) -> int:
    """The shortcut total from which on the car reaches nothing more (by the rules' own
    movement: :meth:`Board.reachable`)."""
    return _reach_depth(g, data.cars, data.player)


@functools.cache
def _reach_depth(g: Any, cars: tuple[int, ...], seat: int) -> int:
    data = ShortcutData(cars=cars, player=seat)
    return int(max(g.board.reachable(cars[seat], 10**6, g.blocked(data, seat)).values()))


def _key(g: Any, data: ShortcutData) -> tuple[Any, ...]:
    """A state without its turn count, the shortcut dice by their sum (all the rules read),
    any sum past :func:`_deepest` being the same (the same cells are in range)."""
    total = min(sum(data.rolls), _deepest(g, data)) if data.rolls else 0
    return data.cars, data.player, int(data.phase), total, data.winner


def _presses(g: Any, data: ShortcutData) -> bool:
    """Whether the brute force offers a press: not once every cell the car can reach is in
    range (another roll could then only lose the turn)."""
    return sum(data.rolls) < _deepest(g, data)


@functools.cache
def brute_force(text: str) -> dict[tuple[int, int], float]:
    """Seat 0's chance with seat 0 to declare, cars on (a, b), for every pair of cells."""
    g = game(text)
    board = g.board
    graph: dict[tuple[Any, ...], tuple[str, Any]] = {}
    roots: dict[tuple[int, int], tuple[Any, ...]] = {}
    todo: list[ShortcutData] = []
    for a in range(len(board.kinds)):
        for b in range(len(board.kinds)):
            if board.finish in (a, b) or (a == b and board.is_grey(a)):
                continue
            for player in (0, 1):
                data = ShortcutData(cars=(a, b), player=player)
                todo.append(data)
                if player == 0:
                    roots[(a, b)] = _key(g, data)
    while todo:
        data = todo.pop()
        key = _key(g, data)
        if key in graph:
            continue
        state = State(g, data)
        if state.is_terminal:
            graph[key] = ("end", float(data.winner == 0))
            continue
        if state.is_chance:
            children = [(float(p), state.apply(o).data) for o, p in state.chance_outcomes()]
            kind = "chance"
        else:
            legal = [a for a in state.legal_actions(data.player)
                     if a is not Press.PRESS or _presses(g, data)]
            children = [(1.0, state.apply(a).data) for a in legal]
            kind = "max" if data.player == 0 else "min"
        normal = [(p, dataclasses.replace(child, turn=1)) for p, child in children]
        graph[key] = (kind, [(p, _key(g, child)) for p, child in normal])
        todo.extend(child for _, child in normal)
    values = dict.fromkeys(graph, 0.5)
    for _ in range(100_000):
        change = 0.0
        for key, (kind, children) in graph.items():
            if kind == "end":
                new = children
            elif kind == "chance":
                new = sum(p * values[child] for p, child in children)
            elif kind == "max":
                new = max(values[child] for _, child in children)
            else:
                new = min(values[child] for _, child in children)
            change = max(change, abs(new - values[key]))
            values[key] = new
        if change < 1e-15:
            break
    return {pair: values[key] for pair, key in roots.items()}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_solution_matches_brute_force_expectimax(name: str) -> None:
    text = BOARDS[name]
    solution = compute(game(text).board)
    expected = brute_force(text)
    worst = max(abs(solution.win[a, b] - chance) for (a, b), chance in expected.items())
    assert worst < 1e-12, worst


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_each_optimal_decision_keeps_the_brute_force_value(name: str) -> None:
    """At every decision of every turn, the solution's choice is worth the position's
    value: declarations, presses, stops and pushes alike."""
    g = game(BOARDS[name])
    solution = compute(g.board)
    expected = brute_force(BOARDS[name])
    seen = 0

    def first(data: ShortcutData) -> float:
        """Seat 0's chance (brute force) at a state of seat 0's turn."""
        state = State(g, data)
        if state.is_terminal:
            return float(data.winner == 0)
        if data.phase is Phase.DECLARE:
            if data.player == 0:
                return expected[(data.cars[0], data.cars[1])]
            return 1.0 - expected[(data.cars[1], data.cars[0])]
        if state.is_chance:
            return sum(float(p) * first(state.apply(o).data)
                       for o, p in state.chance_outcomes())
        values = [first(state.apply(a).data) for a in state.legal_actions(0)
                  if a is not Press.PRESS or _presses(g, data)]
        return max(values)

    for (a, b) in expected:
        for phase, rolls in [(Phase.DECLARE, ()), (Phase.PUSH_TO, ()),
                             *((Phase.CHOOSE, (1,) * t) for t in range(1, 5))]:
            data = ShortcutData(cars=(a, b), phase=phase, rolls=rolls)
            state = State(g, data)
            legal = state.legal_actions(0)
            if phase is Phase.PUSH_TO and len(legal) < 2:
                continue
            choice = optimal_action(solution, state)
            assert choice in legal
            assert abs(first(state.apply(choice).data) - first(data)) < 1e-12
            seen += 1
    assert seen > 100


def test_the_default_board_is_solved_and_the_first_player_is_ahead() -> None:
    g = shortcut(2)
    solution = solve(g.board)
    assert 0.5 < solution.value < 0.6
    win = solution.win
    # one push from the finish is a sure win
    before = g.board.road[-2]
    assert win[before, g.board.start] == 1.0


def test_evaluating_optimal_against_itself_gives_the_solved_value() -> None:
    g = game(FIELD)
    solution = compute(g.board)
    arrays = board_arrays(g.board)
    best = optimal_policy(solution)
    v = evaluate(arrays, best, best)
    n = arrays.cells
    for a in range(n):
        for b in range(n):
            if (a, b) in brute_force(FIELD):
                assert abs(v[0, a, b] - solution.win[a, b]) < 1e-12
                assert abs(v[1, a, b] - solution.win[a, b]) < 1e-12


@functools.cache
def policy_value(text: str, level: str, seat: int = 0) -> float:
    """Brute force: the level's chance from ``seat`` against optimal play, from the start,
    by value iteration over the engine's states with the level's own choices."""
    g = game(text)
    bot = make_bot(g, level, random.Random(0))
    best = make_bot(g, "optimal", random.Random(0))
    start = g.new_state()
    values: dict[tuple[Any, ...], float] = {}
    graph: dict[tuple[Any, ...], list[tuple[float, tuple[Any, ...]]] | float] = {}
    todo = [start.data]
    while todo:
        data = todo.pop()
        key = _key(g, data)
        if key in graph:
            continue
        state = State(g, data)
        if state.is_terminal:
            graph[key] = float(data.winner == seat)
            continue
        pairs: list[tuple[float, Hashable]]
        if state.is_chance:
            pairs = [(float(p), o) for o, p in state.chance_outcomes()]
        elif level == "easy" and data.player == seat:
            legal = state.legal_actions(seat)
            pairs = [(1.0 / len(legal), a) for a in legal]
        else:
            player = bot if data.player == seat else best
            pairs = [(1.0, player.choose(state, data.player))]
        children = [(p, dataclasses.replace(state.apply(x).data, turn=1))
                    for p, x in pairs]
        graph[key] = [(p, _key(g, child)) for p, child in children]
        todo.extend(child for _, child in children)
    values = dict.fromkeys(graph, 0.5)
    for _ in range(100_000):
        change = 0.0
        for key, node in graph.items():
            new = node if isinstance(node, float) else sum(p * values[c] for p, c in node)
            change = max(change, abs(new - values[key]))
            values[key] = new
        if change < 1e-15:
            break
    return values[_key(g, start.data)]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_exact_losses_match_brute_force(level: str) -> None:
    g = game(FIELD)
    arrays = board_arrays(g.board)
    best = optimal_policy(compute(g.board))
    if level == "easy":
        policy = uniform_policy(arrays)
    else:
        policy = policy_of_bot(g, make_bot(g, level, random.Random(0)), arrays)
    exact = first_wins(arrays, g.board.start, policy, best)
    assert abs(exact - policy_value(FIELD, level)) < 1e-12
    assert exact < compute(g.board).value  # no level beats the solved share
    second = 1.0 - first_wins(arrays, g.board.start, best, policy)
    assert abs(second - policy_value(FIELD, level, 1)) < 1e-12


def test_losses_cover_both_seats() -> None:
    g = game(TINY)
    found = {loss.level: loss for loss in losses(g)}
    value = solve(g.board).value
    for loss in found.values():
        assert loss.as_first <= value + 1e-12
        assert loss.as_second <= 1.0 - value + 1e-12
    assert found["easy"].both < found["medium"].both
    table = exact_losses(g)
    assert table is not None and set(table) == {"easy", "medium", "hard", "trained"}
    assert table["medium"] == (found["medium"].as_first, found["medium"].as_second)
    assert exact_losses(shortcut(3)) is None


def test_optimal_is_a_level_for_two_players_only() -> None:
    two, three = shortcut(2), shortcut(3)
    assert "optimal" in [level.name for level in bot_levels(two)]
    assert "optimal" not in [level.name for level in bot_levels(three)]
    with pytest.raises(UnsolvedConfiguration, match="two players, not 3"):
        solution_for(three)
    with pytest.raises(UnsolvedConfiguration, match="two players, not 3"):
        OptimalBot(three, random.Random(0))
    tiny = game(TINY)
    solve.cache_clear()
    bot = OptimalBot(tiny, random.Random(0))
    assert solve.cache_info().currsize == 0  # solved at the first choice, not when built
    bot.choose(tiny.new_state(), 0)
    assert solve.cache_info().currsize == 1


def test_larger_boards_are_refused_with_the_reason() -> None:
    grid = [["."] * 26 for _ in range(8)]
    grid[0][0] = "S"
    number = 0
    for line in range(8):  # a road winding down the grid, rows alternately right and left
        columns = range(1, 26) if line % 2 == 0 else range(25, 0, -1)
        for column in columns:
            number += 1
            grid[line][column] = str(number)
    grid[7][0] = "F"
    big = shortcut(2, board="\n".join(" ".join(r) for r in grid))
    assert len(big.board.kinds) > LARGEST
    assert "optimal" not in [level.name for level in bot_levels(big)]
    with pytest.raises(UnsolvedConfiguration, match=f"at most {LARGEST}"):
        solution_for(big)


def test_optimal_plays_whole_games_legally() -> None:
    g = shortcut(2)
    bots = (bot_spec(g, "optimal"), bot_spec(g, "medium"))
    for seed in range(5):
        assert rollout(g.new_state(), bots, seed=seed).state.is_terminal


def test_solutions_are_cached_on_disk_by_board_and_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solution_cache, "folder", lambda: tmp_path)
    g = game(TINY)
    solve.cache_clear()
    first = solve(g.board)
    assert first.sweeps > 0
    assert len(list(tmp_path.glob("shortcut-*.npz"))) == 1
    solve.cache_clear()
    again = solve(g.board)
    assert again.sweeps == 0  # read back
    assert (again.win == first.win).all() and (again.choose == first.choose).all()
    solve(game(FIELD).board)
    assert len(list(tmp_path.glob("shortcut-*.npz"))) == 2
    solve.cache_clear()


def test_the_solution_part_exports_the_tables() -> None:
    from dicegames.core.registry import definition

    g = game(TINY)
    tables = definition("shortcut").part("solution")(g)
    assert tables["players"] == 2
    assert tables["win"].shape == (len(g.board.kinds),) * 2
    assert tables["value"] == solve(g.board).value
    assert definition("shortcut").part("solution")(dicegames.make("shortcut",
                                                                   players=3)) is None


def test_dicegames_solve_writes_the_tables(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    from dicegames.cli import main

    board = tmp_path / "tiny.txt"
    board.write_text(TINY, encoding="utf-8")
    out = tmp_path / "sc.npz"
    assert main(["solve", "shortcut", "--option", f"board={board}", "--out", str(out)]) == 0
    tables = np.load(out)
    solution = solve(game(TINY).board)
    assert float(tables["value"]) == solution.value
    assert (tables["choose"] == solution.choose).all()
    assert list(tables["cells"]) == list(solution.board.names)
    assert main(["solve", "shortcut", "--players", "3", "--out", str(out)]) == 2
    assert "shortcut with 3 players and these options is not solved" in capsys.readouterr().err


def test_the_exact_estimate_agrees_with_the_choices() -> None:
    """ExactShortcut (ready for the definition's estimator part): at every decision of
    some optimal games, the mover's chance is the best of its choices' chances."""
    g = game(FIELD)
    estimate = ExactShortcut(g)
    start = g.new_state()
    assert estimate.position(start).chances[0] == pytest.approx(solve(g.board).value,
                                                                abs=1e-15)
    rng = random.Random(3)
    for _ in range(20):
        state = start
        while not state.is_terminal:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                state = state.apply(rng.choice([o for o, _ in outcomes]))
                continue
            seat = state.current_players[0]
            mine = estimate.position(state).chances[seat]
            best = max(e.chances[seat] for e in estimate.choices(state, seat).values())
            assert mine == pytest.approx(best, abs=1e-12)
            state = state.apply(rng.choice(state.legal_actions(seat)))
    assert estimator(game(FIELD)) is not None and estimator(shortcut(3)) is None
