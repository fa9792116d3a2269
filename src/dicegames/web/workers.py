"""``dicegames serve --workers N``: N server processes sharing one listening socket.

The supervisor (the ``serve`` command's own process) binds and listens on the port, prints
the address, and starts N worker processes (``multiprocessing``'s ``spawn``, the listening
sockets handed over), each a whole server (:func:`dicegames.web.app.create_app` under
uvicorn) accepting connections from the same socket: the kernel hands each new connection
to one of them. They share the matches through the PostgreSQL database
(:mod:`dicegames.web.cluster`), so SQLite, which serves one process, is refused with
:data:`NEEDS_POSTGRES` when N > 1.

A worker that dies (a crash, ``kill -9``) is started again after :data:`RESTART_PAUSE`
seconds; its matches are taken over by the other workers meanwhile (their leases expire).
The supervisor says so on the ``dicegames.web.workers`` logger, at WARNING, with the
fields ``worker`` and ``exit_code``: a JSON object like every other line with
``--log-format json`` (:mod:`.logs`).
``SIGTERM`` or ``SIGINT`` to the supervisor stops every worker (``SIGTERM``, then
``SIGKILL`` after :data:`STOP_WAIT` seconds); a worker also dies with its supervisor
(``PR_SET_PDEATHSIG``).

Each worker has ``DICEGAMES_WORKER`` set to its number (0 to N-1) and, unless the
environment already names one, ``PROMETHEUS_MULTIPROC_DIR`` set to a fresh folder the
supervisor removes at the end, so that the metrics (``prometheus_client``'s multiprocess
mode) of one scrape sum every worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

MAX_WORKERS = 64
"""The most worker processes ``--workers`` takes."""

RESTART_PAUSE = 0.5
"""Seconds before a worker that died is started again."""

STOP_WAIT = 5.0
"""Seconds the workers have to stop after ``SIGTERM`` before they are killed."""

NEEDS_POSTGRES = ("--workers N (N > 1) needs a PostgreSQL database (--db postgresql://...): "
                  "a SQLite file is served by one process")
"""The refusal of several workers on SQLite."""

_PR_SET_PDEATHSIG = 1

log = logging.getLogger("dicegames.web.workers")


def _die_with_parent() -> None:
    """Ask Linux to send this process SIGTERM when its parent dies (no-op elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _run_worker(number: int, parent: int, run: Callable[[list[socket.socket]], None],
                sockets: list[socket.socket]) -> None:
    """A worker's body: die with the supervisor, then serve on the handed-over sockets."""
    _die_with_parent()
    if os.getppid() != parent:  # the supervisor died before the line above
        return
    os.environ["DICEGAMES_WORKER"] = str(number)
    run(sockets)


class Supervisor:
    """Starts, watches and stops the worker processes (see the module docstring)."""

    def __init__(self, count: int, run: Callable[[list[socket.socket]], None],
                 sockets: list[socket.socket]) -> None:
        self.count = count
        self.run = run
        self.sockets = sockets
        self._context = multiprocessing.get_context("spawn")
        self._workers: dict[int, BaseProcess] = {}
        self._stopping = False
        self._metrics_dir: str | None = None

    def _start(self, number: int) -> None:
        worker = self._context.Process(
            target=_run_worker, args=(number, os.getpid(), self.run, self.sockets),
            name=f"dicegames-worker-{number}", daemon=False)
        worker.start()
        self._workers[number] = worker

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self._stopping = True

    def serve(self) -> None:
        """Run the workers until ``SIGTERM``/``SIGINT``, restarting any that dies."""
        if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
            self._metrics_dir = tempfile.mkdtemp(prefix="dicegames-metrics-")
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = self._metrics_dir
        previous = {sig: signal.signal(sig, self._stop)
                    for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            for number in range(self.count):
                self._start(number)
            while not self._stopping:
                sentinels: list[Any] = [w.sentinel for w in self._workers.values()]
                wait(sentinels, timeout=0.2)
                for number, worker in list(self._workers.items()):
                    if not worker.is_alive() and not self._stopping:
                        log.warning("worker %d ended (exit code %s); starting it again",
                                    number, worker.exitcode,
                                    extra={"worker": number, "exit_code": worker.exitcode})
                        time.sleep(RESTART_PAUSE)
                        self._start(number)
        finally:
            self._shutdown()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            if self._metrics_dir is not None:
                shutil.rmtree(self._metrics_dir, ignore_errors=True)

    def _shutdown(self) -> None:
        for worker in self._workers.values():
            if worker.is_alive() and worker.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        for worker in self._workers.values():
            worker.join(max(0.0, deadline - time.monotonic()))
            if worker.is_alive():
                worker.kill()
                worker.join(1.0)
