"""The web app in the test process behind an in-process ASGI client (Starlette's
``TestClient``, over httpx), for the tests of the application rather than of the socket.

:class:`AppClient` speaks the same small dialect as :class:`~web.server.Server` (``call``,
``get``, ``post``, ``url``), so a test reads the same against either; websockets open with
:meth:`AppClient.connect`, whose :class:`Socket` mirrors ``websockets.sync.client``'s
``send``/``recv(timeout)``. No port, no process, no uvicorn: requests go straight into the
app (the same :func:`~dicegames.web.app.create_app` as ``dicegames serve`` on loopback,
with no bot pause and the per-client limits off unless asked for), whose event loop (the
hub's) runs in a thread of the test while the client is open, so bots keep playing between
requests. The analysis workers start only if a test asks for
a hint or a review (:mod:`dicegames.web.pool`).

What only a real process or socket shows stays with :class:`~web.server.Server` (see
``tests/web/conftest.py``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import anyio
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import Message

from dicegames.web.app import create_app
from dicegames.web.hub import Hub
from dicegames.web.limits import ClientLimits
from web.server import JsonCalls

_T = TypeVar("_T")

HOST = "127.0.0.1:8000"
"""The address the requests name (``Host``): a loopback one, as the real server's."""

CLIENT = ("127.0.0.1", 50000)
"""The address the app sees the requests come from."""


class Closed(Exception):
    """The server closed the websocket (``code`` and ``reason`` as it sent them)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"closed {code} {reason}".strip())
        self.code = code
        self.reason = reason


class Socket:
    """One open websocket of :meth:`AppClient.connect`."""

    def __init__(self, session: WebSocketTestSession) -> None:
        self.session = session

    def send(self, message: str | bytes) -> None:
        """Send one text (or binary) message."""
        if isinstance(message, bytes):
            self.session.send_bytes(message)
        else:
            self.session.send_text(message)

    def recv(self, timeout: float = 10.0) -> str:
        """The next text message the server sent, waiting at most ``timeout`` seconds.

        Raises:
            TimeoutError: nothing came in time.
            Closed: the server closed the socket.
        """
        message = self.session.portal.call(_receive_within, self.session, timeout)
        if message["type"] == "websocket.close":
            raise Closed(message.get("code", 1000), message.get("reason") or "")
        text: str = message["text"]
        return text

    def recv_json(self, timeout: float = 10.0) -> Any:
        """The next message, decoded from JSON."""
        return json.loads(self.recv(timeout))

    def close(self, code: int = 1000) -> None:
        """Leave (the app sees the client disconnect)."""
        self.session.close(code)


async def _receive_within(session: WebSocketTestSession, timeout: float) -> Message:
    """The session's next message from the app, within ``timeout`` seconds (the
    ``TestClient``'s own ``receive`` waits for ever)."""
    with anyio.fail_after(timeout):
        return await session._send_rx.receive()


class AppClient(JsonCalls):
    """The app over the store ``db`` (a SQLite file, or a ``postgresql://`` address),
    served in process while open (``with``, or :meth:`start` and :meth:`stop`), with
    ``analysis_workers`` worker processes for its hints and reviews (the server has
    :data:`~dicegames.web.pool.WORKERS`); ``options``: more keyword arguments of
    :func:`~dicegames.web.app.create_app`."""

    def __init__(self, db: Path | str, *, client: tuple[str, int] = CLIENT,
                 analysis_workers: int = 1, **options: Any) -> None:
        options.setdefault("bot_delay", 0.0)
        options.setdefault("client_limits", ClientLimits.off())
        options.setdefault("loopback_only", True)  # as `dicegames serve` on 127.0.0.1
        self.db = db
        self.url = f"http://{HOST}"
        self._client = client
        self._workers = analysis_workers
        self._options = options
        self._open = self._used = False
        self._make()

    def _make(self) -> None:
        """A fresh app and client (an app stopped once is not started again: its store and
        hub are closed, as a stopped server's)."""
        self.app = create_app(self.db, **self._options)
        self.hub.pool.size = self._workers  # one is enough for a test's hints: half the start
        self.http = TestClient(self.app, base_url=self.url, client=self._client,
                               raise_server_exceptions=False)

    @property
    def ws_url(self) -> str:
        """The websocket base address (as :class:`~web.server.Server`'s)."""
        return f"ws://{HOST}"

    @property
    def hub(self) -> Hub:
        """The app's hub (touch it only through :meth:`run`: it lives on the app's loop)."""
        hub: Hub = self.app.state.hub
        return hub

    def start(self) -> AppClient:
        """Start the app (its lifespan) and its event loop; after :meth:`stop`, a new app
        over the same database, as a restarted server."""
        if self._open:
            return self
        if self._used:
            self._make()
        self.http.__enter__()
        self._open = self._used = True
        return self

    def stop(self) -> None:
        """Stop the app as the server would (its lifespan's end); nothing when stopped."""
        if self._open:
            self._open = False
            self.http.__exit__(None, None, None)

    def kill(self) -> None:
        """As :meth:`stop` (nothing in this process can be killed)."""
        self.stop()

    def __enter__(self) -> AppClient:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def run(self, work: Awaitable[_T]) -> _T:
        """Await ``work`` (a coroutine) on the app's event loop (where the hub lives); its
        result."""
        portal = self.http.portal
        assert portal is not None, "the client is not open"

        async def call() -> _T:
            return await work

        return portal.call(call)

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """One HTTP request; returns the status and the decoded JSON answer."""
        data = raw if raw is not None else (
            None if body is None else json.dumps(body).encode())
        answer = self.http.request(method, path, content=data,
                                   headers={"content-type": "application/json",
                                            **(headers or {})})
        return answer.status_code, json.loads(answer.content or b"null")


    @contextmanager
    def connect(self, path: str, headers: dict[str, str] | None = None) -> Iterator[Socket]:
        """An open websocket to ``path`` (e.g. ``/ws/matches/ID?token=T``), closed after.

        Raises:
            starlette.websockets.WebSocketDisconnect: the app refused the socket (its
                ``code``).
        """
        with self.http.websocket_connect(self.ws_url + path,
                                         headers=dict(headers or {})) as session:
            yield Socket(session)
