"""A figure over an option's values: ``dicegames analyse GAME --sweep NAME=A..B[:STEP]``.

For each whole-number value of one option from ``A`` to ``B`` (every ``STEP``), the game is
configured with it and measured with the report's best bot in every seat (the default
ladder's strongest, or the seats given): seat 1's share of sole wins with its 95% Wilson
interval and the mean turns a game with its interval, from a kernel-backed run
(:mod:`~dicegames.analysis.outcomes`), and the decisiveness (:mod:`~dicegames.analysis.
metrics`) from a traced sample. The chart draws each against the option's value with its
interval as a band.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.estimate import estimator_for
from dicegames.analysis.ladder import default_ladder, report_bot
from dicegames.analysis.metrics import game_metrics
from dicegames.analysis.outcomes import run_outcomes
from dicegames.analysis.report import DRAMA_GAMES, Lengths, report_name, sub_seed
from dicegames.analysis.traced import TraceTask, trace_block
from dicegames.core.errors import OptionError
from dicegames.core.game import Game
from dicegames.core.options import OptionValue

SWEEP_TRACED = 100
"""Games traced at each value for the decisiveness (it needs the win chance at each turn)."""

MAX_VALUES = 50
"""The most values one sweep takes."""

_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """``NAME=A..B[:STEP]`` parsed."""

    name: str
    values: tuple[int, ...]


def parse_sweep(text: str) -> SweepSpec:
    """Parse ``NAME=A..B[:STEP]`` (whole numbers, A <= B, STEP >= 1).

    Raises:
        OptionError: the text is not of that form, or asks for too many values.
    """
    match = _SPEC.match(text)
    if match is None:
        raise OptionError(f"--sweep takes NAME=A..B or NAME=A..B:STEP with whole numbers, "
                          f"e.g. track_length=20..60:10, not {text!r}")
    name, low, high, step = match.group(1), int(match.group(2)), int(match.group(3)), \
        int(match.group(4) or 1)
    if high < low or step < 1:
        raise OptionError(f"--sweep {text}: the range must go up (A <= B) by a step of at "
                          f"least 1")
    values = tuple(range(low, high + 1, step))
    if len(values) > MAX_VALUES:
        raise OptionError(f"--sweep {text} asks for {len(values)} values; at most "
                          f"{MAX_VALUES} (give a larger step)")
    return SweepSpec(name, values)


def sweep(configure: Callable[[Mapping[str, OptionValue]], Game[Any, Any, Any]],
          spec: SweepSpec, *, games: int, seed: int, players: Sequence[str] | None = None,
          jobs: int = 1, scheduler: str | None = None,
          progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Measure the game at each value of ``spec`` (``configure`` builds it from the option).

    Raises:
        OptionError: an option value the game refuses (named with the option).
    """
    points: list[dict[str, Any]] = []
    total = len(spec.values) * (games + SWEEP_TRACED)
    done = [0]

    def tick(count: int) -> None:
        done[0] += count
        if progress is not None:
            progress(done[0], total)

    title = ""
    try:
        for value in spec.values:
            game = configure({spec.name: value})
            title = title or game.spec.name
            bots = ([report_bot(p, game) for p in players] if players
                    else [default_ladder(game).names[-1]] * game.players)
            main = run_outcomes(game, bots, games, sub_seed(seed, f"sweep:{value}"),
                                jobs=jobs, scheduler=scheduler, progress=tick)
            traced = min(games, SWEEP_TRACED)
            kind = estimator_for(game, 1).kind
            traces = trace_block(TraceTask(game.spec.id, game.players, dict(game.options),
                                           tuple(bots), sub_seed(seed, f"sweep:{value}"), 0,
                                           traced, min(traced, DRAMA_GAMES.get(kind, traced))))
            tick(traced)
            metrics = game_metrics(traces, main, sorted(main.sums.turns.items()))
            points.append({"value": value, "name": report_name(game), "bots": bots,
                           "games": main.games,
                           "seat1": main.to_json()["sole"][0],
                           "shared": main.to_json()["shared"],
                           "turns": Lengths.from_histogram(main.sums.turns).to_json(),
                           "duration": metrics["duration"],
                           "decisiveness": metrics["decisiveness"],
                           "players": game.players})
            if not main.complete:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        if not points:
            raise
    return {"game": title, "option": spec.name, "values": list(spec.values),
            "games": games, "seed": seed, "points": points,
            "interrupted": len(points) < len(spec.values)}
