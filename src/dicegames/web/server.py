"""``dicegames serve``: run the web app with uvicorn and print its address.

The port may be 0 (the system picks a free one): the address printed is the real one, read
from the bound socket, so tests and scripts can start a server and read where it listens.
"""

from __future__ import annotations

import asyncio
import socket
import webbrowser
from pathlib import Path

import platformdirs
import uvicorn

from dicegames.web.app import create_app


def default_db() -> Path:
    """The default database: ``web.sqlite3`` in the user's data folder."""
    return Path(platformdirs.user_data_dir("dicegames")) / "web.sqlite3"


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path | None = None,
          bot_delay: float = 0.7, open_browser: bool = False) -> None:
    """Serve the web app until interrupted, printing ``dicegames web app: http://...``."""
    db_path = db if db is not None else default_db()
    app = create_app(db_path, bot_delay=bot_delay)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)  # connections wait in the backlog until uvicorn accepts them
    bound_port = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    address = f"http://{shown}:{bound_port}/"
    print(f"dicegames web app: {address}  (games stored in {db_path}; Ctrl-C stops)",
          flush=True)
    if open_browser:
        webbrowser.open(address)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=64 * 1024,
                            lifespan="on")
    server = uvicorn.Server(config)
    asyncio.run(server.serve(sockets=[sock]))
