"""Train the ``trained`` level of Petits Chevaux: a TD-Gammon-style network.

The network (dicegames.games.petits_chevaux.kernel_trained) plays the move whose afterstate
(the position the move leaves) it values most: its estimate of the mover's chance to win.
This script fits it by **temporal-difference learning, TD(lambda)**,
in the manner of TD-Gammon, over whole games played by the compiled kernel against
``medium`` bots (``--players``: each player count has its own network; four by default),
the learner's seat rotating from game to game:

1. ``--warm`` games in which the learner plays ``hard``'s moves: the network learns the
   value of ``hard``'s play, a stable start (a network learning from its own random play
   against ``medium`` bots wins too rarely to learn anything);
2. ``--games`` games in which it plays its own greedy choice and keeps learning from it.

Its result is then measured on ``--eval-games`` fresh games (seeds kept apart from
training) with a 95% Wilson interval, beside ``hard`` on the same seeds, and with
``--save`` written into a weights file of the level's format (the network of that player
count, its settings and figures; the file's networks for other counts are kept), which
``--start`` reads back to train on. The shipped networks were trained in segments, each
going on from the last (docs/performance.md, "Petits Chevaux' `trained` level"); one
segment::

    nice -n 10 .venv/bin/python scripts/train_petits_chevaux_td.py --players 4 --seed 2 \
        --warm 0 --games 300000 --start td1.json --save td2.json

and the file holding all three counts' networks ships as
``src/dicegames/games/petits_chevaux/trained_weights.json``. The measurement plays the
weights as written (6 decimals), as the level will.

Reproducible from ``--seed`` (numpy's generator for the first weights, the kernel's seeded
dice for the games; the training loop is sequential compiled code). numpy is needed, numba
for the speed.
"""

from __future__ import annotations

import argparse
import json
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
from dicegames.core.kernel import IntArray, kernel_for, seed_words
from dicegames.games.petits_chevaux import kernel_td as td
from dicegames.games.petits_chevaux import trained as model
from dicegames.games.petits_chevaux.kernel import PetitsChevauxKernel
from dicegames.games.petits_chevaux.kernel_rules import HARD, MEDIUM

Vector = npt.NDArray[np.float64]

PLAYERS = 4
"""The player count trained by default (``--players``: each count has its own network)."""

GREEDY = -1
"""The learner plays the network's own choice (no behaviour policy)."""

EVAL_SEED = 1 << 40
"""Seeds of the final measurement start here: never those of training."""

CHUNK = 5_000
"""Games per compiled call (progress is logged between calls)."""


@dataclass(slots=True)
class Training:
    """What a run found and measured."""

    weights: list[float]
    """The network's flat weights (:func:`.trained.layout`)."""
    win_rate: float
    """Its share of wins against ``medium`` bots in the measurement."""
    interval: tuple[float, float]
    """The 95% Wilson interval of that share."""
    games: int
    """Games of the measurement."""
    hard_rate: float
    """``hard``'s share on the same seeds: the baseline."""
    seconds: float
    """Training and measurement time (wall clock)."""
    history: list[float] = field(default_factory=list)
    """The learner's share of wins in each chunk of training games."""


class _Run:
    """The compiled training loop's arrays for one game configuration."""

    def __init__(self, kernel: PetitsChevauxKernel, state: IntArray, weights: Vector) -> None:
        self.kernel = kernel
        self.state = state
        self.weights = weights
        self.trace: Vector = np.zeros_like(weights)

    def play(self, games: int, words: npt.NDArray[np.int64], alpha: float, lam: float,
             behaviour: int) -> float:
        """Play (and, with ``alpha`` > 0, learn from) ``games`` games; the learner's share
        of wins."""
        results = np.zeros(games, dtype=np.int64)
        td.train_games(self.weights, td_hidden(self.weights), self.kernel.cfg,
                       self.kernel.paths, MEDIUM, behaviour, games, words, alpha, lam,
                       self.trace, self.state, results)
        return float(results.mean())


def td_hidden(weights: Sequence[float] | Vector) -> int:
    """The hidden units of a flat weight array (see :func:`.trained.layout`)."""
    hidden = model.hidden_of(len(weights))
    if hidden < 1:
        raise ValueError(f"{len(weights)} weights are no network over {model.INPUTS} inputs")
    return hidden


def _read(path: str) -> str:
    """The text of ``path`` (a clear error when it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise ValueError(f"{path}: cannot read it: {error}") from None


def load(path: str, players: int = PLAYERS) -> list[float]:
    """The flat weights of the ``players`` network of a weights file (what ``--save``
    writes, the level's format, checked by :func:`.trained.parse_weights`)."""
    try:
        return list(model.parse_weights(_read(path), (players,))[players])
    except model.TrainedWeightsError as error:
        raise ValueError(f"{path}: {error}") from None


def save(path: str, players: int, weights: Sequence[float], note: dict[str, object]) -> None:
    """Write the ``players`` network (with ``note``: settings, figures) into the weights
    file ``path``, keeping the networks it already holds for the other player counts."""
    networks: dict[int, Sequence[float]] = {}
    notes: dict[int, dict[str, object]] = {}
    if Path(path).exists():
        text = _read(path)
        try:
            spec = json.loads(text)
            networks = {count: list(w) for count, w in model.parse_weights(
                text, [int(c) for c in spec["networks"] if int(c) != players]).items()}
        except (model.TrainedWeightsError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}: not a weights file to add a network to ({error}); "
                             f"choose another --save") from None
        notes = {count: {k: v for k, v in spec["networks"][str(count)].items()
                         if k not in ("hidden", "weights")} for count in networks}
    networks[players] = list(weights)
    notes[players] = note
    write_bytes(Path(path), model.weights_text(networks, notes=notes,
                                               version="td").encode())


def rounded(weights: Sequence[float] | Vector) -> list[float]:
    """The weights as the weights file keeps them (6 decimals): what the level plays."""
    return [round(float(w), 6) for w in weights]


def words_of(seed: int) -> npt.NDArray[np.int64]:
    """The training loop's generator words (dice, then whims) for ``seed``."""
    return np.array(seed_words(seed) + seed_words(seed ^ 0x5DEECE66D), dtype=np.int64)


def measure(kernel: PetitsChevauxKernel, state: IntArray, weights: Sequence[float],
            games: int, seed: int, *, behaviour: int = GREEDY) -> float:
    """The share of ``games`` the network (or ``behaviour``) wins against ``medium``
    bots, the seat rotating (no learning; the weights are left as they are)."""
    run = _Run(kernel, state, np.array(weights, dtype=float))
    return run.play(games, words_of(seed), 0.0, 0.0, behaviour)


def train(seed: int, *, hidden: int, warm: int, games: int, eval_games: int, alpha: float,
          lam: float, start: Sequence[float] | None = None, players: int = PLAYERS,
          log: bool = True) -> Training:
    """Run the training (see the module docstring) and measure its result; ``start``: the
    first weights (random, ``hidden`` units, by default)."""
    started = time.perf_counter()
    game = dicegames.make("petits-chevaux", players=players)
    kernel = kernel_for(game)
    assert isinstance(kernel, PetitsChevauxKernel)
    state = kernel.encode(game.new_state().data)
    rng = np.random.default_rng(seed)
    first = rng.normal(0.0, 0.1, model.layout(hidden)) if start is None else np.array(start)
    run = _Run(kernel, state, first.astype(float))
    words = words_of(seed)
    history: list[float] = []
    for phase, total, behaviour in (("warm", warm, HARD), ("greedy", games, GREEDY)):
        done = 0
        while done < total:
            chunk = min(CHUNK, total - done)
            history.append(run.play(chunk, words, alpha, lam, behaviour))
            done += chunk
            if log:
                print(f"{phase} {done}/{total}: learner won {history[-1]:.4f} "
                      f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    weights = rounded(run.weights)
    measured = max(players, eval_games - eval_games % players)
    share = measure(kernel, state, weights, measured, EVAL_SEED + seed)
    hard = measure(kernel, state, weights, measured, EVAL_SEED + seed, behaviour=HARD)
    low, high = wilson_interval(round(share * measured), measured)
    return Training(weights, share, (low, high), measured, hard,
                    time.perf_counter() - started, history)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=32, help="hidden units")
    parser.add_argument("--warm", type=int, default=100_000,
                        help="games learning the value of hard's play")
    parser.add_argument("--games", type=int, default=200_000,
                        help="games learning from the network's own play")
    parser.add_argument("--alpha", type=float, default=0.1, help="the step size")
    parser.add_argument("--lam", type=float, default=0.7, help="TD's lambda")
    parser.add_argument("--eval-games", type=int, default=40_000)
    parser.add_argument("--players", type=int, choices=model.COUNTS, default=PLAYERS,
                        help="the player count whose network is trained")
    parser.add_argument("--start", metavar="PATH",
                        help="train on from that count's network in a weights file")
    parser.add_argument("--save", metavar="PATH",
                        help="write the network and figures into that weights file (its "
                             "networks for other player counts are kept)")
    args = parser.parse_args(argv)
    start = load(args.start, args.players) if args.start else None
    result = train(args.seed, hidden=args.hidden, warm=args.warm, games=args.games,
                   eval_games=args.eval_games, alpha=args.alpha, lam=args.lam, start=start,
                   players=args.players)
    low, high = result.interval
    others = args.players - 1
    print(f"trained vs {others} medium: {result.win_rate:.4f} [{low:.4f}, {high:.4f}] over "
          f"{result.games} games (hard on the same seeds: {result.hard_rate:.4f}); "
          f"{result.seconds:.0f} s")
    if args.save:
        save(args.save, args.players, result.weights, {
            "trainer": {"script": "scripts/train_petits_chevaux_td.py", "seed": args.seed,
                        "warm": args.warm, "games": args.games, "alpha": args.alpha,
                        "lam": args.lam, "start": args.start},
            "measured": {"against": f"{others} medium, {args.players} players, seats rotated",
                         "games": result.games, "win_rate": round(result.win_rate, 4),
                         "interval": [round(low, 4), round(high, 4)],
                         "hard_same_seeds": round(result.hard_rate, 4),
                         "seconds": round(result.seconds)},
            "history": [round(h, 4) for h in result.history]})
    return 0 if math.isfinite(result.win_rate) else 1


if __name__ == "__main__":
    raise SystemExit(main())
