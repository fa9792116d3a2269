"""Compressed answers for what every page loads: the pages, static files, boards, catalogues
and the games' list, rules and sample positions.

On a phone over Wi-Fi (``dicegames serve --lan``) the bytes of the scripts, the stylesheet
and the boards are most of a page's loading time; gzip makes them about a quarter as big
(Lighthouse's "text compression" audit). Only the answers on :data:`COMPRESSED` paths are
compressed: none of them carries a seat token or a secret (a seat page's HTML is the same
static file for everyone; its token is only in the address), so compression tells an
onlooker nothing it could not read anyway. Answers under :data:`MINIMUM` bytes go as they
are.
"""

from __future__ import annotations

import re

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

COMPRESSED = re.compile(r"/(?:$|m/|replay/|static/|games/|i18n/|sw\.js$|api/games(?:$|/))")
"""The paths whose answers are compressed (see the module docstring)."""

MINIMUM = 1024
"""Answers shorter than this many bytes are sent uncompressed (not worth the work)."""


class Compression:
    """ASGI middleware gzipping the answers of :data:`COMPRESSED` paths to clients that
    accept it (``Accept-Encoding: gzip``), and passing everything else through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=MINIMUM, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and COMPRESSED.match(scope["path"]):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
