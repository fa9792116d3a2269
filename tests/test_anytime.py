"""Analysis within a time budget (:mod:`dicegames.analysis.anytime`), in this process."""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Iterator

import pytest

import dicegames
from dicegames.analysis import anytime
from dicegames.analysis.anytime import (
    HintJob,
    ReviewSlice,
    enable_timer,
    hint_within,
    review_part,
)
from dicegames.bots import make_bot
from dicegames.core.chance import sample
from dicegames.core.session import PlayerInfo, Session

# Timing-sensitive: `make test` runs these alone, after the parallel run (see the Makefile).
pytestmark = pytest.mark.timing

BIG_BOARD = "\n".join([" ".join(["S", *map(str, range(1, 25)), "F"])]
                      + [" ".join(["g"] * 26)] * 98) + "\n"


@pytest.fixture
def timer() -> Iterator[None]:
    """The interval timer enabled as in a worker, then given back as it was."""
    before = signal.getsignal(signal.SIGALRM)
    enable_timer()
    yield
    anytime._timer["enabled"] = False
    signal.signal(signal.SIGALRM, before)


@pytest.mark.usefixtures("timer")
def test_a_hint_whose_bot_runs_out_of_time_gives_the_best_choice_so_far() -> None:
    # As in a worker, the timer cuts off the planner, which would take a minute here.
    game = dicegames.make("shortcut", board=BIG_BOARD)
    state = game.new_state()
    began = time.monotonic()
    found = hint_within(HintJob("shortcut", 2, dict(game.options), game.position(state), 0,
                                seed=1), deadline=time.monotonic() + 1.0)
    assert time.monotonic() - began < 1.5
    assert found.move in {str(action) for action in state.legal_actions(0)}
    assert (found.complete, found.bot) == (False, "random")
    assert 0.0 <= found.low <= found.high <= 1.0


def test_an_exact_hint_is_complete() -> None:
    game = dicegames.make("extra-meters")
    state = game.from_position("12/7 2 decide 3,5 4")
    found = hint_within(HintJob("extra-meters", 2, dict(game.options), game.position(state),
                                state.current_players[0], seed=1),
                        deadline=time.monotonic() + 5.0)
    assert found.exact and found.complete and found.low == found.high == found.estimate


def six_player_extra() -> Session:
    game = dicegames.make("extra", players=6)
    session = Session(game, [PlayerInfo(f"Bot {n}", "bot:hard") for n in range(6)], seed=5)
    bots = [make_bot(game, "hard", random.Random(n)) for n in range(6)]
    rng = random.Random(1)
    while not session.state.is_terminal:
        state = session.state
        if state.is_chance:
            session.apply(str(sample(state.chance_outcomes(), rng)))
        else:
            seat = state.current_players[0]
            session.apply(str(bots[seat].choose(state, seat)), seat)
    return session


def test_a_review_slice_short_of_time_compares_fewer_choices_and_says_so() -> None:
    session = six_player_extra()
    moves = tuple((entry.seat, entry.text) for entry in session.moves)
    part = review_part(ReviewSlice("six", "extra", dict(session.game.options),
                                   tuple(p.name for p in session.players), None, moves,
                                   first=0, stop=30, rollouts=16, budget=0.005),
                       deadline=time.monotonic() + 60)
    assert part.start is not None and part.kind == "rollouts"
    assert part.moves and all(approximate for _, approximate in part.moves)
    for move, _ in part.moves:
        legal = session.states[move.index].legal_actions(move.seat)
        assert move.played in {choice.move for choice in move.choices}
        assert len(move.choices) in (len(legal), 1, 2)
    # Judged on a continuation or two, nothing is called a blunder.
    assert not any(move.flagged for move, _ in part.moves)
