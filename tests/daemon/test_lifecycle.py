"""The daemon's side of leaving and returning (issue 13): announcements follow the roster,
solo tables are never announced, an admitted join reaches the frontends at once, a seat whose
daemon moved to another port is found again through ``--peer``, a taken port names its holder,
the default name is the login name, and no runtime-directory warning reaches the user."""

from __future__ import annotations

import asyncio
import getpass
import os
import socket
import warnings
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon import paths as paths_module
from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api import opening
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers import identity as identity_module
from fourwinds.daemon.peers.discovery import Announcement, Discovered
from fourwinds.daemon.peers.port_owner import port_holder
from fourwinds.daemon.peers.transport import port_in_use
from fourwinds.daemon.table_runtimes import real_session
from tests.daemon.helpers import identity, time_limit, wait_for
from tests.daemon.test_shell import PORT, call, join, make_daemon, run


class FakeDiscovery:
    """Records what the daemon announces (mDNS itself is not needed to test the daemon)."""

    def __init__(self) -> None:
        self.announced: list[Announcement] = []
        self.withdrawn: list[bytes] = []
        self.seen: dict[str, Discovered] = {}

    async def announce(self, announcement: Announcement) -> None:
        self.announced.append(announcement)

    async def withdraw(self, table_id: bytes) -> None:
        self.withdrawn.append(table_id)

    async def close(self) -> None:
        pass


def _fake_discovery(d: Daemon) -> FakeDiscovery:
    fake = FakeDiscovery()
    d.discovery = fake  # type: ignore[assignment]
    return fake


def test_the_announced_free_seats_follow_the_roster(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        host = ds[0]
        fake = _fake_discovery(host)
        table = (await call(host, type="create", name="kitchen", rules="mcr"))["table"]
        assert [a.free for a in fake.announced] == [3]
        for guest in ds[1:]:
            assert (await join(guest, host, table))["ok"]
        assert await wait_for(lambda: [a.free for a in fake.announced][-1:] == [0])
        assert [a.free for a in fake.announced] == [3, 2, 1, 0]
        beacon = await ds[1].transport.fetch_key("127.0.0.1", host.transport.port)
        assert beacon.tables[bytes.fromhex(table)] == 0

    run(tmp_path, 4, body)


def test_a_solo_table_is_never_announced_even_after_a_restart(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        fake = _fake_discovery(ds[0])
        answer = await ds[0].router.route(
            {"v": 1, "type": "create", "name": "solo", "rules": "mcr", "listed": False}
        )
        assert answer["ok"]
        assert await call(ds[0], type="create", name="open", rules="mcr")
        assert [a.table for a in fake.announced] == ["open"]
        assert (await join(ds[1], ds[0], answer["table"]))["ok"]  # bots still join it
        assert [a.table for a in fake.announced] == ["open"]

    run(tmp_path, 2, body)

    async def again() -> None:
        d = make_daemon(tmp_path, 0)
        await d.start()
        try:
            fake = _fake_discovery(d)
            for rt in d.tables.values():
                await d.announcing.announce(rt)
            assert [a.table for a in fake.announced] == ["open"]
            assert {rt.name: rt.listed for rt in d.tables.values()} == {"solo": False, "open": True}
        finally:
            await d.close()

    asyncio.run(again())


def test_listed_must_be_a_boolean(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        with pytest.raises(ApiError, match="'listed' must be true or false"):
            await ds[0].router.route(
                {"v": 1, "type": "create", "name": "x", "rules": "mcr", "listed": "no"}
            )
        assert not ds[0].tables

    run(tmp_path, 1, body)


def test_an_admitted_join_is_published_at_once_with_the_roster(tmp_path: Path) -> None:
    """The host's lobby screen learns of an admitted friend from the next view event: sent
    at once (not at the next once-a-second refresh), with the daemon's roster."""

    async def main() -> None:
        ds = [
            Daemon(
                identity(300 + i),
                Paths(tmp_path / f"r{i}", tmp_path / f"r{i}" / "run"),
                real_session,
                name=f"p{i}",
                host="127.0.0.1",
                listen_port=0,
                mdns=False,
            )
            for i in range(2)
        ]
        for d in ds:
            await d.start()
        host, guest = ds
        published: list[dict[str, Any]] = []
        host.api.has_subscribers = lambda: True  # type: ignore[method-assign]
        host.api.publish = published.append  # type: ignore[method-assign,assignment]
        try:
            table = (
                await call(
                    host, type="create", name="kitchen", rules="mcr", options={"deck": "practice"}
                )
            )["table"]
            assert [len(e["members"]) for e in published] == [1]
            assert (await join(guest, host, table))["ok"]
            admitted = asyncio.get_running_loop().time()

            def roster_shown() -> bool:
                return any(len(e.get("members") or ()) == 2 for e in published)

            assert await wait_for(roster_shown, timeout=2.0)
            assert asyncio.get_running_loop().time() - admitted < 0.5  # not the 1 s refresh
            event = next(e for e in published if len(e.get("members") or ()) == 2)
            assert [m["player"] for m in event["members"]][1] == "p1"
        finally:
            for d in ds:
                await d.close()

    asyncio.run(asyncio.wait_for(main(), time_limit(60)))


def test_a_seat_whose_daemon_moved_is_found_again_through_its_peer_address(tmp_path: Path) -> None:
    """A bot seat's daemon and ours restart on new ports (port 0): the bot's ``--peer``
    gives ours, and both see each other alive again (what `play` relies on to return)."""

    async def main() -> None:
        host, guest = make_daemon(tmp_path, 0), make_daemon(tmp_path, 1)
        await host.start()
        await guest.start()
        table = (await call(host, type="create", name="solo", rules="mcr"))["table"]
        assert (await join(guest, host, table))["ok"]
        await guest.close()
        await host.close()
        host = make_daemon(tmp_path, 0)
        await host.start()
        data = tmp_path / "d1"
        guest = Daemon(
            identity(101),
            Paths(data, data / "run"),
            PORT,
            name="p1",
            host="127.0.0.1",
            listen_port=0,
            mdns=False,
            peers=(("127.0.0.1", host.transport.port),),
        )
        await guest.start()
        try:
            assert await wait_for(
                lambda: (
                    host.alive(guest.identity.public_key) and guest.alive(host.identity.public_key)
                ),
                timeout=10,
            )
            rt = next(iter(guest.tables.values()))
            assert rt.members[host.identity.public_key] == ("127.0.0.1", host.transport.port)
        finally:
            await guest.close()
            await host.close()

    asyncio.run(asyncio.wait_for(main(), time_limit(60)))


def test_a_taken_port_names_the_process_holding_it() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = int(held.getsockname()[1])
        holder = port_holder(port)
        if Path("/proc/net/tcp").exists():
            assert holder is not None and holder.startswith(f"pid {os.getpid()} (")
        text = port_in_use("0.0.0.0", port)
        assert "is in use" in text and "--port" in text and "\n" not in text
        if holder is not None:
            assert f"port {port} on 0.0.0.0 is in use by pid {os.getpid()}" in text
    assert port_holder(port) is None


def test_without_proc_the_port_is_just_said_to_be_taken(tmp_path: Path) -> None:
    assert port_holder(7420, proc=tmp_path / "no-proc") is None


def test_the_default_name_is_the_login_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(getpass, "getuser", lambda: "ada")
    assert identity_module.default_player_name() == "ada"

    def nobody() -> str:
        raise OSError("no login name")

    monkeypatch.setattr(getpass, "getuser", nobody)
    assert identity_module.default_player_name() == "player"


def test_a_daemon_without_a_name_uses_the_login_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fourwinds.daemon import main as daemon_main

    monkeypatch.setattr(getpass, "getuser", lambda: "ada")
    seen: list[str] = []

    class Stop(Exception):
        pass

    def capture(identity: object, paths: object, port: object, *, name: str, **_: object) -> Daemon:
        seen.append(name)
        raise Stop

    monkeypatch.setattr(daemon_main, "Daemon", capture)
    settings = daemon_main.Settings(data_dir=str(tmp_path / "d"), port=0, mdns=False)
    with pytest.raises(Stop):
        asyncio.run(daemon_main.run(settings))
    assert seen == ["ada"]


def test_no_runtime_directory_warning_reaches_the_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would fail here
        paths = paths_module.default_paths(None)
    assert paths.runtime.name == "fourwinds"
    assert any("XDG_RUNTIME_DIR" in note for note in paths_module.RUNTIME_NOTES)  # for the log


def test_a_peer_given_at_run_time_lists_its_tables(tmp_path: Path) -> None:
    """`play --join club --peer HOST:PORT` with a daemon already running: the peer request
    makes it ask that daemon's beacon, so the table becomes joinable without mDNS."""

    async def body(ds: list[Daemon]) -> None:
        host, friend = ds
        table = (await call(host, type="create", name="club", rules="mcr"))["table"]
        request = {"v": 1, "type": "peer", "host": "127.0.0.1", "port": host.transport.port}
        assert await friend.router.route(dict(request)) == {"ok": True, "added": True}
        assert await friend.router.route(dict(request)) == {"ok": True, "added": False}

        def seen() -> list[str]:
            return [t["name"] for t in opening.seen_tables(friend)]

        assert await wait_for(lambda: seen() == ["club"])
        assert (await call(friend, type="join", table="club"))["table"] == table
        for bad in (
            {"host": "", "port": 7420},
            {"host": "h", "port": 70000},
            {"host": "h", "port": True},
        ):
            with pytest.raises(ApiError):
                await friend.router.route({"v": 1, "type": "peer", **bad})

    run(tmp_path, 2, body)
