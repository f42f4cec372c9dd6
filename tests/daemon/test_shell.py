"""The daemon shell in-process on loopback: persist before send, resume, pairing, API, fuzz."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import msgpack
import pytest
import zmq
import zmq.asyncio

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api import requests
from fourwinds.daemon.local_api.server import API_VERSION, ApiError
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers.wire import TableMessage
from fourwinds.daemon.store.disk import TableLog
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionModule, SessionPort
from testkit import fuzz
from tests.daemon import toy_session
from tests.daemon.helpers import fuzz_count, identity, time_limit, wait_for

PORT = SessionPort.of(cast(SessionModule, toy_session))


def make_daemon(
    base: Path,
    i: int,
    force_tcp: bool = False,
    *,
    session: SessionModule | SessionPort = PORT,
    first_identity: int = 100,
) -> Daemon:
    """Daemon ``i`` of a test, in ``base/d<i>``, on loopback, the toy session unless
    ``session`` names another (tests/daemon/test_events.py: the real one)."""
    data = base / f"d{i}"
    return Daemon(
        identity(first_identity + i),
        Paths(data, data / "run"),
        session,
        name=f"p{i}",
        host="127.0.0.1",
        listen_port=0,
        mdns=False,
        force_tcp_api=force_tcp,
    )


async def call(d: Daemon, **request: Any) -> dict[str, Any]:
    return await requests.handle(d, {"v": API_VERSION, **request})


async def join(d: Daemon, host: Daemon, table: str, code: str | None = None) -> dict[str, Any]:
    return await call(
        d,
        type="join",
        table=table,
        host="127.0.0.1",
        port=host.transport.port,
        public_key=host.identity.public_key.hex(),
        code=code,
    )


def run(
    base: Path,
    n: int,
    body: Callable[[list[Daemon]], Awaitable[None]],
    force_tcp: bool = False,
    *,
    session: SessionModule | SessionPort = PORT,
    first_identity: int = 100,
) -> None:
    async def main() -> None:
        daemons = [
            make_daemon(base, i, force_tcp, session=session, first_identity=first_identity)
            for i in range(n)
        ]
        try:
            for d in daemons:
                await d.start()
            await body(daemons)
        finally:
            for d in daemons:
                await d.close()

    asyncio.run(asyncio.wait_for(main(), time_limit(60)))


def apply_and_send(
    rt: TableRuntime, step: Any, key: bytes, send: Callable[[bytes, bytes], None]
) -> None:
    """``rt.apply`` on an event loop, then wait for its sends (held until the fsync, which
    runs off the loop: daemon/store/durable.py)."""

    async def body() -> None:
        rt.apply(PORT, step, key, send)
        await rt.drained()

    asyncio.run(body())


def test_persist_is_fsynced_before_any_message_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        order.append("fsync")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "fdatasync", fsync, raising=False)  # the log uses it if there
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
    rt.log = TableLog.open(tmp_path / "records.log")
    step = toy_session.new_table(me.private_key, "t", "mcr", "me", {}, b"", 0.0)
    apply_and_send(rt, step, me.public_key, lambda key, payload: order.append("send"))
    session = step.session
    for key in others:  # seat the three others through the host's own session
        from dataclasses import replace

        session = replace(session, seats=(*session.seats, key))
    order.clear()
    play = toy_session.local_action(session, {"action": "play"}, 0.0)
    apply_and_send(rt, play, me.public_key, lambda key, payload: order.append("send"))
    assert order[0] == "fsync" and order.count("send") == 3
    assert order.index("fsync") < order.index("send")
    assert rt.log.records[-1] == play.persist[-1]


def test_restart_resumes_every_table(tmp_path: Path) -> None:
    async def first(ds: list[Daemon]) -> None:
        made = await call(ds[0], type="create", name="north", rules="american")
        assert made["ok"]

    run(tmp_path, 1, first)

    async def second(ds: list[Daemon]) -> None:
        listed = await call(ds[0], type="tables")
        assert [t["name"] for t in listed["tables"]] == ["north"]
        view = (await call(ds[0], type="view", table="north"))["event"]["view"]
        assert view["seat"] == 0 and view["seated"] == 1

    run(tmp_path, 1, second)


def test_private_table_wrong_code_refused_right_code_admitted(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        host, guest = ds
        made = await call(host, type="create", name="club", rules="mcr", private=True)
        code = made["code"]
        assert code and len(code) == 6
        with pytest.raises(ApiError, match="wrong table code"):
            await join(guest, host, made["table"], code="ZZZZZZ")
        with pytest.raises(ApiError, match="private"):
            await join(guest, host, made["table"], code=None)
        assert (await join(guest, host, made["table"], code=code.lower()))["ok"]
        assert await wait_for(
            lambda: guest.tables[bytes.fromhex(made["table"])].session is not None
        )
        assert len(host.tables[bytes.fromhex(made["table"])].members) == 2
        # the host's lobby shows the code while places are free; a joiner never has it
        assert (await call(host, type="view", table="club"))["event"]["code"] == code
        assert "code" not in (await call(guest, type="view", table=made["table"]))["event"]

    run(tmp_path, 2, body)


def test_a_full_table_is_refused_with_reason(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        made = await call(ds[0], type="create", name="full", rules="mcr")
        for d in ds[1:4]:
            assert (await join(d, ds[0], made["table"]))["ok"]
        with pytest.raises(ApiError, match="is full"):
            await join(ds[4], ds[0], made["table"])

    run(tmp_path, 5, body)


def test_seat_request_gives_the_place_held_and_refuses_another_with_reason(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        host, guest = ds
        made = await call(host, type="create", name="seats", rules="mcr")
        assert (await call(host, type="seat", table="seats"))["seat"] == 0
        assert (await join(guest, host, made["table"]))["ok"]
        table = made["table"]
        rt = guest.find_table(table)
        assert await wait_for(lambda: rt.place is not None)
        taken = await call(guest, type="seat", table=table, seat=None)
        assert (taken["seat"], taken["seated"]) == (1, 2)
        assert (await call(guest, type="seat", table=table, seat=1))["ok"]
        with pytest.raises(ApiError, match=r"you sit at place 1 of .*: places follow"):
            await call(guest, type="seat", table=table, seat=3)
        with pytest.raises(ApiError, match="must be a place 0-3"):
            await call(guest, type="seat", table=table, seat="north")
        assert rt.place == 1  # a refused request changed nothing

    run(tmp_path, 2, body)


def test_fuzzed_local_api_requests_are_refused_without_state_change(tmp_path: Path) -> None:
    n = fuzz_count()
    got = asyncio.run(asyncio.wait_for(fuzz.local_api(tmp_path, PORT, n), time_limit(60)))
    assert got.refused_replies == n  # every one answered ok: false with an error
    assert got.counted >= n
    assert got.view_unchanged
    assert got.tables_unchanged


def test_tcp_fallback_needs_the_token(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        d = ds[0]
        assert d.api.endpoint.startswith("tcp://127.0.0.1:") and d.api.token
        ctx = zmq.asyncio.Context()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(d.api.endpoint)
        try:
            await sock.send(msgpack.packb({"v": 1, "type": "status", "id": 1}))
            assert "token" in msgpack.unpackb(await sock.recv())["error"]
            await sock.send(
                msgpack.packb({"v": 1, "type": "status", "id": 2, "token": d.api.token})
            )
            assert msgpack.unpackb(await sock.recv())["ok"] is True
        finally:
            sock.close(0)
            ctx.destroy(0)

    run(tmp_path, 1, body, force_tcp=True)


def test_bad_signatures_replays_and_junk_from_a_seated_peer_change_nothing(tmp_path: Path) -> None:
    n = fuzz_count()

    async def body(ds: list[Daemon]) -> None:
        host, guest = ds
        made = await call(host, type="create", name="loud", rules="mcr")
        table_id = bytes.fromhex(made["table"])
        assert (await join(guest, host, made["table"]))["ok"]
        rt = host.tables[table_id]
        assert await wait_for(lambda: toy_session.seat_view(rt.session)["seated"] == 2)
        valid = list(toy_session.messages_since(guest.tables[table_id].session, 0, -1))
        valid += list(toy_session.messages_since(guest.tables[table_id].session, 1, -1))
        before = toy_session.seat_view(rt.session)
        records = len(rt.log.records) if rt.log else 0
        rng = random.Random(5)
        for i in range(n):
            payload = rng.choice(valid)
            if i % 3 == 0:  # a flipped byte: bad signature or malformed
                data = bytearray(payload)
                data[rng.randrange(len(data))] ^= 0xFF
                payload = bytes(data)
            elif i % 3 == 1:
                payload = rng.randbytes(rng.randrange(1, 120))
            # i % 3 == 2: a replay of a message the host already has
            for _ in range(500):  # bounded: the queue drains within seconds
                if guest.transport.send(host.identity.public_key, TableMessage(table_id, payload)):
                    break
                # sleep-ok: retry interval while the queue drains (bounded: 500 tries)
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the peer socket stopped taking frames")
            if i % 200 == 0:
                # sleep-ok: the flood's pace, so the host reads between bursts
                await asyncio.sleep(0.01)
        # sleep-ok: a negative: time passes to show bad messages change nothing
        await asyncio.sleep(1.0)
        assert toy_session.seat_view(rt.session) == before
        assert (len(rt.log.records) if rt.log else 0) == records
        assert rt.problems, "bad messages are reported"

    run(tmp_path, 2, body)


def test_received_records_are_synced_before_the_next_send(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        order.append("fsync")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "fdatasync", fsync, raising=False)  # the log uses it if there
    me = identity(1)
    rt = TableRuntime(
        b"t" * 16,
        "t",
        "mcr",
        me.public_key,
        False,
        None,
        {me.public_key: ("127.0.0.1", 1), identity(2).public_key: ("h", 1)},
    )
    rt.log = TableLog.open(tmp_path / "records.log")
    quiet = toy_session.Step(
        toy_session.Session(me.private_key, me.public_key), persist=(b"received",)
    )
    apply_and_send(rt, quiet, me.public_key, lambda key, payload: order.append("send"))
    assert order == []  # nothing sent: no need to wait for the disk
    loud = toy_session.Step(
        quiet.session, outgoing=(toy_session.Outgoing(None, b"m"),), persist=(b"mine",)
    )
    apply_and_send(rt, loud, me.public_key, lambda key, payload: order.append("send"))
    assert order == ["fsync", "send"]  # both records durable before the send
    rt.log.close()
    assert TableLog.open(tmp_path / "records.log").records == (b"received", b"mine")


def test_manual_peer_tables_are_listed_and_joinable_without_mdns(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        host, guest = ds
        made = await call(host, type="create", name="venue", rules="mcr")
        guest.manual_peers = (("127.0.0.1", host.transport.port),)
        task = asyncio.create_task(guest.whereabouts.probe("127.0.0.1", host.transport.port))
        try:
            assert await wait_for(lambda: bool(guest.whereabouts.manual_tables))
            seen = (await call(guest, type="tables"))["seen"]
            assert [(t["name"], t["free"], t["host"]) for t in seen] == [("venue", 3, "127.0.0.1")]
            assert (await call(guest, type="join", table="venue"))["ok"]
            assert (await call(guest, type="view", table=made["table"]))["ok"]
        finally:
            task.cancel()

    run(tmp_path, 2, body)


def test_a_peer_table_without_flowers_is_listed_as_such_through_the_key_beacon(
    tmp_path: Path,
) -> None:
    """Where multicast is blocked the key beacon is all a joiner sees of a table: it carries
    the flowers option (a sixth item an older daemon ignores), so `fourwinds tables` says
    "MCR, no flowers" for a --peer table as it does for an announced one."""
    from fourwinds.daemon.table_runtimes import real_session

    async def body(ds: list[Daemon]) -> None:
        host, guest = ds
        await call(
            host, type="create", name="bare", rules="mcr", options={"rules": {"flowers": False}}
        )
        await call(host, type="create", name="full", rules="mcr")
        beacon = await guest.transport.fetch_key("127.0.0.1", host.transport.port)
        assert sorted((n, f) for n, _, _, f in beacon.details.values()) == [
            ("bare", False),
            ("full", True),
        ]
        task = asyncio.create_task(guest.whereabouts.probe("127.0.0.1", host.transport.port))
        try:
            assert await wait_for(
                lambda: (
                    len(guest.whereabouts.manual_tables.get(f"127.0.0.1:{host.transport.port}", []))
                    == 2
                )
            )
            seen = (await call(guest, type="tables"))["seen"]
            assert sorted((t["name"], t["flowers"], t["rules_label"]) for t in seen) == [
                ("bare", False, "MCR, no flowers"),
                ("full", True, "MCR"),
            ]
        finally:
            task.cancel()

    run(tmp_path, 2, body, session=cast(SessionModule, real_session))


def test_peer_that_is_not_a_daemon_is_a_clear_error(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        d = ds[0]
        task = asyncio.create_task(d.whereabouts.probe("127.0.0.1", 9))
        try:
            assert await wait_for(lambda: "127.0.0.1:9" in d.whereabouts.manual_seen, timeout=8)
            assert (
                "no fourwinds daemon answered" in d.whereabouts.manual_seen["127.0.0.1:9"]["error"]
            )
        finally:
            task.cancel()

    run(tmp_path, 1, body)


def test_announced_table_of_another_version_or_full_is_refused_with_reason(tmp_path: Path) -> None:
    from fourwinds.daemon.peers.discovery import Discovered
    from fourwinds.daemon.peers.mdns import Discovery

    async def body(ds: list[Daemon]) -> None:
        d = ds[0]
        found = Discovery(d.identity.public_key, "me", d.transport.port)
        other = identity(50).public_key

        def offer(name: str, free: int, version: int) -> Discovered:
            return Discovered(
                table_id=name[0].encode() * 16,
                table=name,
                rules="mcr",
                free=free,
                private=False,
                version=version,
                fingerprint="x",
                public_key=other,
                host="127.0.0.1",
                port=1,
            )

        found.seen = {"old": offer("old", 3, 0), "full": offer("full", 0, 1)}
        d.discovery = found
        listed = {t["name"]: t for t in (await call(d, type="tables"))["seen"]}
        assert listed["old"]["compatible"] is False and listed["full"]["compatible"] is True
        with pytest.raises(ApiError, match="protocol version 0"):
            await call(d, type="join", table="old")
        with pytest.raises(ApiError, match="is full"):
            await call(d, type="join", table="full")
        d.discovery = None

    run(tmp_path, 1, body)
