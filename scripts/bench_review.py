"""How long ``dicegames review`` takes for one game of each registered game at its largest
table (the issue's aim: at most 10 s each, a six-player EXTRA! game included).

Each game is played once by ``medium`` bots (seeded), then reviewed in this process with the
one estimator at the terminal's defaults (:func:`dicegames.analysis.estimate.estimator_for`,
32 continuations at most per choice); the kernels are compiled first, outside the timing.
Prints, per game, the median of ``--runs`` reviews and the continuations played.

    python scripts/bench_review.py [--runs 3] [--game ID ...]

To hold it against another checkout, run this script with that checkout's ``src`` first on
``PYTHONPATH`` in turns with this one (interleaved runs), as docs/performance.md does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import dicegames
from dicegames.analysis.estimate import estimator_for
from dicegames.analysis.review import review
from dicegames.bots import make_bot
from dicegames.core.match import RandomDice, play
from dicegames.core.registry import definitions
from dicegames.core.session import PlayerInfo, Session


def played(game_id: str, players: int, seed: int = 3) -> Session:
    """One finished game of ``game_id`` between ``medium`` bots."""
    game = dicegames.make(game_id, players=players)
    session = Session(game, [PlayerInfo(f"P{seat + 1}") for seat in range(players)],
                      seed=seed)
    bots = [make_bot(game, "medium", random.Random(seed + seat)) for seat in range(players)]
    play(session, bots, RandomDice(random.Random(seed)))
    return session


def main() -> None:
    """Time the reviews (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--game", action="append", default=[])
    args = parser.parse_args()
    for definition in definitions():
        if args.game and definition.id not in args.game:
            continue
        session = played(definition.id, definition.spec.max_players)
        estimator = estimator_for(session.game)
        estimator.position(session.states[0])  # compiles (or loads) the kernel
        times = []
        for _ in range(args.runs):
            began = time.perf_counter()
            result = review(session, estimator_for(session.game))
            times.append(time.perf_counter() - began)
        print(f"{definition.id:16} {definition.spec.max_players} players  "
              f"{len(session.moves):5} moves  {len(result.moves):4} decisions  "
              f"{result.kind:8}  median {statistics.median(times):6.2f} s", flush=True)


if __name__ == "__main__":
    main()
