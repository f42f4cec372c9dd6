"""A seat that withholds its seating-seed reveal no longer stalls the round (issue 38,
defect 11), at real daemon processes on loopback.

A director and four entrants; once round 1's seed is committed and echoed ahead, one
entrant's daemon is frozen (SIGSTOP: a machine gone silent, or a seat withholding its
reveal), and the director calls the round. Its start waits for that reveal and says whom
it waits for; REVEAL_WAIT_S after the call the director's daemon seats the round without
that entrant, names them and says why, every other daemon holds the same, and the round's
table is seated with the three others and a bot seat.
"""

from __future__ import annotations

import shutil
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from fourwinds.protocol.tournament.session.lapses import REVEAL_WAIT_S
from testkit import waiting
from testkit.dirs import short_dir
from testkit.procs import DaemonProcess, enter_event, request, start_all

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"
NAMES = ("Director", "Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def room() -> Iterator[list[DaemonProcess]]:
    base = short_dir()
    daemons = [
        DaemonProcess(base / f"d{i}", name, session_module=REAL) for i, name in enumerate(NAMES)
    ]
    try:
        start_all(daemons)
        yield daemons
    finally:
        for d in daemons:
            if d.proc is not None and d.proc.poll() is None:
                d.signal(signal.SIGCONT)
            d.stop()
        shutil.rmtree(base, ignore_errors=True)


def _status(d: DaemonProcess) -> dict[str, Any]:
    return request(d.client(subscribe=False), type="tournament_status", name="club")


def test_a_withheld_reveal_is_waited_for_then_the_round_is_seated_without_it(
    room: list[DaemonProcess],
) -> None:
    director, *players = room
    request(
        director.client(subscribe=False),
        type="tournament_create",
        name="club",
        rounds=2,
        hands=1,
        deck="practice",
    )
    enter_event(players, "club", director.port)
    waiting.until(
        lambda: ((s := _status(director)["seeding"]) and s["step"] == "call") or None,
        30,
        "round 1's seed committed and echoed ahead",
        shown=lambda: _status(director)["seeding"],
    )
    dee = players[-1]
    dee.signal(signal.SIGSTOP)
    answer = director.client(subscribe=False).request(
        {"type": "tournament_start", "name": "club", "wait": 3}
    )
    assert not answer["ok"] and "its seed waits for Dee (reveal)" in answer["error"], answer
    assert f"{REVEAL_WAIT_S:.0f} s after the call" in answer["error"]
    started = waiting.until(
        lambda: ((s := _status(director))["rounds_started"] == 1 and s) or None,
        REVEAL_WAIT_S + 30,
        "round 1 seated without Dee",
    )
    [lapse] = started["lapses"]
    assert lapse["round"] == 1 and lapse["players"] == ["Dee"], lapse
    assert "no seating-seed reveal within" in lapse["reason"]
    [table] = started["round"]["tables"]  # the three others and a bot seat (None)
    assert sorted(map(str, table)) == ["Ann", "Bob", "Cy", "None"], table
    for d in players[:-1]:

        def holds(d: DaemonProcess = d) -> bool | None:
            return _status(d)["lapses"] == started["lapses"] or None

        waiting.until(holds, 20, f"{d.name} holds the lapse")
