"""Test settings shared by the whole suite.

Hypothesis: no per-example deadline (the machines are shared and noisy; timing targets live in
scripts/bench, never in tests) and a bounded number of examples so scripts/test stays well under
15 minutes on 2 cores. Set FOURWINDS_LONG=1 for the long, opt-in profile (more examples).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long", deadline=None, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("long" if os.environ.get("FOURWINDS_LONG") else "default")
