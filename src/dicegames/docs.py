"""Rules pages: one Markdown page per game, the same for the terminal, the web and docs/.

A page is assembled from the game's spec (pitch, players, declared options with defaults and
allowed values, bot levels), its family summary (:mod:`dicegames.howto`) and the hand-written
``rules.md`` in the game's folder (the rules as dicegames plays them, the rulings, the
notation). It reads in the order a family needs it: the summary first, then the full rules
and rulings, the options in words, the computer players and how strong each one is (the
measured table of :mod:`dicegames.strength`, when the game has one); the notation, the
positions, the file formats, the option keys and the command lines come last, under "For
developers".
``scripts/gen_docs.py`` writes the pages to ``docs/rules/``, and a test fails when those
files drift from this output.
"""

from __future__ import annotations

import re

from dicegames import strength
from dicegames.bots import bot_levels
from dicegames.core.options import OptionSpec
from dicegames.core.registry import game_class, make
from dicegames.howto import summary
from dicegames.i18n import DEFAULT, LANGUAGES, _, game_folder, title, use

FOR_DEVELOPERS = ("Notation", "Positions", "Boards", "The circuit")
"""The sections of a game's ``rules.md`` (by their English heading) that go under "For
developers": the notation, the positions and the file formats of custom boards. A
translation has the same sections in the same order (``tests/test_rules_translations.py``),
so its sections are placed by their rank in the English file."""


def _default(spec: OptionSpec) -> str:
    """The default as its key is written (``true``, ``first``, ``50``)."""
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


def _default_in_words(spec: OptionSpec) -> str:
    """The default as a player reads it: a choice's label, yes or no, the number."""
    if isinstance(spec.default, bool):
        return _("yes") if spec.default else _("no")
    if spec.kind == "choice" and spec.choice_labels:
        return _(spec.choice_title(str(spec.default)))
    return str(spec.default) if spec.kind == "int" else f"`{spec.default}`"


def sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """A hand-written rules text split at its ``## `` headings: the text before the first
    one, and (heading, body) for each section, in order."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    found = [(parts[i].strip(), parts[i + 1].strip()) for i in range(1, len(parts), 2)]
    return parts[0].strip(), found


def split_text(game_id: str, lang: str = DEFAULT) -> tuple[str, str, str]:
    """The hand-written rules of a game in ``lang`` as (the lead paragraph before the first
    section, the sections for everyone, the sections for developers): the sections named in
    :data:`FOR_DEVELOPERS` (matched by their rank in the English text) go to the last part,
    one heading level down."""
    text = game_text(game_id, lang)
    lead, found = sections(text)
    _lead, english = sections(game_text(game_id, DEFAULT))
    if len(found) == len(english):
        technical = {i for i, (heading, _body) in enumerate(english) if heading in FOR_DEVELOPERS}
    else:  # a translation whose sections differ: keep its order, move what is recognised
        technical = {i for i, (heading, _body) in enumerate(found) if heading in FOR_DEVELOPERS}
    everyone = [f"## {heading}\n\n{body}" for i, (heading, body) in enumerate(found)
                if i not in technical]
    developers = [f"### {heading}\n\n" + re.sub(r"^(#{3,}) ", r"#\1 ", body, flags=re.M)
                  for i, (heading, body) in enumerate(found) if i in technical]
    return lead, "\n\n".join(everyone), "\n\n".join(developers)


def has_translated_text(game_id: str, lang: str) -> bool:
    """True when the game's hand-written rules exist in ``lang``."""
    return lang == DEFAULT or (game_folder(game_id) / f"rules.{lang}.md").is_file()


def rules_page(game_id: str, lang: str = DEFAULT, with_summary: bool = True) -> str:
    """The full Markdown rules page of a game in ``lang`` (raises OptionError for an
    unknown game). The bots' technical descriptions stay in English. ``with_summary=False``
    leaves the family summary out (the web page draws it itself, with the real board)."""
    with use(lang) as chosen:
        return _rules_page(game_id, chosen, with_summary)


def _rules_page(game_id: str, lang: str, with_summary: bool) -> str:
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
    lead, everyone, developers = split_text(spec.id, lang)
    if lead:
        lines += [lead, ""]
    short = summary(spec.id, lang) if with_summary else None
    if short is not None:
        lines += ["## " + _("The game in short"), "", short.markdown(), ""]
    lines += [everyone, "", "## " + _("Options"), ""]
    if spec.options:
        lines += ["| " + _("option | default | what it changes") + " |", "|---|---|---|"]
        lines += [f"| {_(o.title)} | {_default_in_words(o)} | {_(o.doc)} |"
                  for o in spec.options]
    else:
        lines.append(_("This game has no options."))
    lines += ["", "## " + _("Computer players"), ""]
    lines += ["| " + _("bot | how it plays") + " |", "|---|---|"]
    lines += [f"| `{level.name}` | {_(level.doc)} |" for level in bot_levels(game)]
    measured = strength.load(spec.id)
    if measured is not None:
        lines += ["", strength.table_markdown(measured)]
    lines += ["", "## " + _("For developers"), "",
              _("The notation and positions of moves, the option keys and the command lines."),
              ""]
    if developers:
        lines += [developers, ""]
    if spec.options:
        lines += ["### " + _("Option keys"), "",
                  _("Set with `--option name=value` on the command line, as keyword arguments "
                    "of `dicegames.make`, or in a record's `options`."), "",
                  "| " + _("option | default | allowed | what it changes") + " |",
                  "|---|---|---|---|"]
        lines += [f"| {_(o.title)} (`{o.name}`) | `{_default(o)}` | {_allowed(o)} | {_(o.doc)} |"
                  for o in spec.options]
        lines.append("")
    lines += ["### " + _("Command lines"), "",
              _("A computer player is `bot:<name>` on the command line, e.g. "
                "`--players you,bot:medium`."), "",
              "```sh",
              f"dicegames play {spec.id} --players you,bot:medium",
              f"dicegames simulate {spec.id} --players bot:easy,bot:medium --games 10000",
              "```", ""]
    return "\n".join(lines)
