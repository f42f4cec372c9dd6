"""Test settings shared by the whole suite.

Hypothesis: no per-example deadline (the machines are shared and noisy; timing targets live in
scripts/bench, never in tests) and a bounded number of examples so scripts/test stays under
10 minutes on 2 cores. Set FOURWINDS_LONG=1 for the long, opt-in profile (more examples);
``scripts/test --quick`` (FOURWINDS_QUICK=1) takes 30 examples a property.

Parallel workers (scripts/test runs ``pytest -n 4 --dist loadgroup``, docs/TESTING.md): the
tests that drive a person's screen (marked ``screen``) form three xdist groups, the terminals
on one machine (a curses table in tmux, ``SCREENS``), the four friends' machines in network
namespaces (``FRIENDS``: tmux too, marked ``netns``) and the pages (Chromium, ``PAGES``, the
tests under tests/web): each group runs one test after another on one worker, so at most one
of each competes, and the three groups go first, so they start at once on three workers while
the fourth takes the rest: the friends' tests, the longest of the terminals' (~45 s each), run
beside the rest instead of after them. The run is CPU-bound (both cores busy over a whole run),
so more workers would not make it shorter (docs/TESTING.md, "Why four workers"). Every
other test goes to whichever worker is free, and runs niced (``OTHERS_NICE``), the processes
it starts too: a screen paced by a person's keys and call windows goes first, and the tables
of bots, whose bounds are generous, take what is left. A test module may name a group of
its own with ``pytest.mark.xdist_group`` (that mark wins).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from testkit import cpu_report

SCREENS = "screens"
FRIENDS = "friends"
PAGES = "pages"
SCREEN_GROUPS = (SCREENS, FRIENDS, PAGES)
OTHERS_NICE = 10

settings.register_profile(
    "default",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    deadline=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "quick",
    deadline=None,
    max_examples=30,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    "long"
    if os.environ.get("FOURWINDS_LONG")
    else "quick"
    if os.environ.get("FOURWINDS_QUICK")
    else "default"
)

_SESSION_BEGAN = time.time()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Once every worker is done (on the controller, or a run without workers): remove the
    bot seats' folders that `fourwinds play` made in the temporary directory during this run
    (frontends/client/local_seats.py links them there when the home's path is too long for ipc
    sockets; `play` removes them when a table ends, but a test that stops `play` by a signal
    leaves them, ~180 a run)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    for folder in Path(tempfile.gettempdir()).glob("fw-bots-*"):
        with contextlib.suppress(OSError):
            if folder.stat().st_mtime >= _SESSION_BEGAN - 1:
                shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ``FOURWINDS_TEST_CPU=PREFIX``: each test's CPU to ``PREFIX.<worker>``
    (testkit/cpu_report.py; docs/TESTING.md says how to read it)."""
    prefix = os.environ.get(cpu_report.VARIABLE)
    if not prefix:
        return (yield)
    with cpu_report.measured(item.nodeid, prefix):
        return (yield)


def group_of(item: pytest.Item) -> str | None:
    """The xdist group ``item`` runs in (module docstring), or None: any worker."""
    marker = item.get_closest_marker("xdist_group")
    if marker is not None:
        return str(marker.kwargs.get("name", marker.args[0] if marker.args else ""))
    if item.get_closest_marker("screen"):
        if item.path.parent.name == "web":
            return PAGES
        return FRIENDS if item.get_closest_marker("netns") else SCREENS
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Put the screen tests in their group (``SCREENS``, ``FRIENDS`` or ``PAGES``) and first in
    the order: as a wrapper, before every other plugin's hook, xdist's too, which reads the
    groups into the node ids on each worker (tests/test_xdist_groups.py checks that they
    arrive). The three screen groups are the suite's longest runs of tests that must go one
    after another, so they start at once on three workers while the fourth (and each of them
    once its group is done) takes the rest."""
    for item in items:
        group = group_of(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: group_of(item) not in SCREEN_GROUPS)  # stable
    yield


QUICK = "FOURWINDS_QUICK"
"""Set by ``scripts/test --quick``: the run is the pure tests only, and starts no process."""


@pytest.fixture(autouse=True)
def _quick_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``scripts/test --quick`` a test that starts a process (a daemon, a bot seat, a
    command, tmux, Chromium, ``ip netns``: all go through ``subprocess.Popen``) fails at once
    with why, so one at real daemons cannot join the quick run unseen."""
    if not os.environ.get(QUICK):
        return

    def refused(*args: object, **kwargs: object) -> None:
        raise RuntimeError(
            "scripts/test --quick starts no process: this test belongs outside its folders"
        )

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)


@pytest.fixture(autouse=True)
def _screens_go_first(request: pytest.FixtureRequest) -> None:
    """On an xdist worker, a screen test runs at the normal priority and every other test
    niced (module docstring). A worker runs tests of both kinds, so the priority is set for
    each test: back up to 0 needs root (CI runs as root); elsewhere a niced worker stays
    niced and its screens are only as fast as the rest."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    wanted = 0 if group_of(request.node) in SCREEN_GROUPS else OTHERS_NICE
    if os.getpriority(os.PRIO_PROCESS, 0) != wanted:
        with contextlib.suppress(PermissionError):
            os.setpriority(os.PRIO_PROCESS, 0, wanted)
