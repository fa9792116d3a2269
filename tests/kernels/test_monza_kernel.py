"""The Monza kernel against the engine: every step, every decision, the distributions."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.core.game import Game, State
from dicegames.core.kernel import kernel_for, to_list
from dicegames.games.monza import MonzaRules
from dicegames.games.monza.data import START, MonzaData, Phase
from dicegames.games.monza.kernel import MonzaKernel
from kernels.differential import compare_shares, half_bot, walk

SMALL_CIRCUIT: dict[str, Any] = {
    "name": "small",
    "lanes": [
        {"name": "a", "squares": [[0, 3, "white"], [3, 6, "red"], [6, 9, "yellow"],
                                  [9, 12, "red"], [12, 15, "green"], [15, 18, "blue"],
                                  [18, 21, "purple"]]},
        {"name": "b", "squares": [[1, 4, "purple"], [4, 8, "purple"], [8, 11, "tyre"],
                                  [11, 14, "white"], [14, 17, "blue"], [17, 20, "red"]]},
        {"name": "c", "squares": [[2, 5, "blue"], [5, 9, "white"], [9, 13, "green"],
                                  [13, 16, "yellow"], [16, 19, "white"], [19, 22, "green"]]},
    ],
    "entries": ["a1", "c1"],
    "targets": ["a7", "c6"],
}
"""A short circuit (the one the rule scenarios use): crowded, so pushes and shared targets
come often."""

OPTIONS = [{"compulsion": compulsion, "variant_last_colour": variant}
           for compulsion in ("longest", "greedy") for variant in (False, True)]


def kernel_of(players: int, **options: object) -> tuple[Game[Any, Any, Any], MonzaKernel]:
    game = dicegames.make("monza", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, MonzaKernel)
    return game, kernel


@pytest.fixture
def small(tmp_path: Path) -> str:
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CIRCUIT), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize(("players", "circuit"), [(2, "default"), (6, "default"),
                                                  (3, "small"), (5, "small")])
def test_random_trajectories_match_the_engine_step_by_step(players: int, circuit: str,
                                                           options: dict[str, object],
                                                           small: str) -> None:
    game, kernel = kernel_of(players, circuit=small if circuit == "small" else circuit,
                             **options)
    rng = random.Random(f"monza{players}{circuit}{options}")
    choose = half_bot(game)
    for index in range(30 if circuit == "small" else 20):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("medium", "medium")])


def any_state(game: Game[Any, Any, Any], rng: random.Random) -> State[Any, Any, Any]:
    """A random position at the start of a turn: cars in the start zone or on any free
    square, targets included (several on one target), dice counts of the round so far."""
    assert isinstance(game, MonzaRules)
    circuit = game.circuit
    squares = [j for j, s in enumerate(circuit.squares) if not s.is_tyre]
    cars: list[int] = []
    for _ in range(game.players):
        while True:
            car = START if rng.random() < 0.2 else rng.choice(squares)
            if car == START or car in circuit.targets or car not in cars:
                break
        cars.append(car)
    player = rng.randrange(game.players)
    on_target = any(car in circuit.targets for car in cars[:player])
    round_used = tuple(rng.randint(0, 6) if seat < player else 0
                       for seat in range(game.players))
    phase = Phase.STUCK if cars[player] in circuit.targets else Phase.ROLL
    return game.state_from(MonzaData(tuple(cars), player, rng.randint(1, 30), phase,
                                     round_used=round_used, finishing=on_target))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_walks_from_any_state_match_the_engine(options: dict[str, object],
                                               small: str) -> None:
    for players, circuit in ((3, "default"), (4, small)):
        game, kernel = kernel_of(players, circuit=circuit, **options)
        rng = random.Random(players)
        for _ in range(40):
            walk(game, kernel, rng, policies=[("medium", "medium")],
                 start=any_state(game, rng))


def test_a_target_holds_any_number_of_cars_in_the_kernel_too(small: str) -> None:
    """RULINGS.md: a move ending on an occupied target pushes nobody."""
    game, kernel = kernel_of(3, circuit=small)
    assert isinstance(game, MonzaRules)
    circuit = game.circuit
    a6, a7 = circuit.by_name["a6"], circuit.by_name["a7"]
    data = MonzaData((a6, a7, a7), 0, 4, Phase.ROLL, round_used=(0, 0, 0))
    values = kernel.apply_outcome(kernel.encode(data), 0)  # the first roll: six red dice
    state = game.state_from(data).apply(game.state_from(data).chance_outcomes()[0][0])
    assert kernel.decode(values) == state.data
    purple = next(code for code, (roll, _) in enumerate(game.state_from(data).chance_outcomes())
                  if roll.counts == (0, 0, 0, 0, 0, 6))
    values = kernel.apply_outcome(kernel.encode(data), purple)
    values = kernel.apply_action(values, a7)
    assert kernel.decode(values).cars == (a7, a7, a7)


def test_playouts_end_the_round_and_rollouts_stop_at_the_horizon(small: str) -> None:
    game, kernel = kernel_of(3, circuit=small)
    assert isinstance(game, MonzaRules)
    a7 = game.circuit.by_name["a7"]
    data = MonzaData((a7, START, START), 1, 5, Phase.ROLL, round_used=(2, 0, 0),
                     finishing=True)
    result = kernel.playouts(data, ["medium", "random", "medium"], 200, 4)
    for g in range(200):
        assert 0 in result.winners_of(g)  # nobody else can reach a target this round
        assert result.turns[g] == 6
    values = kernel.encode(game.new_state().data)
    for seed in range(30):
        ended = kernel.decode(kernel.rollout(values, ["random"] * 3, seed, stop_seat=1,
                                             stop_turns=1))
        assert ended.phase is Phase.OVER or (ended.player == 1 and ended.turn == 5)
    assert to_list(kernel.encode(ended))[:3] == [int(ended.phase), ended.player, ended.turn]


@pytest.mark.parametrize(("players", "policies", "bots", "options"),
                         [(2, ["random", "random"], ["easy", "easy"], {}),
                          (3, ["medium", "random", "medium"], ["medium", "easy", "medium"],
                           {"variant_last_colour": True}),
                          (2, ["medium", "random"], ["medium", "easy"],
                           {"compulsion": "greedy"})])
def test_kernel_playouts_agree_with_engine_games(players: int, policies: list[str],
                                                 bots: list[str],
                                                 options: dict[str, object]) -> None:
    game, kernel = kernel_of(players, **options)
    compare_shares(game, kernel, policies, bots, kernel_n=10_000, engine_n=300, seed=8)


def test_the_registry_and_bot_names() -> None:
    _, kernel = kernel_of(2)
    assert kernel.policy_of("easy") == "random"
    assert kernel.policy_of("hard") == "hard"
