"""Train the ``trained`` level of EXTRA!: the weights of :mod:`dicegames.games.extra.trained`.

The level values a decision by the sheet it leaves, as ``hard`` does, with learned weights:
the focus, the bonus per expected roll left, a start cost per row and a cost per face written
as a new EXTRA number. This script fits them with the **cross-entropy method** over whole
solo games played by the compiled kernel: each generation draws ``--population`` weight
vectors from a Gaussian (the current mean is one of them), plays each ``--games`` solo games
on the same dice (common random numbers: every candidate meets the same rolls, so that they
are compared on equal luck), and refits the Gaussian to the ``--elite`` of highest mean
score. The search starts at ``hard``'s tuning (:func:`.trained.hard_weights`).

The final mean is then measured on ``--eval-games`` fresh solo games (seeds kept apart from
training) beside ``hard`` on the same dice: both means and the paired difference with its
95% interval; and, with ``--eval-multi`` games per player count 2-6, its share of wins in
one seat against ``hard`` in the others, seats rotated, with a 95% Wilson interval (a win
shared by k players counts 1/k: everyone meets the same rolls, so the ``hard`` seats always
tie among themselves, and two equal policies always tie). The weights, the settings and the
figures go to the weights file::

    nice -n 10 .venv/bin/python scripts/train_extra.py --seed 1 \\
        --write src/dicegames/games/extra/trained_weights.json

Reproducible from ``--seed`` (numpy's generator for the candidates, the kernel's seeded dice
for the games). numpy is needed, numba for the speed.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

import dicegames
from dicegames.analysis.cem import cross_entropy
from dicegames.analysis.stats import Z_95, wilson_interval
from dicegames.core.files import write_bytes
from dicegames.core.kernel import kernel_for
from dicegames.games.extra.kernel import ExtraKernel
from dicegames.games.extra.trained import (
    W_FOCUS,
    W_NEW,
    W_ROLL_BONUS,
    W_START,
    WEIGHT_NAMES,
    WEIGHTS,
    hard_weights,
    parse_weights,
    weights_text,
)

Vector = npt.NDArray[np.float64]

EVAL_SEED = 1 << 40
"""Seeds of the final measurement start here: never those of training."""

FOCUS_FLOOR = 0.05
"""The least focus a candidate may have (the model needs a positive one)."""


def first_spread() -> Vector:
    """The first generation's standard deviation of each weight (in its own units)."""
    spread = np.zeros(WEIGHTS)
    spread[W_FOCUS] = 0.3
    spread[W_ROLL_BONUS] = 15.0
    spread[W_START:W_NEW] = 25.0
    spread[W_NEW:] = 40.0
    return spread


FLOOR = 0.05
"""The least standard deviation kept when the Gaussian is refitted, as a share of the first
generation's (so that the search never freezes early)."""


@dataclass(slots=True)
class Solo:
    """A paired solo measurement of the trained weights against ``hard``."""

    games: int
    mean: float
    hard_mean: float
    gain: float
    interval: tuple[float, float]
    """The 95% interval of the mean paired difference (trained - hard, same dice)."""


@dataclass(slots=True)
class Training:
    """What a run found and measured."""

    weights: list[float]
    solo: Solo
    multi: dict[int, tuple[float, float, float, int]]
    """Per player count: trained's share of wins against hard (a win shared by k counts
    1/k), its Wilson interval, games."""
    seconds: float
    history: list[float] = field(default_factory=list)
    """The elites' mean score of each generation (in training, on its own dice)."""


def kernel_of(players: int) -> tuple[ExtraKernel, object]:
    """The kernel of a default EXTRA! game of ``players`` and its first state's data."""
    game = dicegames.make("extra", players=players)
    kernel = kernel_for(game)
    assert isinstance(kernel, ExtraKernel)
    return kernel, game.new_state().data


def solo_scores(kernel: ExtraKernel, data: object, weights: Sequence[float] | None,
                games: int, seed: int) -> Vector:
    """The scores of ``games`` solo games (dice from ``seed``) of the trained policy with
    ``weights``, or of ``hard`` when ``weights`` is None."""
    if weights is None:
        result = kernel.playouts(data, ["hard"], games, seed)
    else:
        kernel.use_weights(weights)
        result = kernel.playouts(data, ["trained"], games, seed)
    return np.asarray(result.scores, dtype=float)


def measure_solo(weights: Sequence[float], games: int, seed: int) -> Solo:
    """Trained with ``weights`` against ``hard``, solo, on the same dice."""
    kernel, data = kernel_of(1)
    trained = solo_scores(kernel, data, weights, games, seed)
    hard = solo_scores(kernel, data, None, games, seed)
    diff = trained - hard
    half = Z_95 * float(diff.std(ddof=1)) / math.sqrt(games)
    gain = float(diff.mean())
    return Solo(games, float(trained.mean()), float(hard.mean()), gain,
                (gain - half, gain + half))


def measure_multi(weights: Sequence[float], players: int, games: int,
                  seed: int) -> tuple[float, float, float, int]:
    """Trained in one seat against ``hard`` in the others, seats rotated: its share of wins
    (a win shared by k players counts 1/k: every player meets the same rolls, so two equal
    policies always tie), the Wilson interval and the games played."""
    kernel, data = kernel_of(players)
    kernel.use_weights(weights)
    each = max(1, games // players)
    won = 0.0
    for seat in range(players):
        policies = ["hard"] * players
        policies[seat] = "trained"
        result = kernel.playouts(data, policies, each, seed + seat)
        winners = np.asarray(result.winners, dtype=float).reshape(-1, players)
        sharing = np.maximum(winners.sum(axis=1), 1.0)
        won += float((winners[:, seat] / sharing).sum())
    total = each * players
    low, high = wilson_interval(won, total)
    return won / total, low, high, total


def train(seed: int, *, generations: int, population: int, elite: int, games: int,
          eval_games: int, eval_multi: int, start: Sequence[float] | None = None,
          log: bool = True) -> Training:
    """Run the cross-entropy method (see the module docstring) and measure its result."""
    started = time.perf_counter()
    kernel, data = kernel_of(1)
    initial = first_spread()

    def focus_floor(candidates: Vector) -> None:
        candidates[:, W_FOCUS] = np.maximum(candidates[:, W_FOCUS], FOCUS_FLOOR)

    found = cross_entropy(
        lambda c, dice: float(solo_scores(kernel, data, list(c), games, dice).mean()),
        np.array(hard_weights() if start is None else start, dtype=float), initial,
        seed=seed, generations=generations, population=population, elite=elite,
        floor=FLOOR * initial, dice_stride=1, clamp=focus_floor, log=".1f" if log else None)
    mean, history = found.mean, found.history
    weights = [float(w) for w in mean]
    solo = measure_solo(weights, eval_games, EVAL_SEED + seed)
    multi = {players: measure_multi(weights, players, eval_multi, EVAL_SEED + seed)
             for players in range(2, 7)} if eval_multi > 0 else {}
    return Training(weights, solo, multi, time.perf_counter() - started, history)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=16)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--games", type=int, default=12_000,
                        help="solo games per candidate and generation")
    parser.add_argument("--eval-games", type=int, default=200_000)
    parser.add_argument("--eval-multi", type=int, default=60_000,
                        help="games per player count 2-6 against hard (0: none)")
    parser.add_argument("--start", metavar="PATH",
                        help="start from the weights of this file (e.g. a shorter run's)")
    parser.add_argument("--write", metavar="PATH", help="write the weights file there")
    args = parser.parse_args(argv)
    if not 1 <= args.elite <= args.population:
        parser.error(f"--elite must be from 1 to --population ({args.population})")
    start, version = None, f"cem-seed{args.seed}"
    if args.start:
        with open(args.start, encoding="utf-8") as weights:
            text = weights.read()
        start = parse_weights(text)
        version = f"{json.loads(text).get('version')}+{version}"
    result = train(args.seed, generations=args.generations, population=args.population,
                   elite=args.elite, games=args.games, eval_games=args.eval_games,
                   eval_multi=args.eval_multi, start=start)
    solo = result.solo
    low, high = solo.interval
    print(f"solo over {solo.games} games: trained {solo.mean:.1f}, hard {solo.hard_mean:.1f} "
          f"on the same dice, gain {solo.gain:+.1f} [{low:+.1f}, {high:+.1f}]; "
          f"{result.seconds:.0f} s")
    for players, (share, lo, hi, total) in result.multi.items():
        print(f"  {players} players, one trained against hard: {share:.4f} "
              f"[{lo:.4f}, {hi:.4f}] over {total} games (its share: {1 / players:.4f})")
    for name, weight in zip(WEIGHT_NAMES, result.weights, strict=True):
        print(f"  {name:12} {weight:9.3f}")
    if args.write:
        text = weights_text(
            result.weights, version=version,
            trainer={"script": "scripts/train_extra.py", "seed": args.seed,
                     "generations": args.generations, "population": args.population,
                     "elite": args.elite, "games": args.games, "start": args.start},
            measured={
                "solo": {"games": solo.games, "mean": round(solo.mean, 2),
                         "hard_same_dice": round(solo.hard_mean, 2),
                         "gain": round(solo.gain, 2),
                         "interval": [round(low, 2), round(high, 2)]},
                "against_hard": {str(p): {"games": total, "share": round(share, 4),
                                          "interval": [round(lo, 4), round(hi, 4)]}
                                 for p, (share, lo, hi, total) in result.multi.items()},
                "seconds": round(result.seconds)})
        write_bytes(Path(args.write), text.encode())  # atomic, only onto a regular file
    return 0 if math.isfinite(solo.gain) else 1


if __name__ == "__main__":
    raise SystemExit(main())
