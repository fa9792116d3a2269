"""The EXTRA! kernel against the engine: every step, every decision, the distributions."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dicegames
from dicegames.core.game import Game, State
from dicegames.core.kernel import kernel_for, to_list
from dicegames.games.extra import ExtraRules
from dicegames.games.extra.data import BOXES, ExtraData, Sheet
from dicegames.games.extra.kernel import ExtraKernel
from kernels.differential import compare_shares, half_bot, walk

OPTIONS: list[dict[str, object]] = [
    {},
    {"children": True},
    {"children": True, "children_rule": "rows"},
    {"child_seats": "1", "extra_columns": "5,3,1"},
    {"child_seats": "2", "children_rule": "rows", "extra_columns": "2,2,2"},
]


def kernel_of(players: int, **options: object) -> tuple[Game[Any, Any, Any], ExtraKernel]:
    game = dicegames.make("extra", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, ExtraKernel)
    return game, kernel


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("players", [1, 2, 3, 6])
def test_random_trajectories_match_the_engine_step_by_step(players: int,
                                                           options: dict[str, object]) -> None:
    if players == 1 and "child_seats" in options:
        options = {**options, "child_seats": "1"}
    game, kernel = kernel_of(players, **options)
    rng = random.Random(f"extra{players}{options}")
    choose = half_bot(game)
    for index in range(12 if players < 6 else 4):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("medium", "medium")])


def any_state(game: Game[Any, Any, Any], rng: random.Random) -> State[Any, Any, Any]:
    """A random position before a roll: sheets part filled (rows, EXTRA numbers and marks,
    children's noted rows), some players already stopped."""
    assert isinstance(game, ExtraRules)
    playing = rng.randrange(game.players)
    sheets = []
    for seat in range(game.players):
        done = seat != playing and rng.random() < 0.3  # stopped: its first column is full
        faces = rng.sample(range(1, 7), 3)
        numbers = [face if (done and j == 0) or rng.random() < 0.6 else 0
                   for j, face in enumerate(faces)]
        marks = [rng.randrange(size) if n else 0
                 for n, size in zip(numbers, game.columns, strict=True)]
        if done:
            marks[0] = game.columns[0]
        rows = tuple(rng.choice((0, 0, rng.randint(1, boxes))) for boxes in BOXES)
        noted = sum(1 << i for i, c in enumerate(rows) if c == 0 and rng.random() < 0.3)
        sheets.append(Sheet(rows, (numbers[0], numbers[1], numbers[2]),
                            (marks[0], marks[1], marks[2]), noted, done))
    return game.state_from(ExtraData(tuple(sheets), (), (None,) * game.players, playing,
                                     rng.randint(1, 20)))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_walks_from_any_state_match_the_engine(options: dict[str, object]) -> None:
    game, kernel = kernel_of(3, **options)
    rng = random.Random(3)
    for _ in range(15):
        walk(game, kernel, rng, policies=[("medium", "medium")], start=any_state(game, rng))


def test_playouts_score_and_rollouts_stop_at_the_horizon() -> None:
    game, kernel = kernel_of(1)
    result = kernel.playouts(game.new_state().data, ["medium"], 300, 2)
    scores = to_list(result.scores)
    assert [bool(result.winners_of(g)) for g in range(300)] == [s >= 0 for s in scores]
    game, kernel = kernel_of(3)
    values = kernel.encode(game.new_state().data)
    for seed in range(30):
        ended = kernel.decode(kernel.rollout(values, ["random"] * 3, seed, stop_seat=2,
                                             stop_turns=0))
        assert not ended.roll and ended.roller == 2 and ended.turn == 3


@pytest.mark.slow
@pytest.mark.parametrize(("players", "policies", "bots", "options"),
                         [(2, ["random", "medium"], ["easy", "medium"], {}),
                          (3, ["medium", "random", "medium"], ["medium", "easy", "medium"],
                           {"child_seats": "1", "children_rule": "rows"})])
def test_kernel_playouts_agree_with_engine_games(players: int, policies: list[str],
                                                 bots: list[str],
                                                 options: dict[str, object]) -> None:
    game, kernel = kernel_of(players, **options)
    compare_shares(game, kernel, policies, bots, kernel_n=10_000, engine_n=250, seed=6)


def test_the_registry_and_bot_names() -> None:
    _, kernel = kernel_of(2)
    assert kernel.policy_of("easy") == "random"
    assert kernel.policy_of("hard") == "hard"
