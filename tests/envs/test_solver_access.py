"""Solver access for learning research: ``dicegames solve`` writes the exact tables, and
games/extra_meters/exploit.py gives any policy's exact loss and best response."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dicegames import make
from dicegames.cli import main
from dicegames.core.kernel import kernel_for
from dicegames.games.extra_meters.data import ExtraMetersData, Phase
from dicegames.games.extra_meters.exploit import (
    best_response,
    bot_policy,
    evaluate,
    losses,
)
from dicegames.games.extra_meters.race3 import solve_three
from dicegames.games.extra_meters.solver import solve


def test_solve_writes_the_two_runner_tables(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "em.npz"
    assert main(["solve", "extra-meters", "--option", "track_length=20", "--out",
                 str(out)]) == 0
    assert "the first player wins" in capsys.readouterr().out
    tables = np.load(out)
    solution = solve(20)
    assert tables["win"].shape == (2, 21, 21) and tables["roll"].shape == (2, 21, 23, 21)
    assert float(tables["value"]) == solution.win_probability(0, 0, 0)
    assert tables["win"][0, 3, 7] == solution.win_probability(0, 3, 7)
    rng = random.Random(1)
    for _ in range(500):  # the documented lookup gives the solver's decision
        a, b, k = rng.randrange(21), rng.randrange(21), rng.randrange(1, 5)
        dice = tuple(rng.randrange(1, 6) for _ in range(k))
        data = ExtraMetersData((a, b), 0, 1, Phase.DECIDE, dice)
        x = a + sum(dice)
        documented = bool(tables["roll"][0, b, a + k + 1, x]) if x <= 20 else False
        assert documented == solution.rolls(data)


def test_solve_three_runners_and_refusals(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "em3.npz"
    assert main(["solve", "extra-meters", "--players", "3", "--option", "track_length=12",
                 "--out", str(out)]) == 0
    tables = np.load(out)
    three = solve_three(12)
    assert tables["win"][2, 5, 9].tolist() == list(three.chances(2, 5, 9))
    data = ExtraMetersData((2, 5, 9), 0, 1, Phase.DECIDE, (3, 2))
    assert bool(tables["roll"][5, 9, 2 + 3, 7]) == three.rolls(data)
    assert main(["solve", "extra-meters", "--players", "5", "--out", str(out)]) == 2
    assert main(["solve", "monza", "--players", "3", "--out", str(out)]) == 2
    said = capsys.readouterr().err
    assert "not solved exactly; solved games: extra-meters, shortcut, monza" in said


def test_optimal_play_loses_nothing() -> None:
    value = solve(15).win_probability(0, 0, 0)
    optimal = bot_policy(15, "optimal")
    assert evaluate(15, optimal, optimal) == pytest.approx(value, abs=1e-12)
    found = losses(15, optimal)
    assert found.value == value
    assert max(map(abs, found.against_optimal + found.exploitability)) < 1e-12
    response = best_response(15, optimal)
    assert response.first == pytest.approx(value, abs=1e-12)


def test_losses_and_best_response_of_weaker_bots() -> None:
    n = 20
    easy, medium, hard = (bot_policy(n, name) for name in ("easy", "medium", "hard"))
    found = losses(n, easy)
    assert all(loss > 0.1 for loss in found.against_optimal)
    # exploitability is at least the loss against the optimal player
    assert all(e >= o - 1e-12 for e, o in zip(found.exploitability, found.against_optimal,
                                              strict=True))
    response = best_response(n, medium)
    assert response.first >= evaluate(n, hard, medium) - 1e-12
    assert response.second >= 1.0 - evaluate(n, medium, hard) - 1e-12
    assert evaluate(n, response.policy, medium) == pytest.approx(response.first, abs=1e-12)


def test_evaluate_agrees_with_the_kernel_simulation() -> None:
    """medium against easy, exactly, and by 200,000 kernel games (4 standard errors)."""
    n = 12
    exact = evaluate(n, bot_policy(n, "medium"), bot_policy(n, "easy"))
    game = make("extra-meters", track_length=n)
    kernel = kernel_for(game)
    assert kernel is not None
    games = 200_000
    played = kernel.playouts(game.new_state().data, ["threshold", "random"], games, seed=3)
    share = sum(played.winners_of(g) == (0,) for g in range(games)) / games
    assert abs(share - exact) < 4 * (exact * (1 - exact) / games) ** 0.5
