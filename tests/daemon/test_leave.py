"""`leave` at real table sessions (daemons in-process on loopback): a lobby leave frees the
place for the next joiner and every lobby shows it; a match in progress, or a lobby the host
closes, is left only with ``force``, and the others are told (issue 22, item 8)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api import requests
from fourwinds.daemon.local_api.server import API_VERSION, ApiError
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers.wire import FrameError, Leave, Roster, decode, encode
from fourwinds.daemon.table_runtimes import real_session
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from tests.daemon.helpers import identity, wait_for

PRACTICE = {"deck": "practice"}


def _daemon(base: Path, i: int) -> Daemon:
    data = base / f"d{i}"
    return Daemon(
        identity(700 + i),
        Paths(data, data / "run"),
        real_session,
        name=f"p{i}",
        host="127.0.0.1",
        listen_port=0,
        mdns=False,
    )


async def call(d: Daemon, **request: Any) -> dict[str, Any]:
    return await requests.handle(d, {"v": API_VERSION, **request})


async def join(d: Daemon, host: Daemon, table: str) -> None:
    assert (
        await call(
            d,
            type="join",
            table=table,
            host="127.0.0.1",
            port=host.transport.port,
            public_key=host.identity.public_key.hex(),
        )
    )["ok"]
    rt = d.find_table(table)
    assert await wait_for(lambda: rt.session is not None and rt.place is not None)


def run(base: Path, n: int, body: Callable[[list[Daemon]], Awaitable[None]]) -> None:
    async def main() -> None:
        ds = [_daemon(base, i) for i in range(n)]
        try:
            for d in ds:
                await d.start()
            await body(ds)
        finally:
            for d in ds:
                await d.close()

    asyncio.run(asyncio.wait_for(main(), 90))


async def seated(ds: list[Daemon], table: str) -> None:
    """Wait until every one of ``ds`` took the host's Seating of ``table``."""
    for d in ds:
        rt = d.find_table(table)

        def took(rt: TableRuntime = rt) -> bool:
            return rt.session is not None and real_session.seated(rt.session)

        assert await wait_for(took, timeout=10)


def places(d: Daemon, table: str) -> dict[str, int]:
    """Fingerprint -> place, as this daemon's lobby event lists the members."""
    members = d.views.view_event(d.find_table(table), [])["members"]
    return {m["fingerprint"]: m["place"] for m in members}


def at(*seated: tuple[Daemon, int]) -> dict[str, int]:
    return {d.identity.fingerprint: place for d, place in seated}


def test_a_lobby_leave_frees_the_place_at_every_lobby_and_the_next_joiner_takes_it(
    tmp_path: Path,
) -> None:
    async def body(ds: list[Daemon]) -> None:
        host, ann, bob, cat, dan = ds
        table = (await call(host, type="create", name="kitchen", rules="mcr", options=PRACTICE))[
            "table"
        ]
        await join(ann, host, table)
        await join(bob, host, table)
        assert await wait_for(lambda: places(bob, table) == at((host, 0), (ann, 1), (bob, 2)))
        left = await call(ann, type="leave", table=table)
        assert left["ok"] and not left["seated"]
        assert not ann.tables
        # the host and the other joiner show place 1 free again; Bob keeps place 2
        assert await wait_for(lambda: places(host, table) == at((host, 0), (bob, 2)))
        assert await wait_for(lambda: places(bob, table) == at((host, 0), (bob, 2)))
        assert bob.find_table(table).place == 2
        summary = (await call(host, type="tables"))["tables"][0]
        assert summary["seated"] == 2
        # the host's lobby no longer names Ann at place 1
        view = host.views.view_event(host.find_table(table), [])["view"]
        assert "p1" not in [p["name"] for p in view["players"]]
        # the next joiner takes the free place 1, the one after it place 3: the table seats
        await join(cat, host, table)
        assert cat.find_table(table).place == 1
        await join(dan, host, table)
        assert dan.find_table(table).place == 3
        await seated([host, bob, cat, dan], table)
        keys = list(real_session.seat_keys(host.find_table(table).session))
        assert keys == [d.identity.public_key for d in (host, cat, bob, dan)]

    run(tmp_path, 5, body)


def test_a_freed_place_stays_free_when_the_host_restarts(tmp_path: Path) -> None:
    """The host's records still hold the leaver's Join; the roster on disk says who is at
    the table, so after a restart the next joiner still gets the place."""
    table = ""

    async def first(ds: list[Daemon]) -> None:
        nonlocal table
        host, ann = ds[0], ds[1]
        table = (await call(host, type="create", name="kitchen", rules="mcr", options=PRACTICE))[
            "table"
        ]
        await join(ann, host, table)
        assert (await call(ann, type="leave", table=table))["ok"]
        assert await wait_for(lambda: len(host.find_table(table).members) == 1)
        assert await wait_for(  # the roster's meta written
            lambda: len(host.store.read_meta(bytes.fromhex(table))["members"]) == 1
        )

    run(tmp_path, 2, first)

    async def second(ds: list[Daemon]) -> None:
        host, cat = ds[0], ds[2]
        assert await wait_for(lambda: host.find_table(table).session is not None)
        await join(cat, host, table)
        assert cat.find_table(table).place == 1

        def names() -> list[str]:
            view = host.views.view_event(host.find_table(table), [])["view"]
            return [p["name"] for p in view["players"]][:2]

        assert await wait_for(lambda: names() == ["p0", "p2"]), names()

    run(tmp_path, 3, second)


def test_leaving_a_started_match_needs_force_and_the_others_are_told(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        host = ds[0]
        table = (await call(host, type="create", name="club", rules="mcr", options=PRACTICE))[
            "table"
        ]
        for d in ds[1:]:
            await join(d, host, table)
        await seated(ds, table)
        expected = "all four places at club are taken: if you leave, p0, p1, p3 cannot start"
        warning = ""

        async def warned() -> bool:  # the others' names come with their Hello frames
            nonlocal warning
            warning = (await call(ds[2], type="tables"))["tables"][0]["leave_warning"]
            return expected in warning

        for _ in range(100):
            if await warned():
                break
            # sleep-ok: poll interval of a bounded wait
            await asyncio.sleep(0.05)
        assert expected in warning
        assert ds[2].views.view_event(ds[2].find_table(table), [])["leave_warning"] == warning
        for d in ds:
            assert (await call(d, type="ready", table=table))["ok"]
        rt2 = ds[2].find_table(table)
        assert await wait_for(
            lambda: real_session.progress(rt2.session)[0] not in ("ready",), timeout=10
        )
        warning = (await call(ds[2], type="tables"))["tables"][0]["leave_warning"]
        assert "cannot go on" in warning and "p0" in warning
        with pytest.raises(ApiError, match=r"has started: if you leave, .*force"):
            await call(ds[2], type="leave", table=table)
        assert ds[2].tables  # refused: still seated
        assert (await call(ds[2], type="leave", table=table, force=True))["seated"]
        for d in (ds[0], ds[1], ds[3]):
            rt = d.find_table(table)

            def told(rt: TableRuntime = rt) -> bool:
                return any("p2 left the table for good" in p for p in rt.problems)

            assert await wait_for(told)
            assert len(rt.members) == 4  # the seat stays: the table waits for it

    run(tmp_path, 4, body)


def test_the_host_closing_its_lobby_needs_force_and_drops_the_table_at_the_joiners(
    tmp_path: Path,
) -> None:
    async def body(ds: list[Daemon]) -> None:
        host, ann = ds
        table = (await call(host, type="create", name="den", rules="mcr", options=PRACTICE))[
            "table"
        ]
        assert (await call(host, type="tables"))["tables"][0]["leave_warning"] == ""
        with pytest.raises(ApiError, match="'force' must be true or false"):
            await call(host, type="leave", table=table, force="yes")
        await join(ann, host, table)
        assert (await call(ann, type="tables"))["tables"][0]["leave_warning"] == ""
        with pytest.raises(ApiError, match=r"you host den, where p1 waits: leaving closes"):
            await call(host, type="leave", table=table)
        assert (await call(host, type="leave", table=table, force=True))["ok"]
        assert await wait_for(lambda: not ann.tables)

    run(tmp_path, 2, body)


def test_a_player_who_left_the_lobby_can_join_it_again(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        host, ann = ds
        table = (await call(host, type="create", name="porch", rules="mcr", options=PRACTICE))[
            "table"
        ]
        await join(ann, host, table)
        assert (await call(ann, type="leave", table=table))["ok"]
        assert await wait_for(lambda: len(host.find_table(table).members) == 1)
        await join(ann, host, table)
        assert ann.find_table(table).place == 1

        def named() -> bool:
            view = host.views.view_event(host.find_table(table), [])["view"]
            return bool([p["name"] for p in view["players"]][1] == "p1")

        assert await wait_for(named)

    run(tmp_path, 2, body)


def test_a_roster_with_a_free_place_carries_the_places_and_one_without_reads_as_before() -> None:
    """A roster is sent as before (four fields) unless a place before the last is free; its
    places are checked like every field from a peer."""
    keys = [identity(800 + i).public_key for i in range(3)]
    members = tuple((k, "127.0.0.1", 7420 + i) for i, k in enumerate(keys))
    plain = Roster(b"t" * 16, "kitchen", "mcr", members[:2])
    assert len(msgpack.unpackb(encode(plain))) == 6  # version, kind and 4 fields
    assert decode(encode(plain)) == plain
    gap = Roster(b"t" * 16, "kitchen", "mcr", (members[0], members[2]), (0, 2))
    assert decode(encode(gap)) == gap
    for places in ((0, 0), (1, 2), (0,), (0, 4)):
        with pytest.raises(FrameError, match="place"):
            decode(encode(Roster(b"t" * 16, "kitchen", "mcr", (members[0], members[2]), places)))
    assert decode(encode(Leave(b"t" * 16))) == Leave(b"t" * 16)
