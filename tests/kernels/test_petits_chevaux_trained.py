"""Petits Chevaux' ``trained`` level: the kernel policy against the engine bot, what zero
weights play, the weights file, and a small training run of its trainer."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import dicegames
from dicegames.bots import bot_levels, make_bot
from dicegames.core.chance import sample
from dicegames.core.kernel import KIND_TERMINAL, float_array, kernel_for, seed_rng
from dicegames.games.petits_chevaux import kernel_play as play
from dicegames.games.petits_chevaux.kernel import PetitsChevauxKernel
from dicegames.games.petits_chevaux.kernel_trained import FEATURES
from dicegames.games.petits_chevaux.trained import (
    FEATURE_NAMES,
    FORMAT,
    TrainedWeightsError,
    parse_weights,
    shipped_weights,
    weights_text,
)
from kernels.differential import walk

ROOT = Path(__file__).resolve().parents[2]


def kernel_of(players: int, **options: object) -> tuple[Any, PetitsChevauxKernel]:
    game = dicegames.make("petits-chevaux", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, PetitsChevauxKernel)
    return game, kernel


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"barrage_blocks_own": False,
                                          "barrage_landing_captures": True},
                                     {"compulsory_move": False, "three_sixes_penalty": False}],
                         ids=["default", "barrages", "free"])
def test_trained_chooses_as_the_bot(players: int, options: dict[str, bool]) -> None:
    """At every decision of games played by a mix of medium and random players, the
    kernel's ``trained`` policy picks what the engine's ``trained`` bot picks."""
    game, kernel = kernel_of(players, **options)
    rng = random.Random(players)
    medium = make_bot(game, "medium", random.Random(0))

    def mixed(state: Any, seat: int, r: random.Random) -> Any:
        if r.random() < 0.5:
            return medium.choose(state, seat)
        return r.choice(state.legal_actions(seat))

    for _ in range(2):
        walk(game, kernel, rng, chooser=mixed, policies=[("trained", "trained")])


def test_zero_weights_play_hard_but_take_a_win() -> None:
    """With every weight at zero the level is ``hard`` (a winning move first): the learned
    part is a correction to hard's judgement, nothing else."""
    game, kernel = kernel_of(4)
    kernel.tabs = play.Tables(kernel.tabs.cfg, kernel.tabs.paths,
                              float_array([0.0] * FEATURES))
    rng = random.Random(7)
    medium = make_bot(game, "medium", random.Random(0))
    decisions = 0
    for _ in range(6):
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(sample(state.chance_outcomes(), rng))
                continue
            seat = state.turn.seat
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                values = kernel.encode(state.data)
                trained = kernel.choose(values, "trained", seed_rng(0))
                hard = kernel.choose(values, "hard", seed_rng(0))
                after = kernel.apply_action(values, trained)
                assert trained == hard or kernel.kind(after) == KIND_TERMINAL, state.data
                decisions += 1
            state = state.apply(medium.choose(state, seat))
    assert decisions > 100


def test_the_level_is_offered_and_plays_in_the_kernel() -> None:
    game, kernel = kernel_of(4)
    assert "trained" in [level.name for level in bot_levels(game)]
    assert kernel.policy_of("trained") == "trained"
    result = kernel.playouts(game.new_state().data, ["trained", "medium", "medium", "medium"],
                             40, 3)
    assert int(sum(result.winners)) == 40


def test_shipped_weights_are_trained() -> None:
    weights = shipped_weights()
    assert len(weights) == FEATURES
    assert any(w != 0.0 for w in weights)
    text = (ROOT / "src/dicegames/games/petits_chevaux/trained_weights.json").read_text()
    spec = json.loads(text)
    assert spec["format"] == FORMAT
    assert spec["measured"]["games"] >= 10_000


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(format=FORMAT + 1), "format"),
    (lambda s: s.update(features=list(reversed(FEATURE_NAMES))), "other features"),
    (lambda s: s.update(weights=[1.0] * (FEATURES - 1)), "numbers"),
    (lambda s: s["weights"].__setitem__(0, "x"), "finite"),
    (lambda s: s["weights"].__setitem__(0, True), "finite"),
])
def test_a_wrong_weights_file_is_refused(change: Any, message: str) -> None:
    spec = json.loads(weights_text([0.5] * FEATURES, version="test"))
    assert parse_weights(json.dumps(spec)) == (0.5,) * FEATURES
    change(spec)
    with pytest.raises(TrainedWeightsError, match=message):
        parse_weights(json.dumps(spec))
    with pytest.raises(TrainedWeightsError, match="JSON"):
        parse_weights("{")
    with pytest.raises(TrainedWeightsError, match="finite"):
        parse_weights(weights_text([0.5] * FEATURES).replace("0.5", "NaN", 1))


def _trainer() -> ModuleType:
    path = ROOT / "scripts" / "train_petits_chevaux_trained.py"
    spec = importlib.util.spec_from_file_location("train_petits_chevaux_trained", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while it is built
    spec.loader.exec_module(module)
    return module


def test_a_small_training_run_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    """The trainer at a tiny size: two runs from one seed find the same weights, which the
    level's loader reads back."""
    trainer = _trainer()
    first = trainer.train(5, generations=2, population=3, elite=2, games=8, eval_games=8,
                          log=False)
    second = trainer.train(5, generations=2, population=3, elite=2, games=8, eval_games=8,
                           log=False)
    assert first.weights == second.weights
    assert first.win_rate == second.win_rate
    assert len(first.history) == 2
    out = tmp_path / "weights.json"
    assert trainer.main(["--seed", "5", "--generations", "1", "--population", "2",
                         "--games", "4", "--eval-games", "4", "--write", str(out)]) == 0
    assert len(parse_weights(out.read_text())) == FEATURES


def test_the_vector_environment_plays_trained_opponents_as_the_engine() -> None:
    """The vectorised environment's compiled step plays ``trained`` opponents move for move
    as the single-seat environment's engine bots do (same dice)."""
    from dicegames.envs.vector import VectorEnv
    from envs.test_env_vector import record, replay

    env = VectorEnv("petits-chevaux", 2, 4, seat=1, opponents="trained")
    rows = record(env, 300, seed=4)
    for row, steps in enumerate(rows):
        replay("petits-chevaux", steps, seat=1, seed=4, row=row, opponents="trained",
               players=4)
