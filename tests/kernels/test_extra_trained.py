"""EXTRA!'s ``trained`` level: the kernel policy against the engine bot at every decision,
hard's weights playing hard, the weights file, and a small training run of its trainer."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dicegames.bots import bot_levels
from dicegames.core.chance import sample
from dicegames.core.kernel import seed_rng
from dicegames.games.extra.heuristics import hard_value
from dicegames.games.extra.rules import ExtraRules
from dicegames.games.extra.trained import (
    FORMAT,
    WEIGHT_NAMES,
    WEIGHTS,
    TrainedWeightsError,
    decision_value,
    hard_weights,
    parse_weights,
    shipped_weights,
    trained_value,
    weights_text,
)
from kernels.differential import half_bot, walk
from kernels.test_extra_kernel import OPTIONS, any_state, kernel_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("players", [1, 3])
def test_trained_chooses_as_the_engine_bot_step_by_step(players: int,
                                                        options: dict[str, object]) -> None:
    """At every decision of games played by the trained bot, hard, or half at random, the
    kernel's ``trained`` policy picks what the engine's ``trained`` bot picks."""
    if players == 1 and "child_seats" in options:
        options = {**options, "child_seats": "1"}
    game, kernel = kernel_of(players, **options)
    rng = random.Random(f"extra-trained{players}{options}")
    choose = half_bot(game, "trained")
    for index in range(4):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("trained", "trained"), ("hard", "hard")])


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_trained_chooses_as_the_engine_bot_from_any_state(options: dict[str, object]) -> None:
    game, kernel = kernel_of(2, **options)
    rng = random.Random(13)
    for _ in range(10):
        walk(game, kernel, rng, policies=[("trained", "trained")], start=any_state(game, rng))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_the_kernel_values_as_the_engine_under_any_weights(options: dict[str, object]) -> None:
    """Not only the shipped weights: under random weights (each start cost and face cost
    its own, any focus) the kernel picks the decision of best :func:`decision_value`."""
    game, kernel = kernel_of(2, **options)
    assert isinstance(game, ExtraRules)
    rng = random.Random(17)
    checked = 0
    for _ in range(40):
        weights = [rng.uniform(0.2, 4.0), rng.uniform(0, 120),
                   *(rng.uniform(-50, 150) for _ in range(WEIGHTS - 2))]
        kernel.use_weights(weights)
        state = any_state(game, rng)
        while not state.is_terminal and checked < 10_000:
            if state.is_chance:
                state = state.apply(sample(state.chance_outcomes(), rng))
                continue
            seat = state.current_players[0]
            legal = state.legal_actions(seat)
            sheet = state.data.sheets[seat]
            scores = [decision_value(game, seat, sheet, d, weights) for d in legal]
            values = kernel.encode(state.data)
            code = kernel.choose(values, "trained", seed_rng(0))
            assert kernel.action_of(values, code) == legal[scores.index(max(scores))]
            checked += 1
            state = state.apply(rng.choice(legal), seat)
    assert checked > 100


def test_hard_weights_play_hard() -> None:
    """The model is hard's with its four tuned numbers made weights: with hard's values it
    values every sheet as hard does, to the bit, and the kernel plays hard's choices."""
    game, kernel = kernel_of(1)
    assert isinstance(game, ExtraRules)
    rng = random.Random(2)
    for _ in range(300):
        sheet = any_state(game, rng).data.sheets[0]
        assert trained_value(sheet, game.columns, False, hard_weights()) == hard_value(
            sheet, game.columns, False)
    kernel.use_weights(hard_weights())
    decisions = 0
    for _ in range(20):
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(sample(state.chance_outcomes(), rng))
                continue
            values = kernel.encode(state.data)
            trained = kernel.choose(values, "trained", seed_rng(0))
            assert trained == kernel.choose(values, "hard", seed_rng(0)), state.data
            decisions += 1
            state = state.apply(kernel.action_of(values, trained))
    assert decisions > 200


def test_the_level_is_offered_and_plays_in_the_kernel() -> None:
    game, kernel = kernel_of(3)
    level = next(level for level in bot_levels(game) if level.name == "trained")
    assert kernel.policy_of("trained") == "trained"
    assert "trained" in kernel.deterministic
    result = kernel.playouts(game.new_state().data, ["trained", "hard", "medium"], 50, 3)
    assert len(result.turns) == 50
    assert level.listed  # its shipped weights beat hard's


def test_shipped_weights_are_trained_and_measured() -> None:
    weights = shipped_weights()
    assert len(weights) == WEIGHTS
    assert weights != hard_weights()
    spec = json.loads((ROOT / "src/dicegames/games/extra/trained_weights.json").read_text())
    assert spec["format"] == FORMAT
    assert spec["measured"]["solo"]["games"] >= 100_000
    low, _ = spec["measured"]["solo"]["interval"]
    assert low > 0  # the shipped weights beat hard's mean solo score, with significance


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(format=FORMAT + 1), "format"),
    (lambda s: s.update(names=list(reversed(WEIGHT_NAMES))), "other features"),
    (lambda s: s.update(weights=[1.0] * (WEIGHTS - 1)), f"{WEIGHTS} numbers"),
    (lambda s: s["weights"].__setitem__(3, "x"), "finite"),
    (lambda s: s["weights"].__setitem__(3, True), "finite"),
    (lambda s: s["weights"].__setitem__(3, 1e300), "finite"),
    (lambda s: s["weights"].__setitem__(0, 0.0), "focus must be positive"),
])
def test_a_wrong_weights_file_is_refused(change: Any, message: str) -> None:
    spec = json.loads(weights_text(hard_weights(), version="test"))
    assert parse_weights(json.dumps(spec)) == hard_weights()
    change(spec)
    with pytest.raises(TrainedWeightsError, match=message):
        parse_weights(json.dumps(spec))


@pytest.mark.parametrize("text", ["", "[1, 2]", "{\"format\": 1", "null"])
def test_a_file_that_is_no_weights_object_is_refused(text: str) -> None:
    with pytest.raises(TrainedWeightsError, match="EXTRA! trained weights"):
        parse_weights(text)


def trainer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_extra",
                                                  ROOT / "scripts" / "train_extra.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_extra", module)
    spec.loader.exec_module(module)
    return module


def test_a_small_training_run_is_reproducible_and_writes_a_valid_file(
        tmp_path: Path) -> None:
    script = trainer()
    runs = [script.train(3, generations=2, population=4, elite=2, games=150,
                         eval_games=300, eval_multi=0, log=False) for _ in range(2)]
    assert runs[0].weights == runs[1].weights  # reproducible from the seed
    assert len(runs[0].weights) == WEIGHTS and runs[0].weights != list(hard_weights())
    assert runs[0].solo.games == 300 and len(runs[0].history) == 2
    low, high = runs[0].solo.interval
    assert low <= runs[0].solo.gain <= high
    share, low, high, games = script.measure_multi(hard_weights(), 2, 40, 5)
    assert share == 0.5 and games == 40  # equal policies meet equal rolls: always a tie
    out = tmp_path / "weights.json"
    assert script.main(["--generations", "1", "--population", "3", "--elite", "1",
                        "--games", "60", "--eval-games", "60", "--eval-multi", "12",
                        "--write", str(out)]) == 0
    spec = json.loads(out.read_text())
    assert len(parse_weights(out.read_text())) == WEIGHTS
    assert spec["trainer"]["script"] == "scripts/train_extra.py"
    assert set(spec["measured"]["against_hard"]) == {"2", "3", "4", "5", "6"}
    again = tmp_path / "again.json"
    assert script.main(["--seed", "4", "--start", str(out), "--generations", "1",
                        "--population", "2", "--elite", "1", "--games", "30",
                        "--eval-games", "30", "--eval-multi", "0", "--write", str(again)]) == 0
    assert json.loads(again.read_text())["version"] == "cem-seed1+cem-seed4"
