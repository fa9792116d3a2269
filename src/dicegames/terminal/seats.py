"""From command-line text to a game at the table: options, seats, sessions and agents.

``--players you,bot:medium`` lists the seats in play order: ``bot:<level>`` is a computer
player (any level :func:`dicegames.bots.bot_levels` offers for the game), anything else is a
person's name (``you`` shows as "You"). The number of names is the player count. The same
helpers serve ``play``, ``simulate`` and the interactive launcher, so they accept exactly the
same text.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dicegames.bots import bot_levels, make_bot
from dicegames.core import registry
from dicegames.core.game import Game
from dicegames.core.model import Agent, Seat
from dicegames.core.names import BadName, check_name
from dicegames.core.options import parse_option_pairs
from dicegames.core.session import PlayerInfo, Session
from dicegames.i18n import N_, _
from dicegames.terminal.console import UsageError

BOT_PREFIX = "bot:"
"""How a seat names a computer player: ``bot:<level>``."""


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["track_length=30", ...]`` as a dict; ``track-length`` is read as ``track_length``.

    Raises:
        OptionError: a pair that is not ``name=value``.
    """
    options = parse_option_pairs(list(pairs or ()))
    return {key.replace("-", "_"): value for key, value in options.items()}


def split_players(text: str) -> list[str]:
    """The comma-separated seats of ``--players``, stripped.

    Raises:
        UsageError: an empty entry (``"you,,bot:easy"``) or no entry at all.
    """
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise UsageError(f"--players {text!r} has an empty entry: list names or bot:<level> "
                         "separated by commas, e.g. you,bot:medium")
    return items


def bot_level_of(item: str) -> str | None:
    """The bot level named by a seat entry (``bot:Medium`` -> ``medium``), or None for a person.

    Raises:
        UsageError: ``bot:`` without a level.
    """
    if not item.lower().startswith(BOT_PREFIX):
        return None
    level = item[len(BOT_PREFIX):].strip().lower()
    if not level:
        raise UsageError(f"{item!r} names no bot level: write bot:<level>, e.g. bot:medium")
    return level


BOT_NAMES = {"easy": N_("Easy bot"), "medium": N_("Medium bot"), "hard": N_("Hard bot"),
             "expert": N_("Expert bot")}
"""The name of a bot of each usual level, translated where shown ("Bot moyen"); other
levels are called "<Level> bot"."""


def player_infos(items: Sequence[str]) -> list[PlayerInfo]:
    """Display names and kinds for the seat entries, in seat order.

    People keep the name they typed ("you" becomes "You", in the language in use: "Vous",
    "Du", "Tu"); bots are called "Medium bot",
    numbered when the same level plays more than once (both in the language in use).

    Raises:
        UsageError: a name :func:`~dicegames.core.names.check_name` refuses (a control
            character, an unpaired surrogate from undecodable command-line bytes...), or two
            people with the same name (they could not tell whose turn it is).
    """
    levels = [bot_level_of(item) for item in items]
    repeated = Counter(level for level in levels if level is not None)
    counters: Counter[str] = Counter()
    infos: list[PlayerInfo] = []
    for item, level in zip(items, levels, strict=True):
        if level is None:
            try:
                name = check_name(_("You") if item.lower() == "you" else item,
                                  f"player {len(infos) + 1}'s name")
            except BadName as error:
                raise UsageError(str(error)) from None
            infos.append(PlayerInfo(name))
            continue
        name = _(BOT_NAMES[level]) if level in BOT_NAMES else f"{level.capitalize()} bot"
        if repeated[level] > 1:
            counters[level] += 1
            name = f"{name} {counters[level]}"
        infos.append(PlayerInfo(name, BOT_PREFIX + level))
    humans = Counter(info.name.lower() for info in infos if not info.is_bot)
    twice = sorted(name for name, count in humans.items() if count > 1)
    if twice:
        raise UsageError(f"two players are called {twice[0]!r}: give each person a "
                         "different name so everyone knows whose turn it is")
    return infos


def default_bot_level(game: Game[Any, Any, Any]) -> str:
    """The level a default opponent plays: ``medium`` when the game has it, else its first."""
    names = [level.name for level in bot_levels(game)]
    return "medium" if "medium" in names else names[0]


def configure(game_id: str, items: Sequence[str] | None, options: Mapping[str, str],
              players: int | None = None) -> tuple[Game[Any, Any, Any], list[str]]:
    """The configured game and its seat entries.

    Without ``items`` the table is "you" against ``players`` minus one (default: the game's
    usual number of players), each a :func:`default_bot_level` bot.

    Raises:
        OptionError: unknown game or option, a value not allowed, a player count that does
            not fit the game.
    """
    if items is None:
        game = registry.configure(game_id, players, options, files=True)
        level = default_bot_level(game)
        return game, ["you"] + [BOT_PREFIX + level] * (game.players - 1)
    return registry.configure(game_id, len(items), options, files=True), list(items)


def bot_rng(seed: int, seat: Seat, moves_played: int) -> random.Random:
    """The generator of the bot in ``seat``, derived from the game's seed.

    It depends on the number of moves already played, so a resumed game gives its bots
    fresh (but still reproducible) randomness.
    """
    return random.Random(f"dicegames-bot:{seed}:{seat}:{moves_played}")


def build_agents(session: Session, seed: int,
                 human: Callable[[Seat], Agent]) -> list[Agent]:
    """One agent per seat: a bot built by :func:`make_bot`, or ``human(seat)`` for a person.

    Raises:
        OptionError: a bot level the game does not have; the message lists the levels.
    """
    agents: list[Agent] = []
    for seat, info in enumerate(session.players):
        if info.is_bot:
            level = info.kind[len(BOT_PREFIX):]
            agents.append(make_bot(session.game, level,
                                   bot_rng(seed, seat, len(session.moves))))
        else:
            agents.append(human(seat))
    return agents
