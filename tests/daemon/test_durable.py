"""The record log's fsync runs off the event loop (issue 21 item 5) and durability stays as
promised: a step's sends wait until its records are durable, in the order of their steps,
while the loop goes on; catch-up answers are built only from synced records; a failed sync
drops what waited for it and stops the table (daemon/store/durable.py, docs/DAEMON.md
"Durability")."""

from __future__ import annotations

import asyncio
import errno
import os
import threading
from pathlib import Path

import pytest

from fourwinds.daemon.store import disk as store
from fourwinds.daemon.store.disk import TableLog
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from testkit.waiting import async_until
from tests.daemon import toy_session
from tests.daemon.helpers import identity
from tests.daemon.test_shell import PORT

ME, PEER = identity(1), identity(2)


class Disk:
    """``fdatasync`` held at a gate: each call records its thread, then waits for ``open``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gate = threading.Event()
        self.threads: list[str] = []
        self.calls: list[str] = []  # "sync" in the order they ended, among the sends
        real = store._datasync

        def datasync(fd: int) -> None:
            self.threads.append(threading.current_thread().name)
            assert self.gate.wait(10), "the test never opened the gate"
            real(fd)
            self.calls.append("sync")

        monkeypatch.setattr(store, "_datasync", datasync)


def _runtime(tmp_path: Path) -> TableRuntime:
    rt = TableRuntime(
        b"t" * 16,
        "t",
        "mcr",
        ME.public_key,
        False,
        None,
        {ME.public_key: ("127.0.0.1", 1), PEER.public_key: ("127.0.0.1", 2)},
    )
    rt.log = TableLog.open(tmp_path / "records.log")
    return rt


def _step(session: object, name: bytes, send: bool = True) -> toy_session.Step:
    out = (toy_session.Outgoing(None, name),) if send else ()
    return toy_session.Step(session, outgoing=out, persist=(b"record " + name,))  # type: ignore[arg-type]


def _session(n: int) -> toy_session.Session:
    return toy_session.Session(ME.private_key, ME.public_key, name=f"s{n}")


def test_a_send_waits_for_its_sync_which_runs_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)
    rt = _runtime(tmp_path)
    sent: list[bytes] = []

    async def body() -> None:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                # sleep-ok: the ticker's interval: it counts the event loop's turns
                await asyncio.sleep(0.001)

        other = asyncio.create_task(ticker())

        def send(key: bytes, payload: bytes) -> None:
            sent.append(payload)
            disk.calls.append("send")

        rt.apply(PORT, _step(_session(1), b"mine"), ME.public_key, send)
        assert rt.session.name == "s1"  # adopted at once (our frontend sees it)
        for _ in range(50):
            # sleep-ok: the test is that the loop runs on meanwhile: time must pass
            await asyncio.sleep(0.002)
        assert sent == [], "sent before its record was durable"
        assert ticks > 10, "the event loop waited for the disk"
        assert disk.threads and disk.threads[0] != threading.main_thread().name
        disk.gate.set()
        await rt.drained()
        other.cancel()
        assert sent == [b"mine"] and disk.calls == ["sync", "send"]

    asyncio.run(body())
    assert rt.log is not None and rt.log.synced == rt.log.written == 1
    rt.close_log()
    assert TableLog.open(tmp_path / "records.log").records == (b"record mine",)


def test_sends_of_one_table_leave_in_the_order_of_their_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Steps applied while a sync runs wait for the next one (one fsync for all of them:
    group commit), and their sends leave in order after the first step's."""
    disk = Disk(monkeypatch)
    rt = _runtime(tmp_path)
    sent: list[bytes] = []

    async def body() -> None:
        def send(key: bytes, payload: bytes) -> None:
            sent.append(payload)

        rt.apply(PORT, _step(_session(1), b"a"), ME.public_key, send)
        await async_until(lambda: disk.threads, 5, 'the sync of "a" beginning (at the gate)')
        rt.apply(PORT, _step(_session(2), b"quiet", send=False), ME.public_key, send)
        rt.apply(PORT, _step(_session(3), b"b"), ME.public_key, send)
        rt.apply(PORT, _step(_session(4), b"c"), ME.public_key, send)
        assert sent == []
        disk.gate.set()
        await rt.drained()

    asyncio.run(body())
    assert sent == [b"a", b"b", b"c"]
    assert rt.log is not None and rt.log.fsyncs == 2 and rt.log.synced == 4
    rt.close_log()


def test_catch_up_answers_are_built_from_synced_records_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)
    rt = _runtime(tmp_path)
    first, second = _session(1), _session(2)
    seen: list[object] = []

    async def body() -> None:
        rt.apply(PORT, _step(first, b"one"), ME.public_key, lambda k, p: None)
        disk.gate.set()
        await rt.drained()
        disk.gate.clear()
        assert rt.synced_session() is first
        rt.apply(PORT, _step(second, b"two"), ME.public_key, lambda k, p: None)
        await async_until(lambda: len(disk.threads) == 2, 5, 'the sync of "two" beginning')
        seen.append(rt.synced_session())  # "two" is not on disk yet: not in an answer
        assert rt.session is second
        disk.gate.set()
        await rt.drained()
        seen.append(rt.synced_session())

    asyncio.run(body())
    assert seen == [first, second]
    rt.close_log()


def test_a_failed_sync_drops_the_sends_that_waited_for_it_and_stops_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(store, "_datasync", fail)
    rt = _runtime(tmp_path)
    sent: list[bytes] = []

    async def body() -> None:
        rt.apply(PORT, _step(_session(1), b"a"), ME.public_key, lambda k, p: sent.append(p))
        rt.apply(PORT, _step(_session(2), b"b"), ME.public_key, lambda k, p: sent.append(p))
        await rt.drained()

    asyncio.run(body())
    assert sent == []
    assert rt.paused.startswith("stopped: cannot make records.log durable: ")
    assert "(EIO)" in rt.paused
    rt.close_log()
