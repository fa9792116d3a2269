"""The ``dicegames`` command: parse the command line, dispatch, map errors to exit codes.

This module only parses and dispatches; the rendering and the interactive loops live in
:mod:`dicegames.terminal`. Every mistake a user can make ends as one line on stderr and a
non-zero exit code, never a traceback: 2 for a wrong command line, 1 for other failures
(files, records), 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from dicegames import __version__
from dicegames.core.errors import DiceGamesError, OptionError
from dicegames.terminal.console import ExitCode, Terminal, UsageError
from dicegames.terminal.info import run_list, run_rules
from dicegames.terminal.launcher import run_launcher
from dicegames.terminal.play import PlayRequest, run_play
from dicegames.terminal.replay import run_replay
from dicegames.terminal.simulate_view import SimulateRequest, run_simulate

EXIT_CODES = """\
exit codes:
  0    success; also a game left with Ctrl-D or "quit" (it is saved and can be resumed)
  1    a file that cannot be read or written, a corrupt game record, another failure
  2    a wrong command line: unknown game, option, value or bot, wrong player count
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
  dicegames replay game.json --step
  dicegames simulate extra-meters --players bot:easy,bot:medium --games 10000 --rotate
  dicegames serve                             the web app (prints its address)

{EXIT_CODES}"""

PLAY_EPILOG = f"""\
Players are listed in seat order, separated by commas: bot:<level> is a computer player (see
"dicegames rules GAME" for the levels), anything else is a person's name ("you" shows as
"You"). Without --players you play against the game's medium bot(s).

At your turn, type the number of a choice or the move itself; "?" lists the choices again,
"quit" or Ctrl-D stops. A game left early is saved (to --save FILE, else to the user data
folder) and the path printed. With --dice manual you roll real dice and type what they show.

The dice of --dice auto come from random.Random(SEED); a resumed game continues the same
sequence, so a game saved and resumed rolls what it would have rolled uninterrupted.

examples:
  dicegames play extra-meters --players you,bot:medium
  dicegames play extra-meters --players Ann,Ben --option track_length=30 --seed 7
  dicegames play extra-meters --players you,bot:easy --dice manual --save race.json
  dicegames play --resume race.json

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

    play = commands.add_parser("play", help="play a game at this terminal",
                               formatter_class=_formatter, epilog=PLAY_EPILOG,
                               description="Play a game: people at the keyboard, bots, dice "
                                           "rolled by the computer or typed in.")
    play.add_argument("game", metavar="GAME", nargs="?",
                      help="a game id or alias (not needed with --resume)")
    play.add_argument("--players", metavar="LIST",
                      help="seats in order, e.g. you,bot:medium or Ann,Ben,bot:easy")
    _add_game_options(play)
    play.add_argument("--dice", choices=("auto", "manual"), default="auto",
                      help="auto: the computer rolls (default); manual: type in real dice")
    play.add_argument("--save", metavar="FILE", type=Path,
                      help="save the game record to FILE (at the end, or when stopped)")
    play.add_argument("--resume", metavar="FILE", type=Path,
                      help="continue the game saved in FILE (saved back to it)")

    replay = commands.add_parser("replay", help="show a saved game move by move",
                                 formatter_class=_formatter,
                                 description="Show a saved game move by move: each move's "
                                             "description and the board after it.",
                                 epilog="examples:\n  dicegames replay game.json\n  "
                                        "dicegames replay game.json --step\n\n" + EXIT_CODES)
    replay.add_argument("file", metavar="FILE", type=Path, help="a saved game record (JSON)")
    replay.add_argument("--step", action="store_true",
                        help="wait for Enter before each move (at a terminal)")

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
                     help="print one JSON document instead of the table")
    sim.add_argument("--no-kernel", action="store_false", dest="kernel",
                     help="play through the engine even where the game's compiled bulk kernel "
                          "could (the report says which played)")
    serve = commands.add_parser("serve", help="start the web app", formatter_class=_formatter,
                                description="Start the web app (JSON API, websockets, pages) "
                                            "and print its address.",
                                epilog="examples:\n  dicegames serve\n  dicegames serve "
                                       "--port 8080 --db games.sqlite3 --open\n\n"
                                       + EXIT_CODES)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000,
                       help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--db", metavar="PATH", type=Path,
                       help="SQLite file of the games (default: web.sqlite3 in the user "
                            "data folder)")
    serve.add_argument("--bot-delay", metavar="S", type=float, default=0.7,
                       help="seconds bots wait before moving, so people can follow "
                            "(default 0.7)")
    serve.add_argument("--open", action="store_true", help="open the address in a browser")
    return parser


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                        dest="options", help="set a game option (repeatable; see "
                                             "dicegames rules GAME)")
    parser.add_argument("--seed", metavar="S", type=int,
                        help="seed of the dice and bots (default: random, and shown)")


def dispatch(term: Terminal, args: argparse.Namespace) -> ExitCode:
    """Run the command ``args`` names (the launcher when none) and return its exit code."""
    if args.command is None:
        return run_launcher(term)
    if args.command == "list":
        return run_list(term)
    if args.command == "rules":
        return run_rules(term, args.game)
    if args.command == "play":
        return run_play(term, PlayRequest(
            game=args.game, players=args.players, options=args.options, seed=args.seed,
            manual=args.dice == "manual", save=args.save, resume=args.resume))
    if args.command == "replay":
        return run_replay(term, args.file, args.step)
    if args.command == "serve":
        if args.bot_delay < 0 or args.bot_delay > 60:
            raise UsageError("--bot-delay takes seconds from 0 to 60")
        from dicegames.web.server import serve
        serve(args.host, args.port, args.db, args.bot_delay, args.open)
        return ExitCode.OK
    return run_simulate(term, SimulateRequest(
        game=args.game, players=args.players, games=args.games, options=args.options,
        seed=args.seed, rotate=args.rotate, jobs=args.jobs, json=args.json,
        kernel=args.kernel))


def _os_message(error: OSError) -> str:
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dicegames`` script; returns the exit code."""
    term = Terminal.from_environment()
    try:
        args = build_parser().parse_args(argv)
        return int(dispatch(term, args))
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except (UsageError, OptionError) as error:
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
