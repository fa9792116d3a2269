"""The Extra Meters kernel against the engine: every step, every decision, the distributions."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dicegames
from dicegames.core.game import Game
from dicegames.core.kernel import kernel_for, seed_rng, to_list
from dicegames.games.extra_meters.data import ExtraMetersData, Phase
from dicegames.games.extra_meters.kernel import ExtraMetersKernel
from kernels.differential import compare_shares, walk

CONFIGS = [(players, length, finish) for players in (2, 3, 5, 8) for length in (10, 50)
           for finish in ("first", "same_round")] + [(2, 200, "first"), (2, 200, "same_round")]


def kernel_of(players: int, **options: object) -> tuple[Game[Any, Any, Any], ExtraMetersKernel]:
    game = dicegames.make("extra-meters", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, ExtraMetersKernel)
    return game, kernel


@pytest.mark.parametrize(("players", "length", "finish"), CONFIGS)
def test_random_trajectories_match_the_engine_step_by_step(players: int, length: int,
                                                           finish: str) -> None:
    game, kernel = kernel_of(players, track_length=length, finish=finish)
    rng = random.Random(f"{players}{length}{finish}")
    for _ in range(60):
        walk(game, kernel, rng, policies=[("threshold", "medium")])


@pytest.mark.parametrize(("players", "length", "finish"),
                         [(2, 20, "first"), (2, 20, "same_round"), (2, 50, "first"),
                          (2, 50, "same_round"), (3, 20, "first"), (4, 20, "same_round")])
def test_the_exact_policy_decides_as_the_hard_bot(players: int, length: int,
                                                  finish: str) -> None:
    game, kernel = kernel_of(players, track_length=length, finish=finish)
    rng = random.Random(length)
    # Three runners under finish=first: hard plays the exact three-runner race (race3), and
    # the duel it played before is the bot "duel".
    bot = "duel" if (players, finish) == (3, "first") else "hard"
    assert kernel.policy_of(bot) == "exact"
    for _ in range(25 if length == 50 else 60):
        walk(game, kernel, rng, policies=[("exact", bot), ("threshold", "medium")])


def test_the_exact_policy_past_the_end_stops_as_the_engine() -> None:
    """A running sum already past the end: the engine's bot stops; so does the table."""
    game, kernel = kernel_of(2, track_length=20, finish="same_round")
    bot = dicegames.bots.make_bot(game, "hard", random.Random(0))
    for a in range(0, 21, 3):
        for b in (0, 10, 20, 25):
            for dice in ((5, 5, 5, 5, 2), (4,) * 6, (3, 3)):
                if a + sum(dice) <= 20:
                    continue
                for player in (0, 1):
                    positions = (a, b) if player == 0 else (b, a)
                    data = ExtraMetersData(positions, player, 3, Phase.DECIDE, dice)
                    state = game.state_from(data)
                    code = kernel.choose(kernel.encode(data), "exact", seed_rng(0))
                    assert kernel.action_of(kernel.encode(data), code) == bot.choose(state,
                                                                                     player)


def test_playouts_from_any_state_end_as_the_rules_say() -> None:
    _, kernel = kernel_of(3, track_length=30, finish="same_round")
    data = ExtraMetersData((29, 12, 31), 1, 8, Phase.DECIDE, (4, 2))
    result = kernel.playouts(data, ["threshold", "random", "exact"], 500, 3)
    for g in range(result.games):
        winners = result.winners_of(g)
        assert winners and 2 in winners  # seat 2 is past the end: the round ends with it
        assert result.turns[g] >= 8
    assert min(to_list(result.scores)[2::3]) >= 31


def test_the_same_seed_gives_the_same_playouts() -> None:
    game, kernel = kernel_of(2)
    start = game.new_state().data
    one = kernel.playouts(start, ["random", "exact"], 300, 11)
    two = kernel.playouts(start, ["random", "exact"], 300, 11)
    assert to_list(one.winners) == to_list(two.winners)
    assert to_list(one.moves) == to_list(two.moves)
    assert to_list(one.turns) != to_list(kernel.playouts(start, ["random", "exact"], 300,
                                                         12).turns)


def test_rollout_stops_at_the_seats_next_turn() -> None:
    game, kernel = kernel_of(3)
    values = kernel.encode(game.new_state().data)
    for seed in range(50):
        ended = kernel.decode(kernel.rollout(values, ["random"] * 3, seed, stop_seat=0,
                                             stop_turns=0))
        assert ended.phase is Phase.OVER or (ended.player == 0 and ended.turn == 4)
        later = kernel.decode(kernel.rollout(values, ["random"] * 3, seed, stop_seat=0,
                                             stop_turns=1))
        assert later.phase is Phase.OVER or (later.player == 0 and later.turn == 7)


@pytest.mark.parametrize(("players", "policies", "bots"),
                         [(2, ["random", "random"], ["easy", "easy"]),
                          (2, ["threshold", "exact"], ["medium", "hard"]),
                          (4, ["threshold", "random", "threshold", "random"],
                           ["medium", "easy", "medium", "easy"])])
def test_kernel_playouts_agree_with_engine_games(players: int, policies: list[str],
                                                 bots: list[str]) -> None:
    game, kernel = kernel_of(players, track_length=20 if "exact" in policies else 30)
    engine_n = 800 if "exact" in policies else 1_500
    compare_shares(game, kernel, policies, bots, kernel_n=20_000, engine_n=engine_n, seed=5)


def test_unknown_policies_are_refused() -> None:
    game, kernel = kernel_of(2)
    with pytest.raises(ValueError, match="unknown kernel policy 'clever'"):
        kernel.playouts(game.new_state().data, ["random", "clever"], 1, 0)
    with pytest.raises(ValueError, match="1 policies for 2 seats"):
        kernel.playouts(game.new_state().data, ["random"], 1, 0)
    assert kernel.policy_of("hard") == "exact"
    assert kernel_of(2, track_length=200)[1].policy_of("hard") is None
    assert kernel_of(3)[1].policy_of("hard") == "race"  # the exact three-runner race
    assert kernel_of(3, finish="same_round")[1].policy_of("hard") == "exact"


@pytest.mark.parametrize(("players", "finish"), [(2, "first"), (3, "same_round")])
def test_the_register_loop_plays_the_step_rules_games(players: int, finish: str) -> None:
    """playouts() keeps the turn and the generators in locals: the same games as _run."""
    from dicegames.core.kernel import array, copy
    from dicegames.games.extra_meters import kernel as module

    _, kernel = kernel_of(players, track_length=30, finish=finish)
    policies = ["random", "exact", "threshold"][:players]
    data = ExtraMetersData((3, 0, 0)[:players], 0, 1, Phase.DECIDE, (3,))
    fast = kernel.playouts(data, policies, 300, 21)
    codes = kernel.check_policies(policies)
    tables = kernel.tables_for(codes)
    dice, whims = seed_rng(21), seed_rng(~21)
    start = kernel.encode(data)
    for g in range(300):
        values = copy(start)
        moves = module._run(values, tables, array(codes), dice, whims, None, -1, 0)
        assert moves == fast.moves[g] and values[1] == fast.turns[g]
        flags = [int(values[module.POS + players + s]) for s in range(players)]
        assert flags == to_list(fast.winners)[g * players:(g + 1) * players]
