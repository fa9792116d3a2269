"""Shared test setup: Hypothesis profiles that keep the suite quick and reproducible.

The ``ci`` profile (the default) runs a modest, derandomized number of examples with no
deadline, so property tests never fail on a slow machine and every run checks the same
cases. ``HYPOTHESIS_PROFILE=dev`` explores more, with fresh random examples each run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
