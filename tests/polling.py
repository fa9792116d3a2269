"""Waiting for something in a test: poll with a deadline, never a fixed sleep.

A fixed sleep is either too short on a loaded machine (a flaky failure) or too long
everywhere else (a slow suite); :func:`until` returns as soon as the condition holds and
fails with a message naming what never came.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


def until(check: Callable[[], _T | None], what: str, timeout: float = 30.0,
          every: float = 0.02) -> _T:
    """Call ``check`` every ``every`` seconds until it returns something true; that value.

    Raises:
        AssertionError: ``check`` returned nothing true within ``timeout`` seconds (the
            message says ``what`` was awaited).
    """
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}; the last check gave "
                                 f"{value!r}")
        time.sleep(every)
