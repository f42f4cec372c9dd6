"""How the table screen's link follows its daemon (daemon_watch.py), without a daemon.

The endpoint file is written here as a daemon writes it: naming this very process (a daemon
that runs), a process that has ended (one killed with -9: its file stays behind) or nothing
(one stopped on purpose removes it). The "restart" is the test's own function, in place of
`play`'s ``ensure_daemon``. The real daemon, killed under a real screen, is in
tests/people/test_play_daemon_crash.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fourwinds.daemon.paths import default_paths
from fourwinds.frontends.client.daemon_link import DaemonTable, Message
from fourwinds.frontends.client.daemon_watch import (
    DaemonId,
    DaemonStopped,
    FollowedTable,
    Seen,
    look,
)
from fourwinds.protocol.errors import FourwindsError
from testkit.waiting import until


class FakeApi:
    """A daemon connection that answers every request with ``answer``."""

    def __init__(self, answer: Message) -> None:
        self.answer = answer
        self.asked: list[Message] = []
        self.closed = False

    def request(self, message: Mapping[str, Any]) -> Message:
        self.asked.append(dict(message))
        return self.answer

    def next_event(self, timeout: float) -> Message | None:
        return None

    def close(self) -> None:
        self.closed = True


def _dead_pid() -> int:
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    return done.pid


def _write(folder: Path, pid: int, endpoint: str = "ipc:///nowhere") -> None:
    path = default_paths(str(folder)).api_endpoint_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msgpack.packb({"endpoint": endpoint, "token": "t", "pid": pid}))


def _followed(folder: Path, restart: Callable[[], Any]) -> tuple[FollowedTable, FakeApi]:
    api = FakeApi({"ok": False, "error": "the old daemon answered"})
    return FollowedTable(DaemonTable(api, "kitchen"), str(folder), restart, watch_s=0.0), api


def _until(test: Callable[[], bool], what: str) -> None:
    until(test, 5, what, step=0.02)


def test_look_tells_the_same_daemon_a_new_one_and_none(tmp_path: Path) -> None:
    _write(tmp_path, os.getpid())
    known = DaemonId("ipc:///nowhere", "t", os.getpid())
    assert look(str(tmp_path), known) == (Seen.SAME, known)
    _write(tmp_path, os.getpid(), "ipc:///elsewhere")
    assert look(str(tmp_path), known)[0] is Seen.NEW
    _write(tmp_path, _dead_pid())
    assert look(str(tmp_path), known) == (Seen.GONE, None)


def test_a_crashed_daemon_is_said_at_once_and_the_screen_moves_to_the_new_one(
    tmp_path: Path,
) -> None:
    _write(tmp_path, os.getpid())
    new_api = FakeApi(
        {
            "ok": True,
            "event": {
                "type": "view",
                "table": "kitchen",
                "view": {"phase": "play"},
                "legal_actions": [],
            },
        }
    )

    checked = threading.Event()  # the restart waits until the screen while down is read

    def restart() -> FakeApi:
        assert checked.wait(10), "the test never let the restart finish"
        _write(tmp_path, os.getpid(), "ipc:///the-new-one")
        return new_api

    link, old_api = _followed(tmp_path, restart)
    _write(tmp_path, _dead_pid())  # killed with -9: the file stays, its pid has ended
    try:
        assert link.latest_event(0.0) is None
        assert "stopped" in link.notice and "again" in link.notice
        refused = link.act({"type": "act", "table": "kitchen"})
        assert not refused["ok"] and "not running" in refused["error"]
        assert not old_api.asked  # never a request to the dead daemon
    finally:
        checked.set()
    _until(lambda: link.latest_event(0.0) is not None, "the view from the new daemon")
    assert link.notice == "" and link.api is new_api and old_api.closed
    assert new_api.asked[-1] == {"type": "view", "table": "kitchen"}


def test_a_daemon_that_cannot_be_started_again_ends_the_screen_with_the_reason(
    tmp_path: Path,
) -> None:
    _write(tmp_path, os.getpid())

    def restart() -> FakeApi:
        raise FourwindsError("the daemon exited at once (port 7420 is in use)")

    link, _ = _followed(tmp_path, restart)
    _write(tmp_path, _dead_pid())
    with pytest.raises(
        FourwindsError,
        match="could not be started again: the daemon exited "
        r"at once \(port 7420 is in use\)",
    ) as failed:
        end = time.monotonic() + 5
        while time.monotonic() < end:
            link.latest_event(0.01)
    assert "\n" not in str(failed.value)


def test_a_daemon_stopped_on_purpose_closes_the_screen_and_is_not_restarted(tmp_path: Path) -> None:
    _write(tmp_path, os.getpid())
    restarted: list[bool] = []
    link, _ = _followed(tmp_path, lambda: restarted.append(True))
    default_paths(str(tmp_path)).api_endpoint_file.unlink()  # `fourwinds stop`
    with pytest.raises(DaemonStopped, match="was stopped"):
        link.latest_event(0.0)
    assert not restarted
