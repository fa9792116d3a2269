"""Petits Chevaux's learned value: features, win chances, the weights file, and the expert bot."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

import dicegames
from dicegames import State
from dicegames.analysis import simulate
from dicegames.bots import make_bot
from dicegames.games.petits_chevaux import ChevauxData, PetitsChevauxRules, Phase
from dicegames.games.petits_chevaux.board import SEATING
from dicegames.games.petits_chevaux.moves import Horses
from dicegames.games.petits_chevaux.value import (
    FEATURE_NAMES,
    FEATURES,
    WEIGHTS_FILE,
    ValueModel,
    WeightsError,
    expert_policy,
    expert_scores,
    features,
    model_for,
    move_values,
    parse_weights,
    shipped_models,
)


def game_of(players: int) -> PetitsChevauxRules:
    """A petits-chevaux game with the default options."""
    game = dicegames.make("petits-chevaux", players=players)
    assert isinstance(game, PetitsChevauxRules)
    return game


def random_positions(players: int, count: int, seed: int) -> list[ChevauxData]:
    """Positions before a roll, taken from games of random moves."""
    game = game_of(players)
    rng = random.Random(seed)
    found: list[ChevauxData] = []
    while len(found) < count:
        state: State[Any, Any, Any] = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                if state.data.phase is Phase.ROLL and rng.random() < 0.05:
                    found.append(state.data)
                outcomes = [outcome for outcome, _ in state.chance_outcomes()]
                state = state.apply(rng.choice(outcomes))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
    return found[:count]


def turned(horses: Horses, mover: int, shift: int) -> tuple[Horses, int]:
    """The same position with every colour moved ``shift`` seats back round the board."""
    players = len(horses)
    return tuple(horses[(seat + shift) % players] for seat in range(players)), (
        (mover - shift) % players)


@pytest.mark.parametrize("players", [2, 4])
def test_features_do_not_depend_on_the_seat(players: int) -> None:
    colours = SEATING[players]
    for data in random_positions(players, 40, seed=players):
        for shift in range(players):
            horses, mover = turned(data.horses, data.player, shift)
            for seat in range(players):
                assert features(colours, data.horses, data.player, seat) == pytest.approx(
                    features(colours, horses, mover, (seat - shift) % players))


def test_three_players_see_their_own_turn_order() -> None:
    colours = SEATING[3]
    horses = ((10, 0, 0, 0), (5, 0, 0, 0), (0, 0, 0, 0))
    plays_next = features(colours, horses, 0, 0)
    waits_one = features(colours, horses, 2, 0)
    assert plays_next[FEATURE_NAMES.index("plays_next")] == 1.0
    assert waits_one[FEATURE_NAMES.index("one_before")] == 1.0
    assert len(plays_next) == FEATURES


def test_a_lone_horse_in_reach_is_exposed_and_a_barrage_is_not() -> None:
    colours = SEATING[2]  # red and yellow; yellow at 45 stands 3 squares behind red at 20
    exposed = features(colours, ((20, 0, 0, 0), (45, 0, 0, 0)), 1, 0)  # yellow 3 behind
    safe = features(colours, ((20, 20, 0, 0), (45, 0, 0, 0)), 1, 0)
    near = FEATURE_NAMES.index("exposed_near")
    assert exposed[near] > 0
    assert safe[near] == 0
    assert safe[FEATURE_NAMES.index("barrages")] == 1.0
    threat = features(colours, ((20, 0, 0, 0), (45, 0, 0, 0)), 1, 1)
    assert threat[FEATURE_NAMES.index("threat_near")] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_chances_sum_to_one(players: int) -> None:
    game = game_of(players)
    model = model_for(players)
    for data in random_positions(players, 20, seed=10 + players):
        chances = model.win_chances(game.colours, data.horses, data.player)
        assert len(chances) == players
        assert math.fsum(chances) == pytest.approx(1.0)
        assert all(0.0 < chance < 1.0 for chance in chances)


@pytest.mark.parametrize("players", [2, 4])
def test_a_won_position_is_worth_more_than_a_lost_one(players: int) -> None:
    game = game_of(players)
    model = model_for(players)
    ahead = (62, 61, 60, 50)
    behind = (0, 0, 3, 10)
    for mover in range(players):
        horses = (ahead,) + (behind,) * (players - 1)
        leader = model.win_chances(game.colours, horses, mover)
        horses = (behind,) + (ahead,) + (behind,) * (players - 2)
        trailer = model.win_chances(game.colours, horses, mover)
        assert leader[0] > 0.8
        assert trailer[0] < 0.1
        assert leader[0] > trailer[0]


def test_the_expert_takes_a_winning_move() -> None:
    game = game_of(2)
    data = ChevauxData(((62, 61, 60, 55), (30, 20, 0, 0)), 0, 40, Phase.MOVE, 4, 0)
    values = move_values(game, data)
    scores = expert_scores(game, data)
    assert values[max(values, key=values.__getitem__)] == math.inf
    assert str(max(scores, key=scores.__getitem__)) == "r4"
    assert expert_policy(game.state_from(data), 0, random.Random(0)) == max(
        scores, key=scores.__getitem__)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_expert_plays_only_legal_moves(players: int) -> None:
    game = game_of(players)
    rng = random.Random(players)
    bots = [make_bot(game, "expert" if seat == 0 else "medium", random.Random(seat))
            for seat in range(players)]
    for _ in range(2):
        state: State[Any, Any, Any] = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                outcomes = [outcome for outcome, _ in state.chance_outcomes()]
                state = state.apply(rng.choice(outcomes))
                continue
            seat = state.current_players[0]
            move = bots[seat].choose(state, seat)
            assert move in state.legal_actions(seat)
            state = state.apply(move, seat)


def test_the_expert_is_offered_and_simulates() -> None:
    report = simulate(game_of(2), ["bot:expert", "bot:medium"], games=4, seed=3)
    assert sum(stats.wins for stats in report.per_player) == 4


# ------------------------------------------------------------------------ weights file


def shipped_text() -> str:
    """The JSON text of the shipped weights."""
    from importlib import resources

    return resources.files("dicegames.games.petits_chevaux").joinpath(
        WEIGHTS_FILE).read_text(encoding="utf-8")


def test_the_shipped_weights_load_for_every_player_count() -> None:
    models = shipped_models()
    assert set(models) == {2, 3, 4}
    assert all(model_for(players) is models[players] for players in (2, 3, 4))
    assert model_for(3, {2: models[2], 4: models[4]}) is models[4]
    for model in models.values():
        assert model.weight > 0


@pytest.mark.parametrize(("change", "message"), [
    (lambda spec: "{not json", "not valid JSON"),
    (lambda spec: json.dumps([1, 2]), "JSON object"),
    (lambda spec: json.dumps({"models": {}}), "no model"),
    (lambda spec: json.dumps({"models": {"5": spec}}), "'5' players"),
    (lambda spec: json.dumps({"models": {"4": {**spec, "mean": spec["mean"][:-1]}}}),
     "mean must be a list"),
    (lambda spec: json.dumps({"models": {"4": {k: v for k, v in spec.items()
                                               if k != "hidden"}}}), "lack the entry"),
    (lambda spec: json.dumps({"models": {"4": {**spec, "features": ["x"]}}}), "other features"),
    (lambda spec: json.dumps({"models": {"4": {**spec, "out": ["a"] * len(spec["out"])}}}),
     "other than numbers"),
    (lambda spec: json.dumps({"models": {"4": {**spec, "scale": [0.0] * FEATURES}}}),
     "non-positive"),
    (lambda spec: json.dumps({"models": {"4": {**spec, "weight": float("nan")}}}),
     "non-finite"),
])
def test_a_corrupt_weights_file_gives_a_clear_error(change: Any, message: str) -> None:
    spec = json.loads(shipped_text())["models"]["4"]
    with pytest.raises(WeightsError, match=message):
        parse_weights(change(spec))


def test_a_model_reads_its_own_json_form() -> None:
    # At the features' stored means every standardised input is 0: the linear part vanishes
    # and each hidden unit gives tanh of its bias, as worked out here from the JSON.
    spec = json.loads(shipped_text())["models"]["4"]
    model = ValueModel(spec)
    assert model.strength(model.mean) == pytest.approx(
        sum(v * math.tanh(b) for v, b in zip(spec["out"], spec["bias"], strict=True)))
