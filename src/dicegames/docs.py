"""Rules pages: one Markdown page per game, the same for the terminal, the web and docs/.

A page is assembled from the game's spec (pitch, players, declared options with defaults and
allowed values, bot levels) and the hand-written ``rules.md`` in the game's folder (the rules
as dicegames plays them, the rulings, the notation). ``scripts/gen_docs.py`` writes the pages
to ``docs/rules/``, and a test fails when those files drift from this output.
"""

from __future__ import annotations

import sys
from importlib.resources import files

from dicegames.bots import bot_levels
from dicegames.core.options import OptionSpec
from dicegames.core.registry import game_class, make


def _default(spec: OptionSpec) -> str:
    if isinstance(spec.default, bool):
        return "true" if spec.default else "false"
    return str(spec.default)


def _allowed(spec: OptionSpec) -> str:
    """The allowed values, each choice with its label."""
    if spec.kind == "choice" and spec.choice_labels:
        return "; ".join(f"`{c}` ({spec.choice_title(c)})" for c in spec.choices)
    return spec.allowed()


def game_text(game_id: str) -> str:
    """The hand-written part of a game's rules page (its folder's ``rules.md``)."""
    cls = game_class(game_id)
    package = sys.modules[cls.__module__].__package__
    assert package is not None
    return files(package).joinpath("rules.md").read_text(encoding="utf-8").strip()


def rules_page(game_id: str) -> str:
    """The full Markdown rules page of a game (raises OptionError for an unknown game)."""
    cls = game_class(game_id)
    spec = cls.spec
    game = make(spec.id)
    lines = [
        f"# {spec.name} (`{spec.id}`)",
        "",
        spec.pitch,
        "",
        f"Players: {spec.min_players} to {spec.max_players} (default {spec.default_players})."
        + (f" Also known as: {', '.join(f'`{a}`' for a in spec.aliases)}." if spec.aliases
           else ""),
        "",
        game_text(spec.id),
        "",
        "## Options",
        "",
    ]
    if spec.options:
        lines += ["Set with `--option name=value` on the command line, as keyword arguments of "
                  "`dicegames.make`, or in a record's `options`.", "",
                  "| option | default | allowed | what it changes |", "|---|---|---|---|"]
        lines += [f"| {o.title} (`{o.name}`) | `{_default(o)}` | {_allowed(o)} | {o.doc} |"
                  for o in spec.options]
    else:
        lines.append("This game has no options.")
    lines += ["", "## Computer players", "",
              "Use them as `bot:<name>`, e.g. `--players you,bot:medium`.", "",
              "| bot | how it plays |", "|---|---|"]
    lines += [f"| `{level.name}` | {level.doc} |" for level in bot_levels(game)]
    lines += ["", "## Try it", "", "```sh",
              f"dicegames play {spec.id} --players you,bot:medium",
              f"dicegames simulate {spec.id} --players bot:easy,bot:medium --games 10000",
              "```", ""]
    return "\n".join(lines)
