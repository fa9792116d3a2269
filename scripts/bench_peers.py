"""dicegames beside its peers (``make bench-peers``): random playouts, interleaved, medians.

Each workload plays random games for ``--seconds`` in a process of its own, and the rounds
interleave the workloads (dicegames, then the peers, then dicegames again...), so a busy
machine slows them alike; the table gives each workload's median over the rounds and the
ratio of dicegames to its peer, per game and per move:

* For a Few Extra Meters (2 players, 50 squares, ``play_one`` with random bots) beside
  OpenSpiel's ``pig`` (2 players, to 100 points) played by a Python loop over ``pyspiel``;
* Petits Chevaux (4 players, ``play_one``) beside OpenSpiel's ``maedn`` (Ludo, 4 players)
  in the same Python loop, and beside LUDOpy (4 players).

Both loops pick uniformly random legal actions and draw chance outcomes by their
probabilities with Python's ``random``. The peers live in their own virtual environment
(``.venv-peers``: PyPI ``open-spiel`` and ``ludopy``), given by ``--peers-python``;
dicegames runs in this interpreter's environment. Compiled bulk playouts (numba kernels)
are measured apart; see docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

WORKLOADS = ("dicegames-extra-meters", "openspiel-pig", "dicegames-petits-chevaux",
             "openspiel-maedn", "ludopy")
"""Every workload, in the order each round runs them."""

PEERS = {"openspiel-pig", "openspiel-maedn", "ludopy"}
"""The workloads that run in the peers' environment."""

COMPARISONS = (
    ("Extra Meters vs OpenSpiel pig (Python loop)", "dicegames-extra-meters", "openspiel-pig"),
    ("Petits Chevaux 4p vs OpenSpiel maedn 4p (Python loop)", "dicegames-petits-chevaux",
     "openspiel-maedn"),
    ("Petits Chevaux 4p vs LUDOpy 4p", "dicegames-petits-chevaux", "ludopy"),
)
"""(what, dicegames workload, peer workload) rows of the ratio table."""


def timed_games(one_game: Callable[[], int], seconds: float) -> dict[str, float]:
    """Play games until ``seconds`` have passed; games, moves and the elapsed time."""
    one_game()  # warm up (imports, caches)
    games = moves = 0
    began = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        moves += one_game()
        games += 1
        elapsed = time.perf_counter() - began
    return {"games": games, "moves": moves, "seconds": elapsed}


def dicegames_game(game_id: str, players: int) -> Callable[[], int]:
    """One random playout through ``play_one``; returns its move count."""
    import random

    import dicegames
    from dicegames.analysis import play_one
    from dicegames.bots import RandomBot

    game = dicegames.make(game_id, players=players)
    rng = random.Random(2026)
    agents = [RandomBot(random.Random(rng.getrandbits(64))) for _ in range(players)]
    return lambda: play_one(game, agents, rng).moves


def openspiel_game(name: str, params: dict[str, Any]) -> Callable[[], int]:
    """One random playout of an OpenSpiel game in a Python loop over ``pyspiel``."""
    import random

    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    game = pyspiel.load_game(name, params)
    rng = random.Random(2026)

    def one_game() -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                ticket = rng.random()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for candidate, probability in outcomes:
                    ticket -= probability
                    if ticket < 0:
                        action = candidate
                        break
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        return moves

    return one_game


def ludopy_game() -> Callable[[], int]:
    """One random playout of LUDOpy's four-player Ludo; moves are its observations."""
    import random

    import ludopy  # type: ignore[import-not-found, unused-ignore]

    rng = random.Random(2026)

    def one_game() -> int:
        game = ludopy.Game()
        moves = 0
        winner = False
        while not winner:
            (_, movable, _, _, _, winner), _ = game.get_observation()
            piece = rng.choice(list(movable)) if len(movable) else -1
            _, _, _, _, _, winner = game.answer_observation(piece)
            moves += 1
        return moves

    return one_game


def measure(workload: str, seconds: float) -> dict[str, float]:
    """Run one workload in this process."""
    makers: dict[str, Callable[[], Callable[[], int]]] = {
        "dicegames-extra-meters": lambda: dicegames_game("extra-meters", 2),
        "dicegames-petits-chevaux": lambda: dicegames_game("petits-chevaux", 4),
        "openspiel-pig": lambda: openspiel_game("pig", {}),
        "openspiel-maedn": lambda: openspiel_game("maedn", {"players": 4}),
        "ludopy": ludopy_game,
    }
    return timed_games(makers[workload](), seconds)


def run(peers_python: str, rounds: int, seconds: float) -> dict[str, list[dict[str, float]]]:
    """Every workload ``rounds`` times, interleaved, each in a fresh process."""
    runs: dict[str, list[dict[str, float]]] = {w: [] for w in WORKLOADS}
    for round_number in range(rounds):
        for workload in WORKLOADS:
            python = peers_python if workload in PEERS else sys.executable
            print(f"round {round_number + 1}/{rounds}: {workload}", file=sys.stderr, flush=True)
            done = subprocess.run(
                [python, __file__, "--one", workload, "--seconds", str(seconds)],
                check=True, capture_output=True, text=True)
            runs[workload].append(json.loads(done.stdout))
    return runs


def summary(runs: dict[str, list[dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Median games/s and moves/s of each workload, and its moves per game."""
    medians = {}
    for workload, figures in runs.items():
        medians[workload] = {
            "games_per_s": statistics.median(f["games"] / f["seconds"] for f in figures),
            "moves_per_s": statistics.median(f["moves"] / f["seconds"] for f in figures),
            "moves_per_game": sum(f["moves"] for f in figures) / sum(f["games"] for f in figures),
            "runs": len(figures),
        }
    return medians


def show(medians: dict[str, dict[str, float]], rounds: int, seconds: float) -> None:
    """Print the workloads and the ratios."""
    print(f"Random playouts, {rounds} interleaved rounds of {seconds:g} s each, medians")
    print(f"{'workload':28} {'games/s':>10} {'moves/s':>11} {'moves/game':>11}")
    for workload, m in medians.items():
        print(f"{workload:28} {m['games_per_s']:>10,.0f} {m['moves_per_s']:>11,.0f} "
              f"{m['moves_per_game']:>11.1f}")
    print()
    print(f"{'dicegames / peer':56} {'per game':>9} {'per move':>9}")
    for what, ours, theirs in COMPARISONS:
        per_game = medians[ours]["games_per_s"] / medians[theirs]["games_per_s"]
        per_move = medians[ours]["moves_per_s"] / medians[theirs]["moves_per_s"]
        print(f"{what:56} {per_game:>9.2f} {per_move:>9.2f}")


def main(argv: list[str] | None = None) -> int:
    """Drive the interleaved rounds, or (``--one``) run one workload and print JSON."""
    parser = argparse.ArgumentParser(description="dicegames beside OpenSpiel and LUDOpy.")
    parser.add_argument("--peers-python", default=".venv-peers/bin/python",
                        help="the interpreter with open-spiel and ludopy installed")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds per workload and round (3)")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    parser.add_argument("--one", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.seconds)))
        return 0
    medians = summary(run(args.peers_python, args.rounds, args.seconds))
    if args.json:
        print(json.dumps(medians, indent=2))
    else:
        show(medians, args.rounds, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
