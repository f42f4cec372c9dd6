"""Test settings shared by the whole suite.

Hypothesis: no per-example deadline (the machines are shared and noisy; timing targets live in
scripts/bench, never in tests) and a bounded number of examples so scripts/test stays under
10 minutes on 2 cores. Set FOURWINDS_LONG=1 for the long, opt-in profile (more examples).

Parallel workers (scripts/test runs ``pytest -n 2 --dist loadgroup``, docs/TESTING.md): the
tests that drive a person's screen (marked ``screen``: a curses table in tmux, the page in
Chromium) form one xdist group, ``SCREENS``, and every other test marked ``slow`` or
``netns`` (real daemons in processes, network namespaces) another, ``REAL``. Each group runs
one test after another on one worker, so two screens never compete with each other, and two
tables of real daemons never do; the pure tests fill in beside them. On a worker that runs the
``REAL`` group the processes are niced (``REAL_NICE``): a screen paced by a person's keys
goes first, and the bot-paced tables, whose bounds are generous, take what is left. A test
module may name a group of its own with ``pytest.mark.xdist_group`` (that mark wins).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

REAL = "real-processes"
SCREENS = "screens"
REAL_NICE = 10

settings.register_profile(
    "default", deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long", deadline=None, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("long" if os.environ.get("FOURWINDS_LONG") else "default")


def group_of(item: pytest.Item) -> str | None:
    """The xdist group ``item`` runs in (module docstring), or None: any worker."""
    marker = item.get_closest_marker("xdist_group")
    if marker is not None:
        return str(marker.kwargs.get("name", marker.args[0] if marker.args else ""))
    if item.get_closest_marker("screen"):
        return SCREENS
    if item.get_closest_marker("slow") or item.get_closest_marker("netns"):
        return REAL
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Put the screen tests in ``SCREENS``, the other slow and netns tests in ``REAL``: as
    a wrapper, before every other plugin's hook, xdist's too, which reads the groups into
    the node ids on each worker (tests/test_xdist_groups.py checks that they arrive)."""
    for item in items:
        group = group_of(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    yield


@pytest.fixture(autouse=True)
def _real_processes_yield_to_screens(request: pytest.FixtureRequest) -> None:
    """On an xdist worker, the ``REAL`` group's processes run niced (module docstring)."""
    if (os.environ.get("PYTEST_XDIST_WORKER") and group_of(request.node) == REAL
            and os.nice(0) < REAL_NICE):
        os.nice(REAL_NICE - os.nice(0))
