"""``dicegames serve``'s operating options: metrics, who may read them, the logs' format.

Kept apart from ``cli.py`` (which only wires them in) and light to import: the web app's
modules load only when a server starts (``tests/test_import_cost.py``).
"""

from __future__ import annotations

import argparse
from typing import Any

from dicegames.terminal.console import UsageError


def add_ops_options(serve: argparse.ArgumentParser) -> None:
    """Add ``--metrics``, ``--metrics-allow``, ``--log-format`` and ``--log-level``."""
    serve.add_argument("--metrics", choices=("on", "off"), default="on",
                       help="serve Prometheus metrics at /metrics (default on; readable from "
                            "loopback only unless --metrics-allow; see docs/deploy.md)")
    serve.add_argument("--metrics-allow", metavar="CIDR[,CIDR]", action="append", default=[],
                       dest="metrics_allow",
                       help="networks besides loopback that may read /metrics, e.g. "
                            "10.0.0.0/8 (repeatable)")
    serve.add_argument("--log-format", choices=("plain", "json"), default="plain",
                       help="plain lines, or one JSON object per line with a line per "
                            "request (default plain; seat tokens are never logged)")
    serve.add_argument("--log-level", choices=("debug", "info", "warning", "error"),
                       help="the least important records logged (default: warning for "
                            "plain, info for json; info adds a line per request)")


def ops_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`dicegames.web.server.serve` for those options.

    Raises:
        UsageError: a ``--metrics-allow`` that is not an address or network.
    """
    from dicegames.web.ops import OpsOptions
    networks: list[Any] = []
    for text in args.metrics_allow:
        try:
            networks.extend(OpsOptions.parse_networks(text))
        except ValueError as error:
            raise UsageError(f"--metrics-allow: {error}") from None
    return {"ops": OpsOptions(metrics=args.metrics == "on", metrics_allow=tuple(networks)),
            "log_format": args.log_format, "log_level": args.log_level}
