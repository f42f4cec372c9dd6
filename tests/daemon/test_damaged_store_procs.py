"""A real daemon process restarted with a damaged table folder (issue 14): it starts, answers
``status`` and ``tables`` with the damaged table set aside and the reason naming the file,
the record and its offset, and its other table resumes and plays to the end with the three
other daemons (toy sessions: tests/daemon/toy_session.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon.store import HEADER, RECORDS, TableLog
from fourwinds.frontends.client import Client
from tests.daemon.procs import ROOT, DaemonProcess, request, start_all
from tests.daemon.toy_session import PLAYS

pytestmark = pytest.mark.slow


class Seats:
    """Four toy daemons seated at the tables ``good`` and ``bad``, both hosted by daemon 0."""

    def __init__(self, base: Path) -> None:
        self.daemons = [DaemonProcess(base / f"d{i}", f"bot{i}") for i in range(4)]
        self.clients: dict[int, Client] = {}
        self.tables: dict[str, str] = {}

    def client(self, i: int) -> Client:
        if i not in self.clients:
            self.clients[i] = self.daemons[i].client(subscribe=False)
        return self.clients[i]

    def seat(self) -> None:
        start_all(self.daemons)
        key = request(self.client(0), type="whoami")["public_key"]
        for name in ("good", "bad"):
            self.tables[name] = request(self.client(0), type="create", name=name,
                                        rules="mcr")["table"]
            for i in (1, 2, 3):
                request(self.client(i), type="join", table=self.tables[name],
                        host="127.0.0.1", port=self.daemons[0].port, public_key=key)

    def view(self, i: int, name: str) -> dict[str, Any]:
        event: dict[str, Any] = request(self.client(i), type="view",
                                        table=self.tables[name])["event"]
        return event

    def play_until(self, name: str, done: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            views = [self.view(i, name) for i in range(4)]
            if all(v["view"].get("plays", 0) >= done for v in views):
                return
            for i, event in enumerate(views):
                if event["legal_actions"]:
                    self.client(i).request({"type": "act", "table": self.tables[name],
                                            "action": event["legal_actions"][0]["id"]})
            time.sleep(0.01)
        raise AssertionError(f"{name} did not reach {done} plays within {timeout} s: "
                             f"{[self.view(i, name)['view'].get('plays') for i in range(4)]}")

    def close(self) -> None:
        for client in self.clients.values():
            client.close()
        for d in self.daemons:
            d.stop()


@pytest.fixture
def seats(tmp_path: Path) -> Iterator[Seats]:
    s = Seats(tmp_path)
    try:
        s.seat()
        yield s
    finally:
        s.close()


def test_a_restarted_daemon_sets_a_damaged_table_aside_and_plays_on_at_the_other(
        seats: Seats) -> None:
    seats.play_until("bad", 8, timeout=30)
    seats.play_until("good", 4, timeout=30)
    victim = seats.daemons[2]
    seats.clients.pop(2).close()
    victim.stop()
    path = victim.data_dir / "tables" / seats.tables["bad"] / RECORDS
    log = TableLog.open(path)
    middle = len(log.records) // 2
    at = log.offset_of(middle)
    log.close()
    assert at is not None and middle > 0
    data = bytearray(path.read_bytes())
    data[at + HEADER.size + 1] ^= 0x04             # one flipped bit inside record `middle`
    path.write_bytes(bytes(data))

    victim.start()
    reason = f"records.log record {middle} at byte {at:,}: checksum mismatch"
    good, bad = seats.tables["good"], seats.tables["bad"]
    status = request(seats.client(2), type="status")
    assert [t["table"] for t in status["tables"]] == [good]
    assert [(a["table"], a["set_aside"]) for a in status["set_aside"]] == [(bad, reason)]
    listed = request(seats.client(2), type="tables")
    assert [t["table"] for t in listed["tables"]] == [good]
    assert listed["set_aside"] == status["set_aside"]
    shown = subprocess.run(
        [sys.executable, "-m", "fourwinds.frontends.cli", "tables", "--data-dir",
         str(victim.data_dir), "--wait", "0"], capture_output=True, text=True, timeout=30,
        cwd=ROOT, env={**os.environ, "FOURWINDS_CONFIG": str(victim.data_dir / "none.toml")},
        check=False)
    assert shown.returncode == 0, shown.stderr
    assert f"set aside: {reason} (kept in " in shown.stdout
    kept = victim.data_dir / "tables" / f"set-aside-{bad}" / RECORDS
    assert kept.read_bytes() == bytes(data)          # kept byte for byte, nothing cut

    seats.play_until("good", PLAYS, timeout=40)
    transcripts = [seats.view(i, "good")["view"]["transcript"] for i in range(4)]
    assert transcripts[0] == [n % 4 for n in range(PLAYS)]
    assert all(t == transcripts[0] for t in transcripts)
    assert "Traceback" not in victim.log.read_text()
