"""At a real table: a bot seat started the way `play` starts it (``start_bot_seat`` with the
pause) lets about the pause pass between its view asking for a discard and its discard,
while a bot started as `fourwinds bot` (no ``--pause``) discards at once. The time is read
at each seat's own daemon: when its view first offers the discard, and when it no longer
does (the daemon applied the seat's act)."""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path

import pytest

from fourwinds.frontends.client.daemon_link import LocalApi, connect
from fourwinds.frontends.client.local_seats import Started, start_bot_seat
from testkit.procs import DaemonProcess, host_by_cli, start_logged

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"
PAUSE = 0.8
DISCARDS = 4  # each watched seat's discards measured
WITHIN_S = 120.0


class DiscardClock:
    """Watches one seat's daemon: for each step its view offered a discard, the seconds from
    the first view offering it to the first view that no longer does."""

    def __init__(self, api: LocalApi, table: str) -> None:
        self.api = api
        self.table = table
        self.waits: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        asked: tuple[object, float] | None = None  # (step, when its discard was offered)
        measured: set[object] = set()
        while not self.stop.is_set():
            event = self.api.next_event(0.2)
            now = time.monotonic()
            if event is None or event.get("type") != "view" or event.get("table") != self.table:
                continue
            step = (event.get("view") or {}).get("step")
            offered = any(a.get("type") == "discard" for a in event.get("legal_actions") or ())
            if asked is not None and (not offered or step != asked[0]):
                self.waits.append(now - asked[1])
                measured.add(asked[0])
                asked = None
            if offered and asked is None and step not in measured:
                asked = (step, now)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.api.close()


def test_a_bot_seated_as_play_seats_it_pauses_before_discarding_and_a_plain_bot_does_not(
    tmp_path: Path,
) -> None:
    me = DaemonProcess(tmp_path / "me", "plain", session_module=REAL)
    started = Started()
    me.start()
    client = me.client(subscribe=False)
    clocks: list[DiscardClock] = []
    try:
        table, key = host_by_cli(me, "paced", "--practice")
        for index in (1, 2, 3):  # as `play` seats them; only the first one with a pause
            start_bot_seat(
                started,
                base=tmp_path,
                index=index,
                rules="mcr",
                table=table,
                host_port=me.port,
                host_key=key,
                pause=PAUSE if index == 1 else 0.0,
            )
        paced = DiscardClock(connect(str(tmp_path / "bot1")), table)
        plain = DiscardClock(connect(str(me.data_dir)), table)
        clocks = [paced, plain]
        start_logged(
            started,
            tmp_path / "plain.log",
            "bot",
            "--rules",
            "mcr",
            "--data-dir",
            str(me.data_dir),
            "--table",
            table,
        )
        deadline = time.monotonic() + WITHIN_S
        while time.monotonic() < deadline and min(len(c.waits) for c in clocks) < DISCARDS:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
        assert min(len(c.waits) for c in clocks) >= DISCARDS, (paced.waits, plain.waits)
        assert statistics.median(paced.waits) >= PAUSE - 0.05, paced.waits
        assert statistics.median(paced.waits) < PAUSE + 1.0, paced.waits
        assert statistics.median(plain.waits) < PAUSE / 2, plain.waits
    finally:
        for clock in clocks:
            clock.close()
        started.stop()
        client.close()
        me.stop()
