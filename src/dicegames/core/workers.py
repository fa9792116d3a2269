"""Worker processes that end when the process that started them ends.

A worker of a process pool normally outlives a parent killed with SIGKILL (a timeout, the
out-of-memory killer): adopted by init, it plays on at full speed until its share of the
work is done, or waits forever for more. Every pool dicegames starts (``simulate``,
``analyse``, ``review`` with ``--jobs``, and any pool a server adds) is made by
:func:`process_pool`, or passes :func:`die_with_parent` as its ``initializer``, so that each
worker ends within a moment of its parent:

* on Linux the kernel sends the worker SIGKILL when its parent dies
  (``prctl(PR_SET_PDEATHSIG)``). That works whatever the worker is doing, even inside
  compiled code that holds the interpreter lock;
* everywhere, a daemon thread in the worker waits on the pipe that ``multiprocessing``
  keeps between each worker and its parent (the parent holds its other end, so the pipe
  ends when the parent does) and ends the worker then. Outside ``multiprocessing`` it
  polls the parent's process id instead;
* and once both are in place the worker checks that its parent is still the process that
  started the pool, because the parent may have died before the worker got that far.

The Linux signal fires when the *thread* that started the worker ends, not only the
process. ``ProcessPoolExecutor`` with the ``spawn`` method starts workers from the thread
that calls ``submit``/``map``, so submit work from a thread that lives as long as the pool
(the main thread, or the thread of an asyncio event loop: ``loop.run_in_executor`` calls
``submit`` there), never from a short-lived thread. Not for the ``forkserver`` method,
whose workers are children of the fork server rather than of the pool's process.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import wait

PR_SET_PDEATHSIG = 1
"""The ``prctl`` option that asks for a signal when the parent dies (``<linux/prctl.h>``)."""

POLL_S = 0.5
"""How often a worker without a parent pipe checks whether its parent is still there."""


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that end when this process ends.

    Spawned, not forked: safe in threaded programs (the web server) and the same on every
    platform. Each worker runs :func:`die_with_parent` first.
    """
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=die_with_parent, initargs=(os.getpid(),))


def die_with_parent(parent: int) -> None:
    """End this worker process when process ``parent`` (which started it) ends.

    Meant as the ``initializer`` of a pool, with ``initargs=(os.getpid(),)`` evaluated in
    the parent; see the module for how, and for the thread and start-method caveats.
    """
    parent_death_signal(signal.SIGKILL)
    watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the lines above took effect
        os._exit(1)


def parent_death_signal(signal_number: int) -> bool:
    """Ask Linux for ``signal_number`` when the parent dies; False where that is unknown."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                      ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return bool(prctl(PR_SET_PDEATHSIG, signal_number, 0, 0, 0) == 0)


def watch_parent(parent: int) -> None:
    """Start a daemon thread that ends this process once ``parent`` is gone."""
    process = multiprocessing.parent_process()
    sentinel = process.sentinel if process is not None and process.pid == parent else None

    def watch() -> None:
        if sentinel is not None:
            wait([sentinel])  # readable (at its end) once the parent is gone
        else:
            while os.getppid() == parent:
                time.sleep(POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="dicegames-parent-watch", daemon=True).start()
