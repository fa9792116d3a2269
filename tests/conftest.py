"""Shared test setup: Hypothesis profiles that keep the suite quick and reproducible, and
the toy game registered for the session.

The ``ci`` profile (the default) runs a modest, derandomized number of examples with no
deadline, so property tests never fail on a slow machine and every run checks the same
cases. ``HYPOTHESIS_PROFILE=dev`` explores more, with fresh random examples each run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

from dicegames.core.registry import register

TOY = "toygame:DEFINITION"
"""The toy game's definition, as ``DICEGAMES_GAMES`` names it."""

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The toy game (tests/toygame.py) is registered for the whole session, so every suite that
# iterates the registry plays a game with only rules, a presenter and an encoder. The
# environment carries it to the processes the tests start (servers, CLI runs, workers):
# DICEGAMES_GAMES names its definition and PYTHONPATH finds this folder.
TESTS = str(Path(__file__).resolve().parent)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [TESTS, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != TESTS)])
os.environ["DICEGAMES_GAMES"] = ",".join(
    [*(p for p in os.environ.get("DICEGAMES_GAMES", "").split(",") if p.strip()
       and p.strip() != TOY), TOY])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

import toygame  # noqa: E402

register(toygame.DEFINITION)
