"""How strong each bot level is: the measured figures every front end reads, and their text.

``scripts/strength_tables.py`` plays round robins of a game's levels through its kernel
(:mod:`dicegames.analysis.strength`) and writes the results to ``strength.json`` in the
game's folder: one source for the rules pages' tables (:func:`table_markdown`, placed by
:mod:`dicegames.docs` between two :data:`BEGIN` / :data:`END` marker lines, which Markdown
renders as nothing), the terminal launcher's and the web's level descriptions
(:func:`plain_strength`: "wins about 1 game in 3 against three medium players"). This module
only reads and words the figures, so the pages and the launcher never load the kernels.

The file (``format`` ``dicegames-strength``, :data:`VERSION`) holds, for the game's default
options: how many games each pairing played and the seed; each level measured, with
``same_as`` (the other level names that are the same bot), ``rating`` (Bradley-Terry on
the Elo scale, ``random`` = 0, with a 95% interval; null when the level was not measured,
``unrated`` says why: a code of :data:`REASONS`), ``versus`` (its win share against the
opponent level in the other seats, per player count, with a 95% Wilson interval) and
``exact`` (its exact win chance against ``optimal`` as first and as second player, where the
game's ``exact`` part covers the configuration), and ``alone`` (its mean score playing
alone, for a game with a solo mode); and ``exact_value``, the first player's chance when
both play optimally.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any, TypedDict

from dicegames.i18n import N_, _, decimal, game_folder, percent

FILE = "strength.json"
"""The data file's name in a game's folder."""

FORMAT = "dicegames-strength"
VERSION = 1
"""The data file's format version; a file of another version is ignored."""

BEGIN = "[//]: # (strength table: scripts/strength_tables.py writes what follows)"
END = "[//]: # (end of the strength table)"
"""The lines around a rules page's generated block (Markdown link definitions: invisible on
every renderer, found by the script's ``--check`` and the tests)."""

OPPONENT = "medium"
"""The level every level's plain description is measured against."""

OPPONENT_OF_OPPONENT = "easy"
"""The opponent of :data:`OPPONENT` itself (against its own copies it wins its share)."""

NOT_MEASURED = N_("no kernel policy yet: their games would be played one by one on the "
                  "engine, too slowly for these round robins")
"""Why a listed level has no rating: the level has no kernel policy."""

REASONS = {"no-kernel": NOT_MEASURED}
"""The data file's ``unrated`` codes and the messages that say them."""

DENOMINATORS = (2, 3, 4, 5, 6, 8, 10, 20, 50, 100, 200, 500, 1000)
"""The "in n games" a share is said with, the smallest that fits first."""

SHOWN_COUNTS = (2, 3, 4)
"""The player counts measured against :data:`OPPONENT` (within the game's range)."""


class Exact(TypedDict):
    """What a game's ``exact`` definition part returns for a configuration it covers.

    ``value``: the first player's winning chance when both play ``optimal``; ``levels``:
    for each level it can evaluate, its exact winning chance against ``optimal`` when it
    plays first and when it plays second (shared wins count half).
    """

    value: float
    levels: dict[str, dict[str, float]]


def data_file(game_id: str) -> Any:
    """The path of a game's data file (in its folder)."""
    return game_folder(game_id) / FILE


@cache
def load(game_id: str) -> dict[str, Any] | None:
    """A game's measured figures, or None (no file, or a file of another format)."""
    path = data_file(game_id)
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        return None
    return dict(data)


def level_entry(data: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The entry of level ``name`` (itself or one of its ``same_as`` names)."""
    for entry in data["levels"]:
        if name == entry["name"] or name in entry.get("same_as", ()):
            return dict(entry)
    return None


def fraction(share: float) -> tuple[int, int]:
    """``share`` (0 to 1) as "k games in n" with a small ``n`` a person reads at once.

    The first ``n`` of :data:`DENOMINATORS` whose nearest ``k/n`` (k from 1 to n - 1) is
    within a tenth of the share and of its complement (at least 0.0005); else thousandths.

    >>> fraction(0.34), fraction(0.5), fraction(0.74), fraction(0.9), fraction(0.048)
    ((1, 3), (1, 2), (3, 4), (9, 10), (1, 20))
    """
    tolerance = max(0.0005, 0.1 * min(share, 1.0 - share))
    for n in DENOMINATORS:
        k = min(max(round(share * n), 1), n - 1)
        if abs(k / n - share) <= tolerance:
            divisor = math.gcd(k, n)
            return k // divisor, n // divisor
    return min(max(round(share * 1000), 1), 999), 1000


def _wins(share: float, level: str, others: int) -> str:
    """"wins about 1 game in 3 against medium" (one opponent) or "... against 3 medium
    players", in the current language, ``level`` naming the opponents' level."""
    won, of = fraction(share)
    if others == 1:
        if won == 1:
            return _("wins about 1 game in {of} against {opponent}", of=of, opponent=level)
        return _("wins about {won} games in {of} against {opponent}", won=won, of=of,
                 opponent=level)
    if won == 1:
        return _("wins about 1 game in {of} against {count} {opponent} players", of=of,
                 count=others, opponent=level)
    return _("wins about {won} games in {of} against {count} {opponent} players", won=won,
             of=of, count=others, opponent=level)


def versus_for(entry: dict[str, Any], players: int) -> dict[str, Any] | None:
    """The level's ``versus`` figure for ``players`` players, else the nearest count
    measured (the smaller on a tie); None when none was measured."""
    found = entry.get("versus") or []
    if not found:
        return None
    return dict(min(found, key=lambda v: (abs(v["players"] - players), v["players"])))


def plain_strength(game_id: str, level: str, players: int, *, translated: bool = True
                   ) -> str | None:
    """How strong ``level`` is, in plain words in the current language, for a game of
    ``players`` players (the nearest count measured): "wins about 1 game in 3 against
    3 medium players"; alone, its mean score ("scores 85 on average when playing alone").
    The opponents' level is named in the current language, or as it is typed when
    ``translated`` is false (the terminal, where levels are typed by name). None when the
    game's file does not measure the level."""
    data = load(game_id)
    entry = level_entry(data, level) if data else None
    if entry is None:
        return None
    if players < 2:
        alone = entry.get("alone")
        return None if alone is None else _(
            "scores {score} on average when playing alone", score=decimal(alone["mean"], 0))
    found = versus_for(entry, players)
    if found is None:
        return None
    name: str = found["opponent"]
    return _wins(found["share"], _(name) if translated else name, found["players"] - 1)


def _share(share: float, low: float, high: float) -> str:
    """"27.1% [26.5, 27.7]" in the current language."""
    return f"{percent(share)} [{decimal(100 * low)}, {decimal(100 * high)}]"


def _elo(rating: dict[str, float] | None) -> str:
    if rating is None:
        return "—"
    if rating["low"] == rating["high"]:
        return decimal(rating["elo"], 0)
    return (f"{decimal(rating['elo'], 0)} [{decimal(rating['low'], 0)}, "
            f"{decimal(rating['high'], 0)}]")


def _label(entry: dict[str, Any]) -> str:
    same = entry.get("same_as") or []
    names = [f"`{entry['name']}`", *(f"`{name}`" for name in same)]
    return " = ".join(names)


def table_markdown(data: dict[str, Any]) -> str:
    """The rules page's block (markers included) in the current language: the heading, a
    paragraph saying how the figures were measured, and one row per level."""
    levels = data["levels"]
    counts = sorted({v["players"] for entry in levels for v in entry.get("versus") or []})
    exact = data.get("exact_value") is not None
    head = [_("level"), _("rating (Elo, 95% interval)")]
    head += [_("against {opponent}, {count} players", opponent=f"`{OPPONENT}`", count=n)
             for n in counts]
    solo = any(entry.get("alone") for entry in levels)
    if solo:
        head.append(_("alone: mean score"))
    if exact:
        head.append(_("against optimal play (exact)"))
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for entry in levels:
        cells = [_label(entry), _elo(entry.get("rating"))]
        by_count = {v["players"]: v for v in entry.get("versus") or []}
        for n in counts:
            found = by_count.get(n)
            if found is None:
                cells.append("—")
                continue
            cell = _share(found["share"], found["low"], found["high"])
            if found["opponent"] != OPPONENT:
                cell += " " + _("(against {opponent})", opponent=f"`{found['opponent']}`")
            cells.append(cell)
        if solo:
            alone = entry.get("alone")
            cells.append("—" if alone is None else decimal(alone["mean"], 1))
        if exact:
            chances = entry.get("exact")
            cells.append("—" if chances is None else percent(
                (chances["first"] + chances["second"]) / 2))
        rows.append("| " + " | ".join(cells) + " |")
    notes = [_("Ratings are Bradley–Terry strengths on the Elo scale from a round robin of "
               "two-player games, {games} games a pairing with the seats rotated, `random` "
               "at 0, with 95% intervals; 200 points more means winning about 3 games in 4 "
               "against the weaker one.", games=decimal(data["games"], 0)),
             _("The “against {opponent}” columns give the level's share of wins in a game "
               "where every other seat is {opponent}, with 95% intervals.",
               opponent=f"`{OPPONENT}`")]
    if exact:
        notes.append(_("The exact column is the level's chance to win against the optimal "
                       "player, averaged over both seat orders; when both play optimally, "
                       "the first player wins {share}.",
                       share=percent(data["exact_value"])))
    unrated: dict[str, list[str]] = {}  # reason -> levels
    for entry in levels:
        if entry.get("rating") is None:
            code = entry.get("unrated") or "no-kernel"
            unrated.setdefault(REASONS.get(code, code), []).append(entry["name"])
    notes += [_("Not rated: {levels} ({reason}).",
                levels=", ".join(f"`{name}`" for name in names), reason=_(reason))
              for reason, names in unrated.items()]
    return "\n".join([BEGIN, "", "## " + _("How strong each level is"), "",
                      *rows, "", " ".join(notes), "", END])


def block_of(page: str) -> str | None:
    """The generated block of a rules page (markers included), or None when it has none."""
    start = page.find(BEGIN)
    stop = page.find(END, start)
    if start < 0 or stop < 0:
        return None
    return page[start:stop + len(END)]
