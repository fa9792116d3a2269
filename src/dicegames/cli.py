"""The ``dicegames`` command: parse the command line, dispatch, map errors to exit codes.

This module only parses and dispatches; the rendering and the interactive loops live in
:mod:`dicegames.terminal`. Every mistake a user can make ends as one line on stderr and a
non-zero exit code, never a traceback: 2 for a wrong command line (and a ``serve --db``
file that is not a usable database), 1 for other failures (files, records), 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from dicegames import __version__
from dicegames.core.errors import DiceGamesError, OptionError
from dicegames.core.files import TargetError
from dicegames.i18n import LANGUAGES, choose, use
from dicegames.terminal.console import ExitCode, Terminal, UsageError

# Each command imports its own modules (the terminal views, rich, the analysis, the web app)
# in dispatch(), when it runs: `dicegames --help` and a mistyped command line load none of
# them (docs/performance.md, "Start-up").

EXIT_CODES = """\
exit codes:
  0    success; also a game left with Ctrl-D or "quit" (it is saved and can be resumed)
  1    a file that cannot be read or written, a corrupt game record, another failure
  2    a wrong command line: unknown game, option, value or bot, wrong player count;
       for serve and db, a --db file or database address that cannot be used
  130  interrupted with Ctrl-C (a game in progress is saved first)
"""

MAIN_EPILOG = f"""\
Run without a command for a menu that sets up a game step by step.

examples:
  dicegames                                   the menu
  dicegames list                              the games
  dicegames rules extra-meters                how a game plays
  dicegames play extra-meters --players you,bot:medium
  dicegames play extra-meters --players Ann,Ben,bot:hard --dice manual
  dicegames play petits-chevaux --position "s4,s5,s6,50/0,0,0,0 1 roll - 0 30"
  dicegames hint extra-meters "48/46 1 decide 4 7"
  dicegames replay game.json --step
  dicegames simulate extra-meters --players bot:easy,bot:medium --games 10000 --rotate
  dicegames analyse extra-meters --games 500  a design report (HTML, charts)
  dicegames review game.json                  every decision of a game judged
  dicegames verify game.json                  check a web match's dice (provably fair)
  dicegames serve                             the web app (prints its address)
  dicegames db copy web.sqlite3 postgresql://dicegames@localhost/dicegames
                                              move the web app's games to PostgreSQL

{EXIT_CODES}"""

PLAY_EPILOG = f"""\
Players are listed in seat order, separated by commas: bot:<level> is a computer player (see
"dicegames rules GAME" for the levels), anything else is a person's name ("you" shows as
"You"). Without --players you play against the game's medium bot(s).

At your turn, type the number of a choice or the move itself; "?" lists the choices again,
"quit" or Ctrl-D stops. A game left early is saved (to --save FILE, else to the user data
folder) and the path printed. With --dice manual you roll real dice and type what they show.

The dice of --dice auto come from random.Random(SEED); a resumed game continues the same
sequence, so a game saved and resumed rolls what it would have rolled uninterrupted. The
record keeps how the dice are rolled (and the seed): --resume carries on with physical dice
or with the same seed unless --dice or --seed says otherwise.

examples:
  dicegames play extra-meters --players you,bot:medium
  dicegames play extra-meters --players Ann,Ben --option track_length=30 --seed 7
  dicegames play extra-meters --players you,bot:easy --dice manual --save race.json
  dicegames play --resume race.json
  dicegames play extra-meters --position "12/7 2 decide 3,5 4" --players Ann,Ben

With --position TEXT the game starts from that position (see "Positions" on the game's
rules page); its first field gives the number of players. The record keeps the position.

{EXIT_CODES}"""

HINT_EPILOG = f"""\
The position is a game's position notation (see "Positions" on its rules page). The answer
is the move of the game's hint bot, how that bot decides, and the deciding seat's chance to
win after each legal choice: exact where the game is solved (For a Few Extra Meters with two
players, and three under finish=first on tracks up to 50 squares), else estimated by
rollouts (games played to the end by the medium bot in every seat) with a 95% interval.
Many choices are first screened with a fifth of the rollouts. Where the dice roll next, the
answer is the chance before the roll (the outcomes' chances weighted by their probability).

examples:
  dicegames hint extra-meters "48/46 1 decide 4 7"
  dicegames hint petits-chevaux "0,0,12,s3/30,0,0,0 2 move 6 1 14" --rollouts 400
  dicegames hint extra "-;-,-,-/-;-,-,- 1 12235 ?/? 1" --seat 2 --json

{EXIT_CODES}"""

SIMULATE_EPILOG = f"""\
Every player must be a bot (bot:<level>). The report gives each player's share of wins with
its 95% Wilson interval (a shared win counts 1/k to each of the k winners), the mean score,
and the game length in turns. The same --seed gives the same figures, whatever --jobs.

examples:
  dicegames simulate extra-meters --players bot:easy,bot:medium --games 10000 --rotate
  dicegames simulate extra-meters --players bot:medium,bot:medium --option finish=same_round
  dicegames simulate extra-meters --players bot:random,bot:medium --games 2000 --json

{EXIT_CODES}"""


ANALYSE_EPILOG = f"""\
The report measures, from simulated games (10,000 a run through the game's kernel): each
seat's share of wins, shared wins and games nobody won (best bots and random play) with 95%
intervals, ranks and score differences; game length in turns and decisions; real and forced
choices; a round robin of the bots the kernel plays (each bot once; the others are listed as
skipped) with their Bradley-Terry (Elo) ladder; lead changes, comebacks and Browne's game
metrics (decisiveness, drama, uncertainty...); exact values where the game is solved.
--compare puts a second option set in one table with differences and 95% intervals; --sweep
plots the figures over an option's values. Ctrl-C writes the report of what was done. It is
one HTML file (written to --out, else GAME-report.html here) with
the charts inside; --charts png|svg writes each chart beside it too. The same --seed gives
the same report, whatever --jobs or --scheduler. Needs the analysis extra (matplotlib, and
dask for --scheduler): pip install 'dicegames[analysis]'.

examples:
  dicegames analyse extra-meters --seed 1
  dicegames analyse extra-meters --option finish=first --compare finish=same_round
  dicegames analyse extra-meters --sweep track_length=20..60:10
  dicegames analyse shortcut --games 200 --json > shortcut.json
  dicegames analyse petits-chevaux --players bot:expert,bot:expert,bot:expert,bot:expert
  dicegames analyse monza --games 2000 --scheduler tcp://10.0.0.5:8786

{EXIT_CODES}"""

REVIEW_EPILOG = f"""\
For every decision with a real choice: the win chance each move leaves the player by the
strongest estimate the game has (exact for two- and three-runner Extra Meters, the learned
value for Petits Chevaux, rollouts by the medium bot elsewhere, with their standard error),
the move played, its cost, and a verdict (inaccuracy from 2 points, mistake from 5, blunder
from 15; a cost within the rollouts' noise is "uncertain"). Then the biggest mistakes and
each player's win-chance curve, to the end of the game.

examples:
  dicegames review game.json
  dicegames review game.json --html review.html
  dicegames review games/*.json --json --jobs 2

{EXIT_CODES}"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (raised, then printed by :func:`main`)."""

    def error(self, message: str) -> NoReturn:
        """Refuse the command line: one line naming the problem and where help is."""
        raise UsageError(f"{message} (see {self.prog} --help)")


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command line, with one sub-parser per command."""
    parser = _Parser(prog="dicegames", formatter_class=_formatter, epilog=MAIN_EPILOG,
                     description="Five family dice games: play them, replay them, "
                                 "simulate them.")
    parser.add_argument("--version", action="version", version=f"dicegames {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    commands.add_parser("list", help="list the games", formatter_class=_formatter,
                        description="List the games: id, name, players and what each is.",
                        epilog="example:\n  dicegames list\n\n" + EXIT_CODES)

    rules = commands.add_parser("rules", help="show a game's rules", formatter_class=_formatter,
                                description="Show a game's rules page: rules, options, "
                                            "notation and bots.",
                                epilog="example:\n  dicegames rules extra-meters\n  "
                                       "dicegames rules extra-meters | less\n\n" + EXIT_CODES)
    rules.add_argument("game", metavar="GAME", help="a game id or alias (see dicegames list)")
    rules.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                       help="the page's language (default: from LANG, else English)")

    play = commands.add_parser("play", help="play a game at this terminal",
                               formatter_class=_formatter, epilog=PLAY_EPILOG,
                               description="Play a game: people at the keyboard, bots, dice "
                                           "rolled by the computer or typed in.")
    play.add_argument("game", metavar="GAME", nargs="?",
                      help="a game id or alias (not needed with --resume)")
    play.add_argument("--players", metavar="LIST",
                      help="seats in order, e.g. you,bot:medium or Ann,Ben,bot:easy")
    _add_game_options(play)
    play.add_argument("--dice", choices=("auto", "manual"),
                      help="auto: the computer rolls (the default for a new game); manual: "
                           "type in real dice. A resumed game keeps its own unless given")
    play.add_argument("--save", metavar="FILE", type=Path,
                      help="save the game record to FILE (at the end, or when stopped)")
    play.add_argument("--resume", metavar="FILE", type=Path,
                      help="continue the game saved in FILE (saved back to it)")
    play.add_argument("--position", metavar="TEXT",
                      help="start from this position (see Positions on the rules page)")
    play.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                      help="the language of the prompts, moves and log (default: from "
                           "LANG, else English); notation stays as it is")

    _add_hint(commands)

    replay = commands.add_parser("replay", help="show a saved game move by move",
                                 formatter_class=_formatter,
                                 description="Show a saved game move by move: each move's "
                                             "description and the board after it.",
                                 epilog="examples:\n  dicegames replay game.json\n  "
                                        "dicegames replay game.json --step\n\n" + EXIT_CODES)
    replay.add_argument("file", metavar="FILE", type=Path, help="a saved game record (JSON)")
    replay.add_argument("--step", action="store_true",
                        help="wait for Enter before each move (at a terminal)")
    replay.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                        help="the language of the moves and the log (default: from LANG, "
                             "else English)")

    _add_verify(commands)
    _add_solve(commands)

    sim = commands.add_parser("simulate", help="play many bot-against-bot games",
                              formatter_class=_formatter, epilog=SIMULATE_EPILOG,
                              description="Play many games between bots and report each "
                                          "player's win share with its 95% interval.")
    sim.add_argument("game", metavar="GAME", help="a game id or alias")
    sim.add_argument("--players", metavar="LIST", required=True,
                     help="bots in seat order, e.g. bot:easy,bot:medium")
    sim.add_argument("--games", metavar="N", type=int, default=1000,
                     help="how many games (default 1000)")
    _add_game_options(sim)
    sim.add_argument("--rotate", action="store_true",
                     help="rotate the seats from game to game (spreads the first-player edge)")
    sim.add_argument("--jobs", metavar="N", type=int, default=1,
                     help="worker processes (default 1; 0 = one per CPU)")
    sim.add_argument("--json", action="store_true",
                     help="print one JSON object instead of the table: game, options, "
                          "players, games, seed, rotate, per_player (label, games, wins, "
                          "win_share, ci_low, ci_high, mean_score), mean_turns, "
                          "median_turns, no_winner, engine, elapsed_s, games_per_s; counts are "
                          "integers")
    sim.add_argument("--no-kernel", action="store_false", dest="kernel",
                     help="play through the engine even where the game's compiled bulk kernel "
                          "could (the report says which played)")
    _add_scheduler(sim)

    _add_analysis_commands(commands)
    serve = commands.add_parser("serve", help="start the web app", formatter_class=_formatter,
                                description="Start the web app (JSON API, websockets, pages) "
                                            "and print its address.",
                                epilog="examples:\n  dicegames serve\n  dicegames serve "
                                       "--port 8080 --db games.sqlite3 --open\n"
                                       "  dicegames serve --lan   (every phone in the house)"
                                       "\n\n"
                                       + EXIT_CODES)
    serve.add_argument("--host", default=None,
                       help="address to listen on (default 127.0.0.1: this machine only; "
                            "with --lan: this machine's network address)")
    serve.add_argument("--lan", action="store_true",
                       help="let every phone and computer on this network play: listen on "
                            "this machine's network address too, and print it with a QR "
                            "code (see docs/security.md)")
    serve.add_argument("--port", type=int, default=8000,
                       help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--db", metavar="PATH|URL",
                       help="where the games are stored: a SQLite file (a path or "
                            "sqlite:///path; default: web.sqlite3 in the user data folder) or "
                            "a PostgreSQL database (postgresql://user@host/database, needs "
                            "the postgres extra)")
    serve.add_argument("--bot-delay", metavar="S", type=float, default=0.7,
                       help="seconds bots wait before moving, so people can follow "
                            "(default 0.7)")
    serve.add_argument("--undo-grace", metavar="S", type=float, default=3.0,
                       help="seconds a person has to take back the last decision of their "
                            "turn before the next roll or bot move (default 3; 0: none)")
    serve.add_argument("--open", action="store_true", help="open the address in a browser")
    serve.add_argument("--workers", metavar="N", type=int, default=1,
                       help="server processes sharing the port (default 1; more than one "
                            "needs --db postgresql://...)")
    serve.add_argument("--allow-origin", metavar="URL", action="append", default=[],
                       dest="allow_origins",
                       help="a web origin (http://host:port) whose pages may also change "
                            "games here (repeatable; default: only the server's own pages; "
                            "see docs/security.md)")
    serve.add_argument("--send-timeout", metavar="S", type=float, default=10.0,
                       help="seconds a live viewer may leave an update unread before it is "
                            "dropped (default 10)")
    _add_serve_limits(serve)
    _add_db_command(commands)
    return parser


def _add_db_command(commands: Any) -> None:
    """``dicegames db copy SRC DST`` and ``dicegames db migrate TARGET``
    (:mod:`dicegames.web.store_copy`)."""
    db = commands.add_parser("db", help="copy or migrate the web app's store",
                             formatter_class=_formatter,
                             description="The web app's store: a SQLite file (a path or "
                                         "sqlite:///path) or a PostgreSQL database "
                                         "(postgresql://user@host/database).",
                             epilog="examples:\n  dicegames db copy web.sqlite3 "
                                    "postgresql://dicegames@localhost/dicegames\n"
                                    "  dicegames db migrate postgresql://dicegames@localhost/"
                                    "dicegames\n\n" + EXIT_CODES)
    actions = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    copy = actions.add_parser("copy", help="copy every match, seat, move and upload",
                              description="Copy every match, seat, move, lobby row and upload "
                                          "of SRC into DST (migrated first), in one "
                                          "transaction; stop the servers using SRC first.")
    copy.add_argument("source", metavar="SRC", help="the store to copy (must exist)")
    copy.add_argument("destination", metavar="DST",
                      help="the store to copy into (created when missing; must hold no "
                           "match unless --replace)")
    copy.add_argument("--replace", action="store_true",
                      help="delete the matches DST holds first (in the same transaction)")
    migrate = actions.add_parser("migrate", help="bring a store's schema up to this version",
                                 description="Apply the schema migrations TARGET lacks (the "
                                             "server also does it when it starts).")
    migrate.add_argument("target", metavar="TARGET", help="the store (created when missing)")


def _add_serve_limits(serve: argparse.ArgumentParser) -> None:
    """``dicegames serve``'s limits: per-client rates, memory, websocket keepalive (the
    defaults are :mod:`dicegames.web.limits`'s, not imported here: the web app's packages
    load only when a server starts)."""
    serve.add_argument("--rate-limit", metavar="KIND=COUNT/SECONDS", action="append",
                       default=[], dest="rate_limits",
                       help="requests one client address may make: COUNT at once, then COUNT "
                            "per SECONDS; KIND is create, join, upload, hint or review "
                            "(repeatable; defaults in docs/web-api.md)")
    serve.add_argument("--max-sockets", metavar="N", type=int,
                       help="websockets one client address may hold open at once (default "
                            "64; 0: no limit)")
    serve.add_argument("--no-rate-limits", action="store_true",
                       help="no per-client limit at all (for benchmarks and tests)")
    serve.add_argument("--idle-evict", metavar="S", type=float, default=300.0,
                       help="seconds an idle match stays in memory before it is dropped "
                            "(reloaded from the database when asked for; default 300)")
    serve.add_argument("--matches-in-memory", metavar="N", type=int, default=32,
                       help="idle matches kept in memory at most (default 32)")
    serve.add_argument("--ping-interval", metavar="S", type=float, default=10.0,
                       help="seconds between pings to each websocket (default 10)")
    serve.add_argument("--ping-timeout", metavar="S", type=float, default=15.0,
                       help="seconds a websocket has to answer a ping before it is closed "
                            "(default 15)")


def _serve_limits(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``serve`` for the limits on the command line.

    Raises:
        UsageError: a limit out of range (the message names the option and the range).
    """
    from dicegames.web.limits import DEFAULT_RATES, SOCKETS_PER_CLIENT, ClientLimits, Rate
    rates = dict(DEFAULT_RATES)
    sockets = SOCKETS_PER_CLIENT if args.max_sockets is None else args.max_sockets
    for text in args.rate_limits:
        kind, equals, value = text.partition("=")
        if not equals or kind.strip() not in rates:
            raise UsageError(f"--rate-limit takes KIND=COUNT/SECONDS with KIND one of "
                             f"{', '.join(DEFAULT_RATES)}, not {text!r}")
        try:
            rates[kind.strip()] = Rate.parse(value.strip())
        except ValueError as error:
            raise UsageError(f"--rate-limit {kind.strip()}: {error}") from None
    if not 0 <= sockets <= 100_000:
        raise UsageError("--max-sockets takes a count from 0 to 100000")
    if not 0 < args.idle_evict <= 86_400:
        raise UsageError("--idle-evict takes seconds from 0 to 86400")
    if not 1 <= args.matches_in_memory <= 100_000:
        raise UsageError("--matches-in-memory takes a count from 1 to 100000")
    for name, value in (("--ping-interval", args.ping_interval),
                        ("--ping-timeout", args.ping_timeout)):
        if not 0 < value <= 3600:
            raise UsageError(f"{name} takes seconds from 0 to 3600")
    limits = (ClientLimits.off() if args.no_rate_limits
              else ClientLimits(rates, sockets))
    return {"client_limits": limits, "idle_evict": args.idle_evict,
            "matches_in_memory": args.matches_in_memory,
            "ping_interval": args.ping_interval, "ping_timeout": args.ping_timeout}


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                        dest="options", help="set a game option (repeatable; see "
                                             "dicegames rules GAME)")
    parser.add_argument("--seed", metavar="S", type=int,
                        help="seed of the dice and bots (default: random, and shown)")


def _add_analysis_commands(commands: Any) -> None:
    """The ``analyse`` and ``review`` sub-parsers."""
    analyse = commands.add_parser("analyse", aliases=["analyze"],
                                  help="a game-design report with charts",
                                  formatter_class=_formatter, epilog=ANALYSE_EPILOG,
                                  description="Measure a game from simulated games: seat "
                                              "advantage, length, luck and skill, drama.")
    analyse.add_argument("game", metavar="GAME", help="a game id or alias")
    analyse.add_argument("--players", metavar="LIST",
                         help="the bot in each seat of the main run (default: the best "
                              "bot in every seat, at the game's usual player count)")
    analyse.add_argument("--ladder", metavar="LIST",
                         help="the round robin's bots, reference first (default: random "
                              "and every listed level the game's kernel plays)")
    analyse.add_argument("--games", metavar="N", type=int, default=10_000,
                         help="games per run and per ladder pairing (default 10000)")
    _add_game_options(analyse)
    analyse.add_argument("--compare", metavar="NAME=VALUE", action="append", default=[],
                         help="compare with these options changed: one table, each "
                              "figure's difference and 95%% interval (repeatable)")
    analyse.add_argument("--sweep", metavar="NAME=A..B[:STEP]",
                         help="plot seat 1's share, the length and the decisiveness over "
                              "an option's values, with 95%% bands")
    analyse.add_argument("--jobs", metavar="N", type=int, default=1,
                         help="worker processes (default 1; 0 = one per CPU)")
    _add_scheduler(analyse)
    analyse.add_argument("--out", metavar="FILE", type=Path,
                         help="the HTML report (default: GAME-report.html here)")
    analyse.add_argument("--charts", choices=("png", "svg"),
                         help="also write each chart as a file beside the report")
    analyse.add_argument("--json", action="store_true",
                         help="print the figures as JSON instead of writing the page")

    rev = commands.add_parser("review", help="judge every decision of finished games",
                              formatter_class=_formatter, epilog=REVIEW_EPILOG,
                              description="Review finished games: each decision's win "
                                          "chances, the mistakes, the win-chance curve.")
    rev.add_argument("files", metavar="RECORD", type=Path, nargs="+",
                     help="saved game records (JSON)")
    rev.add_argument("--json", action="store_true", help="print the review(s) as JSON")
    rev.add_argument("--html", metavar="FILE", type=Path,
                     help="also write the review as an HTML page with its curve")
    rev.add_argument("--rollouts", metavar="N", type=int, default=32,
                     help="continuations per move where rollouts estimate (default 32)")
    rev.add_argument("--jobs", metavar="N", type=int, default=1,
                     help="worker processes for several records (default 1)")
    _add_scheduler(rev)


def _add_hint(commands: argparse._SubParsersAction[_Parser]) -> None:
    """The ``hint`` command: what to play in a position, and why."""
    hint = commands.add_parser("hint", help="what to play in a position, and why",
                               formatter_class=_formatter, epilog=HINT_EPILOG,
                               description="Show what the strongest bot plays in a position, "
                                           "how it decides, and each choice's chance to win.")
    hint.add_argument("game", metavar="GAME", help="a game id or alias")
    hint.add_argument("position", metavar="POSITION",
                      help="the position, quoted (see Positions on the rules page)")
    hint.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                      dest="options", help="set a game option (repeatable)")
    hint.add_argument("--seat", metavar="N", type=int,
                      help="the seat to advise, 1-based (needed when several decide)")
    hint.add_argument("--rollouts", metavar="N", type=int, default=120,
                      help="rollout games per choice where the game is not solved "
                           "(default 120)")
    hint.add_argument("--seed", metavar="S", type=int, default=0,
                      help="seed of the rollouts (default 0)")
    hint.add_argument("--json", action="store_true", help="print one JSON document")
    hint.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                      help="the language of the explanation (default: from LANG, else "
                           "English)")


def _add_verify(commands: argparse._SubParsersAction[_Parser]) -> None:
    """The ``verify`` command: a finished web match's dice against its commitment."""
    verify = commands.add_parser(
        "verify", help="check a finished web match's dice against its commitment",
        formatter_class=_formatter,
        description="Check that every automatic roll of a finished web match follows from "
                    "the secret it revealed at the end, and that the secret matches the "
                    "SHA-256 commitment the match published when it was created (see "
                    "docs/security.md). Prints one line: the verdict, naming the first roll "
                    "that does not follow.",
        epilog="examples:\n  dicegames verify extra-meters-AbC.json\n\nexit codes:\n  0    "
               "verified\n  1    not verified (a roll or the secret does not match, the game "
               "is not finished, no commitment), or the record cannot be read or replayed\n"
               "  2    a wrong command line\n")
    verify.add_argument("file", metavar="RECORD", type=Path,
                        help="a record downloaded from a finished web match (JSON)")


def _add_solve(commands: argparse._SubParsersAction[_Parser]) -> None:
    """The ``solve`` command: a solved game's exact tables to an npz file."""
    solve = commands.add_parser(
        "solve", help="write a solved game's exact value and policy tables (npz)",
        formatter_class=_formatter,
        description="Solve a game exactly and write its value and policy tables to a numpy "
                    "npz file, for learning research (layout: docs/rl.md). Extra Meters is "
                    "solved for two runners (either finish) and three (finish=first, up to "
                    "50 squares).",
        epilog="examples:\n  dicegames solve extra-meters --out em50.npz\n"
               "  dicegames solve extra-meters --players 3 --option track_length=30 "
               "--out em3.npz\n  dicegames solve shortcut --out sc.npz   # two players, "
               "boards of up to 200 cells\n\n" + EXIT_CODES)
    solve.add_argument("game", metavar="GAME", help="the game id")
    solve.add_argument("--players", metavar="N", type=int, default=None,
                       help="the player count (default: the game's)")
    solve.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                       dest="options", help="set a game option (repeatable)")
    solve.add_argument("--out", metavar="FILE", type=Path, required=True,
                       help="the npz file to write")


def _add_scheduler(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on the Dask cluster of this scheduler (tcp://host:8786; "
                             "needs the analysis extra) instead of local processes")


def dispatch(term: Terminal, args: argparse.Namespace) -> ExitCode:
    """Run the command ``args`` names (the launcher when none) and return its exit code.

    Each branch imports what its command needs, so that parsing stays light."""
    if args.command is None:
        from dicegames.terminal.launcher import run_launcher
        with use(choose(None, None, os.environ.get("LANG"))):
            return run_launcher(term)
    if args.command == "list":
        from dicegames.terminal.info import run_list
        return run_list(term)
    if args.command == "rules":
        from dicegames.terminal.info import run_rules
        return run_rules(term, args.game, choose(args.lang, None, os.environ.get("LANG")))
    if args.command == "play":
        from dicegames.terminal.play import PlayRequest, run_play
        with use(choose(args.lang, None, os.environ.get("LANG"))):
            return run_play(term, PlayRequest(
                game=args.game, players=args.players, options=args.options, seed=args.seed,
                dice=args.dice, save=args.save, resume=args.resume, position=args.position))
    if args.command == "hint":
        from dicegames.terminal.hint import HintRequest, run_hint
        with use(choose(args.lang, None, os.environ.get("LANG"))):
            return run_hint(term, HintRequest(
                game=args.game, position=args.position, options=args.options, seat=args.seat,
                rollouts=args.rollouts, seed=args.seed, json=args.json))
    if args.command == "replay":
        from dicegames.terminal.replay import run_replay
        with use(choose(args.lang, None, os.environ.get("LANG"))):
            return run_replay(term, args.file, args.step)
    if args.command == "verify":
        from dicegames.terminal.verify import run_verify
        return run_verify(term, args.file)
    if args.command == "solve":
        from dicegames.terminal.solve import SolveRequest, run_solve
        return run_solve(term, SolveRequest(game=args.game, players=args.players,
                                            options=args.options, out=args.out))
    if args.command == "serve":
        return _serve(args)
    if args.command == "db":
        return _db(term, args)
    if args.command in ("analyse", "analyze"):
        from dicegames.terminal.analyse_view import AnalyseRequest, run_analyse
        return run_analyse(term, AnalyseRequest(
            game=args.game, players=args.players, ladder=args.ladder, games=args.games,
            options=args.options, compare=args.compare, seed=args.seed, jobs=args.jobs,
            scheduler=args.scheduler, out=args.out, charts=args.charts, json=args.json,
            sweep=args.sweep))
    if args.command == "review":
        from dicegames.terminal.analyse_view import ReviewRequest, run_review
        return run_review(term, ReviewRequest(
            files=args.files, json=args.json, html=args.html, rollouts=args.rollouts,
            jobs=args.jobs, scheduler=args.scheduler))
    from dicegames.terminal.simulate_view import SimulateRequest, run_simulate
    return run_simulate(term, SimulateRequest(
        game=args.game, players=args.players, games=args.games, options=args.options,
        seed=args.seed, rotate=args.rotate, jobs=args.jobs, json=args.json,
        scheduler=args.scheduler, kernel=args.kernel))


def _serve(args: argparse.Namespace) -> ExitCode:
    """``dicegames serve``: check the options, then run the web app until stopped."""
    if args.bot_delay < 0 or args.bot_delay > 60:
        raise UsageError("--bot-delay takes seconds from 0 to 60")
    if args.undo_grace < 0 or args.undo_grace > 60:
        raise UsageError("--undo-grace takes seconds from 0 to 60")
    from dicegames.web.database import StoreOpenError
    from dicegames.web.guard import normalize_origin
    from dicegames.web.server import serve
    for origin in args.allow_origins:
        try:
            normalize_origin(origin)
        except ValueError as error:
            raise UsageError(f"--allow-origin: {error}") from None
    if not 0 < args.send_timeout <= 3600:
        raise UsageError("--send-timeout takes seconds from 0 to 3600")
    from dicegames.web.stores import is_postgres
    from dicegames.web.workers import MAX_WORKERS, NEEDS_POSTGRES
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers takes 1 to {MAX_WORKERS} processes")
    if args.workers > 1 and not is_postgres(args.db):
        raise UsageError(NEEDS_POSTGRES)
    host = _serve_host(args.host, args.lan)
    try:
        serve(host, args.port, args.db, args.bot_delay, args.open,
              allow_origins=args.allow_origins, send_timeout=args.send_timeout,
              lan=args.lan, undo_grace=args.undo_grace, workers=args.workers,
              **_serve_limits(args))
    except StoreOpenError as error:  # one line, exit 2: a --db that cannot be used
        raise UsageError(str(error)) from None
    return ExitCode.OK


def _db(term: Terminal, args: argparse.Namespace) -> ExitCode:
    """``dicegames db copy|migrate``: a store that can't be used is a usage error (2), a
    refused copy a failure (1)."""
    from rich.markup import escape

    from dicegames.web.database import StoreOpenError
    from dicegames.web.store_copy import CopyError, copy_store, migrate_store
    from dicegames.web.stores import redact
    try:
        if args.db_command == "migrate":
            version = migrate_store(args.target)
            term.say(escape(f"{redact(args.target)}: schema at version {version}"))
            return ExitCode.OK
        copied = copy_store(args.source, args.destination, replace=args.replace)
    except StoreOpenError as error:
        raise UsageError(str(error)) from None
    except CopyError as error:
        term.error(str(error))
        return ExitCode.ERROR
    term.say(escape(f"copied {copied} from {redact(args.source)} to "
                    f"{redact(args.destination)}"))
    return ExitCode.OK


def _serve_host(host: str | None, lan: bool) -> str:
    """The address ``serve`` listens on: ``--host``, else 127.0.0.1, else with ``--lan``
    this machine's network address (``--host`` must then be one other devices can reach).
    """
    if not lan:
        return host if host is not None else "127.0.0.1"
    from dicegames.web.lan import NoNetworkAddress, network_address, usable
    if host is None:
        try:
            return network_address()
        except NoNetworkAddress as error:
            raise UsageError(f"--lan: {error}") from None
    if not usable(host):
        raise UsageError(f"--lan --host takes this machine's IPv4 address on the network "
                         f"(like 192.168.1.20), not {host!r}")
    return host


def _os_message(error: OSError) -> str:
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dicegames`` script; returns the exit code.

    The command line is parsed before the terminal (and rich) is set up: ``--help`` and
    ``--version`` need neither."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except UsageError as error:
        Terminal.from_environment().error(str(error))
        return ExitCode.USAGE
    term = Terminal.from_environment()
    try:
        return int(dispatch(term, args))
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 0
    except (UsageError, OptionError, TargetError) as error:
        # TargetError: a path named on the command line that is a folder, a socket...
        term.error(str(error))
        return ExitCode.USAGE
    except DiceGamesError as error:
        term.error(str(error))
        return ExitCode.ERROR
    except BrokenPipeError:
        # The reader went away (dicegames list | head): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitCode.ERROR
    except OSError as error:
        term.error(_os_message(error))
        return ExitCode.ERROR
    except KeyboardInterrupt:
        term.say("")
        return ExitCode.INTERRUPTED
