"""Worker processes end when their parent is killed (``kill -9``), whatever they are doing.

Each test starts a real process tree: the real ``dicegames`` command with ``--jobs 2`` (or a
small program using :mod:`dicegames.core.workers`), in its own process group so the test
can always clean up. It waits until the workers exist and are working, kills the parent
with SIGKILL, as a timeout or the out-of-memory killer would, and expects every process
the parent started to be gone within a few seconds. Before the fix the workers of
``simulate`` played on for minutes, adopted by init.

Processes are read from ``/proc``, so these tests run on Linux only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

pytestmark = [pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                 reason="reads processes from /proc (Linux)"),
              pytest.mark.process]

GONE_WITHIN_S = 5.0
"""How soon after the parent's death its workers must have ended (the issue's bound)."""

START_WITHIN_S = 180.0
"""How long the workers may take to start and begin working on a busy machine."""

WORKING_CPU_S = 1.0
"""CPU seconds a worker must have used before the parent is killed (it is playing)."""


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped has ended)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                found.append(int(entry))
    return found


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time ``pid`` has used so far (0 once it is gone)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def command_line(pid: int) -> str:
    """The command line of ``pid`` ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@contextmanager
def process_group(command: Sequence[str], cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` as the leader of a new process group; kill the whole group after."""
    process = subprocess.Popen(command, cwd=cwd, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        yield process
    finally:
        with suppress(ProcessLookupError):  # the group may be gone already
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        assert process.stderr is not None
        process.stderr.close()


def wait_for_workers(process: subprocess.Popen[bytes], count: int, marker: str) -> list[int]:
    """The ``count`` children of ``process`` whose command line holds ``marker``, once each
    has used :data:`WORKING_CPU_S` of CPU (they are past start-up and working)."""
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            assert process.stderr is not None
            pytest.fail(f"the parent ended first ({process.returncode}): "
                        f"{process.stderr.read().decode(errors='replace')}")
        workers = [pid for pid in children(process.pid) if marker in command_line(pid)]
        if len(workers) >= count and all(cpu_seconds(pid) >= WORKING_CPU_S
                                          for pid in workers):
            return workers
        time.sleep(0.1)
    pytest.fail(f"{count} working processes did not start within {START_WITHIN_S} s")


def kill_and_watch(process: subprocess.Popen[bytes], started: Sequence[int]) -> list[int]:
    """Kill ``process`` with SIGKILL; the processes of ``started`` still running after
    :data:`GONE_WITHIN_S`."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + GONE_WITHIN_S
    while time.monotonic() < deadline and any(alive(pid) for pid in started):
        time.sleep(0.05)
    return [pid for pid in started if alive(pid)]


def dicegames(*args: str) -> list[str]:
    """The real command line, run by this interpreter (PYTHONPATH is inherited)."""
    return [sys.executable, "-m", "dicegames", *args]


SPAWNED = "multiprocessing.spawn"
"""In the command line of every worker a ``spawn`` pool starts."""


def test_simulate_workers_end_with_a_killed_parent(tmp_path: Path) -> None:
    # The reproduction, with two workers: engine games of minutes per worker.
    command = dicegames("simulate", "petits-chevaux", "--players",
                        "bot:expert,bot:medium,bot:medium,bot:medium", "--games", "8000",
                        "--rotate", "--jobs", "2", "--json")
    with process_group(command, tmp_path) as process:
        workers = wait_for_workers(process, 2, SPAWNED)
        everything = children(process.pid)  # the workers and multiprocessing's tracker
        assert kill_and_watch(process, everything) == []
        assert set(workers) <= set(everything)


def test_analyse_workers_end_with_a_killed_parent(tmp_path: Path) -> None:
    # analyse plays its games through the cluster module's pool, not simulate's.
    command = dicegames("analyse", "petits-chevaux", "--games", "4000", "--seed", "1",
                        "--ladder", "random,medium", "--jobs", "2", "--json")
    with process_group(command, tmp_path) as process:
        wait_for_workers(process, 2, SPAWNED)
        assert kill_and_watch(process, children(process.pid)) == []


WATCHED_CHILD = """
import multiprocessing, os, sys
from dicegames.core.workers import watch_parent

def work(parent):
    watch_parent(parent)  # the watcher alone: no parent-death signal
    while True:
        sum(range(1000))

if __name__ == "__main__":
    child = multiprocessing.get_context("spawn").Process(target=work, args=(os.getpid(),))
    child.start()
    child.join()
"""


def test_the_watcher_alone_ends_a_worker_whose_parent_died(tmp_path: Path) -> None:
    # Where there is no parent-death signal (not Linux), the thread watching the pipe to
    # the parent is what ends the worker.
    script = tmp_path / "parent.py"
    script.write_text(WATCHED_CHILD, encoding="utf-8")
    with process_group([sys.executable, str(script)], tmp_path) as process:
        workers = wait_for_workers(process, 1, SPAWNED)
        assert kill_and_watch(process, workers) == []


POLLING_CHILD = ("import os, time\n"
                 "from dicegames.core.workers import watch_parent\n"
                 "watch_parent(os.getppid())\n"
                 "while True:\n"
                 "    sum(range(1000))\n")


def test_the_watcher_polls_the_parent_outside_multiprocessing(tmp_path: Path) -> None:
    # A worker started by other means has no parent pipe: the watcher polls its parent id.
    script = tmp_path / "parent.py"
    script.write_text(f"import subprocess, sys\n"
                      f"subprocess.run([sys.executable, '-c', {POLLING_CHILD!r}])\n",
                      encoding="utf-8")
    with process_group([sys.executable, str(script)], tmp_path) as process:
        workers = wait_for_workers(process, 1, "watch_parent")
        assert kill_and_watch(process, workers) == []


def test_a_pool_still_returns_its_results() -> None:
    # The initializer must not get in the way of ordinary work.
    from dicegames.core.workers import process_pool

    with process_pool(2) as pool:
        assert list(pool.map(abs, [-1, -2, -3])) == [1, 2, 3]
