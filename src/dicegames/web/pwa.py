"""The installable app: the service worker at ``/sw.js``, versioned by the static files.

"Add to Home Screen" (the manifest ``static/manifest.webmanifest``, its icons drawn by
``scripts/make_icons.py``) gives an app that opens full screen; the service worker keeps the
static files on the device. It must be served from the root to control every page (a worker
controls the paths under its own address), so it is not a plain static file: the server
fills its template (``static/sw.js``) with the list of the static files and a digest of
their contents (:func:`service_worker`). When any static file changes, the worker's text
changes with it, so browsers install the new worker, and it replaces the old cache.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

WORKER = "sw.js"
"""The worker's template, among the static files (itself neither listed nor cached)."""


def static_files(static: Path) -> list[Path]:
    """The files the worker caches: every file under ``static`` but the worker, in order."""
    return sorted(path for path in static.rglob("*")
                  if path.is_file() and path.name != WORKER and not path.name.startswith("."))


def service_worker(static: Path) -> str:
    """The worker's source: ``static/sw.js`` with its version (the first 16 hex digits of a
    SHA-256 over every cached file's address and bytes) and its list of addresses."""
    digest = hashlib.sha256()
    addresses = []
    for path in static_files(static):
        address = "/static/" + path.relative_to(static).as_posix()
        addresses.append(address)
        digest.update(address.encode() + b"\0" + path.read_bytes() + b"\0")
    template = (static / WORKER).read_text(encoding="utf-8")
    return (template.replace("__VERSION__", digest.hexdigest()[:16])
            .replace("__FILES__", json.dumps(addresses)))


def pwa_routes(static: Path) -> list[Route]:
    """``GET /sw.js``: the service worker (built once, when first asked for)."""
    built: list[bytes] = []

    async def worker(request: Request) -> Response:
        if not built:
            built.append(service_worker(static).encode())
        return Response(built[0], media_type="text/javascript",
                        headers={"cache-control": "no-cache"})

    return [Route("/sw.js", worker)]
