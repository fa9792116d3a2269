"""Which bots a design report plays: its skill ladder and the bots it leaves out, and why.

The report's runs go through the game's bulk kernel (tens of thousands of games in
seconds), so its default ladder holds ``random`` and every listed level **the kernel plays**;
a level without a kernel policy (Petits Chevaux's ``search`` and ``expert``) would play
every game on the engine, hours for the same runs, and is listed as skipped with that
reason. Named with ``--ladder`` or ``--players`` it plays anyway, and
:func:`expected_seconds` says how long that should take before the run starts.

**One bot is counted once.** Two level names the kernel plays with the same policy are the
same bot (Extra Meters' ``hard`` and ``optimal`` both play the exact solution; every
game's ``easy`` is ``random``): the ladder keeps the first name and lists the others as its
aliases, instead of rating one bot twice. A game without a kernel falls back to the old
rule: levels fast enough (:data:`SLOW_DECISION_S`) on the engine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dicegames.analysis.simulate import bot_name
from dicegames.bots import bot_levels
from dicegames.core.chance import sample
from dicegames.core.errors import OptionError
from dicegames.core.game import Game
from dicegames.core.model import NodeKind
from dicegames.core.registry import configure
from dicegames.core.rollout import plan

SLOW_DECISION_S = 0.1
"""For a game with no kernel: a bot thinking longer than this per decision is left out of
the default ladder."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """A listed bot level the default ladder leaves out, and why."""

    bot: str
    reason: str

    def to_json(self) -> dict[str, str]:
        """JSON-ready data."""
        return {"bot": self.bot, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Ladder:
    """The ladder's bots (the reference, ``random``, first), their aliases and the skipped.

    Attributes:
        names: one name per distinct bot.
        same_as: for a kept name, the other level names that are the same bot.
        skipped: listed levels left out (only for the default ladder).
    """

    names: tuple[str, ...]
    same_as: dict[str, tuple[str, ...]] = field(default_factory=dict)
    skipped: tuple[Skipped, ...] = ()

    def label(self, name: str) -> str:
        """``hard (= optimal)`` for a bot with aliases, else the name."""
        aliases = self.same_as.get(name, ())
        return f"{name} (= {', '.join(aliases)})" if aliases else name


def duel_of(game: Game[Any, Any, Any]) -> Game[Any, Any, Any]:
    """The two-player game the ladder's pairings are played on."""
    return game if game.players == 2 else configure(game.spec.id, 2, game.options)


def identity(game: Game[Any, Any, Any], name: str) -> str:
    """What makes two bot names the same bot: the kernel policy that plays it, else its name."""
    how = plan(game, [name] * game.players)
    return f"kernel:{how.policies[0]}" if how.policies else f"bot:{name}"


def kernel_plays(game: Game[Any, Any, Any], names: Sequence[str]) -> bool:
    """Whether the game's kernel plays these bots (one per seat)."""
    return plan(game, list(names)).kernel is not None


def _dedupe(game: Game[Any, Any, Any], names: Sequence[str]
            ) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    kept: dict[str, str] = {}  # identity -> first name
    aliases: dict[str, list[str]] = {}
    for name in names:
        key = identity(game, name)
        if key in kept:
            if name != kept[key]:
                aliases.setdefault(kept[key], []).append(name)
            continue
        kept[key] = name
    return list(kept.values()), {k: tuple(v) for k, v in aliases.items()}


def default_ladder(game: Game[Any, Any, Any]) -> Ladder:
    """``random`` and every listed level the kernel plays, each bot once; the rest skipped."""
    duel = duel_of(game)
    has_kernel = kernel_plays(duel, ["random"] * duel.players)
    candidates = ["random"]
    skipped: list[Skipped] = []
    for level in bot_levels(duel):
        if not level.listed or level.name in candidates:
            continue
        if has_kernel and not kernel_plays(duel, [level.name] * duel.players):
            skipped.append(Skipped(level.name, "no kernel policy: its games would be played "
                                   "one by one on the engine; name it with --ladder to "
                                   "include it (the expected time is said first)"))
            continue
        if not has_kernel:
            seconds = decision_time(duel, level.name)
            if seconds > SLOW_DECISION_S:
                skipped.append(Skipped(level.name, f"about {seconds:.1f} s a decision; name "
                                       f"it with --ladder to include it"))
                continue
        candidates.append(level.name)
    names, same_as = _dedupe(duel, candidates)
    return Ladder(tuple(names), same_as, tuple(skipped))


def named_ladder(game: Game[Any, Any, Any], specs: Sequence[str]) -> Ladder:
    """The ladder of the bots named (the first is the reference), each bot once.

    Raises:
        OptionError: an unknown bot, or fewer than two different bots.
    """
    duel = duel_of(game)
    names, same_as = _dedupe(duel, list(dict.fromkeys(report_bot(b, game) for b in specs)))
    if len(names) < 2:
        raise OptionError("the ladder needs at least two different bots, e.g. random,medium"
                          + (f" ({', '.join(specs)} are the same bot)" if len(specs) > 1
                             else ""))
    return Ladder(tuple(names), same_as)


def report_bot(spec: str, game: Game[Any, Any, Any]) -> str:
    """:func:`~dicegames.analysis.simulate.bot_name`, its error worded for a report."""
    try:
        return bot_name(spec, game)
    except OptionError as error:
        raise OptionError(str(error).replace("simulate needs", "the report needs", 1)) from None


def decision_time(game: Game[Any, Any, Any], level: str, samples: int = 3) -> float:
    """Median seconds ``level`` takes for a decision, from positions reached by random play."""
    factory = {item.name: item.factory for item in reversed(bot_levels(game))}[level]
    bot = factory(game, random.Random(0))
    rng = random.Random(1)
    state = game.new_state()
    times: list[float] = []
    while len(times) < samples and not state.is_terminal:
        if state.node.kind is NodeKind.CHANCE:
            state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
            continue
        seat = state.node.players[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            began = time.perf_counter()
            bot.choose(state, seat)
            times.append(time.perf_counter() - began)
        state = state.apply_unchecked(rng.choice(legal), seat)
    return statistics.median(times) if times else 0.0


def choices_per_game(game: Game[Any, Any, Any], games: int = 3) -> float:
    """Real choices (two or more legal moves) a seat meets in a game, from random play."""
    rng = random.Random(2)
    total = 0
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal:
            if state.node.kind is NodeKind.CHANCE:
                state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
                continue
            seat = state.node.players[0]
            legal = state.legal_actions(seat)
            total += len(legal) > 1
            state = state.apply_unchecked(rng.choice(legal), seat)
    return total / games / game.players


def expected_seconds(game: Game[Any, Any, Any], seat_bots: Sequence[str], games: int
                     ) -> float | None:
    """About how long ``games`` engine games with these bots take; None when the kernel
    plays them (seconds at most)."""
    if kernel_plays(game, seat_bots):
        return None
    per_game = choices_per_game(game) * sum(decision_time(game, bot) for bot in seat_bots)
    return per_game * games
