"""Unexpected errors answer 500 JSON and the kept-alive connection stays open.

Starlette's outermost ``ServerErrorMiddleware`` sends the 500 answer and then raises the
exception again (so a server can log it); uvicorn, seeing an exception after the answer has
started, closes the connection, and the client's next request on it is reset.
:class:`Failsafe`, the outermost of the app's own middleware, catches the exception first:
it logs it, answers ``{"error": "server_error", ...}`` with 500 and returns normally, so
uvicorn keeps the connection. An exception after the answer has started cannot be answered
any more: that one still goes up (the half-sent answer must end with the connection).
"""

from __future__ import annotations

import logging

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("dicegames.web")

SERVER_ERROR = {"error": "server_error", "message": "unexpected server error"}
"""The body of every 500 answer (the details go to the server's log only)."""


class Failsafe:
    """ASGI middleware: an exception before the answer started becomes a 500 JSON answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            if started:
                raise
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            await JSONResponse(SERVER_ERROR, status_code=500)(scope, receive, send)
