"""Monza bots: the race model behind ``hard`` and the choices of ``hard`` itself.

The race model is checked against facts that hold whatever the circuit: a target needs no
turn, everything else at least one; win chances of two seats add up to one; a car standing
alone on a target has won. The hard bot is checked on positions where the answer is clear.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import dicegames
from dicegames.games.monza import MonzaData, Phase
from dicegames.games.monza.data import START
from dicegames.games.monza.heuristics import hard_policy
from dicegames.games.monza.race import HORIZON, expected_turns, finish_chances, win_chance


@pytest.fixture(scope="module")
def game() -> Any:
    return dicegames.make("monza")


def test_expected_turns_are_zero_on_targets_and_at_least_one_elsewhere(game: Any) -> None:
    circuit = game.circuit
    values = expected_turns(circuit, True)
    for i, square in enumerate(circuit.squares):
        if i in circuit.targets:
            assert values[i] == 0.0
        elif not square.is_tyre:
            assert values[i] >= 1.0
    assert values[START] == max(values)  # the start zone is furthest from the finish
    assert 8.0 < values[START] < 13.0  # about 10 turns for a lone car: the tuned length


def test_finish_chances_are_cumulative_distributions(game: Any) -> None:
    table = finish_chances(game.circuit, True)
    for row in table:
        assert len(row) == HORIZON + 1
        assert all(0.0 <= a <= b <= 1.0 + 1e-12 for a, b in itertools.pairwise(row))
    assert table[START][0] == 0.0 and table[START][HORIZON] > 0.999


@pytest.mark.parametrize("seed", range(5))
def test_two_seats_win_chances_add_up_to_one(game: Any, seed: int) -> None:
    rng = random.Random(seed)
    playable = [i for i, s in enumerate(game.circuit.squares)
                if not s.is_tyre and i not in game.circuit.targets] + [START]
    cars = (rng.choice(playable), rng.choice(playable))
    for mover in (0, 1):
        total = sum(win_chance(game.circuit, True, cars, seat, mover) for seat in (0, 1))
        assert total == pytest.approx(1.0, abs=1e-3)


def test_a_lone_car_on_a_target_after_the_round_has_won(game: Any) -> None:
    target = min(game.circuit.targets)
    assert win_chance(game.circuit, True, (target, START), 0, 1) == pytest.approx(1.0)


def test_hard_takes_the_target_when_it_can(game: Any) -> None:
    circuit = game.circuit
    target = min(circuit.targets)
    before = next(i for i in range(len(circuit.squares)) if target in circuit.successors[i]
                  and i not in circuit.targets)
    colour = circuit.colour_of[target]
    dice = tuple(6 if c == colour else 0 for c in range(6))
    data = MonzaData(cars=(before, START), phase=Phase.STEP, dice=dice, roll=dice,
                     round_used=(0, 0))
    state = game.state_from(data)
    choice = hard_policy(state, 0, random.Random(0))
    assert choice in state.legal_actions()
    # Any end other than the target is worse; with six dice of its colour it gets there.
    while not state.is_chance and not state.is_terminal and state.current_players == (0,):
        state = state.apply(hard_policy(state, 0, random.Random(0)))
    assert state.data.cars[0] in circuit.targets
