"""``dicegames serve``: run the web app with uvicorn and print its address.

The port may be 0 (the system picks a free one): the address printed is the real one, read
from the bound socket, so tests and scripts can start a server and read where it listens.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import re
import socket
import subprocess
import sys
import webbrowser
from collections.abc import Sequence
from ipaddress import ip_address
from pathlib import Path
from typing import Any

import platformdirs
import uvicorn

from dicegames.web.app import SEND_TIMEOUT, create_app
from dicegames.web.grace import UNDO_GRACE
from dicegames.web.lan import origin_of, terminal_qr
from dicegames.web.limits import ClientLimits
from dicegames.web.resident import IDLE_EVICT, MATCHES_IN_MEMORY
from dicegames.web.sockets import PING_INTERVAL, PING_TIMEOUT, ViewerProtocol
from dicegames.web.stores import redact
from dicegames.web.workers import Supervisor

SWITCH_INTERVAL = 0.001
"""The interpreter's thread switch interval in the server process (seconds)."""

SHUTDOWN_GRACE = 2
"""Seconds the server waits, once told to stop, for the requests in flight to finish (their
moves are committed before they are acknowledged); the rest are cancelled, their analysis
jobs interrupted, and the process ends well within 5 s of ``SIGTERM``."""

GC_THRESHOLDS = (700, 10, 100)
"""The cyclic garbage collector's thresholds in the server process (CPython's defaults are
``(700, 10, 10)``): a full pass comes after 100 middle-aged passes instead of 10 (see
:func:`settle_heap`)."""

ADDRESS = re.compile(r"dicegames web app: (http://\S+?)/? ")


def spawn(db: Path | str, bot_delay: float = 0.0, extra: Sequence[str] = ()
          ) -> tuple[subprocess.Popen[str], str]:
    """Start ``dicegames serve`` on a free loopback port in a child process over ``db`` (a
    SQLite file or a ``postgresql://`` address, as ``--db`` takes it; ``extra``:
    more command-line arguments, e.g. ``--allow-origin URL``; the undo grace period is 0
    unless ``extra`` says ``--undo-grace``).

    Returns the process and its base URL (no trailing slash), read from the line it prints;
    the server accepts connections from then on. Used by the tests and ``make bench``.

    Raises:
        RuntimeError: the server did not start (its output is in the message).
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "dicegames", "serve", "--port", "0", "--db", str(db),
         "--bot-delay", str(bot_delay), "--undo-grace", "0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    found = ADDRESS.search(line)
    if found is None:
        process.kill()
        raise RuntimeError(f"the server did not start: {line}{process.stdout.read()}")
    return process, found.group(1)


def default_db() -> Path:
    """The default database: ``web.sqlite3`` in the user's data folder."""
    return Path(platformdirs.user_data_dir("dicegames")) / "web.sqlite3"


def is_loopback(host: str) -> bool:
    """True when ``host`` (a listening address) is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def listening_socket(family: socket.AddressFamily) -> socket.socket:
    """A TCP socket to listen on whose connections all have Nagle's algorithm off.

    With Nagle on, the second small write of an answer (uvicorn writes a response's
    headers and body apart; a move's ack comes just before its state push) waits for the
    client's delayed ACK, about 40 ms, on every answer after a connection's first. Made
    with protocol ``IPPROTO_TCP`` (not 0), the accepted sockets are ones asyncio recognises
    as TCP, and it sets ``TCP_NODELAY`` on each; the option is set on the listening socket
    too, which Linux passes on to the connections it accepts.
    """
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def settle_heap() -> None:
    """Set the server process's garbage collection up, once, as it starts.

    A full pass of the cyclic collector walks every tracked object while it holds the GIL:
    checking or replaying a big record (thousands of states, in the checker thread) grows
    the heap, and each full pass meanwhile stalled the event loop for a tenth of a second
    or more. So, once, before the first request:

    - everything alive now (the modules, the games' registry, the app: most of a fresh
      server's heap) is collected and then frozen out of the collector's sight
      (``gc.freeze``), which makes every later full pass shorter;
    - full passes come ten times less often (:data:`GC_THRESHOLDS`); the young objects are
      collected as often as ever, so a request's short-lived cycles are freed as before.

    Nothing made later is frozen: matches, states and requests stay collectable. (Record
    checks used to pause the collector and freeze the whole heap after each check, from a
    request's path: process-wide, and keeping for ever every cycle made meanwhile.)
    ``scripts/web_bench_records.py`` measures both.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def lan_sockets(host: str, port: int) -> list[socket.socket]:
    """The listening sockets of ``--lan``: ``host`` (the network address) on ``port``, and
    127.0.0.1 on the same port when it is free there (so the computer itself may also use
    ``localhost``)."""
    sock = listening_socket(socket.AF_INET)
    sock.bind((host, port))
    sockets = [sock]
    local = listening_socket(socket.AF_INET)
    try:
        local.bind(("127.0.0.1", sock.getsockname()[1]))
        sockets.append(local)
    except OSError:
        local.close()
    return sockets


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path | str | None = None,
          bot_delay: float = 0.7, open_browser: bool = False, *,
          allow_origins: Sequence[str] = (), send_timeout: float = SEND_TIMEOUT,
          client_limits: ClientLimits | None = None, idle_evict: float = IDLE_EVICT,
          matches_in_memory: int = MATCHES_IN_MEMORY, ping_interval: float = PING_INTERVAL,
          ping_timeout: float = PING_TIMEOUT, lan: bool = False,
          undo_grace: float = UNDO_GRACE, workers: int = 1) -> None:
    """Serve the web app until interrupted, printing ``dicegames web app: http://...``.

    ``lan``: serve ``host`` (an IPv4 network address of this machine, see
    :func:`dicegames.web.lan.network_address`) to the other devices of the network, and
    127.0.0.1 as well; the address printed, its QR code (printed under it), the seat links'
    QR codes and the ``Host`` check all use ``host`` (:mod:`dicegames.web.lan`).

    ``allow_origins``: web origins (``http://host:port``) whose pages may change games
    besides the server's own; see :mod:`dicegames.web.guard`. ``send_timeout``: seconds a
    live viewer may leave a push unread before it is dropped. ``client_limits``: the
    per-client limits (:mod:`dicegames.web.limits`). ``idle_evict``, ``matches_in_memory``:
    when idle matches leave memory. ``ping_interval``, ``ping_timeout``: the websockets'
    keepalive (:mod:`dicegames.web.sockets`). ``undo_grace``: seconds a person has to take
    back their turn's last decision before the game goes on (:mod:`dicegames.web.grace`).
    ``workers``: how many server processes share the port (more than one needs a
    PostgreSQL database: :mod:`dicegames.web.workers`).
    """
    db_path = db if db is not None else default_db()  # or a postgresql:// address
    if lan:
        sockets = lan_sockets(host, port)
        served: str | None = origin_of(host, sockets[0].getsockname()[1])
    else:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sockets = [listening_socket(family)]
        sockets[0].bind((host, port))
        served = None
    settings: dict[str, Any] = dict(
        bot_delay=bot_delay, allow_origins=tuple(allow_origins),
        loopback_only=is_loopback(host), send_timeout=send_timeout,
        client_limits=client_limits, idle_evict=idle_evict,
        matches_in_memory=matches_in_memory, served=served, undo_grace=undo_grace)
    run = functools.partial(_serve_on, db_path, settings, ping_interval, ping_timeout)
    app = None
    if workers == 1:  # checks the database before the address is printed
        app = _app(db_path, settings)
    for sock in sockets:
        sock.listen(2048)  # connections wait in the backlog until uvicorn accepts them
    address = f"{origin_of(host, sockets[0].getsockname()[1])}/"
    print(f"dicegames web app: {address}  (games stored in {redact(db_path)}; Ctrl-C stops)",
          flush=True)
    if lan:
        print(f"\nOpen it on a phone on the same network: scan this code, or type {address}"
              f"\n\n{terminal_qr(address)}", flush=True)
    if open_browser:
        webbrowser.open(address)
    if app is None:
        Supervisor(workers, run, sockets).serve()
    else:
        run(sockets, app=app)


def _app(db_path: Path | str, settings: dict[str, Any]) -> Any:
    """The app of one server process (its threads set up for serving)."""
    # Worker threads (record checks, bots) hand the GIL back to the event loop after 1 ms
    # instead of 5: a request needs the GIL many times, and would otherwise wait each time.
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(db_path, **settings)
    settle_heap()
    return app


def _serve_on(db_path: Path | str, settings: dict[str, Any], ping_interval: float,
              ping_timeout: float, sockets: list[socket.socket], *, app: Any = None) -> None:
    """Serve the app (made here unless given) on listening ``sockets`` until stopped: the
    whole of a server process, or of one ``--workers`` process."""
    if app is None:
        app = _app(db_path, settings)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=64 * 1024,
                            lifespan="on", ws=ViewerProtocol, ws_ping_interval=ping_interval,
                            ws_ping_timeout=ping_timeout,
                            timeout_graceful_shutdown=SHUTDOWN_GRACE)
    server = uvicorn.Server(config)
    asyncio.run(server.serve(sockets=sockets))
