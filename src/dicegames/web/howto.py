"""``GET /api/games/{id}/howto``: a game's family summary for the "How to play" button and the
home page's rules, with each picture as a board state the page draws with the game's own
board module (:mod:`dicegames.howto` reads the summary files).

Each picture is the shared state JSON of its position (as the replay page gets a step), the
seats named Ann, Ben...; the paragraphs and captions are HTML rendered here with raw HTML
disabled. An answer is computed once per game and language (a few milliseconds, in a worker
thread).
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import Response

from dicegames.core.errors import UnknownGame
from dicegames.core.registry import game_class
from dicegames.core.session import PlayerInfo, Session
from dicegames.howto import Picture, summary
from dicegames.i18n import DEFAULT, _, use
from dicegames.web.domain import GameNotFound
from dicegames.web.hub import Hub
from dicegames.web.language import request_language
from dicegames.web.live import LiveMatch
from dicegames.web.responses import JSONResponse

_markdown = MarkdownIt("commonmark", {"html": False})


def picture_state(game_id: str, picture: Picture, board_module: str | None,
                  lang: str) -> dict[str, Any]:
    """The shared state JSON of ``picture``'s position: a picture, not a game (no log, no
    one to wait for)."""
    state = picture.state(game_id)
    players = [PlayerInfo(name, "human") for name in picture.names(game_id)]
    session = Session(state.game, players, seed=0, start=state)
    shared = LiveMatch("howto", session, "auto", {}, board_module).shared_state(0, lang)
    return {**shared, "log": [], "log_size": 0, "status": "sample"}


@cache
def howto_json(game_id: str, board_module: str | None, lang: str = DEFAULT) -> dict[str, Any]:
    """The summary of ``game_id`` in ``lang`` for the pages: ``title``, and ``blocks``, each
    ``{"html": ...}`` or ``{"picture": state, "caption": html}``; no blocks when the game has
    no summary."""
    found = summary(game_id, lang)
    blocks: list[dict[str, Any]] = []
    for block in found.blocks if found is not None else ():
        if isinstance(block, str):
            blocks.append({"html": _markdown.render(block)})
        else:
            blocks.append({"picture": picture_state(game_id, block, board_module, lang),
                           "caption": _markdown.renderInline(block.caption)})
    with use(lang):
        title = _("How to play {game}", game=_(game_class(game_id).spec.name))
    return {"game": game_id, "lang": found.lang if found else DEFAULT, "title": title,
            "blocks": blocks}


def howto_endpoint(hub: Hub) -> Any:
    """The route's handler, drawing pictures with the hub's board modules."""

    async def howto(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            spec = game_class(game_id).spec
        except UnknownGame as error:  # the address names no game
            raise GameNotFound(str(error)) from None
        answer = await asyncio.to_thread(howto_json, spec.id, hub.board_module(spec.id),
                                         request_language(request))
        return JSONResponse(answer)

    return howto
