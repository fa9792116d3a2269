"""The rollout primitive: one loop, kernel and engine alike, and every former loop through it.

The kernel and the engine play the same rules and bots with different generators, so their
figures are compared statistically (bounds of five standard errors plus a point of slack:
fixed seeds, so a passing test stays passing); where the generators allow (the same path,
the same seed), exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

import pytest

import dicegames
from dicegames.analysis.anytime import HintJob, hint_within
from dicegames.analysis.estimate import Rollouts
from dicegames.analysis.hint import hint
from dicegames.analysis.simulate import play_one, simulate
from dicegames.analysis.traced import TraceTask, trace_block
from dicegames.bots import MCTSBot, bot_spec, rollout_level
from dicegames.bots.basic import random_policy
from dicegames.bots.rollout import RolloutBot
from dicegames.core import rollout as primitive
from dicegames.core.game import Game, State
from dicegames.core.kernel import kernel_for, to_list
from dicegames.core.model import Seat
from dicegames.core.rollout import (
    BotSpec,
    Horizon,
    RolloutError,
    engine_streams,
    game_seed,
    play_out,
    playouts,
    rollout,
)


def kernel_games() -> list[Any]:
    """One parameter per registered game; those without a kernel are skipped, with the
    reason, rather than left out."""
    return list(_kernel_games())


def _kernel_games() -> Iterator[Any]:
    for spec in dicegames.games():
        game = dicegames.make(spec.id)
        marks = [] if kernel_for(game) is not None else [
            pytest.mark.skip(reason=f"{spec.id} has no kernel for its default options")]
        yield pytest.param(spec.id, marks=marks, id=spec.id)


def midgame(game: Game[Any, Any, Any], moves: int = 12, seed: int = 5) -> State[Any, Any, Any]:
    """A state a few random moves into ``game`` (the game not over)."""
    bots = [bot_spec(game, "easy" if "easy" in names(game) else "random")] * game.players
    state = game.new_state()
    for index in range(moves):
        after = rollout(state, bots, seed, max_moves=1, use_kernel=False).state
        if after.is_terminal:
            break
        state = after
        seed = game_seed(seed, index)
    return state


def names(game: Game[Any, Any, Any]) -> set[str]:
    return {level.name for level in dicegames.bots.bot_levels(game)}


def within(kernel: list[float], engine: list[float]) -> bool:
    """True when the means differ by less than five standard errors and a point."""
    def var(values: list[float]) -> float:
        mean = sum(values) / len(values)
        return sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
    error = math.sqrt(var(kernel) / len(kernel) + var(engine) / len(engine))
    gap = abs(sum(kernel) / len(kernel) - sum(engine) / len(engine))
    return gap < 5 * error + 0.01


# --------------------------------------------------------------------------- kernel vs engine


@pytest.mark.parametrize("game_id", kernel_games())
def test_playouts_through_the_kernel_and_the_engine_agree(game_id: str) -> None:
    game = dicegames.make(game_id)
    bots = [bot_spec(game, rollout_level(game))] * game.players
    start = game.new_state()
    assert primitive.plan(game, [bot.name for bot in bots]).kernel is not None
    fast = playouts(start, bots, 2_000, seed=7)
    slow = playouts(start, bots, 200, seed=7, use_kernel=False)
    assert slow.games == 200 and fast.games == 2_000
    for seat in range(game.players):
        won = [float(w) for w in to_list(fast.winners)[seat::game.players]]
        also = [float(w) for w in slow.winners[seat::game.players]]
        assert within(won, also), (seat, sum(won) / len(won), sum(also) / len(also))
    assert within([float(t) for t in to_list(fast.turns)], [float(t) for t in slow.turns])


@pytest.mark.parametrize("game_id", kernel_games())
def test_rollouts_from_a_midgame_state_agree_through_kernel_and_engine(game_id: str) -> None:
    game = dicegames.make(game_id)
    bots = [bot_spec(game, rollout_level(game))] * game.players
    state = midgame(game)
    fast = [rollout(state, bots, seed).returns() for seed in range(600)]
    slow = [rollout(state, bots, seed, use_kernel=False).returns() for seed in range(150)]
    for seat in range(game.players):
        assert within([r[seat] for r in fast], [r[seat] for r in slow]), seat


@pytest.mark.parametrize("game_id", kernel_games())
def test_the_kernel_path_is_the_kernels_own_rollout_bit_for_bit(game_id: str) -> None:
    game = dicegames.make(game_id)
    bots = [bot_spec(game, rollout_level(game))] * game.players
    state = midgame(game)
    how = primitive.plan(game, [bot.name for bot in bots])
    assert how.kernel is not None and how.policies is not None
    for seed in (1, 2, 3):
        direct = how.kernel.rollout(how.kernel.encode(state.data), how.policies, seed)
        ending = rollout(state, bots, seed)
        assert ending.moves is None  # the kernel played
        assert ending.state == game.state_from(how.kernel.decode(direct))
        assert rollout(state, bots, seed).state == ending.state


# --------------------------------------------------------------------------- the rules


def test_the_engine_path_is_play_out_with_the_seeds_streams() -> None:
    game = dicegames.make("extra-meters", players=3)
    bots = [bot_spec(game, "medium"), bot_spec(game, "easy"), bot_spec(game, "easy")]
    for seed in range(5):
        dice, rngs = engine_streams(seed, game.players)
        agents = [bot.build(game, rng) for bot, rng in zip(bots, rngs, strict=True)]
        by_hand = play_out(game.new_state(), agents, dice)
        ending = rollout(game.new_state(), bots, seed, use_kernel=False)
        assert ending == by_hand and ending.state.is_terminal and ending.moves


class Restless:
    """Decides as ``bot`` does, but draws from its generator first: a bot's own draws."""

    def __init__(self, bot: Any, rng: random.Random) -> None:
        self.bot, self.rng = bot, rng

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        self.rng.random()
        action: Hashable = self.bot.choose(state, seat)
        return action


def test_the_dice_do_not_depend_on_what_the_bots_draw() -> None:
    # Same seed, same decisions: the same game, however much the bots draw on the way.
    game = dicegames.make("extra-meters", players=2)
    medium = bot_spec(game, "medium")
    calm = [BotSpec(None, medium.factory)] * 2
    restless = [BotSpec(None, lambda g, rng: Restless(medium.build(g, rng), rng))] * 2
    for seed in range(10):
        assert rollout(game.new_state(), calm, seed).state == \
            rollout(game.new_state(), restless, seed).state


def test_the_horizon_stops_at_the_seats_next_turn_on_both_paths() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    bots = [bot_spec(game, "medium")] * 2
    state = midgame(game)
    seat = state.turn.seat
    for use_kernel in (True, False):
        ending = rollout(state, bots, 3, horizon=Horizon(seat, 0), use_kernel=use_kernel)
        reached = ending.state
        assert reached.is_terminal or (reached.turn.seat == seat
                                       and reached.turn.number != state.turn.number)


def test_the_cap_stops_a_game_and_says_so() -> None:
    game = dicegames.make("extra-meters", players=2)
    ending = rollout(game.new_state(), [bot_spec(game, "medium")] * 2, 1, max_moves=3,
                     use_kernel=False)
    assert ending.capped and ending.moves == 3 and not ending.state.is_terminal
    with pytest.raises(RolloutError, match="before the end"):
        ending.returns()
    assert primitive.MAX_MOVES == 200_000


def test_an_illegal_choice_raises() -> None:
    game = dicegames.make("extra-meters", players=2)
    cheat = BotSpec(None, lambda g, rng: type("Cheat", (), {
        "choose": lambda self, state, seat: "fly"})())
    with pytest.raises(RolloutError, match="chose fly, which is not legal"):
        rollout(game.new_state(), [cheat] * 2, 1)


# --------------------------------------------------------------------------- every loop


@pytest.fixture
def through(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records each rollout that goes through the primitive: ``"kernel"`` when it asked
    which path plays, ``"engine"`` for each roll of the primitive's engine loop."""
    seen: list[str] = []
    plan, sample = primitive._plan, getattr(primitive, "sample")  # noqa: B009

    def counted_plan(game: Any, names: tuple[str | None, ...]) -> Any:
        seen.append("kernel")
        return plan(game, names)

    def counted_sample(distribution: Any, rng: random.Random) -> Any:
        seen.append("engine")
        return sample(distribution, rng)

    monkeypatch.setattr(primitive, "_plan", counted_plan)
    monkeypatch.setattr(primitive, "sample", counted_sample)
    return seen


def decision(game: Game[Any, Any, Any]) -> State[Any, Any, Any]:
    """The first decision with a real choice of a game played by random dice and bots."""
    state = midgame(game, 4)
    bots = [bot_spec(game, "random")] * game.players
    seed = 11
    while state.is_chance or state.is_terminal or len(
            state.legal_actions(state.current_players[0])) < 2:
        state = game.new_state() if state.is_terminal else rollout(
            state, bots, seed, max_moves=1, use_kernel=False).state
        seed += 1
    return state


def simulate_engine() -> Callable[[], object]:
    return lambda: simulate(dicegames.make("monza"), ["medium", "easy"], 2, seed=1,
                            kernel=False)


def simulate_kernel() -> Callable[[], object]:
    return lambda: simulate(dicegames.make("monza"), ["medium", "easy"], 2, seed=1)


def one_game() -> Callable[[], object]:
    game = dicegames.make("monza")
    agents = [bot_spec(game, "easy").build(game, random.Random(seat)) for seat in (0, 1)]
    return lambda: play_one(game, agents, random.Random(3))


def a_hint() -> Callable[[], object]:
    # Three cars: two-player Monza is solved, and its hints read the exact tables instead.
    state = decision(dicegames.make("monza", players=3))
    return lambda: hint(state, rollouts=2)


def an_estimate() -> Callable[[], object]:
    game = dicegames.make("shortcut")
    state = decision(game)
    return lambda: Rollouts(game, 2).position(state)


def a_quick_hint() -> Callable[[], object]:
    game = dicegames.make("monza", players=3)  # two-player Monza is solved (exact hints)
    state = decision(game)
    job = HintJob("monza", 3, {}, game.position(state), state.current_players[0], 1,
                  rollouts=2)
    return lambda: hint_within(job, deadline=math.inf)


def traced_games() -> Callable[[], object]:
    return lambda: trace_block(TraceTask("extra-meters", 2, {}, ("medium", "easy"), 1, 0, 2,
                                         0))


def searched(bot: Any, game: Game[Any, Any, Any]) -> Callable[[], object]:
    state = decision(game)
    return lambda: bot.choose(state, state.current_players[0])


def rollout_bot() -> Callable[[], object]:
    return searched(RolloutBot(random.Random(1), policy=random_policy,
                               evaluator=lambda state, seat: 0.5, rollouts=4),
                    dicegames.make("extra"))


def mcts_bot() -> Callable[[], object]:
    return searched(MCTSBot(random.Random(1), simulations=4), dicegames.make("shortcut"))


def monza_figures() -> Callable[[], object]:
    from dicegames.games.monza.figures import measure

    return lambda: measure(games=2)


LOOPS: dict[str, Callable[[], Callable[[], object]]] = {
    "simulate (engine)": simulate_engine,
    "simulate (kernel)": simulate_kernel,
    "play_one": one_game,
    "hint": a_hint,
    "estimate's Rollouts": an_estimate,
    "anytime's hint": a_quick_hint,
    "traced games": traced_games,
    "RolloutBot": rollout_bot,
    "MCTSBot": mcts_bot,
    "Monza's figures": monza_figures,
}
"""Each loop that played games before the primitive existed: a setup returning the run."""


@pytest.mark.parametrize("loop", list(LOOPS))
def test_every_loop_that_plays_games_goes_through_the_primitive(
        loop: str, through: list[str]) -> None:
    run = LOOPS[loop]()
    through.clear()
    run()
    assert through, f"{loop} played its games without the rollout primitive"
