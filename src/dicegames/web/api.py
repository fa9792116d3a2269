"""The JSON API: every route the pages use, with the error rules of :mod:`.errors`.

Bodies must be declared ``application/json`` (415 otherwise: a cross-site form cannot send
that), are read with a size limit before any parsing (413 past :data:`MAX_BODY`), parsed as
a JSON object (400 otherwise), checked into a typed request (:mod:`.commands`) and handed to
the :class:`~dicegames.web.hub.Hub`, which checks the move with the engine and commits it
before the answer goes out. The hub refuses with domain errors; :mod:`.errors` answers them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from dicegames.bots import bot_levels
from dicegames.core.errors import UnknownGame
from dicegames.core.record import to_record
from dicegames.core.registry import game_class, games, make
from dicegames.docs import rules_page
from dicegames.i18n import title, translate
from dicegames.web.commands import Act, Again, AskHint, CreateMatch, EnterDice, Undo, Upload
from dicegames.web.domain import GameNotFound, StepNotFound
from dicegames.web.errors import ApiError
from dicegames.web.howto import howto_endpoint
from dicegames.web.hub import Hub
from dicegames.web.lan import lan_routes
from dicegames.web.language import bot_json, option_json, request_language
from dicegames.web.limits import client_of
from dicegames.web.live import LiveMatch, join_objects
from dicegames.web.lobby import build_lobby_routes
from dicegames.web.openapi import OPENAPI
from dicegames.web.qr import qr_endpoint
from dicegames.web.rematch import play_again
from dicegames.web.responses import JSONResponse
from dicegames.web.samples import sample_state
from dicegames.web.work import unless_gone

MAX_BODY = 64 * 1024
"""Largest request body accepted (bytes); uploaded records are the biggest bodies."""

MAX_RECORD = 256 * 1024
"""Largest uploaded record (bytes). The longest record the bots made in 600 games was 8 KB;
a record at :data:`~dicegames.core.record.MAX_MOVES` moves with a custom board of the
largest size stays below this."""

MAX_STEP_DIGITS = 9
"""A step number in a URL has at most this many ASCII digits."""

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request body as a JSON object, refusing other media types (415), oversized
    (413) and malformed (400) bodies."""
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":
        raise ApiError(415, "unsupported_media_type", "the body must be JSON sent with "
                       f"content-type: application/json, not {media[:60]!r}")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdigit() and (
            int(declared) > limit):
        raise ApiError(413, "too_large", f"the body is {declared} bytes; the limit is {limit}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, "too_large", f"the body is over the limit of {limit} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_json", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    return data


def json_text(text: str, status: int = 200) -> Response:
    """An answer whose JSON is already encoded (a match's state: its large static board is
    encoded once, not at every request)."""
    return Response(text, status_code=status, media_type="application/json")


def game_summary(game_id: str, lang: str = "en") -> dict[str, Any]:
    """A game's spec as JSON: id, name, pitch, players, options and bot levels; what people
    read is in ``lang``."""
    spec = game_class(game_id).spec
    return {
        "id": spec.id, "name": title(spec.name, lang), "pitch": translate(lang, spec.pitch),
        "min_players": spec.min_players, "max_players": spec.max_players,
        "default_players": spec.default_players, "age": spec.age,
        "minutes": list(spec.minutes),
        "options": [option_json(o, lang) for o in spec.options],
        "bots": bot_json(bot_levels(make(spec.id)), lang, spec.id),
    }


def match_links(match: LiveMatch) -> dict[str, Any]:
    """The links of a new match: one secret link per person's seat, and the spectator's."""
    return {
        "id": match.id,
        "spectator": f"/m/{match.id}",
        "replay": f"/replay/{match.id}",
        "seats": [{"seat": seat, "name": player.name, "kind": player.kind,
                   "token": match.seat_tokens.get(seat),
                   "link": (f"/m/{match.id}?seat={match.seat_tokens[seat]}"
                            if seat in match.seat_tokens else None)}
                  for seat, player in enumerate(match.session.players)],
    }


def review_endpoint(hub: Hub) -> Callable[[Request], Awaitable[Response]]:
    """``GET /api/matches/{id}/review``: the review so far (see :meth:`Hub.review`);
    ``DELETE``: stop it (:meth:`Hub.cancel_review`)."""

    async def review(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        if request.method == "DELETE":
            return JSONResponse(await hub.cancel_review(match))
        return JSONResponse(await hub.review(match, request_language(request),
                                             client_of(request)))

    return review


def hint_endpoint(hub: Hub) -> Callable[[Request], Awaitable[Response]]:
    """``GET /api/matches/{id}/hint``: the hint (see :meth:`Hub.hint`), cancelled when its
    client disconnects before the answer."""

    async def hint(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        asked = AskHint.from_json(request.query_params)
        found = await unless_gone(request, hub.hint(match, asked, request_language(request),
                                                    client_of(request)))
        if found is None:  # the client left: its hint was cancelled, nobody reads this
            return Response(status_code=204)
        return JSONResponse(found)

    return hint


def build_routes(hub: Hub, served: str | None = None) -> list[Route]:
    """The API's routes, bound to ``hub``; ``served``: the origin phones open (``--lan``,
    :mod:`.lan`; None: the server is not served on the network), which seat links' QR codes
    show."""

    async def list_games(request: Request) -> Response:
        lang = request_language(request)
        return JSONResponse({"games": [game_summary(spec.id, lang) for spec in games()]})

    async def get_game(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            data = game_summary(game_id, request_language(request))
        except UnknownGame as error:  # the address names no game
            raise GameNotFound(str(error)) from None
        markdown = rules_page(data["id"], request_language(request))
        data["rules_markdown"] = markdown
        data["rules_html"] = _markdown.render(markdown)
        # The page shows the summary itself, with the real board (GET .../howto).
        data["rules_details_html"] = _markdown.render(
            rules_page(data["id"], request_language(request), with_summary=False))
        return JSONResponse(data)

    async def sample(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            spec = game_class(game_id).spec
        except UnknownGame as error:
            raise GameNotFound(str(error)) from None
        state = await asyncio.to_thread(sample_state, spec.id, hub.board_module(spec.id),
                                        request_language(request))
        return JSONResponse(state)

    async def create_match(request: Request) -> Response:
        match = await hub.create(CreateMatch.from_json(await read_json(request)))
        state = match.viewer_json(match.human_seats(), request_language(request))
        return json_text(join_objects(json.dumps(match_links(match)), f'{{"state": {state}}}'),
                         status=201)

    async def get_match(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        seats = await hub.seats_of(match, request.query_params.get("token"))
        return json_text(match.viewer_json(seats, request_language(request)))

    async def act(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        version = await hub.act(match, Act.from_json(await read_json(request)))
        return JSONResponse({"ok": True, "version": version})

    async def dice(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        version = await hub.enter_dice(match, EnterDice.from_json(await read_json(request)))
        return JSONResponse({"ok": True, "version": version})

    async def undo(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        version = await hub.undo(match, Undo.from_json(await read_json(request)))
        return JSONResponse({"ok": True, "version": version})

    async def again(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        rematch = await play_again(hub, match, Again.from_json(await read_json(request)))
        new = rematch.match
        return JSONResponse({
            "id": new.id, "spectator": f"/m/{new.id}", "replay": f"/replay/{new.id}",
            "seats": [{"seat": seat, "name": new.session.players[seat].name, "token": token,
                       "link": f"/m/{new.id}?seat={token}"}
                      for seat, token in sorted(rematch.seats.items())],
        }, status_code=201 if rematch.created else 200)

    async def record(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        return JSONResponse(to_record(match.session), headers={
            "content-disposition":
                f'attachment; filename="{match.session.game.spec.id}-{match.id}.json"'})

    async def step(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        raw = request.path_params["step"]
        if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_STEP_DIGITS) or (
                int(raw) > match.version):
            raise StepNotFound(f"step {raw[:20]!r} does not exist: this match has steps 0 to "
                               f"{match.version}")
        return json_text(match.shared_json(int(raw), request_language(request)))

    async def upload(request: Request) -> Response:
        match = await hub.upload(Upload.from_json(await read_json(request, MAX_RECORD)))
        return JSONResponse({"id": match.id, "replay": f"/replay/{match.id}",
                             "moves": match.version}, status_code=201)

    async def openapi(request: Request) -> Response:
        return JSONResponse(OPENAPI)

    return [
        Route("/api/openapi.json", openapi),
        Route("/api/games", list_games),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/sample", sample),
        Route("/api/games/{game_id}/howto", howto_endpoint(hub)),
        Route("/api/matches", create_match, methods=["POST"]),
        Route("/api/matches/{match_id}", get_match),
        Route("/api/matches/{match_id}/actions", act, methods=["POST"]),
        Route("/api/matches/{match_id}/dice", dice, methods=["POST"]),
        Route("/api/matches/{match_id}/undo", undo, methods=["POST"]),
        Route("/api/matches/{match_id}/again", again, methods=["POST"]),
        Route("/api/matches/{match_id}/hint", hint_endpoint(hub)),
        Route("/api/matches/{match_id}/record", record),
        Route("/api/matches/{match_id}/review", review_endpoint(hub),
              methods=["GET", "DELETE"]),
        Route("/api/matches/{match_id}/qr", qr_endpoint(hub, served)),
        Route("/api/matches/{match_id}/states/{step}", step),
        Route("/api/replays", upload, methods=["POST"]),
        *build_lobby_routes(hub, read_json),
        *lan_routes(served),
    ]
