"""Monza's ``trained`` level: the kernel policy against the engine bot, what zero weights
play, the exposure feature against the engine's own medium rule, the weights file, and a
small training run of its trainer."""

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
from dicegames.games.monza.data import START, MonzaData
from dicegames.games.monza.heuristics import medium_end
from dicegames.games.monza.kernel import TRAINED
from dicegames.games.monza.kernel_trained import FEATURES, _exposure
from dicegames.games.monza.race import ROLL_WEIGHTS
from dicegames.games.monza.rules import MonzaRules
from dicegames.games.monza.trained import (
    FEATURE_NAMES,
    FORMAT,
    TrainedWeightsError,
    parse_weights,
    shipped_weights,
    weights_text,
)
from kernels.differential import half_bot, walk
from kernels.test_monza_kernel import any_state, kernel_of, small  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("players", "circuit", "options"), [
    (3, "default", {}), (4, "small", {"compulsion": "greedy"}),
    (6, "small", {"variant_last_colour": True}),
])
def test_trained_chooses_as_the_bot(players: int, circuit: str, options: dict[str, object],
                                    small: str) -> None:  # noqa: F811
    """At every decision of games played half by medium, half at random, the kernel's
    ``trained`` policy picks what the engine's ``trained`` bot picks."""
    game, kernel = kernel_of(players, circuit=small if circuit == "small" else circuit,
                             **options)
    rng = random.Random(f"monza-trained{players}{circuit}")
    choose = half_bot(game, "medium")
    for index in range(2):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("trained", "trained"), ("hard", "hard")])


def _decisions(players: int, games: int, seed: int) -> list[Any]:
    """The step decisions with a choice of ``games`` games played by medium bots."""
    game, _ = kernel_of(players)
    rng = random.Random(seed)
    medium = half_bot(game, "medium")
    found = []
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(sample(state.chance_outcomes(), rng))
                continue
            seat = state.current_players[0]
            if len(state.legal_actions(seat)) > 1:
                found.append(state)
            state = state.apply(medium(state, seat, rng))
    return found


def test_zero_weights_play_hard() -> None:
    """With every weight at zero the level is ``hard``, decision for decision: the learned
    part is a correction to hard's judgement, nothing else."""
    _, kernel = kernel_of(4)
    kernel.learned = (0.0,) * FEATURES
    states = _decisions(4, 10, 7)
    assert len(states) > 100
    for state in states:
        values = kernel.encode(state.data)
        assert (kernel.choose(values, "trained", seed_rng(0))
                == kernel.choose(values, "hard", seed_rng(0))), state.data


def test_the_weights_change_the_choice() -> None:
    """Each weight is read: a large weight on any one feature changes some decisions."""
    _, kernel = kernel_of(5)
    states = _decisions(5, 4, 3)
    for index in range(FEATURES):
        learned = [0.0] * FEATURES
        learned[index] = -5.0 if FEATURE_NAMES[index].startswith("exposure") else 5.0
        kernel.learned = tuple(learned)
        changed = 0
        for state in states:
            values = kernel.encode(state.data)
            changed += (kernel.choose(values, "trained", seed_rng(0))
                        != kernel.choose(values, "hard", seed_rng(0)))
        assert changed > 0, FEATURE_NAMES[index]


def test_exposure_is_the_chance_that_a_later_medium_player_lands_on_the_car(
        small: str) -> None:  # noqa: F811
    """``exposure`` equals the engine's own sum: over the players after the next one (those
    who move again in a finishing round), the 462 rolls' probabilities where the medium
    rule's end is the car's square."""
    checked = 0
    for circuit in ("default", small):
        game, kernel = kernel_of(5, circuit=circuit)
        assert isinstance(game, MonzaRules)
        tabs = kernel.tables_for([TRAINED])
        work = kernel.scratch()
        rng = random.Random(11)
        for _ in range(60):
            data = any_state(game, rng).data
            assert isinstance(data, MonzaData)
            seat = rng.randrange(5)
            finishing = rng.random() < 0.3
            expected = 0.0
            mine = data.cars[seat]
            if mine != START and mine not in game.circuit.targets:
                for d in range(2, 5):
                    j = (seat + d) % 5
                    if (finishing and j < seat) or data.cars[j] in game.circuit.targets:
                        continue
                    for dice, weight in ROLL_WEIGHTS:
                        end, _ = medium_end(game.circuit, data.cars, j, dice,
                                            game.longest_rule)
                        if end == mine:
                            expected += weight
            cars = work.cars
            for k, car in enumerate(data.cars):
                cars[k] = car
            chance, loss, value = _exposure(tabs.flat, tabs.chances, tabs.weights, tabs.rolls,
                                            tabs.replies, cars, 5, seat, int(finishing),
                                            work.stamps, work.stack, work.reply)
            assert chance == pytest.approx(expected, abs=1e-12), data
            assert loss >= 0.0 and (expected > 0 or loss == 0.0)
            assert value >= -1e-12 and (expected > 0 or value == 0.0)
            checked += expected > 0
    assert checked > 0


def test_the_level_is_offered_unlisted_and_plays_in_the_kernel() -> None:
    game, kernel = kernel_of(4)
    levels = {level.name: level for level in bot_levels(game)}
    assert not levels["trained"].listed
    assert kernel.policy_of("trained") == "trained"
    assert "trained" in kernel.deterministic
    result = kernel.playouts(game.new_state().data, ["trained", "hard", "medium", "random"],
                             40, 3)
    assert int(sum(result.winners)) >= 40


def test_shipped_weights_are_trained_and_measured() -> None:
    weights = shipped_weights()
    assert len(weights) == FEATURES
    assert any(w != 0.0 for w in weights)
    spec = json.loads((ROOT / "src/dicegames/games/monza/trained_weights.json").read_text())
    assert spec["format"] == FORMAT
    assert spec["features"] == list(FEATURE_NAMES)
    measured = spec["measured"]["by_players"]
    assert [m["players"] for m in measured] == [3, 4, 5, 6]
    assert all(m["games"] >= 10_000 for m in measured)


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(format=FORMAT + 1), "format"),
    (lambda s: s.update(features=list(reversed(FEATURE_NAMES))), "other features"),
    (lambda s: s.update(weights=[1.0] * (FEATURES - 1)), "numbers"),
    (lambda s: s.update(weights="1"), "numbers"),
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
    with pytest.raises(TrainedWeightsError, match="object"):
        parse_weights("[]")
    with pytest.raises(TrainedWeightsError, match="finite"):
        parse_weights(weights_text([0.5] * FEATURES).replace("0.5", "Infinity", 1))


def _trainer() -> ModuleType:
    path = ROOT / "scripts" / "train_monza.py"
    spec = importlib.util.spec_from_file_location("train_monza", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while built
    spec.loader.exec_module(module)
    return module


def test_a_small_training_run_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    """The trainer at a tiny size: two runs from one seed find the same weights, which the
    level's loader reads back; the measurement pairs each game with hard's."""
    trainer = _trainer()
    runs = [trainer.train(5, generations=2, population=3, elite=2, games=6, eval_games=6,
                          players=(3,), log=False) for _ in range(2)]
    assert runs[0].weights == runs[1].weights
    assert any(w != 0.0 for w in runs[0].weights)
    assert len(runs[0].history) == 2
    (measured,) = runs[0].measures
    assert measured.players == 3 and measured.games == 6
    out = tmp_path / "weights.json"
    assert trainer.main(["--seed", "5", "--generations", "1", "--population", "2", "--elite", "1",
                         "--games", "3", "--eval-games", "3", "--players", "3",
                         "--write", str(out)]) == 0
    assert len(parse_weights(out.read_text())) == FEATURES
    assert json.loads(out.read_text())["measured"]["by_players"][0]["players"] == 3
