"""Per-client limits: how often one client address may ask for the expensive things, and
how many websockets it may hold open.

Each limited kind of request (:data:`DEFAULT_RATES`) has a token bucket per client address:
``count`` requests at once, refilled at ``count`` per ``seconds``. A request finding its
bucket empty is refused with 429 ``rate_limited`` and ``Retry-After`` (whole seconds until
the bucket holds a request again), before its body is read. The buckets live in memory, at
most :data:`MAX_CLIENTS` of them (the least recently used is forgotten first: a forgotten
bucket is a full one, so that client is not refused wrongly, just counted afresh).

HTTP requests are matched by method and path (:data:`LIMITED`) in :class:`RateLimitMiddleware`;
hints asked over a websocket are counted by :func:`~dicegames.web.app._answer` with
:meth:`RateLimits.check`. Open websockets are counted by :meth:`RateLimits.open_socket`.

With several server processes on one PostgreSQL database, the buckets and the counts live
in the database instead (:mod:`.shared_limits`, given as ``shared``): the async methods
:meth:`RateLimits.take` and :meth:`RateLimits.hold_socket` ask it, and fall back on this
process's own counts while it cannot be asked.

The client is the connection's peer address (``scope["client"]``); behind a reverse proxy
every client shares the proxy's address, so the proxy should do its own limiting.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from dicegames.web.errors import ApiError
from dicegames.web.language import request_language


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``count`` requests at once, then ``count`` per ``seconds`` (a token bucket)."""

    count: int
    seconds: float

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``COUNT/SECONDS`` (e.g. ``30/300``), both positive.

        Raises:
            ValueError: the text is not of that form (the message says what is allowed).
        """
        count, slash, seconds = text.partition("/")
        try:
            rate = cls(int(count), float(seconds)) if slash else None
        except ValueError:
            rate = None
        if rate is None or not (0 < rate.count <= 1_000_000 and 0 < rate.seconds <= 86_400
                                and math.isfinite(rate.seconds)):
            raise ValueError(f"{text!r} is not COUNT/SECONDS (COUNT 1 to 1000000 requests, "
                             "SECONDS 0 to 86400, e.g. 30/300)")
        return rate


DEFAULT_RATES: Mapping[str, Rate] = {
    "create": Rate(30, 300),
    "join": Rate(20, 300),
    "upload": Rate(10, 300),
    "hint": Rate(60, 60),
    "review": Rate(120, 60),
}
"""The limited kinds of request and their default rates per client address: new matches,
lobby joins, uploaded records, hints (HTTP and websocket) and reviews. The replay page asks
for a review's progress every 0.7 s while it runs, hence the review rate."""

WHAT = {"create": "new matches", "join": "lobby joins", "upload": "uploaded records",
        "hint": "hints", "review": "review requests"}
"""What each kind counts, for the refusal's message."""

LIMITED: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"/api/matches/?"), "create"),
    ("POST", re.compile(r"/api/tables/[^/]+/join/?"), "join"),
    ("POST", re.compile(r"/api/replays/?"), "upload"),
    ("GET", re.compile(r"/api/matches/[^/]+/hint/?"), "hint"),
    ("GET", re.compile(r"/api/matches/[^/]+/review/?"), "review"),
)
"""The HTTP routes counted: method, whole path, kind."""

MAX_CLIENTS = 10_000
"""Buckets held at most (one per client address and kind)."""

SOCKETS_PER_CLIENT = 64
"""Websockets one client address may hold open at once (each viewer keeps its match in
memory); one more is refused with close code 4429."""


@dataclass(frozen=True, slots=True)
class ClientLimits:
    """The per-client limits of a server: ``rates`` per kind (empty: no rate limits) and the
    open websockets per client (0: no limit)."""

    rates: Mapping[str, Rate] = field(default_factory=lambda: dict(DEFAULT_RATES))
    sockets: int = SOCKETS_PER_CLIENT

    @classmethod
    def off(cls) -> ClientLimits:
        """No per-client limit at all (tests and benchmarks that need bursts)."""
        return cls({}, 0)


class RateLimited(ApiError):
    """A 429 refusal: the client asked too often; ``retry_after`` seconds until it may."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(429, "rate_limited", message, retry_after=retry_after)


log = logging.getLogger("dicegames.web")


class Shared(Protocol):
    """Buckets and socket counts shared by several processes (:mod:`.shared_limits`)."""

    async def take(self, kind: str, client: str, rate: Rate) -> int:
        """0 when one request is allowed (and counted), else the seconds to wait."""

    async def open_socket(self, client: str, most: int) -> bool:
        """Count one more open websocket unless ``most`` are open; False when refused."""

    async def close_socket(self, client: str) -> None:
        """One open websocket closed."""


def _too_many(kind: str, rate: Rate, wait: int) -> RateLimited:
    return RateLimited(f"too many {WHAT.get(kind, kind)} from your address: at most "
                       f"{rate.count} every {rate.seconds:g} seconds; try again in "
                       f"{wait} s", wait)


class RateLimits:
    """The token buckets and open-socket counts of one server (event-loop thread only),
    or of every process on its database (``shared``)."""

    def __init__(self, limits: ClientLimits, clock: Callable[[], float] = time.monotonic,
                 max_clients: int = MAX_CLIENTS, shared: Shared | None = None) -> None:
        self.limits = limits
        self.shared = shared
        self._clock = clock
        self._max = max_clients
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()
        self._sockets: dict[str, int] = {}

    def check(self, kind: str, client: str) -> None:
        """Count one ``kind`` request of ``client``.

        Raises:
            RateLimited: its bucket is empty (the message says the limit and the wait).
        """
        rate = self.limits.rates.get(kind)
        if rate is None:
            return
        now = self._clock()
        key = (kind, client)
        tokens, then = self._buckets.pop(key, (float(rate.count), now))
        tokens = min(float(rate.count), tokens + (now - then) * rate.count / rate.seconds)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
            while len(self._buckets) > self._max:
                self._buckets.popitem(last=False)
            return
        self._buckets[key] = (tokens, now)
        wait = max(1, math.ceil((1 - tokens) * rate.seconds / rate.count))
        raise _too_many(kind, rate, wait)

    async def take(self, kind: str, client: str) -> None:
        """:meth:`check`, in the shared buckets when there are (else, or while the
        database cannot be asked, this process's own).

        Raises:
            RateLimited: the bucket is empty.
        """
        rate = self.limits.rates.get(kind)
        if rate is None:
            return
        if self.shared is not None:
            try:
                wait = await self.shared.take(kind, client, rate)
            except Exception as error:  # the database away: this process's own bucket
                log.warning("shared rate limit not reachable (%s): counting here", error)
            else:
                if wait:
                    raise _too_many(kind, rate, wait)
                return
        self.check(kind, client)

    @asynccontextmanager
    async def hold_socket(self, client: str) -> AsyncIterator[None]:
        """:meth:`open_socket`, counted across the processes when they share limits.

        Raises:
            RateLimited: the client already holds its websockets.
        """
        most = self.limits.sockets
        allowed: bool | None = None
        if self.shared is not None and most:
            try:
                allowed = await self.shared.open_socket(client, most)
            except Exception as error:
                log.warning("shared socket count not reachable (%s): counting here", error)
        if allowed is None:
            with self.open_socket(client):
                yield
            return
        if not allowed:
            raise _socket_refusal(most)
        assert self.shared is not None
        try:
            yield
        finally:
            await self.shared.close_socket(client)

    @contextmanager
    def open_socket(self, client: str) -> Iterator[None]:
        """Hold one of ``client``'s open websockets for the ``with`` block.

        Raises:
            RateLimited: the client already holds :attr:`ClientLimits.sockets` of them.
        """
        held = self._sockets.get(client, 0)
        if self.limits.sockets and held >= self.limits.sockets:
            raise _socket_refusal(self.limits.sockets)
        self._sockets[client] = held + 1
        try:
            yield
        finally:
            left = self._sockets[client] - 1
            if left:
                self._sockets[client] = left
            else:
                del self._sockets[client]


def _socket_refusal(most: int) -> RateLimited:
    return RateLimited(f"too many open connections from your address: at most {most} at "
                       "once; close one first", 5)


def client_of(connection: HTTPConnection) -> str:
    """The address a request or websocket comes from (``?`` when the server has none)."""
    return connection.client.host if connection.client is not None else "?"


def limited_kind(method: str, path: str) -> str | None:
    """The kind of limited request ``method path`` is (:data:`LIMITED`), or None."""
    for limited_method, pattern, kind in LIMITED:
        if method == limited_method and pattern.fullmatch(path):
            return kind
    return None


class RateLimitMiddleware:
    """Refuse a limited HTTP request (:data:`LIMITED`) whose client's bucket is empty: 429
    ``rate_limited`` with ``Retry-After``, before the request is read or routed."""

    def __init__(self, app: ASGIApp, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind = limited_kind(scope["method"], scope["path"])
            if kind is not None:
                connection = HTTPConnection(scope)
                try:
                    await self.limits.take(kind, client_of(connection))
                except RateLimited as refused:
                    response = JSONResponse(refused.to_json(request_language(connection)),
                                            status_code=429,
                                            headers={"retry-after": str(refused.retry_after)})
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
