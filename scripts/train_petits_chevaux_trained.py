"""Train the ``trained`` level of Petits Chevaux: the weights of :mod:`.kernel_trained`.

The level plays ``hard``'s score of each move plus ``weights · features`` of what the move
leaves (dicegames.games.petits_chevaux.kernel_trained). This script fits the weights with
the **cross-entropy method** over whole games played by the compiled kernel: each
generation draws ``--population`` weight vectors from a Gaussian, plays each one in a
4-player game against three ``medium`` bots ``--games`` times (seats rotated: a quarter of
the games in each seat; every candidate of a generation on the same dice, common random
numbers, so that they are compared on equal luck), and refits the Gaussian to the best
``--elite``. The search starts at zero weights, that is at ``hard`` itself. The final mean
is then measured on ``--eval-games`` fresh games (seeds kept apart from training) with a
95% Wilson interval, beside ``hard`` (zero weights) on the same games, and written to the
weights file with the settings and the figures::

    nice -n 10 .venv/bin/python scripts/train_petits_chevaux_trained.py --seed 1 \\
        --write src/dicegames/games/petits_chevaux/trained_weights.json

Reproducible from ``--seed`` (numpy's generator for the candidates, the kernel's seeded
dice for the games). numpy is needed, numba for the speed.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

import dicegames
from dicegames.analysis.stats import wilson_interval
from dicegames.core.files import write_bytes
from dicegames.core.kernel import float_array, kernel_for
from dicegames.games.petits_chevaux import kernel_play as play
from dicegames.games.petits_chevaux.kernel import PetitsChevauxKernel
from dicegames.games.petits_chevaux.kernel_trained import FEATURES
from dicegames.games.petits_chevaux.trained import FEATURE_NAMES, parse_weights, weights_text

Vector = npt.NDArray[np.float64]

PLAYERS = 4
"""The trained level is fitted on four players (and plays every count)."""

POINTS = 3.0
"""How much the first generation's weights change a move's score, in ``hard``'s points (a
capture is worth about 100 plus half the victim's progress, a square of progress 0.15)."""

TYPICAL: dict[str, float] = {
    "threat_near": 0.5, "threat_far": 0.5, "enters_stable": 1.0, "makes_barrage": 1.0,
    "breaks_barrage": 1.0, "captures_leader": 1.0, "capture_worth": 0.5, "on_track": 0.5,
    "moves_leader": 1.0, "risk_when_ahead": 0.05, "held_up": 0.5, "out_busy": 0.5,
    "loss_after": 0.2, "target": 0.5, "moved_from": 0.5, "stable_depth": 0.5,
    "capture_behind": 0.1, "lead": 0.025,
}
"""How much each feature typically differs between two moves: the first generation's
standard deviation of a weight is :data:`POINTS` divided by it."""

FLOOR = 0.05
"""The least standard deviation kept when the Gaussian is refitted, as a share of the first
generation's (so that the search never freezes early)."""

EVAL_SEED = 1 << 40
"""Seeds of the final measurement start here: never those of training."""


@dataclass(slots=True)
class Training:
    """What a run found and measured."""

    weights: list[float]
    """The final mean of the weights."""
    win_rate: float
    """Its share of wins against three ``medium`` bots in the measurement."""
    interval: tuple[float, float]
    """The 95% Wilson interval of that share."""
    games: int
    """Games of the measurement."""
    hard_rate: float
    """``hard``'s share (zero weights) on the same games: the paired baseline."""
    seconds: float
    """Training and measurement time (wall clock)."""
    history: list[float] = field(default_factory=list)
    """The elites' mean share of each generation (in training, on its own dice)."""


def win_share(kernel: PetitsChevauxKernel, data: object, weights: Sequence[float],
              games: int, seed: int) -> float:
    """The share of ``games`` the ``trained`` policy with ``weights`` wins against three
    ``medium`` bots, a quarter of the games in each seat (game seeds from ``seed``)."""
    base = kernel.tabs
    kernel.tabs = play.Tables(base.cfg, base.paths, float_array([float(w) for w in weights]))
    try:
        won = 0
        quarter = max(1, games // PLAYERS)
        for seat in range(PLAYERS):
            policies = ["medium"] * PLAYERS
            policies[seat] = "trained"
            outcome = kernel.playouts(data, policies, quarter, seed + seat)
            won += int(np.asarray(outcome.winners).reshape(-1, PLAYERS)[:, seat].sum())
        return won / (quarter * PLAYERS)
    finally:
        kernel.tabs = base


def train(seed: int, *, generations: int, population: int, elite: int, games: int,
          eval_games: int, points: float = POINTS, start: Sequence[float] | None = None,
          log: bool = True) -> Training:
    """Run the cross-entropy method (see the module docstring) and measure its result;
    ``start``: the first mean (zero weights, that is ``hard``, by default)."""
    started = time.perf_counter()
    game = dicegames.make("petits-chevaux", players=PLAYERS)
    kernel = kernel_for(game)
    assert isinstance(kernel, PetitsChevauxKernel)
    data = game.new_state().data
    rng = np.random.default_rng(seed)
    mean: Vector = np.zeros(FEATURES) if start is None else np.array(start, dtype=float)
    initial: Vector = np.array([points / TYPICAL[name] for name in FEATURE_NAMES])
    spread = initial.copy()
    history: list[float] = []
    for generation in range(generations):
        candidates = mean + spread * rng.standard_normal((population, FEATURES))
        candidates[0] = mean  # the current mean competes on the same dice
        dice = seed * 1_000_003 + generation * 4
        shares = np.array([win_share(kernel, data, c, games, dice) for c in candidates])
        best = np.argsort(-shares, kind="stable")[:elite]
        mean = candidates[best].mean(axis=0)
        spread = np.maximum(candidates[best].std(axis=0), FLOOR * initial)
        history.append(float(shares[best].mean()))
        if log:
            print(f"generation {generation + 1}/{generations}: elite {history[-1]:.4f}, "
                  f"mean's own {shares[0]:.4f}, best {shares[best[0]]:.4f} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    weights = [float(w) for w in mean]
    share = win_share(kernel, data, weights, eval_games, EVAL_SEED + seed)
    hard = win_share(kernel, data, [0.0] * FEATURES, eval_games, EVAL_SEED + seed)
    measured = PLAYERS * max(1, eval_games // PLAYERS)
    low, high = wilson_interval(round(share * measured), measured)
    return Training(weights, share, (low, high), measured, hard,
                    time.perf_counter() - started, history)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=16)
    parser.add_argument("--population", type=int, default=14)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--games", type=int, default=4000,
                        help="games per candidate and generation")
    parser.add_argument("--eval-games", type=int, default=40_000)
    parser.add_argument("--points", type=float, default=POINTS,
                        help="the first generation's spread, in hard's points")
    parser.add_argument("--start", metavar="PATH",
                        help="start from the weights of this file (e.g. a shorter run's)")
    parser.add_argument("--write", metavar="PATH", help="write the weights file there")
    args = parser.parse_args(argv)
    start = None
    if args.start:
        with open(args.start, encoding="utf-8") as weights:
            start = parse_weights(weights.read())
    result = train(args.seed, generations=args.generations, population=args.population,
                   elite=args.elite, games=args.games, eval_games=args.eval_games,
                   points=args.points, start=start)
    low, high = result.interval
    print(f"trained vs 3 medium: {result.win_rate:.4f} [{low:.4f}, {high:.4f}] over "
          f"{result.games} games (hard on the same dice: {result.hard_rate:.4f}); "
          f"{result.seconds:.0f} s")
    for name, weight in zip(FEATURE_NAMES, result.weights, strict=True):
        print(f"  {name:16} {weight:9.3f}")
    if args.write:
        text = weights_text(
            result.weights, version=f"cem-seed{args.seed}",
            trainer={"script": "scripts/train_petits_chevaux_trained.py", "seed": args.seed,
                     "generations": args.generations, "population": args.population,
                     "elite": args.elite, "games": args.games, "points": args.points,
                     "start": args.start},
            measured={"against": "3 medium, 4 players, seats rotated",
                      "games": result.games, "win_rate": round(result.win_rate, 4),
                      "interval": [round(low, 4), round(high, 4)],
                      "hard_same_games": round(result.hard_rate, 4),
                      "seconds": round(result.seconds)})
        write_bytes(Path(args.write), text.encode())  # atomic, only onto a regular file
    return 0 if math.isfinite(result.win_rate) else 1


if __name__ == "__main__":
    raise SystemExit(main())
