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

from fourwinds.daemon.store.disk import RECORDS, TableLog
from fourwinds.frontends.client.client import Client
from testkit.damage import flip_middle_record
from testkit.procs import ROOT, DaemonProcess, request, start_all
from tests.daemon.toy_session import PLAYS

pytestmark = pytest.mark.slow
BLOCK = 1024


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

    def seat(self, names: tuple[str, ...] = ("good", "bad")) -> None:
        start_all(self.daemons)
        key = request(self.client(0), type="whoami")["public_key"]
        for name in names:
            self.tables[name] = request(self.client(0), type="create", name=name, rules="mcr")[
                "table"
            ]
            for i in (1, 2, 3):
                request(
                    self.client(i),
                    type="join",
                    table=self.tables[name],
                    host="127.0.0.1",
                    port=self.daemons[0].port,
                    public_key=key,
                )

    def view(self, i: int, name: str) -> dict[str, Any]:
        event: dict[str, Any] = request(self.client(i), type="view", table=self.tables[name])[
            "event"
        ]
        return event

    def play_until(self, name: str, done: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            views = [self.view(i, name) for i in range(4)]
            if all(v["view"].get("plays", 0) >= done for v in views):
                return
            for i, event in enumerate(views):
                if event["legal_actions"]:
                    self.client(i).request(
                        {
                            "type": "act",
                            "table": self.tables[name],
                            "action": event["legal_actions"][0]["id"],
                        }
                    )
            # sleep-ok: pace of the bots' loop (bounded by its deadline)
            time.sleep(0.01)
        raise AssertionError(
            f"{name} did not reach {done} plays within {timeout} s: "
            f"{[self.view(i, name)['view'].get('plays') for i in range(4)]}"
        )

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
    seats: Seats,
) -> None:
    seats.play_until("bad", 8, timeout=30)
    seats.play_until("good", 4, timeout=30)
    victim = seats.daemons[2]
    seats.clients.pop(2).close()
    victim.stop()
    path = victim.data_dir / "tables" / seats.tables["bad"] / RECORDS
    flipped = flip_middle_record(path)
    middle, at = flipped.record, flipped.offset

    victim.start()
    reason = f"records.log record {middle} at byte {at:,}: checksum mismatch"
    good, bad = seats.tables["good"], seats.tables["bad"]
    deadline = time.monotonic() + 10  # tables resume off the event loop: status answers
    while time.monotonic() < deadline:  # at once, and lists the damaged one set aside soon
        status = request(seats.client(2), type="status")
        if status["set_aside"] and len(status["tables"]) == 1:
            break
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    assert [t["table"] for t in status["tables"]] == [good]
    assert [(a["table"], a["set_aside"]) for a in status["set_aside"]] == [(bad, reason)]
    listed = request(seats.client(2), type="tables")
    assert [t["table"] for t in listed["tables"]] == [good]
    assert listed["set_aside"] == status["set_aside"]
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "fourwinds.frontends.cli",
            "tables",
            "--data-dir",
            str(victim.data_dir),
            "--wait",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
        env={**os.environ, "FOURWINDS_CONFIG": str(victim.data_dir / "none.toml")},
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert f"set aside: {reason} (kept in " in shown.stdout
    kept = victim.data_dir / "tables" / f"set-aside-{bad}" / RECORDS
    assert kept.read_bytes() == flipped.data  # kept byte for byte, nothing cut

    seats.play_until("good", PLAYS, timeout=40)
    transcripts = [seats.view(i, "good")["view"]["transcript"] for i in range(4)]
    assert transcripts[0] == [n % 4 for n in range(PLAYS)]
    assert all(t == transcripts[0] for t in transcripts)
    assert "Traceback" not in victim.log.read_text()


def _small_disk(base: Path) -> Path:
    """A 2 MiB ext2 file system with 1 KiB blocks, loop-mounted (CI runs as root; skipped
    with the reason where it cannot be made): a toy match's log crosses a block every few
    plays, so filling the disk mid-hand makes seat 2's next record fail (a tmpfs counts
    whole 4 KiB pages, which a toy match never fills)."""
    image, mount = base / "disk.img", base / "small"
    mount.mkdir()
    with open(image, "wb") as out:
        out.truncate(2 * 1024 * 1024)
    for cmd in (
        ["mkfs.ext2", "-q", "-F", "-b", "1024", "-m", "0", str(image)],
        ["mount", "-o", "loop", str(image), str(mount)],
    ):
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            pytest.skip(f"cannot make a small disk ({cmd[0]}): {error}")
        if done.returncode != 0:
            pytest.skip(f"cannot make a small disk ({cmd[0]}): {done.stderr.strip()}")
    return mount


def test_a_daemon_whose_disk_fills_mid_hand_pauses_says_why_and_plays_on_once_there_is_room(
    tmp_path: Path,
) -> None:
    """Seat 2's data folder is on a small disk filled mid-hand: its table pauses with the
    reason in its view (and the table waits for it), nothing is half written, and once the
    filler is removed the hand plays to the end with four identical transcripts."""
    small = _small_disk(tmp_path)
    seats = Seats(tmp_path)
    seats.daemons[2] = DaemonProcess(small / "d2", "bot2")
    seats.daemons[2].log = tmp_path / "d2.log"  # the daemon's own log off that disk
    try:
        seats.seat(("t",))
        path = small / "d2" / "tables" / seats.tables["t"] / RECORDS
        plays = 0
        while BLOCK - path.stat().st_size % BLOCK > 300:  # wait until seat 2's log has
            plays += 1  # little room left in its last block
            seats.play_until("t", plays, timeout=10)
        assert plays < PLAYS - 4
        filler = small / "filler"
        with open(filler, "wb", buffering=0) as out, pytest.raises(OSError):
            while True:
                out.write(b"x" * 1024)
        deadline = time.monotonic() + 20
        detail = ""
        while time.monotonic() < deadline and not detail.startswith("Paused"):
            for i in range(4):
                event = seats.view(i, "t")
                if i == 2:
                    detail = str(event["view"].get("phase_detail", ""))
                if event["legal_actions"]:
                    answer = seats.client(i).request(
                        {
                            "type": "act",
                            "table": seats.tables["t"],
                            "action": event["legal_actions"][0]["id"],
                        }
                    )
                    if i == 2 and not answer.get("ok"):  # its own play could not be saved
                        assert str(answer.get("error")).startswith(
                            "your action was not saved: paused: cannot write records.log"
                        )
            # sleep-ok: pace of the bots' loop (bounded by its deadline)
            time.sleep(0.02)
        assert detail.startswith(
            "Paused: cannot write records.log: No space left on device "
            "(ENOSPC); the hand goes on once there is room"
        ), detail
        assert detail[0].upper() + detail[1:] == detail
        # sleep-ok: settle: no signal says what was in flight landed (what was on its way lands)
        time.sleep(1.0)
        stuck = [seats.view(i, "t")["view"]["plays"] for i in range(4)]
        # sleep-ok: a negative: time passes to show the table waits for seat 2
        time.sleep(1.5)
        assert [seats.view(i, "t")["view"]["plays"] for i in range(4)] == stuck
        TableLog.open(path).close()  # whole records only: no damage, no torn tail
        filler.unlink()
        seats.play_until("t", PLAYS, timeout=40)
        transcripts = [seats.view(i, "t")["view"]["transcript"] for i in range(4)]
        assert all(t == transcripts[0] for t in transcripts)
        assert "phase_detail" not in seats.view(2, "t")["view"]
    finally:
        seats.close()
        subprocess.run(["umount", "-l", str(small)], check=False)
