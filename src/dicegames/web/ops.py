"""Operating the server: health, readiness, metrics, and a log line per request.

- ``GET /healthz``: liveness. ``200 {"status": "ok"}`` whenever the process answers at all
  (its event loop turns); nothing else is checked, so a busy database never gets a healthy
  process restarted.
- ``GET /readyz``: readiness. ``200 {"status": "ready"}`` when the store answers and its
  migrations are current (the store's ``ready()``), else ``503 {"status": "not_ready"}``,
  so a proxy or an orchestrator sends no traffic to it meanwhile. The reason is in the
  answer only for a client allowed to read the metrics (it may name hosts or files).
- ``GET /metrics``: the Prometheus text format (:mod:`.metrics`), for a client on loopback
  or in ``--metrics-allow`` (``403 forbidden`` otherwise); absent (404) with
  ``--metrics off``.

:class:`Observer` is ASGI middleware around the whole app: it times every HTTP request for
the latency histogram, labelled by the route's *template* (``/api/matches/{match_id}``:
never a raw path, which holds match ids; never a query, which holds seat tokens), counts
the open websockets, and logs one line per request and per websocket on the
``dicegames.access`` logger (:mod:`.logs`: no seat token in any line).

The client address is the connection's peer, or, for a request that came through a proxy
uvicorn trusts (``--forwarded-allow-ips``, loopback by default), the address the proxy
names in ``X-Forwarded-For``: so behind a proxy on the same machine that sets the header
(deploy/), an outside client is not mistaken for loopback. The proxy configurations in
``deploy/`` also refuse ``/metrics`` from outside, as a second guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dicegames.web.errors import ApiError
from dicegames.web.hub import Hub
from dicegames.web.logs import ACCESS, redact_query
from dicegames.web.metrics import (
    CONTENT_TYPE,
    SAMPLE_EVERY,
    Counts,
    Metrics,
    StoredCount,
    multiprocess_mode,
)
from dicegames.web.responses import JSONResponse

Network = IPv4Network | IPv6Network

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods named in the histogram's labels; any other is ``OTHER`` (a client chooses
the method: a label must not take any value a client sends)."""

UNMATCHED = "unmatched"
"""The route label of a request no route takes (answered 404)."""

access_log = logging.getLogger(ACCESS)


class Observable(Protocol):
    """What operating needs of a store (both backends provide it)."""

    @property
    def errors(self) -> int:
        """Calls that failed since the store was opened (each raised ``StoreBusy``)."""
        ...

    async def ready(self) -> str | None:
        """None when the store answers and its migrations are current, else why not."""
        ...

    @property
    def created(self) -> int:
        """Matches stored through this store since it was opened."""
        ...

    async def count_matches(self) -> int:
        """How many matches are stored (asked at most every
        :data:`~.metrics.RECOUNT_EVERY` seconds: :class:`~.metrics.StoredCount`)."""
        ...


@dataclass(frozen=True, slots=True)
class OpsOptions:
    """The operating options of a server (``dicegames serve --metrics``,
    ``--metrics-allow``)."""

    metrics: bool = True
    """Serve ``/metrics`` (False: the route does not exist)."""
    metrics_allow: tuple[Network, ...] = ()
    """Networks besides loopback that may read ``/metrics`` (and the reason of ``/readyz``)."""

    @staticmethod
    def parse_networks(text: str) -> tuple[Network, ...]:
        """``CIDR[,CIDR...]`` (``10.0.0.0/8,192.168.1.7``; a bare address is one host).

        Raises:
            ValueError: one of them is not an address or network (the message names it).
        """
        networks = []
        for part in (p.strip() for p in text.split(",")):
            try:
                networks.append(ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"{part!r} is not an address or a network in CIDR form "
                                 "(e.g. 10.0.0.0/8 or 192.168.1.7)") from None
        return tuple(networks)


def may_read(client: str | None, allowed: Sequence[Network]) -> bool:
    """True when ``client`` (an address) is loopback or in one of ``allowed``."""
    if client is None:
        return False
    try:
        address = ip_address(client.partition("%")[0])
    except ValueError:
        return False
    if address.is_loopback:
        return True
    mapped = address.ipv4_mapped if isinstance(address, IPv6Address) else None
    if mapped is not None:  # ::ffff:10.0.0.7 is 10.0.0.7
        address = mapped
    return any(address in network for network in allowed)


class OpsRoutes:
    """The health, readiness and metrics endpoints of one app, and its metrics."""

    def __init__(self, store: Observable, counts: Counts, options: OpsOptions) -> None:
        self.store = store
        self.counts = counts
        self.options = options
        self.metrics = Metrics()
        self.stored = StoredCount(store)

    def routes(self) -> list[BaseRoute]:
        """``/healthz``, ``/readyz`` and (unless off) ``/metrics``."""
        found: list[BaseRoute] = [Route("/healthz", self.healthz, methods=["GET", "HEAD"]),
                                  Route("/readyz", self.readyz, methods=["GET", "HEAD"])]
        if self.options.metrics:
            found.append(Route("/metrics", self.scrape, methods=["GET"]))
        return found

    def _trusted(self, request: Request) -> bool:
        client = request.client.host if request.client is not None else None
        return may_read(client, self.options.metrics_allow)

    async def healthz(self, request: Request) -> Response:
        """Liveness: the process answers."""
        return JSONResponse({"status": "ok"}, headers={"cache-control": "no-store"})

    async def readyz(self, request: Request) -> Response:
        """Readiness: the store answers and its migrations are current."""
        try:
            reason = await self.store.ready()
        except Exception as error:  # any failure to ask is a reason not to be ready
            reason = f"the store cannot be asked ({type(error).__name__}: {error})"
        headers = {"cache-control": "no-store"}
        if reason is None:
            return JSONResponse({"status": "ready"}, headers=headers)
        body = {"status": "not_ready"}
        if self._trusted(request):
            body["reason"] = reason
        return JSONResponse(body, status_code=503, headers=headers)

    async def scrape(self, request: Request) -> Response:
        """The metrics, for an allowed client."""
        if not self._trusted(request):
            raise ApiError(403, "forbidden", "the metrics are readable from loopback only, "
                           "or from the networks of dicegames serve --metrics-allow")
        await self.sample(stored=True)
        return Response(self.metrics.render(), media_type=CONTENT_TYPE,
                        headers={"cache-control": "no-store"})

    async def sample(self, *, stored: bool = False) -> None:
        """Copy the app's counts into the metrics; ``stored``: the stored matches too (a
        scrape does; a failure leaves the last count)."""
        self.metrics.sample(self.counts)
        if stored:
            with contextlib.suppress(Exception):  # a store error is counted by the store
                self.metrics.matches_stored.set(await self.stored.value())

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """For the app's lifespan: with several processes, sample every
        :data:`~.metrics.SAMPLE_EVERY` seconds (a scrape reaching another process reads this
        one's files); at the end, this process's live gauges leave the files."""
        sampler = None
        if multiprocess_mode():
            sampler = asyncio.get_running_loop().create_task(self._sample_forever())
        try:
            yield
        finally:
            if sampler is not None:
                sampler.cancel()
            self.metrics.close()

    async def _sample_forever(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.sample(stored=False)
            await asyncio.sleep(SAMPLE_EVERY)


def route_template(routes: Sequence[BaseRoute], scope: Scope) -> str:
    """The template of the route that takes ``scope`` (``/m/{match_id}``; a mount's prefix,
    ``/static``), or :data:`UNMATCHED`: the route the router chose (``scope["route"]``),
    else the first that matches (a request refused before routing, by a middleware)."""
    chosen = scope.get("route")
    if isinstance(chosen, Route | WebSocketRoute | Mount):
        return chosen.path or "/"
    partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.NONE or not isinstance(route, Route | WebSocketRoute | Mount):
            continue
        if match is Match.FULL:
            return route.path or "/"
        partial = partial or route.path or "/"  # the path, not the method
    return partial or UNMATCHED


class Observer:
    """ASGI middleware (outermost): times each HTTP request into the histogram, counts the
    open websockets, and logs a line per request and per websocket (see the module
    docstring)."""

    def __init__(self, app: ASGIApp, ops: OpsRoutes, routes: Sequence[BaseRoute]) -> None:
        self.app = app
        self.ops = ops
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        began = time.perf_counter()
        status = 500

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            seconds = time.perf_counter() - began
            method = scope["method"] if scope["method"] in METHODS else "OTHER"
            route = route_template(self.routes, scope)
            self.ops.metrics.observe_request(method, route, status, seconds)
            if access_log.isEnabledFor(logging.INFO):
                access_log.info("%s %s %d", method, route, status,
                                extra=request_fields(scope, method, route, status, seconds))

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        began = time.perf_counter()
        gauge = self.ops.metrics.websockets
        opened = False
        close_code: int | None = None

        async def watched(message: Message) -> None:
            nonlocal opened, close_code
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                gauge.inc()
            elif message["type"] == "websocket.close":
                close_code = int(message.get("code", 1000))
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if opened:
                gauge.dec()
            if access_log.isEnabledFor(logging.INFO):
                route = route_template(self.routes, scope)
                fields = request_fields(scope, "WS", route, 101 if opened else 403,
                                         time.perf_counter() - began)
                fields["close_code"] = close_code
                access_log.info("WS %s %s", route, "closed" if opened else "refused",
                                extra=fields)


def request_fields(scope: Scope, method: str, route: str, status: int,
                    seconds: float) -> dict[str, Any]:
    """A request line's structured fields: no header, the query's tokens redacted."""
    client = scope.get("client")
    query = scope.get("query_string", b"").decode("latin-1")
    return {"method": method, "route": route, "path": scope.get("path", ""),
            "query": redact_query(query), "status": status,
            "duration_ms": round(seconds * 1000, 3),
            "client": client[0] if client else None}


class HubCounts:
    """The :class:`~.metrics.Counts` of an app: its hub's matches, moves and analysis, its
    store's and cluster's errors."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def live_matches(self) -> int:
        """Matches in memory."""
        return len(self.hub.resident.matches())

    def moves_applied(self) -> int:
        """Moves committed by this process."""
        return self.hub.moves_applied

    def store_errors(self) -> int:
        """Store calls that failed, and statements of the cluster's own connections
        (leases, heartbeat, listening: :attr:`~.cluster.Cluster.errors`)."""
        store: Observable = self.hub.store
        cluster = self.hub.cluster
        return store.errors + (cluster.errors if cluster is not None else 0)

    def analysis_waiting(self) -> tuple[int, int]:
        """Hints and review slices waiting for a worker."""
        return self.hub.pool.waiting()

    def reviews_active(self) -> int:
        """Reviews queued or running."""
        return self.hub.reviews.active()
