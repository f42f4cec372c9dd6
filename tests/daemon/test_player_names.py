"""Players are named by the name they go by now, never by a key fingerprint (issue 22, item 7),
at real table sessions (daemons in-process on loopback):

- a player who renames (a new name in the config, then the daemon stopped and started again)
  is shown by the new name at every seat's view and at their own, though the Join they signed
  when they sat down carries the old one (the others learn it from the restarted daemon's
  Hello);
- where the daemon has heard no Hello from a player yet (just started), what it says of them
  (the leave warning, a rebuild's notice, who left, whom a leave told) uses the name they
  signed at the table, not their key's fingerprint or a piece of the key.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers.identity import fingerprint
from fourwinds.daemon.table_runtimes import real_session
from tests.daemon.helpers import identity, wait_for
from tests.daemon.test_leave import PRACTICE, call, join, seated


def _daemon(base: Path, i: int, name: str = "") -> Daemon:
    data = base / f"d{i}"
    return Daemon(
        identity(900 + i),
        Paths(data, data / "run"),
        real_session,
        name=name or f"p{i}",
        host="127.0.0.1",
        listen_port=0,
        mdns=False,
    )


def _names(d: Daemon, table: str) -> list[str]:
    view = d.views.view_event(d.find_table(table), [])["view"]
    return [str(p["name"]) for p in view["players"]]


def test_a_renamed_player_is_shown_by_the_new_name_at_every_seat_after_a_restart(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        ds = [_daemon(tmp_path, i) for i in range(4)]
        try:
            for d in ds:
                await d.start()
            host = ds[0]
            table = (
                await call(host, type="create", name="kitchen", rules="mcr", options=PRACTICE)
            )["table"]
            for d in ds[1:]:
                await join(d, host, table)
            await seated(ds, table)
            assert await wait_for(lambda: all("p2" in _names(d, table) for d in ds))
            await ds[2].close()
            ds[2] = _daemon(tmp_path, 2, name="Robert")  # `config init --name`, stop, start
            await ds[2].start()

            def renamed() -> bool:
                return all(
                    d.find_table(table).session is not None
                    and "Robert" in _names(d, table)
                    and "p2" not in _names(d, table)
                    for d in ds
                )

            assert await wait_for(renamed, timeout=20), {d.name: _names(d, table) for d in ds}
            summary = (await call(host, type="tables"))["tables"][0]
            assert "Robert" in [m["player"] for m in summary["members"]]
        finally:
            for d in ds:
                await d.close()

    asyncio.run(asyncio.wait_for(main(), 90))


def test_a_player_not_heard_from_yet_is_named_as_signed_not_by_fingerprint(tmp_path: Path) -> None:
    async def main() -> None:
        ds = [_daemon(tmp_path, i) for i in range(4)]
        try:
            for d in ds:
                await d.start()
            host = ds[0]
            table = (
                await call(host, type="create", name="kitchen", rules="mcr", options=PRACTICE)
            )["table"]
            for d in ds[1:]:
                await join(d, host, table)
            await seated(ds, table)
            rt = host.find_table(table)
            host.names.clear()  # as just after a restart, before the others' Hellos
            warning = host.views.leave_warning(rt)
            assert "p1, p2, p3" in warning, warning
            assert not any(fingerprint(d.identity.public_key) in warning for d in ds), warning
            assert host.views.player_name(rt, ds[3].identity.public_key) == "p3"
            assert host.views.player_name(None, ds[3].identity.public_key) == "a player"
            host.views.peer_rebuilding(rt, ds[1].identity.public_key)
            assert rt.problems[-1] == "p1 is rebuilding its table from the others"
            # a seated player leaves for good: its answer names the others, and the host's
            # screens the leaver, as they signed (neither daemon has their Hello in mind)
            leaver = ds[2]
            leaver.names.clear()
            left = await call(leaver, type="leave", table=table, force=True)
            assert sorted(left["others"]) == ["p0", "p1", "p3"], left
            assert await wait_for(
                lambda: any("p2 left the table for good" in p for p in rt.problems)
            ), rt.problems
        finally:
            for d in ds:
                await d.close()

    asyncio.run(asyncio.wait_for(main(), 90))
