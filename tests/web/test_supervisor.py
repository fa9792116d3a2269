"""The supervisor of ``dicegames serve --workers N`` (:mod:`dicegames.web.workers`) says
through logging that a worker ended: with ``--log-format json``, one JSON object like every
other line, not a bare line on standard error."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.process

SUPERVISE = """
from dicegames.web.logs import configure
from dicegames.web.workers import Supervisor
from web.test_supervisor import end_at_once

configure("json")
Supervisor(1, end_at_once, []).serve()
"""


def end_at_once(sockets: list[Any]) -> None:
    """A worker that ends as soon as it starts, with exit code 3."""
    raise SystemExit(3)


def test_a_worker_that_ended_is_logged_as_json() -> None:
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [tests, *filter(None, [os.environ.get("PYTHONPATH")])])}
    process = subprocess.Popen([sys.executable, "-c", SUPERVISE], env=env, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
        watchdog.cancel()
    line = json.loads(first)
    assert line["logger"] == "dicegames.web.workers" and line["level"] == "WARNING"
    assert line["message"] == "worker 0 ended (exit code 3); starting it again"
    assert (line["worker"], line["exit_code"]) == (0, 3)
