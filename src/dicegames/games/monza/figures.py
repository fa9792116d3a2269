"""The circuit's published figures: squares per turn and game length, by simulation.

``dicegames simulate`` reports win shares and turns; a circuit is tuned on two more numbers
that only this game knows how to count: squares moved per turn (steps, i.e. dice used) and
rounds per game. Run ``python -m dicegames.games.monza.figures`` to reproduce the table in
the rules page (seeded, so the same figures come out every time).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from dicegames.bots import bot_spec
from dicegames.core.game import State
from dicegames.core.model import Agent, Seat
from dicegames.core.registry import configure
from dicegames.core.rollout import MAX_MOVES, BotSpec, game_seed, rollout, runaway
from dicegames.games.monza.data import Step


@dataclass(frozen=True, slots=True)
class Figures:
    """Means over many games: squares per turn, rounds, and the longest game in rounds."""

    games: int
    squares_per_turn: float
    rounds: float
    longest: int


class _Counted:
    """A bot that counts the squares it moves (its steps) into a shared tally."""

    def __init__(self, bot: Agent, tally: list[int]) -> None:
        self.bot, self.tally = bot, tally

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """The bot's choice, counted when it is a step."""
        action = self.bot.choose(state, seat)
        self.tally[0] += isinstance(action, Step)
        return action


def measure(players: int = 2, level: str = "medium", games: int = 1000, seed: int = 2026,
            options: Mapping[str, object] | None = None) -> Figures:
    """Play ``games`` games between ``players`` bots of ``level`` and count.

    Game ``i`` is the rollout primitive's (:func:`dicegames.core.rollout.rollout`) with the
    seed ``game_seed(seed, i)``, on the engine (the counting bots have no kernel policy).
    """
    game = configure("monza", players, options)
    level_bot = bot_spec(game, level)
    steps = [0]
    counted = BotSpec(None, lambda game, rng: _Counted(level_bot.build(game, rng), steps))
    turns = 0
    rounds: list[int] = []
    first = game.new_state()
    for index in range(games):
        ending = rollout(first, [counted] * players, game_seed(seed, index))
        if ending.capped:
            raise runaway(game, MAX_MOVES)
        turns += ending.state.turn.number
        rounds.append((ending.state.turn.number + players - 1) // players)
    return Figures(games, steps[0] / turns, sum(rounds) / games, max(rounds))


def main() -> None:
    """Print the figures of the rules page."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rows: list[tuple[int, str, dict[str, object]]] = [
        (2, "medium", {}), (2, "easy", {}), (2, "medium", {"compulsion": "greedy"}),
        (2, "medium", {"variant_last_colour": True}), (4, "medium", {}), (6, "medium", {})]
    print("| players | bots | options | squares per turn | rounds (mean) | longest game |")
    print("|---|---|---|---|---|---|")
    for players, level, options in rows:
        f = measure(players, level, games, options=options)
        shown = ", ".join(f"`{k}={str(v).lower()}`" for k, v in options.items()) or "defaults"
        print(f"| {players} | `{level}` | {shown} | {f.squares_per_turn:.2f} | "
              f"{f.rounds:.1f} | {f.longest} |")


if __name__ == "__main__":
    main()
