"""Websocket connections that cannot pin memory: pinged, bounded, and really closed.

uvicorn's websocket protocol is kept, with three changes (:class:`ViewerProtocol`, given to
uvicorn as its ``ws`` protocol class):

- **Pings.** Every ``ping_interval`` seconds the server pings; a viewer whose pong has not
  come ``ping_timeout`` seconds later is closed (uvicorn's keepalive, configured by
  ``dicegames serve --ping-interval/--ping-timeout``). A viewer that stops reading cannot
  answer, so it is closed within ``ping_interval + ping_timeout + CLOSE_GRACE`` seconds
  (27 by default) even when nothing is pushed to it.
- **Bounded queues.** The transport's write buffer pauses the sender past
  :data:`WRITE_BUFFER` bytes (states coalesce meanwhile, see :mod:`.app`), and the kernel's
  send buffer of the socket is :data:`SEND_BUFFER` bytes (doubled by Linux) instead of the
  several megabytes its auto-tuning grants a fast loopback peer.
- **Closing means closed.** asyncio's ``transport.close()`` waits for the buffered data to
  be sent, which never happens when the peer does not read: the connection, its buffers and
  the kernel's send queue stayed forever. Here a close waits at most :data:`CLOSE_GRACE`
  seconds for the data (and the kernel's queue) to drain, then resets the connection
  (``SO_LINGER`` 0: the kernel drops what it still holds and sends RST).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import socket
import struct
import termios
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PING_INTERVAL = 10.0
"""Seconds between the server's pings to each websocket."""

PING_TIMEOUT = 15.0
"""Seconds a websocket has to answer a ping before it is closed."""

CLOSE_GRACE = 2.0
"""Seconds a closing connection may take to hand over its last data before it is reset."""

WRITE_BUFFER = 64 * 1024
"""Bytes the transport buffers for a websocket before its sender waits (high-water mark)."""

SEND_BUFFER = 64 * 1024
"""The kernel send buffer of a websocket's socket (``SO_SNDBUF``; Linux doubles it)."""

_POLL = 0.05
"""Seconds between two looks at a closing connection's queues."""


def _unsent(sock: Any) -> int:
    """Bytes the kernel still holds to send on ``sock`` (Linux ``SIOCOUTQ``; 0 elsewhere)."""
    try:
        answer = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, struct.pack("i", 0))
    except (OSError, ValueError, AttributeError):
        return 0
    return int(struct.unpack("i", answer)[0])


def reset(transport: asyncio.Transport) -> None:
    """Close ``transport`` at once, dropping whatever is queued (the peer gets RST)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError, ValueError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


class _ClosingTransport:
    """A transport whose ``close()`` ends the connection within :data:`CLOSE_GRACE`
    seconds whatever the peer does (see the module docstring); the rest is the transport's."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._deadline: float | None = None
        self.lost = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def is_closing(self) -> bool:
        return self._deadline is not None or self._transport.is_closing()

    def close(self) -> None:
        if self._deadline is None:
            self._deadline = self._loop.time() + CLOSE_GRACE
            self._finish()

    def _finish(self) -> None:
        transport = self._transport
        if self.lost or self._deadline is None:
            return
        if transport.get_write_buffer_size() == 0 and not _unsent(
                transport.get_extra_info("socket")):
            transport.close()  # everything handed over: the ordinary close (FIN)
        elif self._loop.time() >= self._deadline:
            reset(transport)
        else:
            self._loop.call_later(_POLL, self._finish)


class ViewerProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with bounded buffers and closes that end the connection
    (see the module docstring)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.set_write_buffer_limits(high=WRITE_BUFFER)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self._closing = _ClosingTransport(transport, self.loop)
        super().connection_made(self._closing)  # type: ignore[arg-type]

    def connection_lost(self, exc: Exception | None) -> None:
        self._closing.lost = True
        super().connection_lost(exc)
