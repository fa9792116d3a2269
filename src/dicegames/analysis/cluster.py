"""Where the work of an analysis runs: here, in local processes, or on a Dask cluster.

``simulate``, ``analyse`` and ``review`` cut their work into tasks of plain data (blocks of
seeded games, records to review) and a top-level function that does one task. This module
maps such a function over the tasks and gives the results back **in task order**, whoever
ran them, so the totals are added in the same order and the figures agree to the last bit:

* ``jobs=1`` (the default): one after the other in this process;
* ``jobs=N``: ``N`` spawned worker processes on this machine (``jobs=0``: one per CPU),
  which end with this process (:mod:`dicegames.core.workers`);
* ``scheduler="tcp://host:8786"``: the workers of an existing Dask distributed cluster
  (``pip install 'dicegames[analysis]'`` here and on every worker). Consecutive tasks are
  batched so one Dask task holds thousands of games, not one: the scheduler's overhead per
  task (about a millisecond) then disappears in the work.

Starting a cluster of several machines is described in ``docs/analysis.md``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from dicegames.core.errors import DiceGamesError, OptionError

T = TypeVar("T")
R = TypeVar("R")

EXTRA_HINT = "pip install 'dicegames[analysis]'"
"""What to install for charts and Dask."""

CONNECT_TIMEOUT_S = 15
"""Seconds to wait for a Dask scheduler before giving up with a clear message."""


class ClusterError(DiceGamesError, RuntimeError):
    """The Dask cluster could not be reached, or a task failed on it."""


def require_dask() -> Any:
    """The ``distributed`` module, or an :class:`OptionError` naming the extra to install."""
    try:
        import distributed
    except ImportError:
        raise OptionError(f"--scheduler runs on a Dask cluster, which needs the analysis "
                          f"extra: {EXTRA_HINT}") from None
    return distributed


def check_jobs(jobs: int) -> int:
    """The number of worker processes ``jobs`` asks for (0 = one per CPU).

    Raises:
        OptionError: ``jobs`` is negative or not a whole number.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"jobs must be a whole number of processes (0 = one per CPU), "
                          f"not {jobs!r}")
    return (os.cpu_count() or 1) if jobs == 0 else jobs


def run_batch(function: Callable[[T], R], tasks: Sequence[T]) -> list[R]:
    """Run ``function`` over consecutive ``tasks`` on one worker (one Dask task)."""
    return [function(task) for task in tasks]


def batches(count: int, per_batch: int) -> list[range]:
    """``range(count)`` cut into consecutive ranges of at most ``per_batch`` items."""
    per_batch = max(1, per_batch)
    return [range(start, min(count, start + per_batch)) for start in range(0, count, per_batch)]


def dask_map(function: Callable[[T], R], tasks: Sequence[T], scheduler: str,
             per_batch: int = 1, timeout: float = CONNECT_TIMEOUT_S) -> Iterator[R]:
    """``function`` over ``tasks`` on the Dask cluster at ``scheduler``, results in order.

    ``per_batch`` consecutive tasks form one Dask task. ``function`` must be importable on
    the workers (a module-level function of an installed package).

    Raises:
        OptionError: Dask is not installed.
        ClusterError: the scheduler does not answer, or a task failed on a worker.
    """
    distributed = require_dask()
    try:
        client = distributed.Client(scheduler, timeout=timeout,
                                    set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} ({error}); "
                           f"start one with `dask scheduler` and workers with `dask worker "
                           f"{scheduler}`") from None
    try:
        groups = [[tasks[i] for i in group] for group in batches(len(tasks), per_batch)]
        futures = client.map(run_batch, [function] * len(groups), groups, pure=False)
        for future in futures:
            try:
                results = future.result()
            except DiceGamesError:
                raise
            except Exception as error:  # a worker's failure, carried back by Dask
                raise ClusterError(f"a task failed on the Dask cluster: {error!r}") from None
            yield from results
    finally:
        client.close()


def local_map(function: Callable[[T], R], tasks: Sequence[T], workers: int) -> Iterator[R]:
    """``function`` over ``tasks`` here (``workers <= 1``) or in spawned processes, in order.

    The processes end when this one does, even when it is killed (see
    :mod:`dicegames.core.workers`).

    Raises:
        ClusterError: a worker process died (killed, out of memory, unable to start).
    """
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield function(task)
        return
    from concurrent.futures.process import BrokenProcessPool

    from dicegames.core.workers import process_pool

    executor = process_pool(min(workers, len(tasks)))
    try:
        yield from executor.map(function, tasks)
    except BrokenProcessPool as error:
        raise ClusterError(f"a worker process stopped unexpectedly ({error}); run the program "
                           f"from a file, or use --jobs 1") from None
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def run_tasks(function: Callable[[T], R], tasks: Sequence[T], *, jobs: int = 1,
              scheduler: str | None = None, per_batch: int = 1) -> Iterator[R]:
    """``function`` over ``tasks`` wherever the caller asked (see the module docstring).

    ``per_batch`` is how many consecutive tasks make one Dask task (local processes take
    them one at a time).
    """
    if scheduler is not None:
        return dask_map(function, tasks, scheduler, per_batch)
    return local_map(function, tasks, check_jobs(jobs))


def per_batch_for(games_per_task: int, target: int = 4000) -> int:
    """Tasks per Dask task so that one Dask task plays about ``target`` games."""
    return max(1, math.ceil(target / max(1, games_per_task)))
