"""Write the golden playthroughs: ``tests/playthroughs/<game-id>.txt`` for every game.

A playthrough (as in OpenSpiel's integration tests) is one whole game with the default
options, played by random bots with fixed seeds and written move by move: whose turn it is,
the legal actions or the dice's outcomes with their exact probabilities, the move played,
the sentences the session reports, the board every few moves, and the result.
``tests/test_playthroughs.py`` regenerates each file in memory and compares, so any change in
rules, notation, probabilities, bots' randomness or text shows up as a diff to review.

Usage::

    .venv/bin/python scripts/regenerate_playthroughs.py            # rewrite every file
    .venv/bin/python scripts/regenerate_playthroughs.py extra-meters
    .venv/bin/python scripts/regenerate_playthroughs.py --check    # exit 1 if any is stale
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text

import dicegames
from dicegames.bots import RandomBot

SEED = 20240601
"""The seed of every playthrough's dice and bots."""

BOARD_EVERY = 10
"""Draw the board before every move whose index is a multiple of this."""

MAX_LISTED = 36
"""List at most this many legal actions or outcomes of one node (then say how many)."""

PLAYTHROUGHS = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
"""Where the golden files live."""


def plain(markup: str) -> str:
    """Rich markup as plain text."""
    return Text.from_markup(markup).plain


def listing(items: Sequence[str]) -> str:
    """Up to :data:`MAX_LISTED` items, then a count of the rest."""
    shown = ", ".join(items[:MAX_LISTED])
    if len(items) > MAX_LISTED:
        shown += f", ... ({len(items)} in all)"
    return f"[{shown}]"


def board(state: dicegames.State[Any, Any, Any]) -> list[str]:
    """The rendered board, indented under a bar so it stands apart from the moves."""
    return ["    | " + line if line else "    |" for line in plain(str(state)).splitlines()]


def playthrough(game_id: str, seed: int = SEED) -> str:
    """Play one game of ``game_id`` with random bots and return its golden text."""
    game = dicegames.make(game_id)
    dice = dicegames.RandomDice(random.Random(f"{seed}/dice"))
    bots = [RandomBot(random.Random(f"{seed}/seat {seat}")) for seat in range(game.players)]
    session = dicegames.Session(game, seed=seed)
    lines = [
        f"# Golden playthrough of {game.spec.id} ({game.spec.name}).",
        "# Written by scripts/regenerate_playthroughs.py: do not edit by hand; run the script",
        "# when a change to the rules, notation, text or bots is intended, and review the diff.",
        f"game: {game!r}",
        f"seed: {seed} (the dice and each seat's random bot have their own generator)",
        "",
    ]
    while not session.state.is_terminal:
        state = session.state
        index = len(session.moves)
        if index % BOARD_EVERY == 0:
            lines.append(f"board before move {index}:")
            lines.extend(board(state))
        turn = f"turn {state.turn.number}, {session.name(state.turn.seat)}"
        seat: int | None = None
        if state.is_chance:
            options = listing([f"{o}: {p}" for o, p in state.chance_outcomes()])
            move: Hashable = dice.roll(state)
            lines.append(f"move {index}: {turn}; dice {options}")
        else:
            deciding = state.current_players
            seat = deciding[0]
            legal = state.legal_actions(seat)
            move = dicegames.PASS if legal == (dicegames.PASS,) else bots[seat].choose(state, seat)
            choices = listing([str(action) for action in legal])
            if len(deciding) == 1:
                lines.append(f"move {index}: {turn}; {session.name(seat)} decides {choices}")
            else:
                everyone = ", ".join(session.name(s) for s in deciding)
                lines.append(f"move {index}: {turn}; {everyone} decide; "
                             f"{session.name(seat)} first {choices}")
        events = session.apply(move, seat)
        lines.append(f"    -> {session.moves[-1].to_record()}")
        lines.extend(f"    {event.kind}: {event.description}" for event in events)
    state = session.state
    result = state.result
    lines.append(f"final board after {len(session.moves)} moves:")
    lines.extend(board(state))
    lines.append(f"result: winners {list(result.winners)}, scores {list(result.scores)}, "
                 f"ranks {list(result.ranks)}")
    lines.append(f"summary: {session.describe_result(result)}")
    return "\n".join(lines) + "\n"


def path_of(game_id: str) -> Path:
    """The golden file of ``game_id``."""
    return PLAYTHROUGHS / f"{game_id}.txt"


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite (or with ``--check``, compare) the playthroughs; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a file is missing or out of date")
    args = parser.parse_args(argv)
    ids = args.games or [spec.id for spec in dicegames.games()]
    stale = []
    for game_id in ids:
        try:
            text = playthrough(game_id)
        except dicegames.OptionError as error:
            parser.error(str(error))
        path = path_of(game_id)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            print(f"{path}: up to date")
        elif args.check:
            stale.append(path)
            print(f"{path}: out of date")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"{path}: written")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
