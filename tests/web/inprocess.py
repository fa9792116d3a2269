"""The web app served by uvicorn on loopback in a thread of the test process, so a test can
look into its hub (which matches are in memory) or replace one of its parts.

It is the same app and protocol classes as ``dicegames serve`` (:mod:`dicegames.web.server`),
with the per-client limits off; the requests still go through real sockets.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from dicegames.web.app import create_app
from dicegames.web.hub import Hub
from dicegames.web.limits import ClientLimits
from dicegames.web.sockets import ViewerProtocol
from web.server import Server

_T = TypeVar("_T")


class InProcessServer(Server):
    """A :class:`~web.server.Server` whose app runs in this process (``options``: more
    keyword arguments of :func:`~dicegames.web.app.create_app`)."""

    def __init__(self, db: Path, **options: Any) -> None:
        super().__init__(db)
        self.app = create_app(db, bot_delay=0.0, client_limits=ClientLimits.off(), **options)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def hub(self) -> Hub:
        """The app's hub (read it only: it belongs to the server's event loop)."""
        hub: Hub = self.app.state.hub
        return hub

    def start(self) -> InProcessServer:
        """Serve on a free loopback port until :meth:`stop`."""
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on",
                                ws=ViewerProtocol)
        self._server = uvicorn.Server(config)
        server = self._server

        async def serve() -> None:
            self._loop = asyncio.get_running_loop()
            await server.serve([sock])

        self._thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "the in-process server did not start"
            time.sleep(0.01)
        return self

    def run(self, work: Coroutine[Any, Any, _T]) -> _T:
        """Run ``work`` on the server's event loop (where the hub lives); its result."""
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(30)

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(10)
            self._server = self._thread = None

    def kill(self) -> None:
        """As :meth:`stop` (a thread cannot be killed)."""
        self.stop()
