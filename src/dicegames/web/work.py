"""Expensive work (hints, reviews) kept within bounds: per client, in time, on departure.

* **Per client**: each client (its remote address) may have :data:`PER_CLIENT` hints and
  reviews in flight; one more is refused with 429 ``too_busy`` and a ``Retry-After``
  header (:class:`ClientLimit`). Websocket hints count with the client's HTTP ones.
* **In time**: a hint answers within :data:`HINT_BUDGET` seconds of its arrival, waiting
  for a worker included (:mod:`.pool`, :mod:`dicegames.analysis.anytime`); when every
  worker stays busy that long it is refused with 503 ``busy`` and ``Retry-After``.
* **On departure**: :func:`unless_gone` runs a request's work while watching its
  connection; when the client disconnects, the work is cancelled (its worker's job is
  interrupted) instead of going on for nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterator
from typing import TypeVar

from starlette.requests import Request

from dicegames.web.domain import AnalysisBusy, TooBusy

PER_CLIENT = 2
"""Hints and reviews one client may have in flight at once."""

RETRY_AFTER = 2
"""Seconds a refused client is told to wait (``Retry-After``)."""

HINT_BUDGET = 2.0
"""Seconds within which every hint is answered (its work stops a little before)."""

HINT_MARGIN = 0.25
"""Seconds of the budget kept for sending the answer and for the worker's reply."""

HINT_SLICE = 0.6
"""Seconds of worker time one hint may use at most, so that two workers answer six
simultaneous hints (three clients at their limit) within the budget."""

_T = TypeVar("_T")


class ClientLimit:
    """Counts each client's work in flight (see the module docstring)."""

    def __init__(self, limit: int = PER_CLIENT) -> None:
        self.limit = limit
        self._busy: dict[str, int] = {}

    def in_flight(self, client: str) -> int:
        """The client's work in flight now."""
        return self._busy.get(client, 0)

    def acquire(self, client: str, what: str) -> None:
        """Count one more piece of work (``what``, for the message) for ``client``.

        Raises:
            TooBusy: (429 ``too_busy`` with ``Retry-After``) the client already has
                :attr:`limit` in flight.
        """
        if self._busy.get(client, 0) >= self.limit:
            raise TooBusy(f"too many hints and reviews at once: at most {self.limit} per "
                          f"client may be in progress; this {what} was not started, ask "
                          f"again in {RETRY_AFTER} s", retry_after=RETRY_AFTER)
        self._busy[client] = self._busy.get(client, 0) + 1

    def release(self, client: str) -> None:
        """The client's piece of work ended."""
        left = self._busy.get(client, 0) - 1
        if left > 0:
            self._busy[client] = left
        else:
            self._busy.pop(client, None)

    @contextlib.contextmanager
    def slot(self, client: str, what: str) -> Iterator[None]:
        """Hold one of the client's slots for the block (429 when none is free)."""
        self.acquire(client, what)
        try:
            yield
        finally:
            self.release(client)


def busy_error() -> AnalysisBusy:
    """503 ``busy``: every analysis worker stayed occupied for the whole budget."""
    return AnalysisBusy(f"every analysis worker is busy: ask again in {RETRY_AFTER} s",
                        retry_after=RETRY_AFTER)


async def unless_gone(request: Request, work: Awaitable[_T]) -> _T | None:
    """``await work``, unless the client disconnects first: then the work is cancelled
    (its analysis job interrupted) and None is returned (nobody reads an answer).

    Only for requests whose body has been read (or that have none): the watch reads the
    connection's next message, which is the disconnection.
    """
    task = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait((task, watch), return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # the request itself is cancelled (the server stops)
        task.cancel()
        raise
    finally:
        watch.cancel()
    if not task.done():  # the client left
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        return None
    return task.result()


async def _disconnected(request: Request) -> None:
    """Return once the client has disconnected."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
