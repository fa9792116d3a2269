"""EXTRA!'s ``hard`` kernel policy against the engine's hard bot: the same decision at every
step of many games and random positions, under every option set."""

from __future__ import annotations

import random

import pytest

from dicegames.games.extra.kernel_hard import _hundredths
from kernels.differential import half_bot, walk
from kernels.test_extra_kernel import OPTIONS, any_state, kernel_of


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("players", [1, 3])
def test_hard_chooses_as_the_engine_bot_step_by_step(players: int,
                                                     options: dict[str, object]) -> None:
    if players == 1 and "child_seats" in options:
        options = {**options, "child_seats": "1"}
    game, kernel = kernel_of(players, **options)
    rng = random.Random(f"extra-hard{players}{options}")
    choose = half_bot(game, "hard")
    for index in range(4):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("hard", "hard"), ("medium", "medium")])


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_hard_chooses_as_the_engine_bot_from_any_state(options: dict[str, object]) -> None:
    game, kernel = kernel_of(2, **options)
    rng = random.Random(11)
    for _ in range(10):
        walk(game, kernel, rng, policies=[("hard", "hard")], start=any_state(game, rng))


def test_means_round_to_hundredths_as_python_rounds() -> None:
    rng = random.Random(5)
    values = [k / 200 for k in range(4000)]  # every half-hundredth, as a double
    values += [k / 200 + d for k in range(0, 4000, 7) for d in (1e-15, -1e-15, 1e-12)]
    values += [rng.uniform(0, 40) for _ in range(20_000)]
    values += [0.125, 0.375, 2.675, 1.005, 0.0]
    wrong = [(x, _hundredths(x)) for x in values
             if x >= 0 and _hundredths(x) / 100 != round(x, 2)]
    assert not wrong


def test_hard_playouts_score_like_engine_games() -> None:
    game, kernel = kernel_of(1)
    result = kernel.playouts(game.new_state().data, ["hard"], 2_000, 4)
    scores = [int(s) for s in result.scores]
    assert sum(scores) / len(scores) > 40  # hard's mean solo score is about +80
