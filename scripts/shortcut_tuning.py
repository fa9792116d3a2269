"""How the default board was tuned: pure strategies against the mixed one, by simulation.

RULINGS.md asks for a board where neither "always road" nor "always shortcut" dominates a
sensible mix. This module plays those strategies against each other (two players, seats
alternating, seeded) and prints win shares with 95% Wilson intervals and the mean game
length, the figures published on the rules page::

    python scripts/shortcut_tuning.py [--games 4000] [--seed 2026] [--board PATH]

The strategies: ``road`` declares the road every turn (never leaving it, so it needs the
exact count at the end); ``shortcut`` declares the shortcut every turn, pressing and stopping
as the medium bot does; ``medium`` is the medium bot (the sensible mix); ``solo`` plays the best
play of the one-car race (fewest expected turns, other cars ignored but for blocking);
``hard`` is the hard bot.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Hashable
from typing import Any

from dicegames.analysis.simulate import play_one
from dicegames.analysis.stats import wilson_interval
from dicegames.bots import PolicyBot
from dicegames.core.game import State
from dicegames.core.model import Agent, Seat
from dicegames.core.registry import make
from dicegames.games.shortcut.data import Declaration, Phase
from dicegames.games.shortcut.heuristics import HardBot, medium_policy, solo_policy


def road_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """Always the road (the pure "main road" strategy)."""
    return Declaration.ROAD


def shortcut_policy(state: State[Any, Any, Any], seat: Seat, rng: random.Random) -> Hashable:
    """Always the shortcut, pressing and stopping by the medium bot's rule."""
    if state.data.phase is Phase.DECLARE:
        return Declaration.SHORTCUT
    return medium_policy(state, seat, rng)


def agent(name: str, rng: random.Random) -> Agent:
    """A strategy by name: road, shortcut, medium, solo or hard."""
    if name == "hard":
        return HardBot(rng)
    policy = {"road": road_policy, "shortcut": shortcut_policy, "medium": medium_policy,
              "solo": solo_policy}[name]
    return PolicyBot(policy, rng)


def duel(first: str, second: str, games: int, seed: int, board: str = "default"
         ) -> tuple[float, float, float, float]:
    """``first`` against ``second``, seats alternating: first's win share, its 95% interval
    and the mean number of turns per game."""
    game = make("shortcut", players=2, board=board)
    wins = 0
    turns = 0
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        names = (first, second) if index % 2 == 0 else (second, first)
        agents = [agent(name, random.Random(rng.getrandbits(64))) for name in names]
        outcome = play_one(game, agents, random.Random(rng.getrandbits(64)), 100_000)
        winner_seat = outcome.winners[0]
        wins += (winner_seat == 0) == (index % 2 == 0)
        turns += outcome.turns
    low, high = wilson_interval(wins, games)
    return wins / games, low, high, turns / games


def main(argv: list[str] | None = None) -> None:
    """Print the duels of the tuning table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--board", default="default")
    parser.add_argument("--bots", action="store_true",
                        help="also the duels of solo and hard against medium and each other")
    args = parser.parse_args(argv)
    pairs = [("medium", "road"), ("medium", "shortcut"), ("road", "shortcut"),
             ("medium", "medium")]
    if args.bots:
        pairs += [("solo", "medium"), ("hard", "solo"), ("hard", "medium")]
    print("| duel | games | win share of the first | 95% interval | mean turns |")
    print("|---|---|---|---|---|")
    for first, second in pairs:
        share, low, high, turns = duel(first, second, args.games, args.seed, args.board)
        print(f"| `{first}` vs `{second}` | {args.games} | {100 * share:.1f}% | "
              f"[{100 * low:.1f}, {100 * high:.1f}] | {turns:.1f} |")


if __name__ == "__main__":
    main()
