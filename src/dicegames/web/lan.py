"""Playing from every phone in the house: ``dicegames serve --lan``.

A server started with ``--lan`` listens on this machine's network address (the one its
default route leaves from, :func:`network_address`) besides loopback, and that address is the
**served origin** (``http://192.168.1.20:8000``): the one every phone in the house can open.
It is printed in the terminal with a QR code (:func:`terminal_qr`), invite links and their QR
codes use it even when the page was opened at ``localhost`` on the computer itself, and the
home page shows it as "Open on a phone" (``GET /api/lan``, ``GET /api/lan/qr``).

The origin and ``Host`` checks (:mod:`.guard`) then accept the loopback names and that one
address, nothing more: a rebinding attacker's domain is refused as before, and the seat
tokens still guard every seat (docs/security.md).

Finding the address sends nothing: connecting a UDP socket only asks the kernel which
source address a packet to a documentation address (TEST-NET-3) would leave from.
"""

from __future__ import annotations

import contextlib
import io
import socket
from ipaddress import IPv4Address, ip_address

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from dicegames.web.errors import ApiError
from dicegames.web.qr import link_qr, link_svg
from dicegames.web.responses import JSONResponse

PROBE = "203.0.113.1"
"""A documentation address (TEST-NET-3, RFC 5737): the route a packet to it would take is
the default route; no packet is ever sent to it."""


class NoNetworkAddress(OSError):
    """This machine has no network address a phone could reach (no network, or loopback
    only)."""


def usable(address: str) -> bool:
    """True for an IPv4 address another device could reach: not loopback, not unspecified,
    not link-local, not multicast."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return isinstance(parsed, IPv4Address) and not (
        parsed.is_loopback or parsed.is_unspecified or parsed.is_link_local
        or parsed.is_multicast)


def network_address() -> str:
    """This machine's IPv4 address on its network: the source address of its default route,
    else an address its host name resolves to.

    Raises:
        NoNetworkAddress: neither gives a usable address (:func:`usable`).
    """
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((PROBE, 9))  # UDP: picks the route and source address, sends nothing
        address = str(probe.getsockname()[0])
        if usable(address):
            return address
    with contextlib.suppress(OSError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if usable(str(sockaddr[0])):
                return str(sockaddr[0])
    raise NoNetworkAddress("this machine has no network address a phone could reach: "
                           "connect it to the home network, or name one with --host ADDRESS")


def origin_of(host: str, port: int) -> str:
    """``http://host:port`` (an IPv6 host in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def terminal_qr(url: str) -> str:
    """``url``'s QR code drawn with Unicode half blocks, two rows of modules a line, dark on
    light whatever the terminal's colours (the quiet zone included), for a phone's camera."""
    out = io.StringIO()
    link_qr(url).terminal(out, compact=True, border=2)
    return out.getvalue()


def lan_routes(served: str | None) -> list[Route]:
    """``GET /api/lan`` and ``GET /api/lan/qr`` for a server whose served origin (the
    address phones open) is ``served`` (None: this server is not reachable from the network,
    as ``dicegames serve`` without ``--lan``)."""

    async def info(request: Request) -> Response:
        """``{"url": "http://192.168.1.20:8000/" | null}``: the home page's address on the
        network, or null when phones cannot reach this server."""
        return JSONResponse({"url": None if served is None else f"{served}/"})

    async def qr(request: Request) -> Response:
        """The QR code of the home page's address on the network, as SVG (404 ``no_lan``
        without one). It holds no token: anyone who can open the home page may see it."""
        if served is None:
            raise ApiError(404, "no_lan", "this server listens on this computer only: "
                           "start it with dicegames serve --lan to open it on a phone")
        return Response(link_svg(f"{served}/"), media_type="image/svg+xml", headers={
            "cache-control": "no-cache",
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'"})

    return [Route("/api/lan", info), Route("/api/lan/qr", qr)]

