"""The server's analysis pool: a few worker processes for hints and reviews.

Analysis (a hint's rollouts, a review's decisions) is CPU work in pure Python. In a thread
of the server it would hold the interpreter lock the event loop and the bots' threads need,
and a long one could neither be stopped nor keep the process from exiting. So it runs in
:data:`WORKERS` separate processes, never in the threads that roll dice and move bots:

* **bounded**: a job waits for an idle worker until its deadline, then is refused
  (:class:`Busy`); urgent jobs (hints, which a person waits for) go before the others
  (review slices), first come, first served within each kind;
* **cancellable**: when the job's caller is cancelled (its client left, the server stops)
  or the job overruns its deadline by :data:`GRACE`, the worker gets ``SIGUSR1``, which
  raises :class:`Interrupted` in the middle of the job; a worker that still does not
  answer within :data:`KILL_AFTER` is killed and replaced;
* **started on first need**: the workers start with the first job (a hint, a review's
  first slice), not with the server, so a server nobody asks for analysis never pays their
  start (about 1.7 CPU-seconds and 300 MB); :meth:`AnalysisPool.ready` lets a caller wait
  for that warm-up before its own clock starts;
* **tied to the server**: workers are started with ``spawn`` (no copy of the server's
  sockets or threads), ignore Ctrl-C (the server stops them), die with ``SIGKILL`` when the
  server process dies (``PR_SET_PDEATHSIG``), and leave when their pipe closes.

Jobs are module-level functions called as ``func(*args, deadline=deadline)`` in the worker;
their arguments and results are pickled through the worker's pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from dicegames.core.workers import die_with_parent

WORKERS = 2
"""Analysis worker processes (the bots and the event loop keep the server's own cores)."""

GRACE = 0.5
"""Seconds a job may overrun its deadline before it is interrupted."""

WARM_UP = 30.0
"""Seconds a new worker may take to be ready (imports, tables) before it is used anyway."""

KILL_AFTER = 1.0
"""Seconds an interrupted worker has to answer before it is killed and replaced."""

log = logging.getLogger("dicegames.web")


class Busy(Exception):
    """No worker became free before the job's deadline."""


class JobFailed(Exception):
    """The job raised an error in the worker (its type and message are the text)."""


class Interrupted(BaseException):
    """Raised in a worker's job by ``SIGUSR1``: its caller no longer wants the answer."""


class AnalysisPool:
    """:data:`WORKERS` worker processes and the queue of the jobs waiting for them."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.size = workers
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._waiting: list[tuple[int, int, asyncio.Future[_Worker]]] = []
        self._order = itertools.count()
        self._started = False
        self._all: set[_Worker] = set()
        self._readers = ThreadPoolExecutor(2 * workers + 2,
                                           thread_name_prefix="dicegames-analysis-pipe")
        self._closed = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._joined = asyncio.Event()
        """Set once a first worker has joined the pool (ready, or past its warm-up)."""

    @property
    def started(self) -> bool:
        """True once the workers were started (by :meth:`start` or a first job)."""
        return self._started

    def start(self) -> None:
        """Start the workers (nothing when they are started or the pool is closed); each
        joins the pool once it is ready (its imports and tables loaded, at most
        :data:`WARM_UP` seconds), so the server answers meanwhile and a job asked for before
        then waits for the first worker ready."""
        if self._started or self._closed:
            return
        self._started = True
        for _ in range(self.size):
            task = asyncio.get_running_loop().create_task(self._ready(self._spawn()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _ready(self, worker: _Worker) -> None:
        """Give ``worker`` to the pool once it says it is ready."""
        with contextlib.suppress(TimeoutError, EOFError, OSError):
            await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(
                self._readers, worker.connection.recv), WARM_UP)
        if not self._closed:
            self._give_back(worker)

    async def ready(self) -> bool:
        """Start the workers if they are not, and wait until a first one has joined the pool
        (at most :data:`WARM_UP` seconds), so a job with a short deadline asked for first
        does not spend it on the warm-up. True when it had to wait (False at once when a
        worker joined before, or the pool is closed)."""
        self.start()
        if self._closed or self._joined.is_set():
            return False
        await self._joined.wait()
        return True

    @property
    def idle(self) -> int:
        """Workers waiting for a job now."""
        return len(self._idle)

    def waiting(self) -> tuple[int, int]:
        """Jobs waiting for a worker now: urgent ones (hints) and the others (review
        slices)."""
        urgent = sum(1 for rank, _, waiter in self._waiting if rank == 0 and not waiter.done())
        others = sum(1 for rank, _, waiter in self._waiting if rank != 0 and not waiter.done())
        return urgent, others

    def _give_back(self, worker: _Worker) -> None:
        """``worker`` is free: to the first waiting job of the most urgent kind, else idle."""
        self._joined.set()
        while self._waiting:
            _, _, waiter = heapq.heappop(self._waiting)
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    async def _take(self, urgent: bool, timeout: float) -> _Worker:
        """An idle worker, waiting at most ``timeout`` seconds for one."""
        if self._idle:
            return self._idle.pop()
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if urgent else 1, next(self._order), waiter))
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except BaseException:
            if waiter.done() and not waiter.cancelled():  # given to us as we gave up
                self._give_back(waiter.result())
            waiter.cancel()
            raise

    def _spawn(self) -> _Worker:
        worker = _Worker(self._context)
        self._all.add(worker)
        return worker

    async def run(self, func: Callable[..., Any], *args: Any, deadline: float,
                  urgent: bool = False) -> Any:
        """``func(*args, deadline=deadline)`` in a worker, ``deadline`` on the monotonic
        clock (shared by every process of the machine); ``urgent`` jobs get the next free
        worker before the others. The first job starts the workers (:meth:`start`).

        Raises:
            Busy: no worker was free before ``deadline``.
            JobFailed: the job raised an error.
            TimeoutError: the job ran past ``deadline`` plus :data:`GRACE` (it is stopped).
        """
        if self._closed:
            raise Busy("the analysis workers are stopped")
        self.start()
        try:
            worker = await self._take(urgent, max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            raise Busy("every analysis worker stayed busy until the deadline") from None
        answer: Future[Any] | None = None
        try:
            worker.connection.send((func, args, deadline))
            answer = self._readers.submit(worker.connection.recv)
            status, value = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(answer)),
                deadline + GRACE - time.monotonic())
        except BaseException:  # cancelled, too late, or the worker died: stop it
            self._recover(worker, answer)
            raise
        self._give_back(worker)
        if status == "error":
            raise JobFailed(value)
        if status != "ok":
            raise JobFailed(f"the job was {status}")
        return value

    def _recover(self, worker: _Worker, answer: Future[Any] | None) -> None:
        """Interrupt ``worker``'s job and give the worker back once it answers (or kill it
        and start another one)."""
        worker.interrupt()
        task = asyncio.get_running_loop().create_task(self._await_recovery(worker, answer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _await_recovery(self, worker: _Worker, answer: Future[Any] | None) -> None:
        ok = False
        if answer is not None and not self._closed:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.wrap_future(answer), KILL_AFTER)
                ok = True
        if ok and not self._closed:
            self._give_back(worker)
            return
        worker.kill()
        self._all.discard(worker)
        if not self._closed:
            log.info("an analysis worker did not stop when asked: replaced")
            fresh = self._spawn()
            with contextlib.suppress(BaseException):
                await asyncio.get_running_loop().run_in_executor(
                    self._readers, fresh.connection.recv)  # ready
            self._give_back(fresh)

    def close(self) -> None:
        """Kill every worker now (the server is stopping: their jobs are abandoned)."""
        self._closed = True
        self._joined.set()  # nobody waits for a worker that will never come
        for task in self._tasks:
            task.cancel()
        for _, _, waiter in self._waiting:
            waiter.cancel()
        for worker in self._all:
            worker.kill()
        self._all.clear()
        self._readers.shutdown(wait=False, cancel_futures=True)


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any) -> None:
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve, args=(child, os.getpid()), name="dicegames-analysis", daemon=True)
        self.process.start()
        child.close()

    def interrupt(self) -> None:
        """Ask the running job to stop (``SIGUSR1``)."""
        if self.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGUSR1)

    def kill(self) -> None:
        """Kill the process and close the pipe (a reader blocked on it gets ``EOFError``)."""
        if self.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
        self.connection.close()
        with contextlib.suppress(Exception):
            self.process.join(0.05)


# ---------------------------------------------------------------------- in the worker

_job = {"running": False}


def _on_interrupt(signum: int, frame: object) -> None:
    if _job["running"]:
        _job["running"] = False
        raise Interrupted("the job's caller left")


def _warm_up() -> None:
    """Load every game and ask each one's hint bot once (tables, models, the default
    boards' planners), so the first hints do not pay for it."""
    import random

    from dicegames.bots import adviser
    from dicegames.core.chance import sample
    from dicegames.core.registry import games, make

    for spec in games():
        with contextlib.suppress(Exception):
            game = make(spec.id)
            state = game.new_state()
            rng = random.Random(0)
            while state.is_chance:
                state = state.apply(sample(state.chance_outcomes(), rng))
            if not state.is_terminal:
                seat = state.current_players[0]
                adviser(game, rng)[1].choose(state, seat)


def _serve(connection: Connection, parent: int) -> None:
    """The worker's loop: run each job received, send back ``(status, value)``."""
    die_with_parent(parent)  # kernel signal and a watching thread (core.workers)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGUSR1, _on_interrupt)
    from dicegames.analysis.anytime import enable_timer

    enable_timer()
    _warm_up()
    with contextlib.suppress(OSError, ValueError):
        connection.send(("ready", None))
    while True:
        try:
            func, args, deadline = connection.recv()
        except (EOFError, OSError):
            return
        reply: tuple[str, Any]
        try:
            try:
                _job["running"] = True
                reply = ("ok", func(*args, deadline=deadline))
            finally:
                _job["running"] = False
        except Interrupted:
            reply = ("cancelled", None)
        except BaseException as error:  # reported to the server, which goes on
            reply = ("error", f"{type(error).__name__}: {error}")
        try:
            connection.send(reply)
        except (OSError, ValueError):
            return
