"""The OpenSpiel games pass OpenSpiel's random simulation test, run its MCTS, and its value
iteration reproduces our exact Extra Meters solution."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts, outcome_sampling_mccfr, value_iteration

from dicegames import games, make
from dicegames.core.errors import OptionError
from dicegames.envs.encoding import encoded_games
from dicegames.envs.openspiel import DiceGame, load, short_name
from dicegames.games.extra.encoder import WAIT
from dicegames.games.extra_meters.solver import solve

CONFIGS = [(spec.id, players) for spec in games()
           for players in range(spec.min_players, spec.max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_random_sim_test(game_id: str, players: int) -> None:
    pyspiel.random_sim_test(load(game_id, players=players), num_sims=2, serialize=True,
                            verbose=False)


def test_random_sim_test_with_options() -> None:
    """Text options with commas survive OpenSpiel's game strings (serialization)."""
    game = load("extra", players=3, extra_columns="3,2,2", child_seats="2,3")
    assert "extra_columns=3;2;2" in str(game)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert isinstance(game, DiceGame) and game.engine.options["extra_columns"] == "3,2,2"
    pyspiel.random_sim_test(load("petits-chevaux", players=3, three_sixes_penalty=True),
                            num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(load("monza", variant_last_colour=True), num_sims=1,
                            serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", [spec.id for spec in games()])
def test_mcts_plays(game_id: str) -> None:
    """OpenSpiel's Python MCTS with its random-rollout evaluator picks legal moves; EXTRA!'s
    simultaneous node goes through OpenSpiel's turn-based transform."""
    game = load(game_id)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2, 12, evaluator, random_state=np.random.RandomState(1))
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 4:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 4


def test_mcts_takes_the_win() -> None:
    """Stopping now takes the runner past the end; rolling risks a 6 that would not: MCTS
    (with OpenSpiel's random-rollout evaluator) stops."""
    game = load("extra-meters", track_length=10)
    state = game.new_initial_state()
    for action in (4, 0, 2, 1, 0, 1, 2):  # 5, roll, 3, stop (8); 1, stop (1); then 3
        state.apply_action(action)
    assert str(state) == "runners 8 1; seat 0 decide; sum 3 of 1 dice"
    evaluator = mcts.RandomRolloutEvaluator(2, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2, 200, evaluator, random_state=np.random.RandomState(1))
    assert state.action_to_string(0, bot.step(state)) == "stop"


@pytest.mark.slow
def test_value_iteration_reproduces_the_exact_solver() -> None:
    """OpenSpiel's value iteration over the whole game (track 10) gives our solver's chance
    that the first player wins under optimal play, 0.71393..."""
    game = load("extra-meters", track_length=10)
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-7,
                                             cyclic_game=True)
    root = game.new_initial_state()  # the opening roll: a chance node, averaged here
    value = sum(p * values[str(root.child(a))] for a, p in root.chance_outcomes())
    assert (value + 1) / 2 == pytest.approx(solve(10).win_probability(0, 0, 0), abs=1e-6)


def test_chance_outcomes_are_the_engine_probabilities() -> None:
    game = load("extra", players=2)
    state = game.new_initial_state()
    engine = make("extra", players=2).new_state()
    expected = sorted(float(p) for _, p in engine.chance_outcomes())
    outcomes = state.chance_outcomes()
    assert len(outcomes) == game.max_chance_outcomes() == 252
    assert sorted(p for _, p in outcomes) == pytest.approx(expected)
    assert sum(Fraction(p).limit_denominator(7776) for _, p in outcomes) == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "1 1 1 1 1"


def test_extra_simultaneous_node_and_wait() -> None:
    game = load("extra", players=2, extra_columns="1,1,1")
    state = game.new_initial_state()
    state.apply_action(0)  # 1 1 1 1 1
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    first = state.legal_actions(0)
    assert first == state.legal_actions(1) and WAIT not in first
    assert state.action_to_string(0, first[0]) == "1+1 1+1 x1a"
    state.apply_actions([first[0], first[0]])  # one cross fills column a: both stop
    assert state.is_terminal() and state.returns() == [0.0, 0.0]  # equal totals: a draw


def test_max_game_length_ends_in_a_draw() -> None:
    game = load("shortcut", max_game_length=3)
    assert game.max_game_length() == 3
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(5)  # 6s: every shortcut fails
        else:
            state.apply_action(1 if 1 in state.legal_actions() else state.legal_actions()[0])
    assert len([a for a in state.full_history() if a.player >= 0]) == 3
    assert state.returns() == [0.0, 0.0]


def test_names_and_errors() -> None:
    assert short_name("petits_chevaux") == "python_dicegames_petits_chevaux"
    assert pyspiel.load_game("python_dicegames_monza(players=3)").num_players() == 3
    with pytest.raises(OptionError, match="has no option 'laps'"):
        load("monza", laps=2)
    with pytest.raises(OptionError, match="monza is for 2 to 6 players"):
        load("monza", players=9)
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        load("chess")


@pytest.mark.parametrize("game_id", list(encoded_games()))
def test_information_state_is_the_observation(game_id: str) -> None:
    game = load(game_id)
    kind = game.get_type()
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
            continue
        if state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p)))
                                 for p in range(game.num_players())])
            continue
        for player in range(game.num_players()):
            assert state.information_state_string(player) == state.observation_string(player)
            assert (state.information_state_tensor(player)
                    == state.observation_tensor(player))
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_an_information_state_algorithm_learns() -> None:
    """OpenSpiel's outcome-sampling MCCFR (keyed on information states) learns Extra Meters'
    plain decisions: stop when the sum already crosses the line, roll on after a 1."""
    game = load("extra-meters", track_length=10, max_game_length=300)
    np.random.seed(0)  # the solver samples with numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(1000):
        solver.iteration()
    policy = solver.average_policy()
    crossing = game.new_initial_state()
    for action in (4, 0, 4, 0, 3):  # opening 5, roll, 5, roll, 4: sum 14 from square 0
        crossing.apply_action(action)
    assert str(crossing) == "runners 0 0; seat 0 decide; sum 11 of 3 dice"
    assert policy.action_probabilities(crossing)[1] > 0.9  # stop: the runner is home
    low = game.new_initial_state()
    low.apply_action(0)  # the opening die shows 1
    assert policy.action_probabilities(low)[0] > 0.8  # roll on
