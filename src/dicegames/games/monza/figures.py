"""The circuit's published figures: squares per turn and game length, by simulation.

``dicegames simulate`` reports win shares and turns; a circuit is tuned on two more numbers
that only this game knows how to count: squares moved per turn (steps, i.e. dice used) and
rounds per game. Run ``python -m dicegames.games.monza.figures`` to reproduce the table in
the rules page (seeded, so the same figures come out every time).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from dicegames.bots import make_bot
from dicegames.core.chance import sample
from dicegames.core.registry import configure
from dicegames.games.monza.data import Step


@dataclass(frozen=True, slots=True)
class Figures:
    """Means over many games: squares per turn, rounds, and the longest game in rounds."""

    games: int
    squares_per_turn: float
    rounds: float
    longest: int


def measure(players: int = 2, level: str = "medium", games: int = 1000, seed: int = 2026,
            options: Mapping[str, object] | None = None) -> Figures:
    """Play ``games`` games between ``players`` bots of ``level`` and count."""
    game = configure("monza", players, options)
    rng = random.Random(seed)
    bots = [make_bot(game, level, random.Random(seed + 1 + s)) for s in range(players)]
    steps = turns = 0
    rounds: list[int] = []
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
                continue
            seat = state.current_players[0]
            action = bots[seat].choose(state, seat)
            steps += isinstance(action, Step)
            state = state.apply_unchecked(action, seat)
        turns += state.turn.number
        rounds.append((state.turn.number + players - 1) // players)
    return Figures(games, steps / turns, sum(rounds) / games, max(rounds))


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
