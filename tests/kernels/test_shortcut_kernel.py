"""The Shortcut kernel against the engine: every step, every decision, the distributions."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.core.game import Game, State
from dicegames.core.kernel import kernel_for, to_list
from dicegames.games.shortcut import ShortcutRules
from dicegames.games.shortcut.data import Phase, ShortcutData
from dicegames.games.shortcut.kernel import MAX_ROLLS, ShortcutKernel
from kernels.differential import compare_shares, half_bot, walk

ODD_BOARD = """
# two grey fields: one next to the start (never entered back), one next to the finish
 S  g  g  .
 1  g  g  F
 2  g  .  9
 3  4  g  8
 .  5  6  7
"""


def kernel_of(players: int, **options: object) -> tuple[Game[Any, Any, Any], ShortcutKernel]:
    game = dicegames.make("shortcut", players=players, **options)
    kernel = kernel_for(game)
    assert isinstance(kernel, ShortcutKernel)
    return game, kernel


@pytest.fixture
def odd_board(tmp_path: Path) -> str:
    path = tmp_path / "odd.txt"
    path.write_text(ODD_BOARD, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", ["default", "odd"])
def test_random_trajectories_match_the_engine_step_by_step(players: int, board: str,
                                                           odd_board: str) -> None:
    game, kernel = kernel_of(players, board=odd_board if board == "odd" else board)
    rng = random.Random(f"shortcut{players}{board}")
    choose = half_bot(game)
    for index in range(120):
        walk(game, kernel, rng, chooser=choose if index % 2 else None,
             policies=[("medium", "medium")])


def any_state(game: Game[Any, Any, Any], rng: random.Random) -> State[Any, Any, Any]:
    """A random position: cars anywhere but the finish (never two on one grey cell), any
    player and turn, sometimes in the middle of a shortcut turn."""
    assert isinstance(game, ShortcutRules)
    board = game.board
    cells = [c for c in range(len(board.kinds)) if c != board.finish]
    while True:
        cars = tuple(rng.choice(cells) for _ in range(game.players))
        greys = [c for c in cars if board.is_grey(c)]
        if len(greys) == len(set(greys)):
            break
    player = rng.randrange(game.players)
    if rng.random() < 0.3:
        rolls = tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 4)))
        return game.state_from(ShortcutData(cars, player, rng.randint(1, 40), Phase.CHOOSE,
                                            rolls))
    return game.state_from(ShortcutData(cars, player, rng.randint(1, 40)))


@pytest.mark.parametrize("board", ["default", "odd"])
def test_walks_from_any_state_match_the_engine(board: str, odd_board: str) -> None:
    for players in (2, 4):
        game, kernel = kernel_of(players, board=odd_board if board == "odd" else board)
        rng = random.Random(players)
        for _ in range(100):
            walk(game, kernel, rng, policies=[("medium", "medium")],
                 start=any_state(game, rng))


def test_a_long_shortcut_turn_plays_on_but_cannot_be_decoded() -> None:
    _, kernel = kernel_of(2)
    data = ShortcutData((kernel.board.start,) * 2, 0, 1, Phase.CHOOSE, (1,) * MAX_ROLLS)
    values = kernel.encode(data)
    assert kernel.decode(values) == data
    longer = kernel.apply_outcome(kernel.apply_action(values, kernel.legal(values)[0]), 1)
    with pytest.raises(ValueError, match="cannot be decoded"):
        kernel.decode(longer)
    assert to_list(longer)[5] == MAX_ROLLS + 1  # the total still counts every die
    with pytest.raises(ValueError, match="at most 48"):
        kernel.encode(ShortcutData(data.cars, 0, 1, Phase.CHOOSE, (1,) * (MAX_ROLLS + 1)))


def test_playouts_from_a_won_position_and_rollout_horizons() -> None:
    game, kernel = kernel_of(3)
    board = kernel.board
    one_step = board.road[-2]
    data = ShortcutData((one_step, board.start, board.start), 0, 7)
    result = kernel.playouts(data, ["medium", "random", "random"], 50, 1)
    assert all(result.winners_of(g) == (0,) for g in range(50))  # medium pushes home
    assert set(to_list(result.turns)) == {7} and set(to_list(result.moves)) == {1}
    values = kernel.encode(game.new_state().data)
    for seed in range(40):
        ended = kernel.decode(kernel.rollout(values, ["random"] * 3, seed, stop_seat=0,
                                             stop_turns=1))
        assert ended.phase is Phase.OVER or (ended.player == 0 and ended.turn == 7)


@pytest.mark.parametrize(("players", "policies", "bots"),
                         [(2, ["random", "random"], ["easy", "easy"]),
                          (2, ["medium", "random"], ["medium", "easy"]),
                          (4, ["medium"] * 4, ["medium"] * 4)])
def test_kernel_playouts_agree_with_engine_games(players: int, policies: list[str],
                                                 bots: list[str]) -> None:
    game, kernel = kernel_of(players)
    compare_shares(game, kernel, policies, bots, kernel_n=10_000, engine_n=400, seed=3)


def test_the_registry_and_bot_names() -> None:
    _, kernel = kernel_of(2)
    assert kernel.policy_of("easy") == "random"
    assert kernel.policy_of("medium") == "medium"
    assert kernel.policy_of("hard") == "hard"
