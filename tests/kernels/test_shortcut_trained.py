"""Shortcut's ``trained`` level: the kernel policy against an engine-side statement of it
(``hard``'s turn search over learned leaves) and against the engine bot, what zero weights
play, where it is offered, the weights file, and a small training run of its trainer."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Hashable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dicegames.bots import bot_levels
from dicegames.core.game import State
from dicegames.core.kernel import seed_rng
from dicegames.games.shortcut.heuristics import TurnSearch
from dicegames.games.shortcut.kernel_trained import CAP, FEATURES
from dicegames.games.shortcut.solver import solve
from dicegames.games.shortcut.trained import (
    FEATURE_NAMES,
    FORMAT,
    TrainedWeightsError,
    parse_weights,
    shipped_weights,
    weights_text,
)
from kernels.differential import half_bot, walk
from kernels.test_shortcut_kernel import any_state, kernel_of, odd_board  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]

WEIGHTS = [(0.8, -0.3, 0.5, 0.02), (-0.4, 0.9, 0.0, -0.03), (3.0, 2.0, 1.0, 0.5)]
"""Weights of every sign and size (the last lifts many leaves to the cap)."""


class LearnedSearch(TurnSearch):
    """The ``trained`` policy stated over the engine: :class:`TurnSearch` (``hard``) with
    each leaf but the finish moved by ``weights · features`` (:mod:`.kernel_trained`)."""

    def __init__(self, state: State[Any, Any, Any], weights: Sequence[float]) -> None:
        super().__init__(state.game, state.data)  # type: ignore[arg-type]
        self.weights = weights
        self.pair = solve(self.board).win

    def leaf(self, cell: int) -> float:
        if cell in self.leaves:
            return self.leaves[cell]
        value = super().leaf(cell)
        if cell != self.board.finish:
            chances = [1.0 - float(self.pair[car, cell])
                       for seat, car in enumerate(self.data.cars) if seat != self.seat]
            product = 1.0
            for chance in chances:
                product *= chance
            total = 0.0
            for chance in chances:
                total += chance
            features = (product - 1.0, min([1.0, *chances]) - 1.0,
                        total / len(chances) - 1.0, float(self.board.is_grey(cell)))
            w = self.weights
            gain = (w[0] * features[0] + w[1] * features[1] + w[2] * features[2]
                    + w[3] * features[3])
            if gain > 0.0:
                value = min(value + gain, max(value, CAP))
            elif gain < 0.0:
                value = value + gain
            self.leaves[cell] = value
        return value


def learned_choice(state: State[Any, Any, Any], weights: Sequence[float]) -> Hashable:
    """The engine-side statement's choice: the first legal action of the highest value."""
    seat = state.current_players[0]
    legal: tuple[Hashable, ...] = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    search = LearnedSearch(state, weights)
    values = [search.action_value(action) for action in legal]
    return legal[values.index(max(values))]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", ["default", "odd"])
def test_the_kernel_policy_is_hards_search_over_the_learned_leaves(
        players: int, board: str, odd_board: str) -> None:  # noqa: F811
    """At every decision of games played by medium and random players and from random
    positions, with weights of every sign, the kernel's choice is the engine-side
    statement's, to the last bit of every value."""
    game, kernel = kernel_of(players, board=odd_board if board == "odd" else board)
    rng = random.Random(f"shortcut-trained{players}{board}")
    medium = half_bot(game)
    decisions = 0
    for weights in WEIGHTS:
        kernel.trained_weights = weights
        for index in range(6):
            state = any_state(game, rng) if index % 2 else game.new_state()
            while not state.is_terminal:
                if state.is_chance:
                    state = state.apply(rng.choice(state.chance_outcomes())[0])
                    continue
                seat = state.current_players[0]
                values = kernel.encode(state.data)
                chosen = kernel.action_of(values, kernel.choose(values, "trained",
                                                                seed_rng(0)))
                assert chosen == learned_choice(state, weights), (weights, state.data)
                decisions += len(state.legal_actions(seat)) > 1
                state = state.apply(medium(state, seat, rng), seat)
    assert decisions > 60


@pytest.mark.parametrize("players", [3, 4])
def test_the_engine_bot_plays_the_kernel_policy_step_by_step(players: int) -> None:
    game, kernel = kernel_of(players)
    rng = random.Random(players)
    choose = half_bot(game, "hard")
    for index in range(6):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("trained", "trained")])


def test_zero_weights_play_hard() -> None:
    game, kernel = kernel_of(4)
    kernel.trained_weights = [0.0] * FEATURES
    start = game.new_state().data
    for seat in range(4):
        policies = ["hard"] * 4
        trained = ["hard"] * 4
        trained[seat] = "trained"
        assert list(kernel.playouts(start, trained, 200, seat).winners) == list(
            kernel.playouts(start, policies, 200, seat).winners)


def test_the_level_needs_a_board_the_two_player_solution_covers() -> None:
    game, kernel = kernel_of(3)
    assert "trained" in [level.name for level in bot_levels(game)]
    assert kernel.policy_of("trained") == "trained"
    big = "\n".join([" ".join(["S", *map(str, range(1, 25)), "F"])]
                    + [" ".join(["g"] * 26)] * 10) + "\n"  # 286 cells: over the limit
    large, large_kernel = kernel_of(3, board=big)
    assert "trained" not in [level.name for level in bot_levels(large)]
    assert large_kernel.policy_of("trained") is None


def test_shipped_weights_are_read() -> None:
    weights = shipped_weights()
    assert len(weights) == FEATURES
    spec = json.loads((ROOT / "src/dicegames/games/shortcut/trained_weights.json").read_text())
    assert spec["format"] == FORMAT and spec["features"] == list(FEATURE_NAMES)


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
    with pytest.raises(TrainedWeightsError, match="JSON object"):
        parse_weights("[1, 2]")
    with pytest.raises(TrainedWeightsError, match="finite"):
        parse_weights(weights_text([0.5] * FEATURES).replace("0.5", "NaN", 1))


def _trainer() -> ModuleType:
    path = ROOT / "scripts" / "train_shortcut.py"
    spec = importlib.util.spec_from_file_location("train_shortcut", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while it is built
    spec.loader.exec_module(module)
    return module


def test_a_small_training_run_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    """The trainer at a tiny size: two runs from one seed find the same weights, which the
    level's loader reads back."""
    trainer = _trainer()
    first = trainer.train(5, generations=2, population=3, elite=2, games=24, eval_games=12,
                          log=False)
    second = trainer.train(5, generations=2, population=3, elite=2, games=24, eval_games=12,
                           log=False)
    assert first.weights == second.weights and first.shares == second.shares
    assert len(first.history) == 2 and set(first.shares) == {3, 4}
    out = tmp_path / "weights.json"
    assert trainer.main(["--seed", "5", "--generations", "1", "--population", "2",
                         "--elite", "1", "--games", "12", "--eval-games", "12",
                         "--write", str(out)]) == 0
    assert len(parse_weights(out.read_text())) == FEATURES


def test_the_shipped_weights_were_measured_beating_hard() -> None:
    """The shipped file records the measurement the level is listed on: the trained car
    wins more than its fair share against ``hard`` at three and four players, the whole
    95% interval above it, over at least 10,000 games each."""
    spec = json.loads((ROOT / "src/dicegames/games/shortcut/trained_weights.json").read_text())
    assert any(w != 0.0 for w in shipped_weights())
    measured = spec["measured"]
    assert measured["games"] >= 10_000
    for players in (3, 4):
        low, high = measured["interval"][str(players)]
        assert 1 / players < low <= measured["win_rate"][str(players)] <= high
