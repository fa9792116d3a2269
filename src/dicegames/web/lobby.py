"""Open tables: the lobby of matches whose creator invited people by link and marked the
match ``open``, so that anyone on this server may take one of its free invited seats.

``GET /api/tables`` lists them (newest first, at most :data:`MAX_TABLES` of the last
:data:`TABLE_HOURS` hours: the game, the
options that differ from the defaults, each seat free or taken, the creator's name, the
age; never a token). ``POST /api/tables/{id}/join`` with ``{"name"}`` hands out the token of
one free invited seat, once: the store's transaction picks and marks it, under the match's
lock, so of two people asking for the last seat one gets it and the other a 409. A private or
unknown match answers the same 404, so the lobby tells nothing about private matches. A seat
also stops being offered as soon as its token is used in any way (a state read, a QR code, a
websocket, a move, a hint...): see :meth:`~dicegames.web.hub.Hub.seats_of`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from dicegames.core.errors import DiceGamesError, GameOver
from dicegames.core.names import safe_name
from dicegames.core.registry import game_class
from dicegames.i18n import title, translate
from dicegames.web.commands import Join
from dicegames.web.domain import TableFull, TableNotFound
from dicegames.web.fanout import Notice
from dicegames.web.language import request_language
from dicegames.web.responses import JSONResponse
from dicegames.web.store import Table

if TYPE_CHECKING:
    from dicegames.web.hub import Hub

MAX_TABLES = 50
"""The most tables the lobby lists (the newest ones)."""

TABLE_HOURS = 24
"""A table is listed for this many hours after it was set up (an open table nobody took by
then was most likely left); it can still be joined by its id."""

MAX_ID = 64
"""A match id longer than this is unknown without asking the database."""


def table_json(table: Table, lang: str, now: float) -> dict[str, Any]:
    """One table as the lobby shows it: names and labels in ``lang``, no token."""
    spec = game_class(table.game).spec
    changed = []
    for option in spec.options:
        value = table.options.get(option.name, option.default)
        if value == option.default:
            continue
        shown: object = value
        if option.kind == "file":
            shown = None  # a board's whole text: the page says "custom"
        elif option.kind == "choice":
            shown = translate(lang, option.choice_title(str(value)))
        changed.append({"name": option.name, "label": translate(lang, option.title),
                        "kind": option.kind, "value": shown})
    names = [safe_name(p["name"], seat + 1) for seat, p in enumerate(table.players)]
    hosts = [names[seat] for seat, p in enumerate(table.players)  # older rows: any text
             if seat not in table.invited and p["kind"] == "human"]
    return {
        "id": table.id,
        "game": {"id": spec.id, "name": title(spec.name, lang)},
        "options": changed,
        "seats": [{"seat": seat, "name": names[seat],
                   "kind": "bot" if p["kind"].startswith("bot:") else "human",
                   "free": seat in table.free}
                  for seat, p in enumerate(table.players)],
        "free": len(table.free),
        "taken": len(table.players) - len(table.free),
        "host": hosts[0] if hosts else None,
        "created": table.created,
        "age": max(0, round(now - table.created)),
    }


def _shown(tables: list[Table], lang: str, now: float) -> list[dict[str, Any]]:
    """The tables as the lobby lists them, leaving out any whose stored set-up this version
    cannot show (an unknown game, an option value of the wrong type: a damaged row)."""
    shown = []
    for table in tables:
        try:
            shown.append(table_json(table, lang, now))
        except (DiceGamesError, LookupError, TypeError, ValueError, AttributeError):
            continue
    return shown


def _no_table(match_id: str) -> TableNotFound:
    """The one answer for a private match and for no match at all."""
    return TableNotFound(f"there is no open table {match_id[:MAX_ID]!r}")


async def join_table(hub: Hub, match_id: str, request: Join) -> dict[str, Any]:
    """Take a free invited seat of the open table ``match_id`` for the joiner ``request``
    names: the seat, its token and its link (the joiner's own seat link from then on).

    Raises:
        TableNotFound: a private or unknown match.
        GameOver: the table's game is over.
        TableFull: every invited seat is taken.
    """
    name = request.name
    if len(match_id) > MAX_ID or not await hub.store.is_open(match_id):
        raise _no_table(match_id)
    match = await hub.get(match_id)
    async with match.lock:
        if match.state.is_terminal:
            raise GameOver("this table's game is over: pick another table")
        taken = await hub.store.take_seat(match.id, name)
        if taken is None:
            raise TableFull("every invited seat of this table has been taken: pick another "
                            "table, or start a game of your own")
        seat, token = taken
        match.rename(seat, name)
    hub.changed(match)
    await hub.announce(Notice(match.id, seat, "rename", text=name))  # other processes
    return {"id": match.id, "seat": seat, "name": name, "token": token,
            "link": f"/m/{match.id}?seat={token}"}


def build_lobby_routes(hub: Hub, read_json: Callable[[Request], Awaitable[dict[str, Any]]]
                       ) -> list[Route]:
    """``GET /api/tables`` and ``POST /api/tables/{match_id}/join``, bound to ``hub``;
    bodies are read by ``read_json`` (the API's rules: size limit, JSON media type)."""

    async def tables(request: Request) -> Response:
        lang = request_language(request)
        now = time.time()
        listed = await hub.store.tables(MAX_TABLES, since=now - TABLE_HOURS * 3600)
        return JSONResponse({"tables": _shown(listed, lang, now), "limit": MAX_TABLES})

    async def join(request: Request) -> Response:
        joining = Join.from_json(await read_json(request))
        return JSONResponse(await join_table(hub, request.path_params["match_id"], joining))

    return [Route("/api/tables", tables),
            Route("/api/tables/{match_id}/join", join, methods=["POST"])]
