"""A view is sent again only when it shows something new (issue 22, 15: views every second
reset what the player was choosing)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fourwinds.daemon.table_runtimes.view_changes import shown
from testkit.procs import DaemonProcess, request

REAL = "fourwinds.daemon.table_runtimes.real_session"


def _event(seq: int, deadline: float | None, **view: Any) -> dict[str, Any]:
    return {
        "type": "view",
        "table": "ab",
        "seq": seq,
        "applied_at": 5.0,
        "steps_applied": [[3, 5.0]],
        "offline": [],
        "view": {"phase": "claim", "step": 3, "deadline": deadline, **view},
    }


def test_a_countdown_that_ends_when_it_did_is_no_change() -> None:
    first = shown(_event(1, 8.0), now=100.0)
    assert shown(_event(2, 7.0), now=101.0) == first  # one second later, same end
    assert shown(_event(3, 8.0), now=101.0) != first  # more time: a later end
    assert shown(_event(4, 0.0), now=120.0) == shown(_event(5, 0.0), now=121.0)


def test_what_a_person_sees_is_a_change() -> None:
    first = shown(_event(1, None), now=1.0)
    assert shown(_event(2, None, waiting_for=[1]), now=1.0) != first
    gone = _event(3, None)
    gone["offline"] = [{"player": "Bo", "for_s": 3}]
    assert shown(gone, now=1.0) != first
    later = _event(4, None)
    later["offline"] = [{"player": "Bo", "for_s": 4}]
    assert shown(later, now=2.0) != shown(gone, now=1.0)  # "unreachable for 4 s"
    problem = _event(5, None)
    problem["problems"] = ["Bo stopped answering"]
    assert shown(problem, now=1.0) != first


def test_the_next_hand_countdown_is_compared_by_when_it_ends() -> None:
    first = shown(_event(1, None, next={"waiting": [1, 2], "deadline": 60.0}), now=10.0)
    assert shown(_event(2, None, next={"waiting": [1, 2], "deadline": 59.0}), now=11.0) == first
    assert shown(_event(3, None, next={"waiting": [2], "deadline": 59.0}), now=11.0) != first


def test_an_idle_daemon_at_a_table_sends_no_views(tmp_path: Path) -> None:
    """A real daemon hosting a real table in its lobby: subscribing brings the view at once;
    then, with nothing changing, no view for three syncer rounds (it sent one a second)."""
    daemon = DaemonProcess(tmp_path / "d", "ann", session_module=REAL)
    daemon.start()
    try:
        client = daemon.client(subscribe=False)
        try:
            made = request(client, type="create", name="quiet", rules="mcr")
            request(client, type="subscribe")
            first = client.next_event(5.0)
            assert first is not None and first["table"] == made["table"]
            while client.next_event(0.5) is not None:  # the creation's own views
                pass
            quiet: list[dict[str, Any]] = []
            end = time.monotonic() + 3.5
            while (left := end - time.monotonic()) > 0:
                event = client.next_event(left)
                if event is not None:
                    quiet.append(event)
            assert quiet == []
            request(client, type="subscribe")  # a new subscriber: the view again
            assert client.next_event(5.0) is not None
        finally:
            client.close()
    finally:
        daemon.stop()
