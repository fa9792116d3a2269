"""Petits Chevaux' ``trained`` level: the kernel policy against the engine bot, the network's
choice against a numpy evaluation of it, and the weights file (the trainer's own tests are
in test_petits_chevaux_td.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.bots import bot_levels, make_bot
from dicegames.core.chance import sample
from dicegames.core.kernel import kernel_for
from dicegames.games.petits_chevaux.kernel import PetitsChevauxKernel
from dicegames.games.petits_chevaux.trained import (
    COUNTS,
    FORMAT,
    INPUTS,
    MAX_HIDDEN,
    TrainedWeightsError,
    hidden_of,
    layout,
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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_network_plays_its_best_valued_afterstate(players: int) -> None:
    """At decisions of real games, the level's move is a winning move or the one whose
    afterstate the shipped network of that player count values most, the network evaluated
    here in numpy on inputs computed from the engine's data (``hard``'s expected loss from
    :mod:`.heuristics`), independently of the kernel."""
    import numpy as np

    from dicegames.games.petits_chevaux.board import ENTRANCE, FINAL
    from dicegames.games.petits_chevaux.heuristics import expected_loss

    game = dicegames.make("petits-chevaux", players=players)
    weights = np.array(shipped_weights()[players])
    hidden = hidden_of(len(weights))
    w1 = weights[:hidden * INPUTS].reshape(hidden, INPUTS)
    b1 = weights[hidden * INPUTS:hidden * (INPUTS + 1)]
    w2 = weights[hidden * (INPUTS + 1):hidden * (INPUTS + 2)]
    b2 = weights[-1]
    stride = FINAL + 1  # progress 0 (waiting) to FINAL

    def numpy_value(after: Any, me: int) -> float:
        rules, data = after.game, after.data
        x = np.zeros(INPUTS)
        for r in range(game.players):
            seat = (me + r) % game.players
            for progress in data.horses[seat]:
                x[r * stride + progress] += 1.0
            x[4 * stride + r] = expected_loss(rules, data.horses, rules.board(data),
                                           seat) / ENTRANCE
        x[4 * stride + 4] = 1.0 if data.player == me else 0.0
        units = 1.0 / (1.0 + np.exp(-(w1 @ x + b1)))
        return float(1.0 / (1.0 + np.exp(-(w2 @ units + b2))))

    rng = random.Random(11)
    medium = make_bot(game, "medium", random.Random(0))
    decisions = 0
    for _ in range(3):
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(sample(state.chance_outcomes(), rng))
                continue
            seat = state.turn.seat
            moves = [a for a in state.legal_actions(seat) if str(a) != "pass"]
            if len(moves) > 1:
                afters = [state.apply(a) for a in moves]
                if not any(a.is_terminal for a in afters):
                    chosen = make_bot(game, "trained", random.Random(0)).choose(state, seat)
                    worth = [numpy_value(a, seat) for a in afters]
                    assert worth[moves.index(chosen)] >= max(worth) - 1e-9, state.data
                    decisions += 1
            state = state.apply(medium.choose(state, seat))
    assert decisions > 50


def test_the_level_is_offered_and_plays_in_the_kernel() -> None:
    game, kernel = kernel_of(4)
    assert "trained" in [level.name for level in bot_levels(game)]
    assert kernel.policy_of("trained") == "trained"
    result = kernel.playouts(game.new_state().data, ["trained", "medium", "medium", "medium"],
                             40, 3)
    assert int(sum(result.winners)) == 40


def test_shipped_weights_are_trained() -> None:
    """A trained network for every player count, each measured on enough games."""
    networks = shipped_weights()
    assert sorted(networks) == list(COUNTS)
    text = (ROOT / "src/dicegames/games/petits_chevaux/trained_weights.json").read_text()
    spec = json.loads(text)
    assert spec["format"] == FORMAT
    for count, weights in networks.items():
        assert hidden_of(len(weights)) >= 8
        assert len(set(weights)) > len(weights) // 2
        entry = spec["networks"][str(count)]
        assert entry["measured"]["games"] >= 10_000
        assert entry["trainer"]["script"] == "scripts/train_petits_chevaux_td.py"


def test_each_player_count_plays_its_own_network() -> None:
    """The kernel of a game takes the network of its player count."""
    for count in COUNTS:
        _, kernel = kernel_of(count)
        assert list(kernel.tabs.weights) == list(shipped_weights()[count])


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(format=FORMAT - 1), "format"),
    (lambda s: s.update(inputs=INPUTS - 1), "inputs"),
    (lambda s: s.update(networks=[]), "'networks'"),
    (lambda s: s["networks"].pop("3"), "no network for 3 players"),
    (lambda s: s["networks"].update({"5": s["networks"]["2"]}), "networks for 5 players"),
    (lambda s: s["networks"].update({"2": []}), "for 2 players must be a JSON object"),
    (lambda s: s["networks"]["4"].update(hidden=3), "numbers for 3 hidden"),
    (lambda s: s["networks"]["4"].update(hidden=0), "hidden units"),
    (lambda s: s["networks"]["4"].update(hidden=MAX_HIDDEN + 1), "hidden units"),
    (lambda s: s["networks"]["4"].update(hidden=True), "hidden units"),
    (lambda s: s["networks"]["4"].update(weights=s["networks"]["4"]["weights"][:-1]),
     "numbers"),
    (lambda s: s["networks"]["4"]["weights"].__setitem__(0, "x"), "finite"),
    (lambda s: s["networks"]["4"]["weights"].__setitem__(0, True), "finite"),
])
def test_a_wrong_weights_file_is_refused(change: Any, message: str) -> None:
    weights = [0.5] * layout(2)
    networks: dict[int, Sequence[float]] = {count: weights for count in COUNTS}
    spec = json.loads(weights_text(networks, version="test"))
    assert parse_weights(json.dumps(spec)) == {count: tuple(weights) for count in COUNTS}
    change(spec)
    with pytest.raises(TrainedWeightsError, match=message):
        parse_weights(json.dumps(spec))
    with pytest.raises(TrainedWeightsError, match="JSON"):
        parse_weights("{")
    with pytest.raises(TrainedWeightsError, match="object"):
        parse_weights("[]")
    with pytest.raises(TrainedWeightsError, match="finite"):
        parse_weights(weights_text(networks).replace("0.5", "NaN", 1))
    with pytest.raises(ValueError, match="no network"):
        weights_text({4: weights[:-1]})


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
