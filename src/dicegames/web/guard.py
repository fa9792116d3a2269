"""The cross-site guard: which web pages may change games on this server.

A browser sends an ``Origin`` header with every cross-site form post, ``fetch`` and
websocket handshake, so any page a user visits could otherwise post to their local server.
:class:`OriginGuard` (an ASGI middleware) refuses, with 403 ``foreign_origin``, every
state-changing request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) and every websocket
connect whose ``Origin`` is neither the server's own (the scheme and ``Host`` the request
was sent to) nor one of the origins allowed with ``dicegames serve --allow-origin URL``.
Requests without an ``Origin`` (scripts, ``curl``, the command line) are not cross-site and
pass. JSON bodies are required separately (415 otherwise, see :func:`.api.read_json`), which
a cross-site form cannot send without a CORS preflight this server never grants.

A server listening on loopback only (the default) also refuses requests whose ``Host`` is
not a loopback name or an allowed origin's host (403 ``foreign_host``): a rebinding
attacker's domain that resolves to 127.0.0.1 can then read nothing either. A server started
with ``--lan`` (:mod:`.lan`) answers to those and to the network address it serves, nothing
more. See docs/security.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods that may change something: they need a same-origin (or no) ``Origin``."""

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""Host names a loopback-only server answers to (besides allowed origins' hosts)."""

REFUSED_CLOSE = 4403
"""The websocket close code of a refused connect (4000 + the HTTP status, as elsewhere)."""


def normalize_origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-cased (the form browsers send).

    Raises:
        ValueError: not an http(s) URL with a host, or one with a path.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an origin like http://example.org:8000")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{url!r} is not an origin: drop the path ({parts.path})")
    return f"{parts.scheme}://{parts.netloc}".lower()


def _host_name(host: str) -> str:
    """The name part of a ``Host`` header (no port, no IPv6 brackets), lower-cased."""
    try:
        return (urlsplit(f"//{host}").hostname or "").lower()
    except ValueError:  # e.g. an unbalanced "[" or a bad port
        return ""


class OriginGuard:
    """ASGI middleware enforcing the origin policy of the module docstring.

    Args:
        app: the application behind the guard.
        allowed: origins allowed besides the server's own (``http://host:port``).
        loopback_only: the server listens on loopback only; refuse other ``Host`` names.
        served: the origin the server is served at on the network (``--lan``), or None;
            its host is then the one ``Host`` accepted besides the loopback names and the
            allowed origins' hosts.
    """

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = (),
                 loopback_only: bool = False, served: str | None = None) -> None:
        self.app = app
        self.allowed = frozenset(normalize_origin(origin) for origin in allowed)
        self.hosts = LOOPBACK_NAMES | {_host_name(urlsplit(o).netloc) for o in self.allowed}
        if served is not None:
            self.hosts |= {_host_name(urlsplit(normalize_origin(served)).netloc)}
        self.loopback_only = loopback_only or served is not None
        self.answers_to = ("localhost only" if served is None
                           else f"localhost and {_host_name(urlsplit(served).netloc)}")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await JSONResponse(refusal, status_code=403)(scope, receive, send)
        else:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(
                {"type": "error", "id": None, "status": 403, **refusal})})
            await send({"type": "websocket.close", "code": REFUSED_CLOSE})

    def refusal(self, scope: Scope) -> dict[str, str] | None:
        """The error body refusing this request, or None when it may pass."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.loopback_only and _host_name(host) not in self.hosts:
            return {"error": "foreign_host",
                    "message": f"this server answers to {self.answers_to}, not to host "
                               f"{host[:80]!r} (see dicegames serve --allow-origin)"}
        origin = headers.get("origin")
        changes = scope["type"] == "websocket" or scope["method"] in UNSAFE_METHODS
        if origin is None or not changes:
            return None
        secure = scope.get("scheme") in ("https", "wss")
        own = f"{'https' if secure else 'http'}://{host}".lower()
        if origin.lower() == own or origin.lower() in self.allowed:
            return None
        return {"error": "foreign_origin",
                "message": f"a page from {origin[:80]!r} may not change games on this server: "
                           f"only its own pages ({own}) and origins allowed with "
                           "dicegames serve --allow-origin URL may"}
