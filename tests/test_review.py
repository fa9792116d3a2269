"""The post-game review: exact judgements for Extra Meters, rollouts elsewhere, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import dicegames
from dicegames.analysis.estimate import Rollouts, estimator_for
from dicegames.analysis.review import ReviewError, review, verdict
from dicegames.bots import make_bot
from dicegames.core.match import RandomDice, play
from dicegames.core.record import load, save
from dicegames.core.session import PlayerInfo, Session
from dicegames.games.extra_meters import Decision
from dicegames.games.extra_meters.estimator import ExactExtraMeters
from dicegames.games.extra_meters.solver import solve
from test_cli import assert_one_line_error, env, run  # noqa: F401


def finish(session: Session, level: str, seed: int) -> None:
    """Play ``session`` to its end with ``level`` bots in every seat and seeded dice."""
    bots = [make_bot(session.game, level, random.Random(seed + seat))
            for seat in range(session.game.players)]
    play(session, bots, RandomDice(random.Random(seed)))


def blunder_game() -> Session:
    """Extra Meters between optimal bots, except that Ann stops after her opening 5.

    Rolling on is worth 7.3 points of win chance more to her: a mistake.
    """
    game = dicegames.make("extra-meters")
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben", "bot:optimal")], seed=4)
    session.apply("5")
    session.apply("stop", 0)
    finish(session, "optimal", 4)
    return session


def test_exact_estimate_matches_the_solver() -> None:
    game = dicegames.make("extra-meters")
    estimate = ExactExtraMeters(game).position(game.new_state())
    assert estimate.chances[0] == pytest.approx(solve(50).win_probability(0, 0, 0))
    assert sum(estimate.chances) == pytest.approx(1.0)
    assert estimate.error == 0.0


def test_a_deliberate_mistake_is_flagged_and_optimal_moves_are_best() -> None:
    session = blunder_game()
    values = solve(50).decision_values(session.states[1].data)
    result = review(session)
    assert result.kind == "exact"
    first = result.moves[0]
    assert (first.index, first.played, first.best, first.verdict) == (1, "stop", "roll",
                                                                      "mistake")
    assert first.cost == pytest.approx(values[Decision.ROLL] - values[Decision.STOP])
    assert first.cost == pytest.approx(0.0732, abs=1e-4)
    assert result.mistakes()[0] == first
    assert all(move.verdict == "best" for move in result.moves[1:])
    curve = result.curve()
    assert curve[0] == (0, result.start)
    assert curve[-1][1] == tuple(1.0 if seat in result.winners else 0.0 for seat in (0, 1))
    assert all(sum(chances) == pytest.approx(1.0) for _, chances in curve)


def test_verdicts_follow_the_thresholds_and_the_noise() -> None:
    assert verdict(0.0, 0.0) == "best"
    assert verdict(0.01, 0.0) == "good"
    assert verdict(0.03, 0.0) == "inaccuracy"
    assert verdict(0.06, None) == "mistake"
    assert verdict(0.2, 0.0) == "blunder"
    assert verdict(0.2, 0.11) == "uncertain"  # within twice the noise: neither praised
    assert verdict(0.01, 0.006) == "uncertain"  # nor flagged
    assert verdict(0.01, 0.004) == "good"


def test_rollout_review_of_shortcut_states_its_error() -> None:
    game = dicegames.make("shortcut")
    session = Session(game, seed=1)
    finish(session, "medium", 1)
    estimator = Rollouts(game, rollouts=4, seed=2)
    result = review(session, estimator)
    assert result.kind == "rollouts"
    assert result.moves
    assert all(move.error is not None for move in result.moves)
    again = review(session, Rollouts(game, rollouts=4, seed=2))
    assert again.to_json() == result.to_json()


def test_the_curve_runs_to_the_end_and_the_page_shows_chances_and_errors() -> None:
    game = dicegames.make("shortcut")
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], seed=1)
    finish(session, "medium", 1)
    result = review(session, Rollouts(game, rollouts=4, seed=2))
    last_decision = result.moves[-1].index + 1
    assert last_decision < len(session.moves), "the game ends on a roll after a decision"
    curve = result.curve()
    assert curve[-1] == (len(session.moves), session.state.result.returns())
    assert result.to_json()["curve"][-1] == {"index": len(session.moves),
                                             "chances": list(session.state.result.returns())}
    from dicegames.analysis.html import review_page

    page = review_page(result.to_json())
    assert "<th>win chance</th><th>±</th>" in page
    move = next(move for move in result.moves if move.error)
    assert f"<td>{100 * move.chances[move.seat]:.1f}%</td><td>±{100 * (move.error or 0):.1f}" \
        in page


def test_petits_chevaux_is_reviewed_by_the_learned_value() -> None:
    assert estimator_for(dicegames.make("petits-chevaux")).kind == "learned"
    game = dicegames.make("petits-chevaux")
    session = Session(game, seed=3)
    finish(session, "easy", 3)
    result = review(session)
    assert result.kind == "learned"
    assert all(move.error is None for move in result.moves)


def test_an_unfinished_game_cannot_be_reviewed() -> None:
    session = Session(dicegames.make("extra-meters"))
    session.apply("3")
    with pytest.raises(ReviewError, match="only a finished game"):
        review(session)


MID_TURN = "0/0 1 decide 5,4 1"
"""Extra Meters, seat 1 to decide after rolling 5 and 4: a game set up from here starts with
a decision, so replaying its moves from the start of the game fails on the first one."""


def test_a_game_started_from_a_position_is_reviewed_from_that_position(
        tmp_path: Path) -> None:
    game = dicegames.make("extra-meters", track_length=15)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], seed=2,
                      start=game.from_position(MID_TURN))
    session.apply("stop", 0)
    finish(session, "optimal", 2)
    expected = review(session)
    assert expected.moves[0].index == 0 and expected.moves[0].played == "stop"
    assert expected.start == ExactExtraMeters(game).position(session.states[0]).chances
    # The same game saved and loaded again (the terminal's ``dicegames review``).
    again = review(load(save(session, tmp_path / "game.json")))
    assert again.to_json() == expected.to_json()


@pytest.mark.process
def test_review_command_reviews_a_game_from_a_position(env: dict[str, str],  # noqa: F811
                                                       tmp_path: Path) -> None:
    game = dicegames.make("extra-meters", track_length=15)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], seed=2,
                      start=game.from_position(MID_TURN))
    session.apply("stop", 0)
    finish(session, "optimal", 2)
    path = save(session, tmp_path / "game.json")
    done = run(env, "review", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves"][0]["played"] == "stop"


@pytest.mark.process
def test_review_command_prints_json_and_html(env: dict[str, str],  # noqa: F811
                                             tmp_path: Path) -> None:
    path = save(blunder_game(), tmp_path / "game.json")
    done = run(env, "review", str(path), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["mistakes"] == [1]
    assert data["estimate"]["kind"] == "exact"
    page = tmp_path / "review.html"
    done = run(env, "review", str(path), "--html", str(page))
    assert done.returncode == 0, done.stderr
    assert "Mistake at move 2: Ann played stop, roll was better" in done.stdout
    text = page.read_text(encoding="utf-8")
    assert "<svg" in text and "mistake" in text


@pytest.mark.process
def test_review_command_refuses_an_unfinished_game(env: dict[str, str],  # noqa: F811
                                                   tmp_path: Path) -> None:
    session = Session(dicegames.make("extra-meters"))
    session.apply("3")
    path = save(session, tmp_path / "half.json")
    assert_one_line_error(run(env, "review", str(path)), 1, "only a finished game")
