"""Train Monza's ``trained`` level: the weights of :mod:`dicegames.games.monza.kernel_trained`.

The level plays ``hard``'s score of each end of a move plus ``weights · features`` of what
the move leaves (how likely the players after the next one are to push the car back, the
race value at once, the push made, the dice used, the steps gained, the lead). This script
fits the weights with the **cross-entropy method** over whole games played by the compiled
kernel: each generation draws ``--population`` weight vectors from a Gaussian, plays each one
against ``hard`` bots at every count of ``--players`` (seats rotated; every candidate of a
generation on the same dice, common random numbers), and refits the Gaussian to the best
``--elite``. The search starts at zero weights, that is at ``hard`` itself.

The result is then measured per player count on ``--eval-games`` fresh games (seeds kept
apart from training), **paired**: the same games are played again with ``hard`` (zero
weights) in the trained seat, so the figure is the difference of the two win shares on equal
luck, with a 95% interval over the games (a tie counts as a win for each car tied)::

    nice -n 10 .venv/bin/python scripts/train_monza.py --seed 1 \\
        --write src/dicegames/games/monza/trained_weights.json

Reproducible from ``--seed`` (numpy's generator for the candidates, the kernel's seeded dice
for the games). numpy is needed, numba for the speed.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

import dicegames
from dicegames.analysis.cem import cross_entropy
from dicegames.core.files import write_bytes
from dicegames.core.kernel import kernel_for
from dicegames.games.monza.kernel import MonzaKernel
from dicegames.games.monza.kernel_trained import FEATURES
from dicegames.games.monza.trained import FEATURE_NAMES, parse_weights, weights_text

Vector = npt.NDArray[np.float64]

PLAYERS = (3, 4, 5, 6)
"""The player counts the level is fitted and measured on."""

SPREAD: dict[str, float] = {
    "exposure": 0.05, "exposure_loss": 0.05, "exposure_value": 0.5, "race_now": 0.3, "pushed": 0.05,
    "used": 0.02, "gain": 0.05, "lead": 0.05,
}
"""The first generation's standard deviation of each weight (hard's scores are win chances:
the ends of one move differ by a few hundredths)."""

FLOOR = 0.05
"""The least standard deviation kept when the Gaussian is refitted, as a share of the first
generation's (so that the search never freezes early)."""

EVAL_SEED = 1 << 40
"""Seeds of the final measurement start here: never those of training."""


@dataclass(slots=True)
class Measure:
    """The trained level against ``hard`` at one player count, paired on the same games."""

    players: int
    games: int
    trained: float
    """The trained seat's win share (a tie counts for each car tied)."""
    hard: float
    """``hard``'s share in that seat on the same games."""
    interval: tuple[float, float]
    """The 95% interval of ``trained - hard`` (normal, over the games' paired differences)."""


@dataclass(slots=True)
class Training:
    """What a run found and measured."""

    weights: list[float]
    """The final mean of the weights."""
    measures: list[Measure]
    """The measurement per player count."""
    seconds: float
    """Training and measurement time (wall clock)."""
    history: list[float] = field(default_factory=list)
    """The elites' mean share of each generation (in training, on its own dice)."""


def _kernels(players: Sequence[int]) -> list[tuple[MonzaKernel, object]]:
    """One kernel and first state per player count."""
    found = []
    for count in players:
        game = dicegames.make("monza", players=count)
        kernel = kernel_for(game)
        assert isinstance(kernel, MonzaKernel)
        found.append((kernel, game.new_state().data))
    return found


def wins(kernel: MonzaKernel, data: object, weights: Sequence[float], games: int,
         seed: int) -> npt.NDArray[np.int64]:
    """Per game, 1 where the ``trained`` policy with ``weights`` wins against ``hard`` bots
    (the seats rotated: game ``g`` in seat ``g mod players``; game seeds from ``seed``)."""
    players = kernel.players
    kernel.learned = tuple(float(w) for w in weights)
    share = max(1, games // players)
    won = []
    for seat in range(players):
        policies = ["hard"] * players
        policies[seat] = "trained"
        outcome = kernel.playouts(data, policies, share, seed + seat)
        won.append(np.asarray(outcome.winners).reshape(-1, players)[:, seat])
    return np.stack(won, axis=1).reshape(-1).astype(np.int64)


def fitness(kernels: list[tuple[MonzaKernel, object]], weights: Sequence[float], games: int,
            seed: int) -> float:
    """The mean over player counts of the win share times the count (1 is hard's level)."""
    return float(np.mean([wins(k, d, weights, games, seed + 16 * i).mean() * k.players
                          for i, (k, d) in enumerate(kernels)]))


def measure(kernel: MonzaKernel, data: object, weights: Sequence[float], games: int,
            seed: int) -> Measure:
    """The paired measurement (see the module docstring) at ``kernel``'s player count."""
    trained = wins(kernel, data, weights, games, seed)
    hard = wins(kernel, data, [0.0] * FEATURES, games, seed)
    diff = trained - hard
    half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
    mean = float(diff.mean())
    return Measure(kernel.players, len(diff), float(trained.mean()), float(hard.mean()),
                   (mean - half, mean + half))


def train(seed: int, *, generations: int, population: int, elite: int, games: int,
          eval_games: int, players: Sequence[int] = PLAYERS,
          start: Sequence[float] | None = None, log: bool = True) -> Training:
    """Run the cross-entropy method (see the module docstring) and measure its result;
    ``start``: the first mean (zero weights, that is ``hard``, by default)."""
    started = time.perf_counter()
    kernels = _kernels(players)
    initial: Vector = np.array([SPREAD[name] for name in FEATURE_NAMES])
    found = cross_entropy(lambda c, dice: fitness(kernels, c, games, dice),
                          np.zeros(FEATURES) if start is None else np.array(start, dtype=float),
                          initial, seed=seed, generations=generations, population=population,
                          elite=elite, floor=FLOOR * initial, dice_stride=256,
                          log=".4f" if log else None)
    mean, history = found.mean, found.history
    weights = [float(w) for w in mean]
    measures = [measure(k, d, weights, eval_games, EVAL_SEED + seed + 64 * i)
                for i, (k, d) in enumerate(kernels)]
    return Training(weights, measures, time.perf_counter() - started, history)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=8)
    parser.add_argument("--population", type=int, default=10)
    parser.add_argument("--elite", type=int, default=3)
    parser.add_argument("--games", type=int, default=2400,
                        help="games per candidate, generation and player count")
    parser.add_argument("--eval-games", type=int, default=60_000,
                        help="games per player count in the final measurement")
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYERS))
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
                   players=args.players, start=start)
    for m in result.measures:
        low, high = m.interval
        print(f"{m.players} players: trained {m.trained:.4f}, hard {m.hard:.4f} on the same "
              f"{m.games} games; difference [{low:+.4f}, {high:+.4f}]")
    print(f"{result.seconds:.0f} s")
    for name, weight in zip(FEATURE_NAMES, result.weights, strict=True):
        print(f"  {name:14} {weight:9.4f}")
    if args.write:
        text = weights_text(
            result.weights, version=f"cem-seed{args.seed}",
            trainer={"script": "scripts/train_monza.py", "seed": args.seed,
                     "generations": args.generations, "population": args.population,
                     "elite": args.elite, "games": args.games, "players": args.players,
                     "start": args.start},
            measured={"against": "hard in every other seat, seats rotated, paired games",
                      "seconds": round(result.seconds),
                      "by_players": [{"players": m.players, "games": m.games,
                                      "trained": round(m.trained, 4),
                                      "hard": round(m.hard, 4),
                                      "difference": [round(v, 4) for v in m.interval]}
                                     for m in result.measures]})
        write_bytes(Path(args.write), text.encode())  # atomic, only onto a regular file
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
