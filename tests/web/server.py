"""A real ``dicegames serve`` process on loopback, for the web tests and the bench.

The server is started with ``--port 0`` and a temporary SQLite file; the address is read
from the line it prints. Its per-client limits are off (``--no-rate-limits``: the tests make
bursts of requests from one address) unless a test asks for them (``limited=True``).
:meth:`Server.kill` sends SIGKILL (no clean-up at all), and :meth:`Server.start` may be
called again on the same database.
"""

from __future__ import annotations

import json
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from dicegames.web.server import spawn


class JsonCalls:
    """``get`` and ``post`` that must succeed, over a ``call(method, path, body)`` that
    answers ``(status, json)``: the same for a real server process and the in-process
    client (:class:`web.client.AppClient`)."""

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """One request: its status and its JSON."""
        raise NotImplementedError

    def get(self, path: str) -> Any:
        """GET that must succeed; returns the JSON."""
        status, data = self.call("GET", path)
        assert status == 200, (status, data)
        return data

    def post(self, path: str, body: object) -> Any:
        """POST that must succeed (200 or 201); returns the JSON."""
        status, data = self.call("POST", path, body)
        assert status in (200, 201), (status, data)
        return data


class Server(JsonCalls):
    """One server process over one store (a SQLite file or a ``postgresql://`` address)."""

    def __init__(self, db: Path | str, bot_delay: float = 0.0, extra: tuple[str, ...] = (),
                 limited: bool = False) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.extra = extra if limited else ("--no-rate-limits", *extra)
        self.process: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> Server:
        """Start the process and wait for its address line."""
        self.process, self.url = spawn(self.db, self.bot_delay, self.extra)
        return self

    @property
    def ws_url(self) -> str:
        """The websocket base address."""
        return "ws" + self.url.removeprefix("http")

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to clean up."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        """Stop the process politely (SIGTERM), then for sure."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """One HTTP request; returns the status and the decoded JSON answer."""
        data = raw if raw is not None else (
            None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"content-type": "application/json",
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

