"""A director's daemon started again says who is reconnecting, not that the whole room is
missing (issue 38, defect 9: after a restart `tournament status` listed every entrant as
"not heard from lately" until each spoke again).

Three daemon processes on loopback: the director and two entrants of an event; the
director's daemon is killed with SIGKILL and started again on its data folder. Its status
at once names no entrant missing (those not heard since the start are ``reconnecting``), and
within seconds every entrant is heard again, as the entrants' links reach it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from testkit import waiting
from testkit.dirs import short_dir
from testkit.procs import DaemonProcess, enter_event, request, start_all

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"


@pytest.fixture
def room() -> Iterator[list[DaemonProcess]]:
    base = short_dir()
    daemons = [
        DaemonProcess(base / f"d{i}", name, session_module=REAL)
        for i, name in enumerate(("Director", "Ann", "Bob"))
    ]
    try:
        start_all(daemons)
        yield daemons
    finally:
        for d in daemons:
            d.stop()
        shutil.rmtree(base, ignore_errors=True)


def _status(director: DaemonProcess) -> dict[str, Any]:
    return request(director.client(subscribe=False), type="tournament_status", name="club")


def test_a_restarted_director_says_reconnecting_not_missing(room: list[DaemonProcess]) -> None:
    director, *players = room
    request(director.client(subscribe=False), type="tournament_create", name="club", rounds=1)
    enter_event(players, "club", director.port)
    waiting.until(lambda: _status(director)["missing"] == [], 20, "both entrants heard")
    director.kill9()
    director.spawn()
    director.wait_ready()
    first = _status(director)
    assert first["missing"] == [], first
    assert set(first["reconnecting"]) <= {"Ann", "Bob"}, first
    waiting.until(
        lambda: (s := _status(director))["missing"] == [] and s["reconnecting"] == [],
        20,
        "both entrants heard again",
    )
