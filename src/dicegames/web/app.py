"""The ASGI application: pages, static ES modules, board modules, the pages' catalogues, the
API and websockets.

:func:`create_app` wires a store (:mod:`~dicegames.web.stores`: SQLite or PostgreSQL) and a
:class:`~dicegames.web.hub.Hub` into a Starlette app. Pages are static HTML that load ES
modules (no build step); each game's ``board.js`` is served from its package folder. Every
error, including unknown routes and unexpected failures, answers the JSON error shape: a
domain error (:mod:`.domain`, the engine's errors) with the status and code
:mod:`.errors` gives its class.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from dicegames.core.errors import DiceGamesError, OptionError
from dicegames.core.registry import definition
from dicegames.i18n import LANGUAGES, table
from dicegames.web.api import build_routes
from dicegames.web.cluster import Cluster
from dicegames.web.commands import Act, AskHint, EnterDice, Undo
from dicegames.web.compress import Compression
from dicegames.web.domain import BadRequest, BadToken, NoBoard
from dicegames.web.errors import ApiError, refusal
from dicegames.web.failsafe import SERVER_ERROR, Failsafe
from dicegames.web.guard import OriginGuard
from dicegames.web.headers import SecurityHeaders
from dicegames.web.hub import Hub
from dicegames.web.language import request_language
from dicegames.web.limits import (
    ClientLimits,
    RateLimited,
    RateLimitMiddleware,
    RateLimits,
    client_of,
)
from dicegames.web.live import LiveMatch, Viewer
from dicegames.web.ops import HubCounts, Observer, OpsOptions, OpsRoutes
from dicegames.web.pwa import pwa_routes
from dicegames.web.resident import IDLE_EVICT, MATCHES_IN_MEMORY
from dicegames.web.responses import JSONResponse
from dicegames.web.shared_limits import SharedLimits
from dicegames.web.stores import is_postgres, open_store

STATIC = Path(str(files("dicegames.web").joinpath("static")))
MAX_WS_MESSAGE = 16 * 1024
"""The longest websocket message taken (characters); longer ones are answered 413. Frames
over the server's ``ws_max_size`` (64 KiB) close the socket with code 1009."""

SEND_TIMEOUT = 10.0
"""Seconds a push to a viewer may wait for the viewer to read. A viewer that reads nothing
for that long is closed with :data:`SLOW_CLOSE`; until then it holds at most one pending
state (states coalesce) and the transport's bounded write buffer."""

SLOW_CLOSE = 4408
"""The close code of a viewer dropped for not reading (4000 + 408, as 4000 + status
elsewhere). When even the close frame cannot be queued (the viewer's buffer is full), the
connection is closed without it once the pending data is flushed: the viewer sees 1006."""
log = logging.getLogger("dicegames.web")


def board_source(game_id: str) -> str | None:
    """The text of a game's ``board.js`` from its package folder, or None when it has none."""
    try:
        folder = definition(game_id).path
    except OptionError:
        return None
    resource = folder / "board.js"
    return resource.read_text(encoding="utf-8") if resource.is_file() else None


def create_app(db_path: str | Path, bot_delay: float = 0.7, allow_origins: Iterable[str] = (),
               loopback_only: bool = False, send_timeout: float = SEND_TIMEOUT, *,
               client_limits: ClientLimits | None = None, idle_evict: float = IDLE_EVICT,
               matches_in_memory: int = MATCHES_IN_MEMORY,
               served: str | None = None, undo_grace: float = 0.0,
               ops: OpsOptions | None = None) -> Starlette:
    """The web app storing its matches in ``db_path``: a SQLite file (a path or
    ``sqlite:///path``) or a PostgreSQL database (``postgresql://...``), see
    :func:`~dicegames.web.stores.open_store` (which raises StoreOpenError when it can't
    be used).

    ``bot_delay`` is the pause in seconds before each bot move (half of it before an
    automatic roll) so people can follow; use 0 for tests and benchmarks.
    ``allow_origins`` and ``loopback_only`` set the cross-site policy (:mod:`.guard`);
    ``send_timeout`` is how long a live viewer may leave a push unread (:data:`SEND_TIMEOUT`).
    ``client_limits``: the per-client rate limits and open websockets (:mod:`.limits`;
    None: the defaults). ``idle_evict`` and ``matches_in_memory``: when idle matches leave
    memory (:mod:`.resident`). ``served``: the origin phones open (``dicegames serve
    --lan``, :mod:`.lan`), or None when the server is not served on the network.
    ``undo_grace``: seconds the next automatic step waits after a person's last decision
    of a turn, so they can take it back (:mod:`.grace`). ``ops``: health, readiness and
    metrics (:mod:`.ops`; None: the defaults, metrics readable from loopback only).
    """
    store = open_store(db_path)
    boards: dict[str, str | None] = {}

    def board_module(game_id: str) -> str | None:
        if game_id not in boards:
            boards[game_id] = board_source(game_id)
        return f"/games/{game_id}/board.js" if boards[game_id] is not None else None

    # On PostgreSQL the process may be one of several (--workers, or more serve processes):
    # pushes, leases and limits go through the database (cluster.py, shared_limits.py).
    cluster = Cluster(str(db_path)) if is_postgres(db_path) else None
    hub = Hub(store, bot_delay, board_module, idle_evict, matches_in_memory,
              undo_grace=undo_grace, cluster=cluster)
    limits = RateLimits(client_limits if client_limits is not None else ClientLimits(),
                        shared=None if cluster is None else SharedLimits(cluster))
    operating = OpsRoutes(store, HubCounts(hub), ops if ops is not None else OpsOptions())

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"cache-control": "no-cache"})
        return endpoint

    async def board_js(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        board_module(game_id)
        source = boards.get(game_id)
        if source is None:
            raise NoBoard(f"the game {game_id!r} has no board module")
        return Response(source, media_type="text/javascript",
                        headers={"cache-control": "no-cache"})

    catalogues: dict[str, bytes] = {}

    async def catalogue_json(request: Request) -> Response:
        """The pages' catalogue of a language: the shared and every game's translations,
        merged (:func:`dicegames.i18n.table`), as JSON."""
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            raise ApiError(404, "no_language", f"no catalogue for {lang!r}")
        if lang not in catalogues:
            catalogues[lang] = json.dumps(table(lang), ensure_ascii=False,
                                          sort_keys=True).encode()
        return Response(catalogues[lang], media_type="application/json",
                        headers={"cache-control": "no-cache"})

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(hub, ws, send_timeout, limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.open()
        await hub.start()
        async with operating.running():
            yield
        await hub.leave()
        hub.close()
        await store.aclose()

    routes = [
        Route("/", page("index.html")),
        Route("/m/{match_id}", page("game.html")),
        Route("/replay/{match_id}", page("replay.html")),
        *pwa_routes(STATIC),
        Route("/games/{game_id}/board.js", board_js),
        Route("/i18n/{lang}.json", catalogue_json),
        WebSocketRoute("/ws/matches/{match_id}", websocket),
        *build_routes(hub, served),
        *operating.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = Middleware(OriginGuard, allowed=tuple(allow_origins), loopback_only=loopback_only,
                       served=served)
    middleware = [Middleware(Failsafe), Middleware(Compression), guard,
                  Middleware(RateLimitMiddleware, limits=limits)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={ApiError: _api_error, DiceGamesError: _domain_error,
                                        HTTPException: _http_error,
                                        Exception: _server_error})
    app.add_middleware(SecurityHeaders)  # every answer gets the headers
    app.add_middleware(Observer, ops=operating, routes=routes)  # outermost: times it all
    app.state.hub = hub
    app.state.ops = operating
    app.state.limits = limits
    return app


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    headers = {} if error.retry_after is None else {"retry-after": str(error.retry_after)}
    return JSONResponse(error.to_json(request_language(request)), status_code=error.status,
                        headers=headers)


async def _domain_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, DiceGamesError)
    return await _api_error(request, _refused(error))


def _refused(error: ApiError | DiceGamesError) -> ApiError:
    """The answer to a refused request: an HTTP refusal as it is, a domain error as
    :mod:`.errors` maps it. A domain error that is no refusal (a bug) is raised again, to be
    logged and answered 500 like any failure."""
    if isinstance(error, ApiError):
        return error
    answer = refusal(error)
    if answer is None:
        raise error
    return answer


def _error_json(error: ApiError, lang: str) -> dict[str, Any]:
    """A websocket's error fields: as an HTTP answer's body, plus ``retry_after`` (seconds)
    when the same message may succeed later (HTTP sends it as ``Retry-After``)."""
    data: dict[str, Any] = dict(error.to_json(lang))
    if error.retry_after is not None:
        data["retry_after"] = error.retry_after
    return data


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
    return JSONResponse({"error": code, "message": f"{request.method} {request.url.path}: "
                         f"{error.detail}"}, status_code=error.status_code)


async def _server_error(request: Request, error: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse(SERVER_ERROR, status_code=500)


# ---------------------------------------------------------------------- websockets


async def _serve_socket(hub: Hub, ws: WebSocket, send_timeout: float,
                        limits: RateLimits) -> None:
    """One websocket viewer: push the viewer's state on every change, take actions.

    Messages in (JSON text; a binary frame is answered with a 400 error and the socket
    stays open): ``{"type": "act", "move", "seat"?, "id"?}``, ``{"type": "dice", "dice"}``,
    ``{"type": "undo"}``; each is answered ``{"type": "ack", "id", "version"}`` or
    ``{"type": "error", "id", "status", "error", "message"}``. ``{"type": "hint", "seat"?}``
    is answered ``{"type": "hint", "id", "seat", "version", "revision", "move", "label",
    "bot", "estimate", "interval", "rollouts", "exact", "complete"}`` (see
    :meth:`Hub.hint`; thought out while the socket's other messages are answered, and
    cancelled when it closes). Messages out also include ``{"type": "state",
    "state": {...}}`` whenever the match changes.

    One client address holds at most :attr:`~.limits.ClientLimits.sockets` websockets at
    once (one more is closed with 4429), and asks for hints at its rate (:mod:`.limits`).
    """
    await ws.accept()
    client = client_of(ws)
    try:
        async with limits.hold_socket(client):
            await _view(hub, ws, send_timeout, limits, client)
    except RateLimited as error:
        await _refuse(ws, error)


async def _refuse(ws: WebSocket, error: ApiError) -> None:
    """Send ``error`` and close the socket with 4000 + its status."""
    await ws.send_json({"type": "error", "id": None, "status": error.status,
                        **_error_json(error, request_language(ws))})
    await ws.close(code=4000 + error.status)


async def _view(hub: Hub, ws: WebSocket, send_timeout: float, limits: RateLimits,
                client: str) -> None:
    """The accepted websocket of ``client`` (see :func:`_serve_socket`)."""
    try:
        match = await hub.get(ws.path_params["match_id"])
        seats = await hub.seats_of(match, ws.query_params.get("token"))
    except (ApiError, DiceGamesError) as error:
        await _refuse(ws, _refused(error))
        return
    tokens = {seat: match.seat_tokens[seat] for seat in seats}
    viewer = Viewer(seats, request_language(ws))
    match.add_viewer(viewer)
    loop = asyncio.get_running_loop()
    sender = loop.create_task(_push_states(match, viewer, ws, send_timeout))
    receiver = loop.create_task(_receive(hub, match, tokens, ws, viewer.lang,
                                         count_hint=lambda: limits.take("hint", client)))
    try:  # until the viewer leaves, or is dropped as too slow
        await asyncio.wait((sender, receiver), return_when=asyncio.FIRST_COMPLETED)
    finally:
        match.remove_viewer(viewer)
        sender.cancel()
        receiver.cancel()


async def _receive(hub: Hub, match: LiveMatch, tokens: dict[int, str], ws: WebSocket,
                   lang: str, *, count_hint: Callable[[], Awaitable[None]]) -> None:
    """Answer the viewer's messages until it disconnects (``count_hint`` counts a hint
    against the client's rate, raising :class:`~.limits.RateLimited` past it).

    Hints are thought out in tasks of their own, so the socket is still read meanwhile
    (its other messages answered, its disconnection seen); when it closes, the hints still
    being thought out are cancelled, their analysis jobs interrupted.
    """
    client = client_of(ws)
    thinking: set[asyncio.Task[None]] = set()
    try:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:
                    answer = {"type": "error", "id": None, "status": 400,
                              "error": "bad_frame",
                              "message": "binary frames are not accepted: send JSON text"}
                elif _wants_hint(text):
                    task = asyncio.ensure_future(
                        _send_answer(hub, match, tokens, ws, text, lang=lang, client=client,
                                     count_hint=count_hint))
                    thinking.add(task)
                    task.add_done_callback(thinking.discard)
                    continue
                else:
                    answer = await _answer(hub, match, tokens, text, lang, client=client,
                                           count_hint=count_hint)
                await ws.send_text(json.dumps(answer))
    finally:
        for task in thinking:
            task.cancel()


def _wants_hint(text: str) -> bool:
    """True for a well-formed ``{"type": "hint", ...}`` message."""
    if len(text) > MAX_WS_MESSAGE:
        return False
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") == "hint"


async def _send_answer(hub: Hub, match: LiveMatch, tokens: dict[int, str], ws: WebSocket,
                       text: str, *, lang: str, client: str,
                       count_hint: Callable[[], Awaitable[None]]) -> None:
    """Answer one message on its own (a hint), unless the socket has closed."""
    answer = await _answer(hub, match, tokens, text, lang, client=client,
                           count_hint=count_hint)
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await ws.send_text(json.dumps(answer))


async def _push_states(match: LiveMatch, viewer: Viewer, ws: WebSocket,
                       send_timeout: float) -> None:
    """Send the newest state each time the viewer is woken (changes coalesce); give up on
    a viewer that has not read for ``send_timeout`` seconds (see :data:`SLOW_CLOSE`); close
    the socket when the server ends it (``viewer.closing``: the match was dropped from
    memory, :data:`~.fanout.RELOAD_CLOSE`).

    The first state is whole; the later ones leave the board's static part out (the page
    keeps it from the first: see :mod:`dicegames.web.live`)."""
    first = True
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            await viewer.wake.wait()
            viewer.wake.clear()
            if viewer.closing is not None:
                code, reason = viewer.closing
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.close(code=code, reason=reason), 1.0)
                return
            try:
                message = match.viewer_message(viewer.seats, viewer.lang, static=first)
                first = False
                await asyncio.wait_for(ws.send_text(message), send_timeout)
            except TimeoutError:
                log.info("dropping a viewer of match %s that reads nothing", match.id)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.close(code=SLOW_CLOSE), 1.0)
                return


async def _answer(hub: Hub, match: LiveMatch, tokens: dict[int, str],
                  text: str, lang: str, *, client: str = "",
                  count_hint: Callable[[], Awaitable[None]] | None = None
                  ) -> dict[str, Any]:
    """Carry out one websocket message and return its ack or error (a hint's label in
    ``lang``, its work counted against ``client``'s limits; a refused hint's error has
    ``retry_after``, seconds)."""
    ident: Any = None
    try:
        if len(text) > MAX_WS_MESSAGE:
            raise ApiError(413, "too_large", f"a message may have {MAX_WS_MESSAGE} bytes")
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            raise ApiError(400, "bad_json", "the message is not valid JSON") from None
        if not isinstance(message, dict):
            raise ApiError(400, "bad_json", "a message must be a JSON object")
        ident = message.get("id")
        kind = message.get("type")
        seat = message.get("seat")
        if kind == "undo" and seat is None:
            seat = match.undo_seat(tuple(tokens))
        body = {**message, "token": _token_for(match, tokens, seat)}
        if kind == "act":
            version = await hub.act(match, Act.from_json(body))
        elif kind == "dice":
            version = await hub.enter_dice(match, EnterDice.from_json(body))
        elif kind == "undo":
            version = await hub.undo(match, Undo.from_json(body))
        elif kind == "hint":
            asked = AskHint.from_json(body)
            if count_hint is not None:
                await count_hint()
            return {"type": "hint", "id": ident, **await hub.hint(match, asked, lang, client)}
        else:
            raise BadRequest("'type' must be act, dice, undo or hint")
    except (ApiError, DiceGamesError) as error:  # a refused hint's error has ``retry_after``
        answer = _refused(error)
        return {"type": "error", "id": ident, "status": answer.status,
                **_error_json(answer, lang)}
    return {"type": "ack", "id": ident, "version": version}


def _token_for(match: LiveMatch, tokens: dict[int, str], seat: object) -> str:
    """The token this socket holds for ``seat`` (or for the deciding held seat, or any)."""
    if not tokens:
        raise BadToken("a spectator cannot act: open the match with a seat link")
    if seat is None:
        deciding = [s for s in match.state.current_players if s in tokens]
        return tokens[deciding[0]] if deciding else next(iter(tokens.values()))
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in tokens:
        raise BadToken(f"this connection holds seats {sorted(tokens)}, not {seat!r}")
    return tokens[seat]
