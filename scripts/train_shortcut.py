"""Train the ``trained`` level of Shortcut: the weights of :mod:`.kernel_trained`.

The level keeps ``hard``'s exact search over the turn and values the end of the turn by
``hard``'s chance plus ``weights · features``, the features being the exact two-player
chances against each opponent (dicegames.games.shortcut.kernel_trained). This script fits
the weights with the **cross-entropy method** over whole games played by the compiled
kernel: each generation draws ``--population`` weight vectors from a Gaussian and plays
each one against ``hard`` bots ``--games`` times, half of them with three players and half
with four, the trained car in every seat in turn (every candidate of a generation on the
same dice, common random numbers, so that they are compared on equal luck); the Gaussian is
refitted to the best ``--elite`` by their wins beyond a fair share. The search starts at
zero weights, that is at ``hard`` itself. The final mean is then measured on
``--eval-games`` fresh games per player count (seeds kept apart from training), with 95%
Wilson intervals against the fair share (1/3 and 1/4), and written to the weights file with
the settings and the figures::

    nice -n 10 .venv/bin/python scripts/train_shortcut.py --seed 1 \\
        --write src/dicegames/games/shortcut/trained_weights.json

Reproducible from ``--seed`` (numpy's generator for the candidates, the kernel's seeded
dice for the games). numpy is needed, numba for the speed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import dicegames
from dicegames.analysis.cem import cross_entropy
from dicegames.analysis.stats import wilson_interval
from dicegames.core.files import write_bytes
from dicegames.core.kernel import kernel_for
from dicegames.games.shortcut.kernel import ShortcutKernel
from dicegames.games.shortcut.kernel_trained import FEATURES
from dicegames.games.shortcut.trained import FEATURE_NAMES, parse_weights, weights_text

Vector = npt.NDArray[np.float64]

PLAYER_COUNTS = (3, 4)
"""The player counts the weights are fitted and measured on."""

SPREAD = 0.3
"""The first generation's standard deviation of every weight (the features are chances
and flags, a leaf's value a chance)."""

FLOOR = 0.02
"""The least standard deviation kept when the Gaussian is refitted (so that the search
never freezes early)."""

EVAL_SEED = 1 << 40
"""Seeds of the final measurement start here: never those of training."""


@dataclass(slots=True)
class Training:
    """What a run found and measured."""

    weights: list[float]
    """The final mean of the weights."""
    shares: dict[int, tuple[float, float, float]]
    """By player count: the trained car's share of wins against ``hard`` bots in the
    measurement, and its 95% Wilson interval."""
    games: int
    """Games of the measurement, per player count."""
    seconds: float
    """Training and measurement time (wall clock)."""
    history: list[float] = field(default_factory=list)
    """The elites' mean score (wins beyond the fair share) of each generation."""


class Arena:
    """The trained car against ``hard`` bots, one kernel per player count."""

    def __init__(self) -> None:
        self.kernels: dict[int, ShortcutKernel] = {}
        self.starts: dict[int, Any] = {}
        for players in PLAYER_COUNTS:
            game = dicegames.make("shortcut", players=players)
            kernel = kernel_for(game)
            assert isinstance(kernel, ShortcutKernel)
            self.kernels[players] = kernel
            self.starts[players] = game.new_state().data

    def wins(self, weights: Sequence[float], players: int, games: int, seed: int
             ) -> tuple[int, int]:
        """The trained car's wins and games among ``games`` games of ``players`` (the car
        in each seat for an equal share of them; game seeds from ``seed``)."""
        kernel = self.kernels[players]
        kernel.trained_weights = weights
        share = max(1, games // players)
        won = 0
        for seat in range(players):
            policies = ["hard"] * players
            policies[seat] = "trained"
            outcome = kernel.playouts(self.starts[players], policies, share, seed + seat)
            won += int(np.asarray(outcome.winners).reshape(-1, players)[:, seat].sum())
        return won, share * players

    def score(self, weights: Sequence[float], games: int, seed: int) -> float:
        """Wins beyond the fair share, averaged over the player counts."""
        total = 0.0
        for players in PLAYER_COUNTS:
            won, played = self.wins(weights, players, games // len(PLAYER_COUNTS),
                                    seed + 16 * players)
            total += won / played - 1 / players
        return total / len(PLAYER_COUNTS)


def train(seed: int, *, generations: int, population: int, elite: int, games: int,
          eval_games: int, spread: float = SPREAD, start: Sequence[float] | None = None,
          log: bool = True) -> Training:
    """Run the cross-entropy method (see the module docstring) and measure its result;
    ``start``: the first mean (zero weights, that is ``hard``, by default)."""
    started = time.perf_counter()
    arena = Arena()
    found = cross_entropy(lambda c, dice: arena.score(c, games, dice),
                          np.zeros(FEATURES) if start is None else np.array(start, dtype=float),
                          np.full(FEATURES, spread), seed=seed, generations=generations,
                          population=population, elite=elite, floor=FLOOR, dice_stride=64,
                          log="+.4f" if log else None)
    mean, history = found.mean, found.history
    weights = [float(w) for w in mean]
    shares: dict[int, tuple[float, float, float]] = {}
    measured = 0
    for players in PLAYER_COUNTS:
        won, measured = arena.wins(weights, players, eval_games, EVAL_SEED + seed)
        low, high = wilson_interval(won, measured)
        shares[players] = (won / measured, low, high)
    return Training(weights, shares, measured, time.perf_counter() - started, history)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--population", type=int, default=12)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--games", type=int, default=4000,
                        help="games per candidate and generation (over both player counts)")
    parser.add_argument("--eval-games", type=int, default=40_000,
                        help="games of the final measurement, per player count")
    parser.add_argument("--spread", type=float, default=SPREAD,
                        help="the first generation's standard deviation of each weight")
    parser.add_argument("--start", metavar="PATH",
                        help="start from the weights of this file (e.g. a shorter run's)")
    parser.add_argument("--write", metavar="PATH", help="write the weights file there")
    args = parser.parse_args(argv)
    if not 1 <= args.elite <= args.population:
        parser.error(f"--elite must be from 1 to --population ({args.population})")
    start = None
    if args.start:
        with open(args.start, encoding="utf-8") as weights:
            start = parse_weights(weights.read())
    result = train(args.seed, generations=args.generations, population=args.population,
                   elite=args.elite, games=args.games, eval_games=args.eval_games,
                   spread=args.spread, start=start)
    for players, (share, low, high) in result.shares.items():
        print(f"trained vs {players - 1} hard: {share:.4f} [{low:.4f}, {high:.4f}] over "
              f"{result.games} games (fair share {1 / players:.4f})")
    print(f"{result.seconds:.0f} s")
    for name, weight in zip(FEATURE_NAMES, result.weights, strict=True):
        print(f"  {name:14} {weight:9.4f}")
    if args.write:
        text = weights_text(
            result.weights, version=f"cem-seed{args.seed}",
            trainer={"script": "scripts/train_shortcut.py", "seed": args.seed,
                     "generations": args.generations, "population": args.population,
                     "elite": args.elite, "games": args.games, "spread": args.spread,
                     "start": args.start},
            measured={"against": "hard in every other seat, seats rotated",
                      "games": result.games,
                      "win_rate": {str(p): round(s[0], 4) for p, s in result.shares.items()},
                      "interval": {str(p): [round(s[1], 4), round(s[2], 4)]
                                   for p, s in result.shares.items()},
                      "seconds": round(result.seconds)})
        write_bytes(Path(args.write), text.encode())  # atomic, only onto a regular file
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
