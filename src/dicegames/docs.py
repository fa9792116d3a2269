"""Rules pages: one Markdown page per game, the same for the terminal, the web and docs/.

A page is assembled from the game's spec (pitch, players, declared options with defaults and
allowed values, bot levels) and the hand-written ``rules.md`` in the game's folder (the rules
as dicegames plays them, the rulings, the notation). ``scripts/gen_docs.py`` writes the pages
to ``docs/rules/``, and a test fails when those files drift from this output.
"""

from __future__ import annotations

from dicegames.bots import bot_levels
from dicegames.core.options import OptionSpec
from dicegames.core.registry import game_class, make
from dicegames.i18n import DEFAULT, LANGUAGES, _, game_folder, title, use


def _default(spec: OptionSpec) -> str:
    if isinstance(spec.default, bool):
        return "true" if spec.default else "false"
    return str(spec.default)


def _allowed(spec: OptionSpec) -> str:
    """The allowed values, each choice with its label."""
    if spec.kind == "choice" and spec.choice_labels:
        return "; ".join(f"`{c}` ({_(spec.choice_title(c))})" for c in spec.choices)
    return spec.allowed() if spec.kind in ("int", "bool", "choice") else _("text")


def game_text(game_id: str, lang: str = DEFAULT) -> str:
    """The hand-written part of a game's rules page: its folder's ``rules.<lang>.md`` when
    there is one, else ``rules.md`` (English)."""
    folder = game_folder(game_id)
    translated = folder / f"rules.{lang}.md"
    if lang != DEFAULT and lang in LANGUAGES and translated.is_file():
        return translated.read_text(encoding="utf-8").strip()
    return (folder / "rules.md").read_text(encoding="utf-8").strip()


def has_translated_text(game_id: str, lang: str) -> bool:
    """True when the game's hand-written rules exist in ``lang``."""
    return lang == DEFAULT or (game_folder(game_id) / f"rules.{lang}.md").is_file()


def rules_page(game_id: str, lang: str = DEFAULT) -> str:
    """The full Markdown rules page of a game in ``lang`` (raises OptionError for an
    unknown game). The bots' technical descriptions stay in English."""
    with use(lang) as chosen:
        return _rules_page(game_id, chosen)


def _rules_page(game_id: str, lang: str) -> str:
    cls = game_class(game_id)
    spec = cls.spec
    game = make(spec.id)
    also = ""
    if spec.aliases:
        also = " " + _("Also known as: {names}.",
                       names=", ".join(f"`{a}`" for a in spec.aliases))
    lines = [
        f"# {title(spec.name)} (`{spec.id}`)",
        "",
        _(spec.pitch),
        "",
        _("Players: {low} to {high} (default {default}).", low=spec.min_players,
          high=spec.max_players, default=spec.default_players) + also,
        "",
    ]
    if not has_translated_text(spec.id, lang):
        lines += [_("*This part of the rules is in English for now.*"), ""]
    lines += [
        game_text(spec.id, lang),
        "",
        "## " + _("Options"),
        "",
    ]
    if spec.options:
        lines += [_("Set with `--option name=value` on the command line, as keyword arguments "
                    "of `dicegames.make`, or in a record's `options`."), "",
                  "| " + _("option | default | allowed | what it changes") + " |",
                  "|---|---|---|---|"]
        lines += [f"| {_(o.title)} (`{o.name}`) | `{_default(o)}` | {_allowed(o)} | {_(o.doc)} |"
                  for o in spec.options]
    else:
        lines.append(_("This game has no options."))
    lines += ["", "## " + _("Computer players"), "",
              _("Use them as `bot:<name>`, e.g. `--players you,bot:medium`."), ""]
    lines += ["| " + _("bot | how it plays") + " |", "|---|---|"]
    lines += [f"| `{level.name}` | {_(level.doc)} |" for level in bot_levels(game)]
    lines += ["", "## " + _("Try it"), "", "```sh",
              f"dicegames play {spec.id} --players you,bot:medium",
              f"dicegames simulate {spec.id} --players bot:easy,bot:medium --games 10000",
              "```", ""]
    return "\n".join(lines)
