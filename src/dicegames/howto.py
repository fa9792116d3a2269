"""Each game's family summary ("How to play"): a dozen plain sentences with pictures of the
real board, in the reader's language.

A summary is a file in the game's folder: ``howto.md`` (English) and ``howto.<lang>.md`` for
each translation. It is Markdown paragraphs and lists, and pictures: a paragraph whose first
line is ``{picture} POSITION`` (or ``{picture name=value ...} POSITION`` to set options for
the picture, such as a shorter track) shows the board in that position (the game's position
notation, see its rules page), and its other lines are the caption::

    {picture} 12/7 2 decide 3,5 4
    Ben has rolled a 3 and a 5: if he stops now, his runner moves 8 squares.

The seats in a picture are called Ann, Ben, Cleo... (:data:`NAMES`), so the text can name
them. The web app draws each picture with the game's own board module (``web/howto.py``);
the rules page (:mod:`dicegames.docs`) and the terminal show it as the game's text board.
The summary is the same in every language but for its words: every translation has the same
pictures in the same order (a test holds that).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from dicegames.core.errors import OptionError
from dicegames.core.game import State
from dicegames.core.registry import from_position, presenter_of
from dicegames.i18n import DEFAULT, LANGUAGES, game_folder

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana")
"""The seats' names in the pictures, seat 1 first."""

_PICTURE = re.compile(r"\{picture((?:\s+[\w-]+=\S+)*)\}\s+(\S.*)")


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture of the board: the position it shows, the options it is played with, and its
    caption (Markdown, one paragraph)."""

    position: str
    caption: str
    options: tuple[tuple[str, str], ...] = ()

    def state(self, game_id: str) -> State[Any, Any, Any]:
        """The position as a state of ``game_id`` (raises PositionError or OptionError)."""
        return from_position(game_id, self.position, **dict(self.options))

    def names(self, game_id: str) -> tuple[str, ...]:
        """The seats' names in this picture (as many as its position has seats)."""
        return NAMES[:self.state(game_id).game.players]


@dataclass(frozen=True, slots=True)
class Summary:
    """A game's summary in one language: Markdown paragraphs (``str``) and pictures, in
    reading order."""

    game_id: str
    lang: str
    blocks: tuple[str | Picture, ...] = field(default=())

    @property
    def pictures(self) -> tuple[Picture, ...]:
        """The pictures, in order."""
        return tuple(block for block in self.blocks if isinstance(block, Picture))

    def text(self) -> str:
        """The words alone (paragraphs and captions), for counting and searching."""
        return "\n\n".join(block.caption if isinstance(block, Picture) else block
                           for block in self.blocks)

    def markdown(self) -> str:
        """The summary as Markdown, each picture as the game's text board in a code block
        with its caption under it in italics (the rules page and the terminal)."""
        parts: list[str] = []
        for block in self.blocks:
            if isinstance(block, str):
                parts.append(block)
                continue
            state = block.state(self.game_id)
            board = presenter_of(state.game).render(state, list(block.names(self.game_id)))
            parts += ["```text\n" + plain(board).rstrip() + "\n```", f"*{block.caption}*"]
        return "\n\n".join(parts)


def plain(text: str) -> str:
    """A text board without its console markup (``[bold red]A[/]`` reads ``A``)."""
    from rich.text import Text  # the terminal's library; only the rules page needs it here

    return Text.from_markup(text).plain


def summary_file(game_id: str, lang: str = DEFAULT) -> str | None:
    """The file name of ``game_id``'s summary in ``lang`` (English when it has no
    translation in ``lang``), or None when the game has no summary."""
    folder = game_folder(game_id)
    for name in ((f"howto.{lang}.md",) if lang != DEFAULT and lang in LANGUAGES else ()) + (
            "howto.md",):
        if (folder / name).is_file():
            return name
    return None


@cache
def summary(game_id: str, lang: str = DEFAULT) -> Summary | None:
    """``game_id``'s summary in ``lang`` (English when there is no translation), or None when
    the game has none (a plug-in may have none: its page then has no summary).

    Raises:
        OptionError: a picture's line names an option wrongly (``{picture track_length}``).
    """
    name = summary_file(game_id, lang)
    if name is None:
        return None
    text = (game_folder(game_id) / name).read_text(encoding="utf-8")
    written = DEFAULT if name == "howto.md" else lang
    return Summary(game_id, written, tuple(_blocks(text, f"{game_id}/{name}")))


def _blocks(text: str, where: str) -> list[str | Picture]:
    blocks: list[str | Picture] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        first, _, rest = paragraph.strip().partition("\n")
        if not first.startswith("{picture"):
            blocks.append(paragraph.strip())
            continue
        found = _PICTURE.fullmatch(first.strip())
        if found is None:
            raise OptionError(f"{where}: a picture reads '{{picture [name=value ...]}} "
                              f"POSITION', not {first!r}")
        options = tuple(tuple(pair.split("=", 1)) for pair in found.group(1).split())
        blocks.append(Picture(found.group(2).strip(), " ".join(rest.split()),
                              tuple((name, value) for name, value in options)))
    return blocks


__all__ = ["NAMES", "Picture", "Summary", "plain", "summary", "summary_file"]
