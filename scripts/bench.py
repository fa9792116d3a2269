"""Print speed figures for every registered game (``make bench``); nothing here asserts a speed.

For each game in the registry, with its default options:

* random playouts: games per second with random bots and random dice, at the default player
  count and also with 4 players where the game allows it, plus moves and turns per game;
* core overhead: states per second when replaying recorded random playouts through
  ``State.apply_unchecked`` (the bots' path), ``State.apply`` (checked) and ``Session.apply``
  with notation (what front ends pay: parsing, checks, events and descriptions);
* bot matches: games per second of ``bot:medium`` against itself, and of ``bot:hard``
  against itself, through :func:`dicegames.analysis.simulate`, for games that offer them;
* solvers: seconds to fill the exact two-player Extra Meters table of 100 squares;
* thinking time: milliseconds per decision of the game's ``hard`` bot (and of its
  ``expert`` and ``search`` bots where it has them), and of the generic Monte Carlo tree
  search with a fixed budget of 1000 playouts, on a few positions taken from a random
  playout;
* bulk kernels (``scripts/bench_kernels.py``): compiled playouts against a C loop of the
  same rules, interleaved, as median ratios;
* web load (``scripts/web_bench.py``): 100 concurrent games through a real server's
  websocket API, moves per second and p50/p99 latency from send to acknowledgement;
* largest boards (``scripts/web_bench.py``): 16 bot matches at once on the largest Shortcut
  board and Monza circuit the limits allow, each watched, and the p50/p99 of a simple GET
  beside them (the p99 should stay under 50 ms);
* start-up (``scripts/bench_startup.py``): ``python -c 'import dicegames'`` and
  ``python -m dicegames --help`` in fresh interpreters, interleaved, medians (the aim: help
  under 0.3 s).

New games appear automatically. ``make bench`` runs this script on this checkout and on the
previous release (see ``scripts/bench_previous.py``), ``--rounds`` times each, interleaved,
and prints the medians with each figure's ratio to the previous release's; ``--alone``
measures this checkout once (each timed measurement gets ``--seconds`` seconds, default 2,
shrunk when many games are registered). ``--json`` prints the same figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Hashable
from typing import Any

import bench_kernels  # scripts/bench_kernels.py, beside this file
import bench_startup  # scripts/bench_startup.py, beside this file
import web_bench  # scripts/web_bench.py, beside this file

import dicegames
from dicegames import GameSpec, PlayerInfo, Session, State
from dicegames.analysis import play_one, simulate
from dicegames.bots import MCTSBot, RandomBot, bot_levels, make_bot
from dicegames.core.chance import sample
from dicegames.core.model import PASS

BUDGET_S = 45.0
"""Roughly the most the timed measurements may take together."""

SEED = 20_240_601
"""Fixed seed, so every run measures the same games."""

Replay = tuple[State[Any, Any, Any], list[tuple[Hashable, int | None]]]
"""A game's first state and its moves, each with the acting seat (None for the dice)."""


def timed(step: Callable[[], int], seconds: float) -> tuple[int, int, float]:
    """Call ``step`` until ``seconds`` have passed (at least once).

    Returns the number of calls, the sum of what the calls returned, and the elapsed time.
    """
    calls = total = 0
    began = time.perf_counter()
    elapsed = 0.0
    while calls == 0 or elapsed < seconds:
        total += step()
        calls += 1
        elapsed = time.perf_counter() - began
    return calls, total, elapsed


def player_counts(spec: GameSpec) -> list[int]:
    """The default player count, and 4 when the game allows 4 and 4 is not the default."""
    counts = [spec.default_players]
    if spec.min_players <= 4 <= spec.max_players and spec.default_players != 4:
        counts.append(4)
    return counts


def own_levels(spec: GameSpec) -> set[str]:
    """The names of the bots a game offers itself (not the generic ones)."""
    return {level.name for level in bot_levels(dicegames.make(spec.id))}


# ------------------------------------------------------------------------- measurements


def random_playouts(spec: GameSpec, players: int, seconds: float) -> dict[str, Any]:
    """Games per second of random bots with random dice, and moves and turns per game."""
    game = dicegames.make(spec.id, players=players)
    rng = random.Random(SEED)
    agents = [RandomBot(random.Random(rng.getrandbits(64))) for _ in range(players)]
    turns = 0

    def one_game() -> int:
        nonlocal turns
        outcome = play_one(game, agents, rng)
        turns += outcome.turns
        return outcome.moves

    one_game()  # warm caches (chance tables) before timing
    turns = 0
    games, moves, elapsed = timed(one_game, seconds)
    return {"game": spec.id, "players": players, "games_per_s": games / elapsed,
            "moves_per_game": moves / games, "turns_per_game": turns / games,
            "states_per_s": moves / elapsed}


def recorded_playouts(spec: GameSpec, count: int = 20) -> list[Replay]:
    """``count`` random playouts of the default game, as first states and moves."""
    game = dicegames.make(spec.id)
    rng = random.Random(SEED)
    replays: list[Replay] = []
    for _ in range(count):
        first = state = game.new_state()
        moves: list[tuple[Hashable, int | None]] = []
        while not state.is_terminal:
            if state.is_chance:
                move: Hashable = sample(state.chance_outcomes(), rng)
                seat: int | None = None
            else:
                seat = state.current_players[0]
                move = rng.choice(state.legal_actions(seat))
            moves.append((move, seat))
            state = state.apply_unchecked(move, seat)
        replays.append((first, moves))
    return replays


def core_overhead(spec: GameSpec, seconds: float) -> dict[str, Any]:
    """States per second replaying recorded moves unchecked, checked, and via a session."""
    replays = recorded_playouts(spec)
    game = replays[0][0].game

    def unchecked() -> int:
        applied = 0
        for first, moves in replays:
            state = first
            for move, seat in moves:
                state = state.apply_unchecked(move, seat)
            applied += len(moves)
        return applied

    def checked() -> int:
        applied = 0
        for first, moves in replays:
            state = first
            for move, seat in moves:
                state = state.apply(move, seat)
            applied += len(moves)
        return applied

    def session() -> int:
        applied = 0
        for _, moves in replays:
            table = Session(game, [PlayerInfo(f"P{s + 1}") for s in range(game.players)])
            for move, seat in moves:
                table.apply(str(move), seat)
            applied += len(moves)
        return applied

    figures: dict[str, Any] = {"game": spec.id, "players": game.players}
    for name, step in (("unchecked", unchecked), ("checked", checked), ("session", session)):
        step()  # warm up
        _, applied, elapsed = timed(step, seconds / 3)
        figures[f"{name}_states_per_s"] = applied / elapsed
    return figures


def bot_match(spec: GameSpec, level: str, seconds: float) -> dict[str, Any]:
    """Games per second of ``bot:<level>`` against itself through ``simulate``."""
    game = dicegames.make(spec.id)
    players = [f"bot:{level}"] * game.players
    probe = simulate(game, players, games=5, seed=SEED)
    games = max(5, int(probe.games_per_s * seconds))
    report = simulate(game, players, games=games, seed=SEED, rotate=True)
    return {"game": spec.id, "players": game.players, "bots": level, "games": games,
            "games_per_s": report.games_per_s, "mean_turns": report.mean_turns}


def decision_positions(spec: GameSpec, count: int) -> list[tuple[State[Any, Any, Any], int]]:
    """``count`` positions with a real choice, spread over a seeded random playout."""
    game = dicegames.make(spec.id)
    rng = random.Random(SEED)
    positions: list[tuple[State[Any, Any, Any], int]] = []
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
            continue
        seat = state.current_players[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1 and legal != (PASS,):
            positions.append((state, seat))
        state = state.apply_unchecked(rng.choice(legal), seat)
    if not positions:
        return []
    return [positions[len(positions) * k // (count + 1)] for k in range(1, count + 1)]


def search_speed(spec: GameSpec, level: str, decisions: int = 5) -> dict[str, Any]:
    """Milliseconds per decision of a bot on positions from a random playout.

    ``level`` is a bot name, or ``mcts-1000`` for the generic Monte Carlo search with a
    fixed budget of 1000 playouts and no time limit (the ``mcts`` level itself stops at its
    time limit, so timing it would only show that limit). The first decision is reported
    apart: it includes one-off work such as a solver filling its tables.
    """
    positions = decision_positions(spec, decisions)
    row: dict[str, Any] = {"game": spec.id, "bots": level, "decisions": len(positions),
                           "ms_first": None, "ms_mean": None, "ms_max": None}
    if not positions:
        return row
    game = positions[0][0].game
    rng = random.Random(SEED)
    bot = (MCTSBot(rng, simulations=1000) if level == "mcts-1000"
           else make_bot(game, level, rng))
    times = []
    for position, seat in positions:
        began = time.perf_counter()
        bot.choose(position, seat)
        times.append((time.perf_counter() - began) * 1000)
    rest = times[1:] or times
    row.update(ms_first=times[0], ms_mean=sum(rest) / len(rest), ms_max=max(rest))
    return row


def extra_meters_solve(length: int) -> dict[str, Any]:
    """Seconds to fill the exact two-player Extra Meters table of a track (not cached)."""
    from dicegames.games.extra_meters import solver

    began = time.perf_counter()
    solver.Solution(length, False)
    return {"game": "extra-meters", "players": 2, "bots": f"exact solve, {length} squares",
            "seconds": time.perf_counter() - began}


# ------------------------------------------------------------------------- the run


def run(seconds: float | None, quiet: bool) -> dict[str, Any]:
    """Measure everything and return the figures, printing progress on stderr unless quiet."""
    specs = dicegames.games()
    medium = [spec for spec in specs if "medium" in own_levels(spec)]
    hard = [spec for spec in specs if "hard" in own_levels(spec)]
    searching = [spec for spec in specs if "search" in own_levels(spec)]
    learned = [spec for spec in specs if "expert" in own_levels(spec)]
    slots = sum(len(player_counts(s)) for s in specs) + len(specs) + len(medium)
    # A bot may think ~0.5 s a decision (search bots ~1 s), five decisions per bot and game.
    thinking = 2.5 * (len(hard) + len(learned) + len(specs)) + 5.0 * len(searching)
    per = seconds if seconds is not None else min(2.0, max(0.2, (BUDGET_S - thinking)
                                                           / max(1, slots)))

    def note(text: str) -> None:
        if not quiet:
            print(text, file=sys.stderr, flush=True)

    figures: dict[str, Any] = {
        "python": platform.python_version(), "platform": platform.platform(),
        "cpus": os.cpu_count(), "dicegames": dicegames.__version__, "seconds_each": per,
        "random_playouts": [], "core_overhead": [], "bot_matches": [], "search": [],
        "solvers": [], "web_load": [], "big_boards": [], "startup": [],
    }
    # First, before this process warms anything: fresh interpreters, interleaved.
    note(f"start-up: import dicegames and dicegames --help, {bench_startup.ROUNDS} runs each")
    figures["startup"] = bench_startup.startup_figures()
    for spec in specs:
        for players in player_counts(spec):
            note(f"random playouts: {spec.id}, {players} players")
            figures["random_playouts"].append(random_playouts(spec, players, per))
        note(f"core overhead: {spec.id}")
        figures["core_overhead"].append(core_overhead(spec, per))
    for spec in medium:
        note(f"bot matches: {spec.id}, medium vs medium")
        figures["bot_matches"].append(bot_match(spec, "medium", per))
    for spec in hard:
        note(f"bot matches: {spec.id}, hard vs hard")
        figures["bot_matches"].append(bot_match(spec, "hard", per))
    # 100 squares: the previous release took about 10 s (66 s for 200), this one 0.06 s.
    note("solver: extra-meters, exact two-player solution of 100 squares")
    figures["solvers"] = [extra_meters_solve(100)]
    for spec in hard:
        note(f"search: {spec.id}, hard")
        figures["search"].append(search_speed(spec, "hard"))
    for spec in learned:
        note(f"search: {spec.id}, expert")
        figures["search"].append(search_speed(spec, "expert"))
    for spec in searching:
        note(f"search: {spec.id}, search")
        figures["search"].append(search_speed(spec, "search"))
    for spec in specs:
        note(f"search: {spec.id}, generic MCTS with 1000 playouts")
        figures["search"].append(search_speed(spec, "mcts-1000"))
    note("bulk kernels: interleaved with a C loop (scripts/bench_kernels.py)")
    figures["kernels"] = bench_kernels.kernel_figures()
    note(f"web load: {web_bench.GAMES} concurrent games through the websocket API")
    figures["web_load"] = web_bench.web_load()
    note(f"largest boards: {web_bench.BIG_GAMES} bot matches beside a simple GET")
    figures["big_boards"] = web_bench.big_boards()
    return figures


def show(figures: dict[str, Any], ratios: dict[str, Any] | None = None,
         previous: str = "") -> None:
    """Print the figures as tables; with ``ratios``, each figure's ratio to the previous
    release's (``x1.25``: 1.25 times the previous figure)."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]dicegames {figures['dicegames']} bench[/]: Python {figures['python']}"
                  f" on {figures['platform']}, {figures['cpus']} CPUs, "
                  f"{figures['seconds_each']:.1f} s per measurement")
    if ratios is not None:
        console.print(f"Medians of {figures.get('rounds', 1)} interleaved runs each of this "
                      f"checkout and of the previous release ({previous}); after each figure, "
                      "its ratio to the previous release's (for times, below 1 is faster).")
    section_of = {id(rows): name for name, rows in figures.items() if isinstance(rows, list)}

    def table(title: str, columns: list[tuple[str, str]], rows: list[dict[str, Any]],
              formats: dict[str, str]) -> None:
        grid = Table(title=title, title_justify="left")
        for key, header in columns:
            grid.add_column(header, justify="left" if key in ("game", "bots", "what")
                            else "right")
        section = section_of.get(id(rows), "")
        row_ratios = (ratios or {}).get(section, [])
        for number, row in enumerate(rows):
            cells = []
            for key, _ in columns:
                value = row.get(key)
                text = "-" if value is None else format(value, formats.get(key, ""))
                ratio = row_ratios[number].get(key) if number < len(row_ratios) else None
                if ratio is not None and key not in ("players", "games", "decisions"):
                    text += f" [dim]x{ratio:.2f}[/]"
                cells.append(text)
            grid.add_row(*cells)
        console.print(grid)

    table("Random playouts (random bots, random dice, default options)",
          [("game", "game"), ("players", "players"), ("games_per_s", "games/s"),
           ("moves_per_game", "moves/game"), ("turns_per_game", "turns/game"),
           ("states_per_s", "states/s")],
          figures["random_playouts"],
          {"games_per_s": ",.0f", "moves_per_game": ".1f", "turns_per_game": ".1f",
           "states_per_s": ",.0f"})
    table("Core overhead: replaying random playouts, states applied per second",
          [("game", "game"), ("players", "players"),
           ("unchecked_states_per_s", "apply_unchecked"), ("checked_states_per_s", "apply"),
           ("session_states_per_s", "Session.apply (notation)")],
          figures["core_overhead"],
          {key: ",.0f" for key in ("unchecked_states_per_s", "checked_states_per_s",
                                   "session_states_per_s")})
    table("Bot matches through simulate()",
          [("game", "game"), ("players", "players"), ("bots", "bots"), ("games", "games"),
           ("games_per_s", "games/s"), ("mean_turns", "turns/game")],
          figures["bot_matches"], {"games_per_s": ",.0f", "mean_turns": ".1f"})
    table("Exact solvers", [("game", "game"), ("bots", "what"), ("seconds", "seconds")],
          figures.get("solvers", []), {"seconds": ".3f"})
    # Compiled bulk playouts (numba kernels, issue 16 part 2) get their table here.
    table("Thinking time per decision (the hard, expert and search bots; MCTS at 1000 "
          "playouts)",
          [("game", "game"), ("bots", "bots"), ("decisions", "decisions"),
           ("ms_first", "ms first"), ("ms_mean", "ms mean (rest)"), ("ms_max", "ms max (rest)")],
          figures["search"], {"ms_first": ",.1f", "ms_mean": ",.1f", "ms_max": ",.1f"})
    table("Web load: concurrent games through a real server's websocket API (two people a "
          "game, random legal moves; latency = send to acknowledgement, committed to SQLite)",
          [("pace", "pace"), ("games", "games"), ("moves_per_s", "moves/s"),
           ("p50_ms", "p50 ms"), ("p99_ms", "p99 ms"), ("max_ms", "max ms"),
           ("finished_games", "games finished")],
          figures["web_load"], {"moves_per_s": ",.0f", "p50_ms": ",.1f", "p99_ms": ",.1f",
                                "max_ms": ",.1f"})
    table(f"Largest boards: {web_bench.BIG_GAMES} bot matches at once on the largest board "
          "the limits allow, at the default bot pace, each watched; a simple GET "
          f"({web_bench.PROBE}) beside them",
          [("game", "game"), ("games", "games"), ("moves_per_s", "moves/s"),
           ("push_kb", "KB a push"), ("get_p50_ms", "GET p50 ms"),
           ("get_p99_ms", "GET p99 ms"), ("get_max_ms", "GET max ms")],
          figures.get("big_boards", []),
          {"moves_per_s": ",.1f", "push_kb": ",.1f", "get_p50_ms": ",.1f",
           "get_p99_ms": ",.1f", "get_max_ms": ",.1f"})
    table("Start-up: a fresh interpreter's wall time (medians of interleaved runs; the aim "
          "for dicegames --help is 300 ms)",
          [("what", "command"), ("ms_median", "ms median"), ("ms_min", "ms lowest"),
           ("ms_max", "ms highest"), ("cpu_ms_median", "CPU ms median")],
          figures.get("startup", []),
          {"ms_median": ",.0f", "ms_min": ",.0f", "ms_max": ",.0f", "cpu_ms_median": ",.0f"})
    bench_kernels.show(figures["kernels"])


def bench_previous_available() -> bool:
    """Whether git can unpack the previous release's code (see bench_previous.py)."""
    import subprocess

    import bench_previous  # scripts/bench_previous.py, beside this file

    try:
        found = subprocess.run(["git", "cat-file", "-e",
                                f"{bench_previous.previous_revision()}^{{commit}}"],
                               cwd=bench_previous.ROOT, capture_output=True, check=False)
    except OSError:
        return False
    return found.returncode == 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, measure, and print a table or JSON."""
    parser = argparse.ArgumentParser(description="Speed figures for every dicegames game.")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs each of this checkout and of the previous release, "
                             "interleaved (default 2; medians are shown)")
    parser.add_argument("--alone", action="store_true",
                        help="measure this interpreter's dicegames once, with no comparison")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds per timed measurement (default: 2, less when many "
                             "games are registered)")
    args = parser.parse_args(argv)
    if args.seconds is not None and not args.seconds > 0:
        parser.error("--seconds must be positive")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    ratios: dict[str, Any] | None = None
    previous = ""
    if not args.alone and not bench_previous_available():
        print("the previous release cannot be read from git here (no git, or a shallow "
              "clone without it): measuring this checkout alone", file=sys.stderr)
        args.alone = True
    if args.alone:
        figures = run(args.seconds, quiet=args.json)
    else:
        import bench_previous  # scripts/bench_previous.py, beside this file

        def note(text: str) -> None:
            print(text, file=sys.stderr, flush=True)

        seconds = args.seconds if args.seconds is not None else 0.5
        figures, before, previous = bench_previous.compare(args.rounds, seconds, note)
        figures["rounds"], figures["previous"] = args.rounds, previous
        ratios = bench_previous.ratios(figures, before)
        figures["ratios_to_previous"] = ratios
    try:
        if args.json:
            print(json.dumps(figures, indent=2))
        else:
            show(figures, ratios, previous)
    except BrokenPipeError:  # e.g. piped into `head`: the reader has seen enough
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
