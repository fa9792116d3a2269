"""A sample position of each game, for the picture of its board on the home page.

The home page draws every game's card with the game's own board module, so the picture is
the real board in a real position, not a stock image. The position comes from a game played
by random bots from a fixed seed and stopped a third of the way through, so it shows pieces
under way; it is the same on every server and computed once per game (a few milliseconds,
run in a worker thread by the API).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from dicegames.bots import RandomBot
from dicegames.core.match import RandomDice, play
from dicegames.core.model import Agent
from dicegames.core.registry import make
from dicegames.core.session import PlayerInfo, Session
from dicegames.i18n import DEFAULT
from dicegames.web.live import LiveMatch

SEED = 2026
"""The seed of every sample game: the same picture on every server and every day."""

SHARE = 3
"""The sample stops at the first person's decision after 1/SHARE of the game's moves."""


@cache
def sample_state(game_id: str, board_module: str | None,
                 lang: str = DEFAULT) -> dict[str, Any]:
    """The shared state JSON (as the replay page gets it) of ``game_id``'s sample position,
    with the game's default player count (named Ann, Ben...), the board's words in
    ``lang`` (one of the offered languages: the cache stays small)."""
    game = make(game_id)
    names = ["Ann", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana"][:game.players]
    session = Session(game, [PlayerInfo(name, "bot:random") for name in names], seed=SEED)
    bots: list[Agent] = [RandomBot(random.Random(SEED + seat)) for seat in range(game.players)]
    play(session, bots, RandomDice(random.Random(SEED)))
    states = session.states
    step = len(states) // SHARE
    while step < len(states) - 1 and (states[step].is_chance or states[step].is_terminal):
        step += 1
    live = LiveMatch("sample", session, "auto", {}, board_module)
    shared = live.shared_state(step, lang)
    # A picture, not a game: no log, no result, nobody to wait for.
    return {**shared, "log": [], "log_size": 0, "status": "sample"}
