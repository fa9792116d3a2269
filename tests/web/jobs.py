"""Jobs for the analysis pool's tests (a module the spawned workers can import)."""

from __future__ import annotations

import time


def spin(seconds: float, *, deadline: float) -> str:
    """Burn CPU for ``seconds`` without looking at ``deadline`` (code that never checks the
    clock, like a planner on a huge board); ``"done"`` at the end."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "done"


def fail(*, deadline: float) -> str:
    """A job whose code has a bug."""
    raise ValueError("a bug in a bot")
