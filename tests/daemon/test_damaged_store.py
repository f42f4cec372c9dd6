"""A damaged store loses nothing it need not (issue 14): only a torn tail is cut, damage
elsewhere sets the table aside with the file, offset and record named, a failed write leaves
the log at its last whole record, and one bad table folder never stops the daemon."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.store import disk as store
from fourwinds.daemon.store.disk import (
    HEADER,
    RECORDS,
    Store,
    StoreDamage,
    StoreError,
    TableLog,
)
from fourwinds.daemon.table_runtimes import real_session
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort
from fourwinds.protocol.errors import FourwindsError
from tests.daemon import toy_session
from tests.daemon.helpers import identity
from tests.daemon.test_shell import PORT, apply_and_send, call, make_daemon, run

_REAL_WRITE = os.write
RECORDS_WRITTEN = [bytes([65 + i]) * (5 + 7 * i) for i in range(6)]


def _log_with(path: Path, records: list[bytes]) -> bytes:
    log = TableLog.open(path)
    log.append(records)
    log.close()
    return path.read_bytes()


def _records_of(path: Path) -> tuple[bytes, ...]:
    """The records of the log at ``path``, read by opening it as a daemon does (and closing
    it again: a test that opens a log in a loop kept a file handle for each)."""
    log = TableLog.open(path)
    try:
        return log.records
    finally:
        log.close()


def _offsets(records: list[bytes]) -> list[int]:
    offsets, pos = [], 0
    for record in records:
        offsets.append(pos)
        pos += HEADER.size + len(record)
    return offsets


# -- the log on its own ----------------------------------------------------------------------


def test_a_flipped_byte_before_the_last_record_is_damage_named_and_nothing_is_cut(
    tmp_path: Path,
) -> None:
    """Every single byte flipped anywhere before the last record's header: open refuses with
    the record holding that byte and its offset, and the file is left exactly as it was."""
    path = tmp_path / RECORDS
    good = _log_with(path, RECORDS_WRITTEN)
    offsets = _offsets(RECORDS_WRITTEN)
    for at in range(offsets[-1]):
        damaged = bytearray(good)
        damaged[at] ^= 0x01 << (at % 8)
        path.write_bytes(bytes(damaged))
        record = max(i for i, start in enumerate(offsets) if start <= at)
        with pytest.raises(StoreDamage) as raised:
            TableLog.open(path)
        assert raised.value.record == record and raised.value.offset == offsets[record], at
        assert raised.value.reason.startswith(
            f"records.log record {record} at byte {offsets[record]:,}: "
        )
        assert path.read_bytes() == bytes(damaged), f"bytes cut after a flip at {at}"


def test_a_length_flipped_past_the_end_mid_file_is_damage_not_a_torn_tail(tmp_path: Path) -> None:
    """A length that now runs past the end of the file looks like a torn record, but whole
    records follow it: damage, not a tail to cut (the case that cut 72,645 bytes)."""
    path = tmp_path / RECORDS
    records = [bytes([i]) * 300 for i in range(1, 40)]
    good = _log_with(path, records)
    damaged = bytearray(good)
    damaged[_offsets(records)[3] + 1] ^= 0x80  # + 8 MiB: over the limit
    path.write_bytes(bytes(damaged))
    with pytest.raises(StoreDamage, match=r"record 3 at byte 924: a length of .* over the"):
        TableLog.open(path)
    damaged = bytearray(good)
    damaged[_offsets(records)[3] + 2] ^= 0x80  # + 32 KiB: past the end, within the limit
    path.write_bytes(bytes(damaged))
    with pytest.raises(
        StoreDamage,
        match=r"record 3 at byte 924: .*runs past the end of the "
        r"file, yet whole records follow it",
    ):
        TableLog.open(path)
    assert path.read_bytes() == bytes(damaged)


def test_a_torn_tail_is_cut_at_every_point_of_the_last_write(tmp_path: Path) -> None:
    """A write of three records cut at any byte (kill -9 mid-write): open keeps the records
    before it and those whole in the cut write, cuts the rest, and appends go on."""
    path = tmp_path / RECORDS
    before = _log_with(path, RECORDS_WRITTEN[:3])
    full = _log_with(path, RECORDS_WRITTEN[3:])
    ends = [
        len(before) + HEADER.size * (i + 1) + sum(map(len, RECORDS_WRITTEN[3 : 4 + i]))
        for i in range(3)
    ]
    for cut in range(len(before), len(full)):
        path.write_bytes(full[:cut])
        log = TableLog.open(path)
        whole = sum(1 for end in ends if end <= cut)
        assert log.records == tuple(RECORDS_WRITTEN[: 3 + whole]), cut
        log.append([b"after"])
        log.close()
        assert _records_of(path) == (*RECORDS_WRITTEN[: 3 + whole], b"after")


def test_a_tail_of_zeros_is_cut_as_never_written(tmp_path: Path) -> None:
    """Space a file system allocated but never wrote (a power cut) reads as zeros."""
    path = tmp_path / RECORDS
    good = _log_with(path, RECORDS_WRITTEN)
    path.write_bytes(good + bytes(4096))
    assert _records_of(path) == tuple(RECORDS_WRITTEN)
    assert path.read_bytes() == good


def _failing_write(
    monkeypatch: pytest.MonkeyPatch, fd_of: Callable[[], int], partial: bool
) -> list[int]:
    """Make os.write on the log's fd write half of what it is given (when ``partial``) and
    then fail with ENOSPC, as a disk that fills mid-write does; returns the call log."""
    real = os.write
    calls: list[int] = []

    def write(fd: int, data: Any) -> int:
        if fd != fd_of():
            return real(fd, data)
        calls.append(len(data))
        if partial and len(calls) == 1:
            return real(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", write)
    return calls


def test_a_failed_write_leaves_the_log_at_its_last_good_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / RECORDS
    log = TableLog.open(path)
    log.append(RECORDS_WRITTEN[:2])
    good = path.read_bytes()
    calls = _failing_write(monkeypatch, lambda: log._fd, partial=True)
    with pytest.raises(
        StoreError,
        match=r"cannot write records.log: No space left on device "
        r"\(ENOSPC\)",
    ):
        log.append(RECORDS_WRITTEN[2:4], sync=False)
    assert len(calls) == 2  # half written, then the disk was full
    assert path.read_bytes() == good  # the half record is gone
    assert log.records == tuple(RECORDS_WRITTEN[:2])
    monkeypatch.undo()  # room again
    log.append(RECORDS_WRITTEN[2:4])
    log.close()
    assert _records_of(path) == tuple(RECORDS_WRITTEN[:4])


def test_a_failed_sync_stops_the_log_until_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = TableLog.open(tmp_path / RECORDS)
    log.append([b"one"])

    def fail(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(store, "_datasync", fail)
    with pytest.raises(
        StoreError,
        match=r"cannot make records.log durable: .*\(EIO\); "
        "restart the daemon",
    ):
        log.append([b"two"])
    monkeypatch.undo()
    with pytest.raises(StoreError, match="restart the daemon"):
        log.append([b"three"])
    log.close()


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (CI runs as root); skipped with the reason where it cannot be mounted."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs: {done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path) -> None:
    with open(path, "wb", buffering=0) as filler:
        with pytest.raises(OSError) as full:
            while True:
                filler.write(b"x" * 1024)
        assert full.value.errno == errno.ENOSPC


def test_a_full_tmpfs_leaves_the_log_at_its_last_good_record_until_there_is_room(
    small_tmpfs: Path,
) -> None:
    path = small_tmpfs / RECORDS
    log = TableLog.open(path)
    log.append(RECORDS_WRITTEN)
    good = path.read_bytes()
    _fill(small_tmpfs / "filler")
    big = bytes(range(256)) * 40
    with pytest.raises(StoreError, match=r"\(ENOSPC\)"):
        log.append([b"small", big])
    assert path.read_bytes() == good
    (small_tmpfs / "filler").unlink()
    log.append([b"small", big])
    log.close()
    assert _records_of(path) == (*RECORDS_WRITTEN, b"small", big)


# -- a table runtime and a daemon with a full disk -------------------------------------------


def _seated_runtime(tmp_path: Path) -> tuple[TableRuntime, bytes]:
    """A toy table with four seats, our turn to play, its log in ``tmp_path``."""
    from dataclasses import replace

    me = identity(1)
    others = [identity(i).public_key for i in (2, 3, 4)]
    rt = TableRuntime(
        b"t" * 16,
        "t",
        "mcr",
        me.public_key,
        False,
        None,
        {k: ("127.0.0.1", 1) for k in (me.public_key, *others)},
    )
    rt.log = TableLog.open(tmp_path / RECORDS)
    step = toy_session.new_table(me.private_key, "t", "mcr", "me", {}, b"", 0.0)
    rt.log.append(list(step.persist))
    rt.session = replace(step.session, seats=(me.public_key, *others))
    return rt, me.public_key


def test_a_step_that_cannot_be_written_is_not_carried_out_and_the_table_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt, key = _seated_runtime(tmp_path)
    assert rt.log is not None
    log = rt.log
    before, good = rt.session, (tmp_path / RECORDS).read_bytes()
    sent: list[bytes] = []
    _failing_write(monkeypatch, lambda: log._fd, partial=True)
    play = toy_session.local_action(rt.session, {"action": "play"}, 0.0)
    apply_and_send(rt, play, key, lambda k, payload: sent.append(payload))
    assert sent == [] and rt.session is before  # not sent, not adopted
    assert (tmp_path / RECORDS).read_bytes() == good
    assert rt.paused.startswith(
        "paused: cannot write records.log: No space left on device "
        "(ENOSPC); the hand goes on once there is room"
    )
    view = rt.show_pause({"phase": "play", "phase_detail": "Your turn"})
    assert view["phase_detail"].startswith("Paused: cannot write records.log")
    assert rt.problems == [rt.paused]
    with pytest.raises(StoreError, match="your action was not saved: paused: cannot write"):
        rt.refuse_if_paused()
    monkeypatch.undo()  # room again: the same play goes
    apply_and_send(rt, play, key, lambda k, payload: sent.append(payload))
    assert rt.paused == "" and len(sent) == 3 and rt.session is play.session
    rt.log.close()
    assert _records_of(tmp_path / RECORDS)[-1] == play.persist[-1]


def test_a_players_action_on_a_full_disk_is_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        d = Daemon(
            identity(1), Paths(tmp_path / "d", tmp_path / "d" / "run"), PORT, name="me", mdns=False
        )
        rt, _ = _seated_runtime(tmp_path)
        d.tables[rt.table_id] = rt
        sent: list[bytes] = []
        monkeypatch.setattr(d.steps, "send_payload", lambda r, k, payload: sent.append(payload))
        assert rt.log is not None
        log = rt.log
        _failing_write(monkeypatch, lambda: log._fd, partial=False)
        with pytest.raises(
            FourwindsError,
            match="your action was not saved: paused: cannot "
            r"write records.log: .*\(ENOSPC\)",
        ):
            await d.steps.act(rt, {"action": "play"}, 0.0)
        event = d.views.view_event(rt, [])
        assert event["view"]["phase_detail"].startswith("Paused: cannot write records.log")
        assert event["problems"] == [rt.paused] and sent == []
        monkeypatch.setattr(os, "write", _REAL_WRITE)  # room again
        await d.steps.act(rt, {"action": "play"}, 0.0)
        await rt.drained()  # (sent once it is durable)
        assert rt.paused == "" and len(sent) == 3
        assert "phase_detail" not in d.views.view_event(rt, [])["view"]
        rt.log.close()

    asyncio.run(body())


# -- a daemon with damaged table folders -----------------------------------------------------


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x20
    path.write_bytes(bytes(data))


def _real_daemon(base: Path) -> Daemon:
    data = base / "d"
    return Daemon(
        identity(7),
        Paths(data, data / "run"),
        real_session,
        name="me",
        host="127.0.0.1",
        listen_port=0,
        mdns=False,
    )


def _start_and(base: Path, body: Callable[[Daemon], Any]) -> None:
    async def main() -> None:
        d = _real_daemon(base)
        await d.start()
        try:
            await body(d)
        finally:
            await d.close()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_flipped_genesis_sets_the_table_aside_with_a_clear_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    made: dict[str, str] = {}

    async def create(d: Daemon) -> None:
        made["bad"] = (await call(d, type="create", name="kitchen", rules="mcr"))["table"]
        made["good"] = (await call(d, type="create", name="porch", rules="mcr"))["table"]

    _start_and(tmp_path, create)
    tables = tmp_path / "d" / "tables"
    _flip(tables / made["bad"] / RECORDS, HEADER.size + 3)  # inside the genesis record

    async def again(d: Daemon) -> None:
        listed = await call(d, type="tables")
        assert [t["name"] for t in listed["tables"]] == ["porch"]
        aside = listed["set_aside"]
        assert [(a["table"], a["name"]) for a in aside] == [(made["bad"], "kitchen")]
        assert aside[0]["set_aside"] == "records.log record 0 at byte 0: checksum mismatch"
        assert (await call(d, type="status"))["set_aside"] == aside
        view = (await call(d, type="view", table="porch"))["event"]["view"]
        assert view["phase"] == "lobby"

    with caplog.at_level("INFO"):
        _start_and(tmp_path, again)
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in caplog.text
    kept = tables / f"set-aside-{made['bad']}"
    assert (kept / RECORDS).exists() and not (tables / made["bad"]).exists()
    assert (kept / "set-aside.txt").read_text().startswith("records.log record 0 at byte 0")

    async def third(d: Daemon) -> None:  # still listed, still not resumed, next start
        listed = await call(d, type="tables")
        assert [t["name"] for t in listed["tables"]] == ["porch"]
        assert [a["name"] for a in listed["set_aside"]] == ["kitchen"]

    _start_and(tmp_path, third)


def test_a_record_the_session_cannot_read_names_its_offset(tmp_path: Path) -> None:
    made: dict[str, str] = {}

    async def create(d: Daemon) -> None:
        made["table"] = (await call(d, type="create", name="kitchen", rules="mcr"))["table"]

    _start_and(tmp_path, create)
    path = tmp_path / "d" / "tables" / made["table"] / RECORDS
    log = TableLog.open(path)
    count, size = len(log.records), path.stat().st_size
    log.append([b"\xc1 not msgpack"])  # a whole record, checksum right, unreadable
    log.close()

    async def again(d: Daemon) -> None:
        assert d.tables == {}
        reason = (await call(d, type="tables"))["set_aside"][0]["set_aside"]
        assert reason.startswith(f"records.log record {count} at byte {size:,}: ")

    _start_and(tmp_path, again)


def test_unreadable_metadata_sets_the_table_aside_and_the_others_resume(tmp_path: Path) -> None:
    async def create(ds: list[Daemon]) -> None:
        for name in ("one", "two"):
            assert (await call(ds[0], type="create", name=name, rules="american"))["ok"]

    run(tmp_path, 1, create)
    tables = tmp_path / "d0" / "tables"
    one = next(
        p
        for p in tables.iterdir()
        if Store(tables).read_meta(bytes.fromhex(p.name))["name"] == "one"
    )
    (one / "meta.msgpack").write_bytes(b"\x92\x01")

    async def again(ds: list[Daemon]) -> None:
        listed = await call(ds[0], type="tables")
        assert [t["name"] for t in listed["tables"]] == ["two"]
        assert listed["set_aside"][0]["set_aside"].startswith("meta.msgpack: ")

    run(tmp_path, 1, again)


def test_a_toy_daemon_skips_a_damaged_table_and_keeps_every_byte(tmp_path: Path) -> None:
    """The set-aside folder holds the damaged log byte for byte."""
    made: dict[str, str] = {}

    async def create(ds: list[Daemon]) -> None:
        made["t"] = (await call(ds[0], type="create", name="one", rules="mcr"))["table"]

    run(tmp_path, 1, create)
    path = tmp_path / "d0" / "tables" / made["t"] / RECORDS
    _flip(path, 5)  # the genesis record's checksum
    damaged = path.read_bytes()

    async def again(ds: list[Daemon]) -> None:
        assert ds[0].tables == {}

    run(tmp_path, 1, again)
    kept = tmp_path / "d0" / "tables" / f"set-aside-{made['t']}" / RECORDS
    assert kept.read_bytes() == damaged
    assert (
        make_daemon(tmp_path, 0)
        .store.set_aside_tables()[0]
        .reason.startswith("records.log record 0 at byte 0: ")
    )


def test_a_table_whose_rebuild_cannot_start_is_set_aside_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Damaged records with good metadata: the folder is set aside to rebuild the seat from
    the peers. When the fresh folder cannot be started (here the disk refuses its metadata)
    the kept copy stays the one set-aside folder, byte for byte (it was once moved a second
    time, as ``set-aside-<id>-1``, over the partly made fresh folder), and the daemon goes
    on without the table."""
    from fourwinds.daemon.table_runtimes import recovery

    keys = [identity(i).public_key for i in range(4)]
    table_id = bytes(range(16))
    rt = TableRuntime(
        table_id,
        "kitchen",
        "mcr",
        keys[0],
        False,
        None,
        {k: ("127.0.0.1", 7000 + i) for i, k in enumerate(keys)},
        place=2,
    )
    tables = Store(tmp_path / "tables")
    tables.write_meta(table_id, rt.meta())
    _log_with(tmp_path / "tables" / table_id.hex() / RECORDS, RECORDS_WRITTEN)
    kept = {p.name: p.read_bytes() for p in (tmp_path / "tables" / table_id.hex()).iterdir()}

    def damaged(*_: Any, **__: Any) -> TableRuntime:
        raise recovery.CannotResume(
            "records.log record 3 at byte 60: bad checksum",
            TableRuntime.from_meta(tables.read_meta(table_id)),
        )

    def refused(self: Store, table_id: bytes, meta: dict[str, Any], reason: str) -> None:
        (self.root / table_id.hex()).mkdir()
        raise StoreError("cannot write meta.msgpack: No space left on device (ENOSPC)")

    monkeypatch.setattr(recovery, "resume_table", damaged)
    monkeypatch.setattr(Store, "start_rebuilding", refused)
    assert (
        recovery.resume_or_set_aside(
            tables, SessionPort.of(real_session), identity(2).private_key, table_id, keys[2]
        )
        is None
    )
    aside = [p.name for p in (tmp_path / "tables").iterdir() if p.name.startswith("set-aside")]
    assert aside == [f"set-aside-{table_id.hex()}"]
    folder = tmp_path / "tables" / aside[0]
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name in kept} == kept
    assert "rebuilt from the other seats" in (folder / store.REASON).read_text()
