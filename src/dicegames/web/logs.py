"""The server's logs: plain lines or one JSON object per line, never a seat token.

``dicegames serve --log-format json`` writes each record as one JSON object on standard
error: ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message``, the
record's structured fields (a request's ``method``, ``route``, ``path``, ``query``,
``status``, ``duration_ms``, ``client``: see :mod:`dicegames.web.ops`) and ``exception``
(the traceback) when there is one. ``--log-format plain`` (the default) writes
``time level logger: message`` lines.

**No seat token is ever logged.** A seat token is the whole of a player's right to their
seat, and it travels in places a log could copy: the query string (``?token=`` of the API
and websockets, ``?seat=`` of a seat link), the ``Referer`` of every request a seat link's
page makes, and JSON bodies (``"token": ...``). So:

- the request lines name the route template (``/api/matches/{match_id}``), the path without
  its query, and the query with the values of ``token`` and ``seat`` replaced by
  :data:`REDACTED`; headers are never logged;
- every line, of either format and of any logger (uvicorn's own included, tracebacks too),
  is passed through :func:`redact` as it is written, which replaces those values wherever
  they appear (``token=...``, ``seat=...``, ``"token": "..."``), as a last guard.

uvicorn's own access log is off (it would print the raw path and query): the app logs each
request itself, on the ``dicegames.access`` logger at level INFO.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any, Literal, TextIO

LogFormat = Literal["plain", "json"]

FORMATS: tuple[LogFormat, ...] = ("plain", "json")
"""The values of ``--log-format``."""

LEVELS = ("debug", "info", "warning", "error")
"""The values of ``--log-level``."""

REDACTED = "[redacted]"
"""What a seat token is replaced with in a log line."""

SECRET_KEYS = frozenset({"token", "seat"})
"""The query and JSON keys whose values are seat tokens (``?token=``, ``?seat=``)."""

_QUERY_SECRET = re.compile(r"(?i)(token|seat)(=|%3D)([^&\s\"'#<>\\]+)")
_JSON_SECRET = re.compile(r"(?i)(\\?[\"']token\\?[\"']\s*:\s*)(\\?[\"'])(.*?)(\2)")

FIELDS = ("method", "route", "path", "query", "status", "duration_ms", "client", "match",
          "close_code", "worker", "exit_code")
"""The structured fields a record may carry (``extra=``), written as JSON fields (and
after the message in plain lines)."""

ACCESS = "dicegames.access"
"""The logger of the request lines."""


def redact(text: str) -> str:
    """``text`` with every seat token it may hold replaced by :data:`REDACTED`: the values
    of ``token=`` and ``seat=`` (in a query, a URL, a ``Referer``; URL-encoded ``=`` too)
    and of a JSON ``"token"`` field.

    >>> redact("GET /m/abc?seat=s3cr3t&lang=fr")
    'GET /m/abc?seat=[redacted]&lang=fr'
    >>> redact('{"token": "s3cr3t", "move": "stop"}')
    '{"token": "[redacted]", "move": "stop"}'
    """
    lowered = text.lower()
    if "token" not in lowered and "seat" not in lowered:  # most lines: nothing to look for
        return text
    text = _QUERY_SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    return _JSON_SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}{m.group(4)}", text)


def redact_query(query: str) -> str:
    """A query string with the values of :data:`SECRET_KEYS` replaced (keys kept, order
    kept), for the request lines.

    >>> redact_query("lang=fr&token=abc,def")
    'lang=fr&token=[redacted]'
    """
    parts = []
    for part in query.split("&") if query else ():
        key, equals, _ = part.partition("=")
        parts.append(f"{key}={REDACTED}" if equals and key.lower() in SECRET_KEYS else part)
    return redact("&".join(parts))


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in FIELDS if hasattr(record, name)}


def _utc(created: float) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
    return f"{seconds}.{int(created % 1 * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (see the module docstring), redacted."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {"time": _utc(record.created), "level": record.levelname,
                                 "logger": record.name, "message": record.getMessage()}
        entry.update(_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps({key: redact(item) if isinstance(item, str) else item
                           for key, item in entry.items()}, ensure_ascii=False, default=str)


class PlainFormatter(logging.Formatter):
    """``time level logger: message key=value...``, redacted."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = _fields(record)
        if fields:
            head, newline, rest = line.partition("\n")  # the fields before a traceback
            extra = " ".join(f"{key}={value}" for key, value in fields.items())
            line = f"{head} {extra}{newline}{rest}"
        return redact(line)


def configure(log_format: LogFormat = "plain", level: str | None = None,
              stream: TextIO | None = None) -> int:
    """Send every log record of the process to ``stream`` (standard error) in
    ``log_format``; ``level``: one of :data:`LEVELS` (None: ``warning`` for plain lines, as
    the server always logged, and ``info`` for JSON, whose request lines are at INFO).

    Replaces the root logger's handlers (uvicorn's loggers propagate to it: call uvicorn
    with ``log_config=None``). Returns the level chosen (a ``logging`` number).
    """
    chosen = level or ("info" if log_format == "json" else "warning")
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else PlainFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(chosen.upper())
    return root.level
