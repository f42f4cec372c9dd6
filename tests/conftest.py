"""Test settings shared by the whole suite.

Hypothesis: no per-example deadline (the machines are shared and noisy; timing targets live in
scripts/bench, never in tests) and a bounded number of examples so scripts/test stays under
10 minutes on 2 cores. Set FOURWINDS_LONG=1 for the long, opt-in profile (more examples).

Parallel workers (scripts/test runs ``pytest -n 2 --dist loadgroup``, docs/TESTING.md): every
test marked ``slow`` or ``netns`` (real daemons in processes, tmux terminals, a browser,
network namespaces; the tmux terminal tests mark themselves) joins one xdist group,
``REAL``, so those run one after another on one
worker while the other worker runs the rest beside them: two of them never compete for the
two cores, so none runs at twice its usual pace against its own timeouts. A test module may
name a group of its own with ``pytest.mark.xdist_group`` (that mark wins).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

REAL = "real-processes"

settings.register_profile(
    "default", deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long", deadline=None, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("long" if os.environ.get("FOURWINDS_LONG") else "default")


@pytest.hookimpl(tryfirst=True)   # before xdist's hook reads the groups into the node ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the slow and netns tests in the ``REAL`` group (module docstring)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None and (
                item.get_closest_marker("slow") or item.get_closest_marker("netns")):
            item.add_marker(pytest.mark.xdist_group(REAL))
