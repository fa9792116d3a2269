"""Fit the learned position value of Petits Chevaux (``value_weights.json``).

The ``expert`` bot (:mod:`dicegames.games.petits_chevaux.value`) adds to ``hard``'s move
scores a win chance: the softmax over the players of a small network applied to each
player's features. This script fits that network, one model per player count:

1. **games**: play games of ``hard`` and ``medium`` bots, each seat drawn at random, and
   record a sample of the positions where a player is about to roll (afterstates of the
   moves), with the game's winner (``--expert-games`` adds games of the shipped ``expert``
   against three ``medium`` bots, seats rotated: no gain measured, rules.md);
2. **fit**: maximum likelihood of the winners (Monte Carlo targets), then a few rounds of
   TD(lambda): each position's target becomes a mix of the model's prediction at the next
   recorded position of the same game and, further on, the winner, which cuts the noise of
   a 4-player game's outcome;
3. **policy iteration** (``--rounds``, off by default): play more games with the new bots
   (the pure value policy, then ``expert``) against ``medium`` and ``hard``, add them to the
   data, refit. Two rounds measured no better than none (rules.md), so the shipped models
   come from step 2 alone.

These commands wrote the shipped weights, with ``OMP_NUM_THREADS=1`` (another numpy or
BLAS may differ in the last digits); numpy is needed here only, it is not a dependency of
the package::

    PYTHONPATH=src python scripts/train_petits_chevaux.py --players 4 --games 12000 \\
        --seed 9100 --jobs 2 --out /tmp/value4.json
    PYTHONPATH=src python scripts/train_petits_chevaux.py --players 2 --games 12000 \\
        --rate 0.15 --seed 9400 --jobs 1 --out /tmp/value2.json
    PYTHONPATH=src python scripts/train_petits_chevaux.py --players 3 --games 12000 \\
        --seed 9700 --jobs 1 --out /tmp/value3.json
    PYTHONPATH=src python scripts/train_petits_chevaux.py --merge /tmp/value2.json \\
        /tmp/value3.json /tmp/value4.json

The last one validates the models and writes
``src/dicegames/games/petits_chevaux/value_weights.json``. Time on two shared cores
(November 2026): the 4-player run about 5 minutes (3 to play 12,000 games of ``hard`` and
``medium``, 1 to compute the features of 775,000 positions at about 40 µs each, 1 to fit),
the 3-player and 2-player runs (one process) about 4 and 2 minutes. The seeds are kept
apart from the evaluation seeds of rules.md (2026, and 555 for the trials).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import dicegames
from dicegames.bots import PolicyBot, make_bot
from dicegames.core.chance import sample
from dicegames.core.model import PASS, Agent, NodeKind
from dicegames.core.rollout import game_seed
from dicegames.core.workers import die_with_parent
from dicegames.games.petits_chevaux import value
from dicegames.games.petits_chevaux.board import SEATING
from dicegames.games.petits_chevaux.data import ChevauxData, Phase
from dicegames.games.petits_chevaux.moves import Horses
from dicegames.games.petits_chevaux.rules import PetitsChevauxRules

WEIGHTS = Path(__file__).resolve().parents[1] / "src/dicegames/games/petits_chevaux" / (
    value.WEIGHTS_FILE)
"""Where ``--merge`` writes the shipped weights."""

Record = tuple[list[tuple[Horses, int]], int]
"""One game: its sampled positions (horses, seat to roll) in order, and the winner."""


def _numpy() -> Any:
    """numpy, imported only when fitting (it is not a dependency of the package)."""
    try:
        return importlib.import_module("numpy")
    except ImportError:
        sys.exit("train_petits_chevaux.py needs numpy to fit: pip install -e '.[train]'")


# ------------------------------------------------------------------------------ games


def _agent(name: str, players: int, spec: str | None, rng: random.Random) -> Agent:
    """A bot by level name; ``value`` and ``expert`` use the model in ``spec`` if given."""
    game = dicegames.make("petits-chevaux", players=players)
    assert isinstance(game, PetitsChevauxRules)
    if spec is None or name not in ("value", "expert"):
        return make_bot(game, "expert" if name == "expert" else name, rng)
    model = value.ValueModel(json.loads(spec))

    def policy(state: Any, seat: int, _rng: random.Random) -> Any:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        scores = (value.expert_scores(game, state.data, model) if name == "expert"
                  else value.move_values(game, state.data, model))
        return max(scores, key=scores.__getitem__)

    return PolicyBot(policy, rng)


@dataclass(frozen=True)
class Task:
    """Games ``start`` to ``stop - 1`` of a run of seed ``seed``: each seat's bot drawn from
    ``mix`` (``value`` and ``expert`` with the model ``spec``, JSON), except that ``lead``,
    if given, plays in seat ``game % players`` (seats rotated, as ``simulate --rotate``);
    about ``rate`` of the positions before a roll are recorded."""

    players: int
    seed: int
    start: int
    stop: int
    mix: tuple[str, ...]
    rate: float
    spec: str | None
    lead: str | None = None


def play_games(task: Task) -> list[Record]:
    """Play the games of ``task`` and record them."""
    players, seed, mix, rate, spec = task.players, task.seed, task.mix, task.rate, task.spec
    game = dicegames.make("petits-chevaux", players=players)
    records: list[Record] = []
    for index in range(task.start, task.stop):
        master = random.Random(game_seed(seed, index))
        dice = random.Random(master.getrandbits(64))
        agents = [_agent(task.lead if seat == index % players and task.lead else
                         master.choice(mix), players, spec, random.Random(master.getrandbits(64)))
                  for seat in range(players)]
        state = game.new_state()
        positions: list[tuple[Horses, int]] = []
        while not state.is_terminal:
            data = state.data
            assert isinstance(data, ChevauxData)
            if state.node.kind is NodeKind.CHANCE:
                if data.phase is Phase.ROLL and master.random() < rate:
                    positions.append((data.horses, data.player))
                state = state.apply_unchecked(sample(state.chance_outcomes(), dice))
                continue
            seat = state.node.players[0]
            legal = state.legal_actions(seat)
            move = PASS if legal == (PASS,) else agents[seat].choose(state, seat)
            state = state.apply_unchecked(move, seat)
        records.append((positions, state.data.winner))
    return records


def play_parallel(task: Task, jobs: int) -> list[Record]:
    """:func:`play_games` split over ``jobs`` processes (the same games whatever ``jobs``)."""
    size = task.stop - task.start
    bounds = [task.start + size * k // jobs for k in range(jobs + 1)]
    parts = [replace(task, start=first, stop=last)
             for first, last in pairwise(bounds)]
    with ProcessPoolExecutor(jobs, initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        return [record for part in pool.map(play_games, parts) for record in part]


# ------------------------------------------------------------------------------ fit


def _features_of(part: tuple[list[Record], int]) -> list[list[list[float]]]:
    """The features of every recorded position of some games (a worker's share)."""
    records, players = part
    colours = SEATING[players]
    return [[value.features(colours, horses, mover, seat) for seat in range(players)]
            for positions, _ in records for horses, mover in positions]


def featurize(records: list[Record], players: int, jobs: int = 1) -> tuple[Any, Any, Any]:
    """Arrays of every recorded position: features (positions x players x features), the
    winner and the game's number; the features are computed by ``jobs`` processes (the
    same arrays whatever ``jobs``)."""
    np = _numpy()
    winners = [winner for positions, winner in records for _ in positions]
    games = [number for number, (positions, _) in enumerate(records) for _ in positions]
    x = np.empty((len(winners), players, value.FEATURES), dtype=np.float64)
    parts = [(records[k:k + 500], players) for k in range(0, len(records), 500)]
    filled = 0
    with ProcessPoolExecutor(jobs, initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        for rows in pool.map(_features_of, parts):
            if rows:
                x[filled:filled + len(rows)] = rows
                filled += len(rows)
    return x, np.array(winners), np.array(games)


def fit(x: Any, winners: Any, games: Any, *, hidden: int, epochs: int, lam: float,
        td_rounds: int, seed: int, weight: float) -> dict[str, Any]:
    """Fit the model: Monte Carlo targets first, then ``td_rounds`` rounds of TD(``lam``).

    Adam on minibatches of 2,048 positions, a little L2; returns the JSON form that
    :class:`~dicegames.games.petits_chevaux.value.ValueModel` reads.
    """
    np = _numpy()
    rng = np.random.default_rng(seed)
    count, players, width = x.shape
    flat = x.reshape(-1, width)
    mean = flat.mean(0)
    scale = flat.std(0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    params = {"w": np.zeros(width), "A": rng.normal(0, 0.3 / math.sqrt(width), (hidden, width)),
              "b": np.zeros(hidden), "v": rng.normal(0, 0.1, hidden)}
    onehot = np.zeros((count, players))
    onehot[np.arange(count), winners] = 1.0

    def strengths(batch: Any) -> tuple[Any, Any]:
        h = np.tanh(batch @ params["A"].T + params["b"])
        return batch @ params["w"] + h @ params["v"], h

    def chances(batch: Any) -> Any:
        s, _ = strengths(batch)
        e = np.exp(s - s.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    def train(targets: Any, rounds: int) -> None:
        moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in params.items()}
        step = 0
        for _ in range(rounds):
            order = rng.permutation(count)
            for first in range(0, count, 2048):
                idx = order[first:first + 2048]
                batch = z[idx]
                s, h = strengths(batch)
                e = np.exp(s - s.max(1, keepdims=True))
                ds = (e / e.sum(1, keepdims=True) - targets[idx]) / len(idx)
                dpre = ds[..., None] * params["v"] * (1 - h * h)
                grads = {"w": np.einsum("np,npf->f", ds, batch),
                         "v": np.einsum("np,nph->h", ds, h),
                         "A": np.einsum("nph,npf->hf", dpre, batch),
                         "b": dpre.sum((0, 1))}
                step += 1
                for key, raw in grads.items():
                    first_m, second_m = moments[key]
                    grad = raw + 1e-5 * params[key]
                    first_m[:] = 0.9 * first_m + 0.1 * grad
                    second_m[:] = 0.999 * second_m + 0.001 * grad * grad
                    params[key] -= 3e-3 * (first_m / (1 - 0.9 ** step)) / (
                        np.sqrt(second_m / (1 - 0.999 ** step)) + 1e-8)
        p = chances(z)
        loss = -np.log(p[np.arange(count), winners] + 1e-12).mean()
        print(f"  log-loss {loss:.4f} (uniform {math.log(players):.4f})", flush=True)

    train(onehot, epochs)
    last = np.ones(count, dtype=bool)
    last[:-1] = games[1:] != games[:-1]
    for _ in range(td_rounds):
        p = chances(z)
        targets = np.empty_like(p)
        for i in range(count - 1, -1, -1):
            targets[i] = onehot[i] if last[i] else (1 - lam) * p[i + 1] + lam * targets[i + 1]
        train(targets, 3)
    return {"features": list(value.FEATURE_NAMES), "weight": weight,
            "mean": mean.tolist(), "scale": scale.tolist(), "linear": params["w"].tolist(),
            "hidden": params["A"].tolist(), "bias": params["b"].tolist(),
            "out": params["v"].tolist()}


# ------------------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> None:
    """Run the recipe of the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=12000, help="games of the first round")
    parser.add_argument("--rounds", type=int, default=0,
                        help="policy-iteration rounds (0, the shipped recipe: no gain measured)")
    parser.add_argument("--round-games", type=int, default=3500)
    parser.add_argument("--expert-games", type=int, default=0,
                        help="games of the shipped expert against medium bots added to the "
                             "first round's (seed --seed + 1)")
    parser.add_argument("--rate", type=float, default=0.1, help="share of positions kept")
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--lam", type=float, default=0.3)
    parser.add_argument("--td-rounds", type=int, default=6)
    parser.add_argument("--weight", type=float, default=None,
                        help="expert's points per unit of win chance (default 1000 with 4 "
                             "players, 300 with 2 or 3)")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--merge", type=Path, nargs="+",
                        help="write the shipped weights from these fitted models")
    args = parser.parse_args(argv)
    if args.merge:
        models = {}
        for path in args.merge:
            fitted = json.loads(path.read_text(encoding="utf-8"))
            models[str(fitted["players"])] = fitted
        text = json.dumps({"models": models}, separators=(",", ":"))
        value.parse_weights(text)  # validate before writing
        WEIGHTS.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS}")
        return
    if args.out is None:
        parser.error("--out is needed unless --merge")
    weight = args.weight or (1000.0 if args.players == 4 else 300.0)
    began = time.monotonic()
    records = play_parallel(Task(args.players, args.seed, 0, args.games, ("hard", "medium"),
                                 args.rate, None), args.jobs)
    if args.expert_games:
        records += play_parallel(Task(args.players, args.seed + 1, 0, args.expert_games,
                                      ("medium",), args.rate, None, "expert"), args.jobs)
    spec: dict[str, Any] = {}
    for round_ in range(args.rounds + 1):
        print(f"round {round_}: {len(records)} games, {time.monotonic() - began:.0f} s",
              flush=True)
        x, winners, games = featurize(records, args.players, args.jobs)
        spec = fit(x, winners, games, hidden=args.hidden, epochs=args.epochs, lam=args.lam,
                   td_rounds=args.td_rounds, seed=args.seed + round_, weight=weight)
        spec["players"] = args.players
        if round_ < args.rounds:
            mix = ("value", "value", "medium", "hard") if round_ == 0 else (
                "expert", "medium", "medium")
            records += play_parallel(Task(args.players, args.seed + 100 * (round_ + 1), 0,
                                          args.round_games, mix, args.rate, json.dumps(spec)),
                                     args.jobs)
    args.out.write_text(json.dumps(spec), encoding="utf-8")
    print(f"wrote {args.out} after {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
