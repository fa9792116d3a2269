"""Security headers on every HTTP answer: what a browser may run, frame, sniff, send on, keep.

:class:`SecurityHeaders` (an ASGI middleware) adds to every HTTP response:

* ``Content-Security-Policy`` (:data:`CSP`): scripts only from this server's own files (no
  inline script, no ``eval``), connections (``fetch``, the websocket) and images only to
  and from this server, no plugins, no ``<base>``, forms posted only here, and
  ``frame-ancestors 'none'``: no other site can show a page of this server in a frame and
  trick a player into clicking on it. Styles come from the server's files too: the game
  boards' stylesheets are constructed sheets and their ``style`` values are set through the
  CSSOM (``adoptStyle``, ``el`` and ``svg`` in ``static/shell.js``), so neither inline
  ``<style>`` elements nor ``style`` attributes are allowed (an injected one stays inert).
* ``X-Frame-Options: DENY``, the same refusal for browsers without ``frame-ancestors``.
* ``X-Content-Type-Options: nosniff``: an answer is only ever read as the type it declares
  (a JSON answer or an uploaded record is never run as a script or shown as a page).
* ``Referrer-Policy: no-referrer``: a seat page's address holds its secret token
  (``/m/{id}?seat=TOKEN``), so no request from a page sends the page's address on.
* ``Cache-Control: no-store`` on every answer that carries a seat token or was reached with
  one (:func:`carries_token`): seat pages, ``?token=`` API requests (state, hint, QR code),
  and every answer to a ``POST`` (a new match's links, a lobby seat, moves sent with a
  token), so no browser or proxy cache keeps a token on disk.

A header the endpoint set itself is kept (the QR code's stricter policy, given
``frame-ancestors 'none'`` if it lacks it; a board module's ``no-cache``), except
``Cache-Control``, which becomes ``no-store`` wherever a token is involved. Websocket
handshakes pass untouched (their upgrade is not an HTTP answer a browser renders).
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NO_FRAMING = "frame-ancestors 'none'"
"""No page of any other site may show an answer of this server in a frame."""

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    NO_FRAMING,
))
"""The pages' content security policy (see the module docstring). ``connect-src 'self'``
covers the websocket to the same host and port (``ws:``/``wss:``, CSP level 3)."""

HEADERS = (
    ("content-security-policy", CSP),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
)
"""Sent with every HTTP answer, unless the endpoint set that header itself."""

TOKEN_PARAMETERS = ("token", "seat")
"""Query parameters that hold seat tokens (the API's ``?token=``, a seat page's ``?seat=``)."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def carries_token(scope: Scope) -> bool:
    """True when the request holds a seat token or its answer may: a token query parameter,
    or any method but GET/HEAD/OPTIONS (a creation's links, a lobby seat, moves with a
    token in the body: the body is not read here, so every such answer counts)."""
    if scope["method"] not in SAFE_METHODS:
        return True
    query = scope.get("query_string", b"").decode("latin-1")
    return any(name in TOKEN_PARAMETERS  # names decoded as the endpoints decode them
               for name, _ in parse_qsl(query, keep_blank_values=True))


class SecurityHeaders:
    """ASGI middleware adding the headers of the module docstring to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        no_store = carries_token(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS:
                    if name not in headers:
                        headers[name] = value
                policy = headers["content-security-policy"]
                if "frame-ancestors" not in policy:  # an endpoint's own policy, framed never
                    headers["content-security-policy"] = f"{policy}; {NO_FRAMING}"
                if no_store:
                    headers["cache-control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)
