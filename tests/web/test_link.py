"""The web server's link to the daemon follows the daemon through a restart (no browser).

A person's page must never sit on a dead table: when the daemon under a running `fourwinds
web` is killed and started again, the link says the daemon is lost (and refuses requests at
once with the reason, rather than after a timeout), then finds the new daemon, subscribes
again and says it is back; views come again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.client.daemon_link import DaemonUnavailable
from fourwinds.frontends.web.link import open_link
from testkit.procs import DaemonProcess
from testkit.waiting import async_until


async def _until(test: Callable[[], bool], timeout: float, what: str) -> None:
    await async_until(test, timeout, what)


def test_the_link_follows_a_daemon_killed_and_started_again(tmp_path: Path) -> None:
    daemon = DaemonProcess(tmp_path / "pat", "pat")
    daemon.start()

    async def scenario() -> None:
        link = await open_link(str(daemon.data_dir))
        seen: list[dict[str, Any]] = []
        link.listen(seen.append)
        try:
            before = await link.request({"type": "status"})
            assert before["ok"], before
            daemon.kill9()
            await _until(lambda: link.lost, 10, "the link to notice the daemon is gone")
            assert {"type": "link", "state": "lost"} in seen
            started = time.monotonic()
            with pytest.raises(DaemonUnavailable, match="not running"):
                await link.request({"type": "status"})
            assert time.monotonic() - started < 1.0  # refused at once, not timed out
            await asyncio.to_thread(daemon.start)
            await _until(lambda: not link.lost, 15, "the link to find the new daemon")
            assert seen[-1] == {"type": "link", "state": "back"}
            assert daemon.proc is not None and link.pid == daemon.proc.pid
            after = await link.request({"type": "status"})
            assert after["ok"], after
            # subscribed again: a table made now shows up as a view event
            made = await link.request({"type": "create", "name": "kitchen", "rules": "mcr"})
            assert made["ok"], made
            await _until(
                lambda: any(e.get("type") == "view" for e in seen), 10, "a view from the new daemon"
            )
        finally:
            await link.close()

    try:
        asyncio.run(scenario())
    finally:
        daemon.stop()
