"""The Petits Chevaux kernel against the engine: every step, every decision, the distributions."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import dicegames
from dicegames.core.game import Game
from dicegames.core.kernel import kernel_for, to_list
from dicegames.games.petits_chevaux import PetitsChevauxRules
from dicegames.games.petits_chevaux.data import ChevauxData, Phase
from dicegames.games.petits_chevaux.kernel import PetitsChevauxKernel
from kernels.differential import compare_shares, walk

OPTIONS = ("three_sixes_penalty", "compulsory_move", "barrage_blocks_own",
           "barrage_landing_captures")
OPTION_SETS = [dict(zip(OPTIONS, values, strict=True))
               for values in itertools.product((False, True), repeat=4)]


def kernel_of(players: int, **options: object) -> tuple[Game[Any, Any, Any],
                                                       PetitsChevauxKernel]:
    game = dicegames.make("petits-chevaux", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, PetitsChevauxKernel)
    return game, kernel


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "".join(
    str(int(bool(v))) for v in o.values()))
def test_random_trajectories_match_the_engine_step_by_step(players: int,
                                                           options: dict[str, bool]) -> None:
    game, kernel = kernel_of(players, **options)
    rng = random.Random(f"{players}{options}")
    for _ in range(4):
        walk(game, kernel, rng, whole_array=True)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[6], OPTION_SETS[9],
                                     OPTION_SETS[15]])
def test_medium_and_hard_choose_as_the_bots(players: int, options: dict[str, bool]) -> None:
    """At every decision of games played by medium (and random) players."""
    game, kernel = kernel_of(players, **options)
    rng = random.Random(players)
    medium = dicegames.bots.make_bot(game, "medium", random.Random(0))

    def mixed(state: Any, seat: int, r: random.Random) -> Any:
        if r.random() < 0.5:
            return medium.choose(state, seat)
        return r.choice(state.legal_actions(seat))

    walk(game, kernel, rng, chooser=mixed, policies=[("medium", "medium"), ("hard", "hard")],
         whole_array=True)


def test_the_scores_are_the_heuristics_scores() -> None:
    from dicegames.games.petits_chevaux.heuristics import hard_scores, heuristic_scores

    game, kernel = kernel_of(4, barrage_landing_captures=True)
    assert isinstance(game, PetitsChevauxRules)
    data = ChevauxData(((0, 5, 20, 57), (3, 3, 0, 40), (0, 0, 0, 10), (30, 0, 44, 0)),
                       0, 9, Phase.MOVE, 6, 1)
    values = kernel.encode(data)
    for policy, scores in (("medium", heuristic_scores), ("hard", hard_scores)):
        expected = {kernel.action_code(values, a): s for a, s in scores(game, data).items()}
        assert kernel.scores(values, policy) == expected


@pytest.mark.parametrize(("horses", "roll"), [
    # red's 3 takes blue's lone horse on blue's start square: blue then has a horse waiting,
    # so a 6 brings it out onto red's horse
    (((12, 0, 0, 0), (1, 57, 58, 59), (0, 0, 0, 0), (0, 0, 0, 0)), 3),
    # red's barrage on square 9 blocks green's horse on square 5 until one of its horses
    # moves on to square 13, within green's 6 + 2
    (((10, 10, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (20, 0, 0, 0)), 4),
    # red's 2 makes a barrage on square 9 (blocking green's horse behind it) or moves another
    (((8, 10, 30, 0), (0, 0, 0, 0), (0, 0, 0, 0), (20, 0, 0, 0)), 2),
])
def test_scores_where_a_move_changes_what_threatens(horses: tuple[tuple[int, ...], ...],
                                                    roll: int) -> None:
    """The moves whose threats the kernel reads on the state before them (see
    ``kernel_bots._after``) or plays to measure: a capture that leaves the victim a horse
    waiting, a barrage broken, a barrage made."""
    from dicegames.games.petits_chevaux.heuristics import hard_scores, heuristic_scores

    for landing in (False, True):
        game, kernel = kernel_of(4, barrage_landing_captures=landing)
        assert isinstance(game, PetitsChevauxRules)
        data = ChevauxData(horses, 0, 9, Phase.MOVE, roll, 0)
        values = kernel.encode(data)
        for policy, scores in (("medium", heuristic_scores), ("hard", hard_scores)):
            expected = {kernel.action_code(values, a): s
                        for a, s in scores(game, data).items()}
            assert kernel.scores(values, policy) == expected


def test_playouts_from_a_late_position_end_with_one_winner() -> None:
    _, kernel = kernel_of(3, three_sixes_penalty=True)
    data = ChevauxData(((58, 59, 60, 61), (0, 0, 0, 1), (55, 0, 0, 0)), 0, 40, Phase.ROLL)
    result = kernel.playouts(data, ["medium", "hard", "random"], 400, 1)
    for g in range(result.games):
        assert len(result.winners_of(g)) == 1
        assert result.turns[g] >= 40
    wins = to_list(result.winners)
    assert sum(wins[0::3]) > 300  # seat 0 needs one horse two squares on


def test_rollout_stops_at_the_seats_next_turn() -> None:
    _, kernel = kernel_of(4)
    values = kernel.encode(ChevauxData(((0,) * 4,) * 4, 2, 5, Phase.ROLL))
    for seed in range(30):
        ended = kernel.decode(kernel.rollout(values, ["medium"] * 4, seed, stop_seat=2))
        assert ended.phase is Phase.OVER or (ended.player == 2 and ended.turn == 9)
        sooner = kernel.decode(kernel.rollout(values, ["medium"] * 4, seed, stop_seat=1))
        assert sooner.player == 1 and sooner.turn == 8 and sooner.phase is Phase.ROLL


@pytest.mark.slow
@pytest.mark.parametrize(("players", "policies", "bots"),
                         [(4, ["random"] * 4, ["easy"] * 4),
                          (2, ["medium", "hard"], ["medium", "hard"])])
def test_kernel_playouts_agree_with_engine_games(players: int, policies: list[str],
                                                 bots: list[str]) -> None:
    game, kernel = kernel_of(players)
    compare_shares(game, kernel, policies, bots, kernel_n=4_000, engine_n=200, seed=8)
