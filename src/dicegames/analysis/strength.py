"""Measure how strong each level of a game is: the figures of :mod:`dicegames.strength`.

For the game's default options:

1. **Ratings.** A round robin of ``random`` and every listed level, each bot once (two level
   names the kernel plays with one policy are one bot: :func:`~dicegames.analysis.ladder.
   default_ladder`), in two-player games with the seats rotated, through the game's kernel;
   Bradley-Terry ratings on the Elo scale with 95% intervals
   (:func:`~dicegames.analysis.ratings.bradley_terry`), ``random`` at 0.
2. **Against medium.** Each level in one seat and :data:`~dicegames.strength.OPPONENT` in
   every other (``medium`` itself against ``easy``), seats rotated, for each player count of
   :data:`~dicegames.strength.SHOWN_COUNTS` the game allows: the share of wins with a 95%
   Wilson interval. This is what the level descriptions say in words.
3. **Alone.** For a game with a solo mode, each level's mean score playing alone.
4. **Exact.** Where the game's ``exact`` part covers two players (a solved game), each
   level's exact winning chance against ``optimal`` from both seats, and the game's value.

A listed level the kernel does not play is measured on the engine only when
``engine_games`` is above 0 (that many games a pairing); otherwise it is listed unrated,
with the reason, so a later run picks it up once it has a kernel policy. Every new level
(``optimal``, a trained one) is picked up the same way: the levels come from the registry.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.ladder import default_ladder, duel_of, identity, kernel_plays
from dicegames.analysis.ratings import bradley_terry
from dicegames.analysis.simulate import SimulationReport, simulate
from dicegames.bots import bot_levels
from dicegames.core.errors import OptionError
from dicegames.core.game import Game
from dicegames.core.registry import configure, definition
from dicegames.strength import (
    FORMAT,
    OPPONENT,
    OPPONENT_OF_OPPONENT,
    SHOWN_COUNTS,
    VERSION,
    Exact,
)

Progress = Callable[[str], None]
"""Told what is being played next (a line for the script's output)."""


def _sub_seed(seed: int, what: str) -> int:
    """A seed of its own for each run, stable across Python processes."""
    digest = hashlib.sha256(f"{seed}/{what}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def listed_levels(game: Game[Any, Any, Any]) -> list[str]:
    """The listed level names of ``game``, in its order."""
    return [level.name for level in bot_levels(game) if level.listed]


def _bots(duel: Game[Any, Any, Any], engine_games: int
          ) -> tuple[list[str], dict[str, list[str]], dict[str, str]]:
    """The distinct bots to rate (``random`` first), each one's other names, and the
    listed levels left unrated (name -> reason)."""
    ladder = default_ladder(duel)
    names = list(ladder.names)
    same_as = {name: list(aliases) for name, aliases in ladder.same_as.items()}
    unrated: dict[str, str] = {}
    known = {identity(duel, name): name for name in names}
    for skipped in ladder.skipped:
        if engine_games <= 0:
            unrated[skipped.bot] = "no-kernel"
            continue
        key = identity(duel, skipped.bot)
        if key in known:
            same_as.setdefault(known[key], []).append(skipped.bot)
        else:
            known[key] = skipped.bot
            names.append(skipped.bot)
    return names, same_as, unrated


@dataclass(frozen=True, slots=True)
class Run:
    """How much to play: games a run (kernel), games a run on the engine, the master seed,
    worker processes, and who is told what is played next."""

    games: int
    engine_games: int
    seed: int
    jobs: int
    progress: Progress

    def games_for(self, game: Game[Any, Any, Any], seats: Sequence[str]) -> int:
        """The games of a run with these bots: :attr:`games` when the kernel plays them all,
        else at most :attr:`engine_games`."""
        return self.games if kernel_plays(game, seats) else min(self.games, self.engine_games)

    def play(self, game: Game[Any, Any, Any], seats: Sequence[str], what: str
             ) -> SimulationReport | None:
        """The run of these bots, seats rotated (None when it has no games)."""
        count = self.games_for(game, seats)
        if count <= 0:
            return None
        self.progress(f"{game.spec.id}: {what}, {game.players} players, {count} games")
        return simulate(game, list(seats), count, _sub_seed(self.seed, f"{what}/{game.players}"),
                        rotate=True, jobs=self.jobs)


def _ratings(duel: Game[Any, Any, Any], names: Sequence[str], run: Run
             ) -> dict[str, dict[str, float]]:
    wins = [[0.0] * len(names) for _ in names]
    for i, first in enumerate(names):
        for j in range(i + 1, len(names)):
            result = run.play(duel, [first, names[j]], f"{first} against {names[j]}")
            if result is None:
                continue
            a, b = result.per_player
            wins[i][j] += a.wins
            wins[j][i] += b.wins
    return {r.name: {"elo": r.elo, "low": r.low, "high": r.high}
            for r in bradley_terry(names, wins)}


def _versus(game_id: str, options: dict[str, Any], name: str, counts: Sequence[int], run: Run
            ) -> list[dict[str, Any]]:
    opponent = OPPONENT_OF_OPPONENT if name == OPPONENT else OPPONENT
    found: list[dict[str, Any]] = []
    for players in counts:
        table = configure(game_id, players, options)
        seats = [name] + [opponent] * (players - 1)
        result = run.play(table, seats, f"{name} against {opponent}")
        if result is None:
            continue
        count = result.games
        mine = result.per_player[0]
        found.append({"players": players, "opponent": opponent, "games": count,
                      "share": mine.win_share, "low": mine.ci_low, "high": mine.ci_high})
    return found


def _alone(game_id: str, options: dict[str, Any], name: str, run: Run
           ) -> dict[str, Any] | None:
    """The level's mean score playing alone (a game with a solo mode), else None."""
    result = run.play(configure(game_id, 1, options), [name], f"{name} alone")
    if result is None:
        return None
    return {"games": result.games, "mean": result.per_player[0].mean_score}


def exact_figures(game: Game[Any, Any, Any]) -> Exact | None:
    """The game's ``exact`` part for the two-player game, or None (no part, or a
    configuration it does not cover)."""
    part = definition(game.spec.id).part("exact")
    if part is None:
        return None
    found: Exact | None = part(duel_of(game))
    return found


def measure(game_id: str, games: int, seed: int, *, options: dict[str, Any] | None = None,
            engine_games: int = 0, jobs: int = 1, progress: Progress | None = None
            ) -> dict[str, Any]:
    """The strength figures of a game (the data file's content).

    Args:
        game_id: the game (id or alias).
        games: games a pairing of the round robin, and for each level and player count
            against ``medium``.
        seed: the master seed (the same seed gives the same figures).
        options: the game's options (default: its defaults, which the data files hold).
        engine_games: games for a level the kernel does not play (0: left unrated).
        jobs: worker processes for each run (see :func:`~dicegames.analysis.simulate.
            simulate`; the figures do not depend on it).
        progress: told what is played next.

    Raises:
        OptionError: ``games`` below 1, or the game has fewer than two players.
    """
    if games < 1:
        raise OptionError("games must be at least 1")
    tell = progress or (lambda _line: None)
    spec = definition(game_id).spec
    if spec.max_players < 2:
        raise OptionError(f"{spec.id} is played alone: no round robin to play")
    duel = duel_of(configure(spec.id, max(spec.min_players, 2), options or {}))
    options = dict(duel.options)
    names, same_as, unrated = _bots(duel, engine_games)
    run = Run(games, engine_games, seed, jobs, tell)
    ratings = _ratings(duel, names, run)
    counts = [n for n in SHOWN_COUNTS if spec.min_players <= n <= spec.max_players]
    exact = exact_figures(duel)
    levels: list[dict[str, Any]] = []
    for name in names:
        aliases = same_as.get(name, [])
        chances = None
        if exact is not None:
            chances = next((exact["levels"][n] for n in (name, *aliases)
                            if n in exact["levels"]), None)
        levels.append({"name": name, "same_as": aliases, "rating": ratings[name],
                       "versus": _versus(spec.id, options, name, counts, run),
                       "alone": _alone(spec.id, options, name, run)
                       if spec.min_players == 1 else None,
                       "exact": chances})
    listed = listed_levels(duel)
    for name in listed:
        if name in unrated:
            chances = exact["levels"].get(name) if exact is not None else None
            levels.append({"name": name, "same_as": [], "rating": None, "versus": [],
                           "exact": chances, "unrated": unrated[name]})
    return {"format": FORMAT, "version": VERSION, "game": spec.id, "options": options,
            "games": games, "engine_games": engine_games, "seed": seed,
            "date": datetime.date.today().isoformat(),
            "listed": listed,
            "exact_value": exact["value"] if exact is not None else None,
            "levels": levels}


def stale(data: dict[str, Any] | None, game_id: str) -> str | None:
    """Why a game's data file no longer describes its levels, or None when it does: no
    file, other default options, other listed levels (one added or renamed), or a level
    left unrated for want of a kernel policy that the kernel now plays."""
    if data is None:
        return "no strength figures (run scripts/strength_tables.py)"
    spec = definition(game_id).spec
    duel = duel_of(configure(spec.id, max(spec.min_players, 2)))
    if dict(duel.options) != data["options"]:
        return "the default options changed since the figures were measured"
    listed = listed_levels(duel)
    if listed != data["listed"]:
        return (f"the listed levels are now {', '.join(listed)}; the figures measured "
                f"{', '.join(data['listed'])}")
    unrated = [entry["name"] for entry in data["levels"]
               if entry.get("unrated") == "no-kernel" and kernel_plays(duel, [entry["name"]])]
    if unrated:
        return (f"the kernel now plays {', '.join(unrated)}, left unrated for want of a "
                f"kernel policy when the figures were measured")
    return None
