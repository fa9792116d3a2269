"""Hints from the one estimator: exact where solved (two and three runners), the chance
before a roll at a chance node, and errors about the position text itself."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import dicegames
from dicegames.analysis.estimate import FIRST_DECIDED, Rollouts, estimator_for
from dicegames.analysis.hint import hint
from dicegames.bots import bot_spec
from dicegames.core.errors import PositionError
from dicegames.core.registry import definitions, from_position, make
from dicegames.games.extra_meters import Decision
from dicegames.games.extra_meters.estimator import ExactExtraMeters, ExactThreeRunners
from dicegames.games.extra_meters.race3 import solve_three


def test_a_hint_where_the_dice_roll_next_is_the_exact_chance_before_the_roll() -> None:
    state = dicegames.from_position("extra-meters", "48/46 1 opening - 7")
    answer = hint(state)
    assert answer.before_roll and answer.move is None and answer.exact
    expected = ExactExtraMeters(state.game).position(state).chances[0]
    assert answer.win_chance == pytest.approx(expected)
    assert [c.move for c in answer.choices] == ["1", "2", "3", "4", "5"]
    assert math.fsum(c.probability or 0.0 for c in answer.choices) == pytest.approx(1.0)
    assert answer.win_chance == pytest.approx(
        math.fsum((c.probability or 0.0) * c.win_chance for c in answer.choices))


def test_a_rollout_hint_before_the_roll_weighs_each_outcome_by_its_probability() -> None:
    # Three cars: two-player Shortcut is solved, and its hints are exact.
    state = dicegames.from_position("shortcut", "a11/a9/a4 1 shortcut - 7")
    answer = hint(state, rollouts=6)
    assert answer.move is None and not answer.exact and answer.seat == 0
    assert len(answer.choices) == 6
    assert all(c.rollouts == 6 and c.probability == pytest.approx(1 / 6)
               for c in answer.choices)
    assert answer.win_chance == pytest.approx(
        math.fsum((c.probability or 0.0) * c.win_chance for c in answer.choices))
    assert 0 <= answer.low <= answer.win_chance <= answer.high <= 1
    assert hint(state, rollouts=6) == answer, "seeded: the same answer twice"


def test_the_three_runner_hint_shows_the_values_hard_plays_by() -> None:
    state = dicegames.from_position("extra-meters", "10/20/30 1 decide 4 7")
    answer = hint(state)
    assert answer.exact and answer.bot == "hard"
    values = solve_three(50).decision_chances(state.data)
    shown = {c.move: c.win_chance for c in answer.choices}
    assert shown == {str(d): pytest.approx(values[d][0]) for d in Decision}
    best = max(shown, key=lambda move: shown[move])
    assert answer.move == best == ("roll" if solve_three(50).rolls(state.data) else "stop")


def test_the_three_runner_values_agree_with_the_solved_start_of_the_turn() -> None:
    """The chance at a turn's start (the table) is the mean over the opening's five faces of
    the value of the decision ``hard`` takes then (recomputed from the stored decisions)."""
    game = dicegames.make("extra-meters", players=3, track_length=20)
    estimator = estimator_for(game)
    assert isinstance(estimator, ExactThreeRunners)
    for text in ("0/0/0 1 opening - 1", "12/3/17 2 opening - 5", "19/18/2 3 opening - 9"):
        start = game.from_position(text)
        before = estimator.position(start).chances
        after = [estimator.position(start.apply_unchecked(face)).chances for face, _ in
                 start.chance_outcomes()]
        for seat in range(3):
            assert before[seat] == pytest.approx(math.fsum(a[seat] for a in after) / 5)
        assert math.fsum(before) == pytest.approx(1.0)


def test_garbage_text_gets_an_error_about_the_text() -> None:
    for definition in definitions():
        with pytest.raises(PositionError) as caught:
            from_position(definition.id, "garbage")
        assert "seats in its first field" not in str(caught.value)
        assert "field" in str(caught.value)


def wander(state: Any, rng: random.Random, steps: int) -> Any:
    """``state`` after up to ``steps`` random dice and random legal moves (fewer if it ends)."""
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance:
            state = state.apply_unchecked(rng.choice(state.chance_outcomes())[0])
        else:
            seat = state.current_players[0]
            state = state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    return state


def test_another_games_position_is_a_position_error() -> None:
    rng = random.Random(5)
    positions: dict[str, list[str]] = {}
    for definition in definitions():
        game = make(definition.id)
        for _ in range(12):
            state = wander(game.new_state(), rng, rng.randrange(1, 60))
            positions.setdefault(definition.id, []).append(game.position(state))
    for game_id in positions:
        for other, texts in positions.items():
            if other == game_id:
                continue
            for text in texts:
                with pytest.raises(PositionError):
                    from_position(game_id, text)


def test_rollouts_stop_sampling_a_decision_once_it_is_decided() -> None:
    game = dicegames.make("extra-meters", players=4)
    state = game.from_position("48/46/10/10 1 decide 4 9")  # stopping wins at once
    tallies = Rollouts(game, rollouts=64).race(
        {action: state.apply_unchecked(action, 0) for action in state.legal_actions(0)}, 0)
    assert tallies[Decision.STOP].mean(0) == 1.0
    assert max(tally.count for tally in tallies.values()) < 64
    assert min(tally.count for tally in tallies.values()) >= FIRST_DECIDED
    close = game.from_position("10/12/10/10 1 decide 4 9")  # too close to call in 64
    tallies = Rollouts(game, rollouts=64).race(
        {action: close.apply_unchecked(action, 0) for action in close.legal_actions(0)}, 0)
    assert all(tally.count == 64 for tally in tallies.values())


@pytest.mark.parametrize("game_id", [definition.id for definition in definitions()])
def test_a_continuation_is_the_rollout_primitives_game_of_that_seed(game_id: str) -> None:
    """The estimator's kernel shortcut (a one-game playout, nothing decoded) plays exactly
    the game :func:`~dicegames.core.rollout.rollout` plays with the same seed."""
    from dicegames.core.rollout import game_seed, rollout

    definition = next(d for d in definitions() if d.id == game_id)
    game = make(game_id, players=definition.spec.max_players)
    rollouts = Rollouts(game, 4, seed=7)
    rng = random.Random(2)
    bots = [bot_spec(game, rollouts.level)] * game.players
    for _ in range(4):
        state = wander(game.new_state(), rng, rng.randrange(0, 40))
        for index in range(5):
            assert rollouts.play_out(state, index) == \
                rollout(state, bots, game_seed(7, index)).returns()
