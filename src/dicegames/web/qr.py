"""QR codes of seat links, drawn on the server as SVG (segno: pure Python, no network).

A phone at the same table scans the code instead of typing a link. The code is built from
the match's id and a seat token the asker already holds (the endpoint refuses any other
token), so it never tells anyone a token they did not have; the link's origin is the
address the server is served at on the network (``dicegames serve --lan``, :mod:`.lan`),
else the one the request was sent to (the address the creator's page uses).
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from urllib.parse import quote

import segno
from starlette.requests import Request
from starlette.responses import Response

from dicegames.web.commands import seat_token
from dicegames.web.domain import BadRequest, BadToken
from dicegames.web.hub import Hub

QR_ERROR = "m"
"""Error correction level M (15 % of the code may be damaged, smudged or glared on)."""

QR_BORDER = 4
"""The quiet zone around the code, in modules: 4 is what the QR standard asks for."""


def link_qr(url: str) -> segno.QRCode:
    """The QR code of ``url`` (byte mode, level M, the smallest version that holds it)."""
    return segno.make_qr(url, error=QR_ERROR, boost_error=False)


def link_svg(url: str) -> str:
    """``url`` as a scalable SVG QR code: black modules on a white ground with the quiet
    zone, one ``path`` (it scales to any size: no width or height, a ``viewBox`` only).

    The SVG holds no text of the link (only the modules), so nothing in it needs escaping.
    """
    out = io.BytesIO()
    link_qr(url).save(out, kind="svg", xmldecl=False, svgns=True, omitsize=True,
                      border=QR_BORDER, dark="#000", light="#fff", svgclass=None,
                      lineclass=None)
    return out.getvalue().decode("ascii")


MAX_LINK = 600
"""The longest seat link drawn (characters): real ones have about 70 plus the host name; a
request with an absurd ``Host`` gets a 400 rather than a code too big to scan."""


def qr_endpoint(hub: Hub, served: str | None = None
                ) -> Callable[[Request], Awaitable[Response]]:
    """``GET /api/matches/{id}/qr?token=TOKEN``: the QR code of that seat's link, as SVG,
    at ``served`` (the origin phones open, ``--lan``) or else at the request's own origin.

    Only for one seat token of this match (403 otherwise, 404 for an unknown match): the
    asker already holds the token the code shows. The answer is never cached or sent on as a
    referrer, and a script inside it could not run (``content-security-policy``).
    """

    async def qr(request: Request) -> Response:
        match = await hub.get(request.path_params["match_id"])
        token = seat_token(request.query_params.get("token", ""))
        if "," in token:
            raise BadToken("one seat token at a time: a QR code shows one seat's link")
        await hub.seat_of(match, token)
        base = served if served is not None else str(request.base_url).rstrip("/")
        url = f"{base}/m/{quote(match.id, safe='')}?seat={quote(token, safe='')}"
        if len(url) > MAX_LINK:
            raise BadRequest(f"the link would be {len(url)} characters long (the host name "
                             f"is too long); the limit is {MAX_LINK}")
        return Response(link_svg(url), media_type="image/svg+xml", headers={
            "cache-control": "no-store", "referrer-policy": "no-referrer",
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'"})

    return qr
