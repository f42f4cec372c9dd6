"""The page's host and join say ready only where `fourwinds play` does (issue 22, item 1; README,
"Who is ready"): never at a table with other people, hosted or joined (each person presses
Ready in the lobby), only at a table of the player and three bots, which then starts at once.
The bridge runs against a fake daemon link that records what it was asked."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

import pytest

from fourwinds.frontends.web.bridge import Bridge
from fourwinds.frontends.web.link import AsyncLink
from fourwinds.frontends.web.seats import BotKeeper


class Daemon:
    """Answers host, join and ready as a daemon would; remembers what it was asked."""

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        return lambda: None

    async def request(
        self, message: Mapping[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        self.asked.append(dict(message))
        kind = message.get("type")
        if kind == "tables":
            return {"ok": True, "tables": [], "seen": [], "peers": []}
        if kind in ("create", "join"):
            return {"ok": True, "table": "ab" * 16}
        if kind == "status":
            return {"ok": True, "port": 7420}
        if kind == "whoami":
            return {"ok": True, "public_key": "cd" * 32}
        return {"ok": True}


@pytest.mark.parametrize(
    ("request_", "says_ready"),
    [
        ({"type": "join", "table": "kitchen"}, False),
        ({"type": "host", "rules": "mcr", "bots": 0}, False),
        ({"type": "host", "rules": "mcr", "bots": 2}, False),
        ({"type": "host", "rules": "mcr", "bots": 3}, True),
    ],
    ids=["join", "host-alone", "host-with-two-bots", "host-with-three-bots"],
)
def test_the_page_says_ready_only_at_a_table_of_you_and_three_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request_: dict[str, Any], says_ready: bool
) -> None:
    daemon = Daemon()
    bots = BotKeeper(tmp_path)
    monkeypatch.setattr(bots, "seat", lambda **_: None)  # no bot processes: only the asks
    bridge = Bridge(cast(AsyncLink, daemon), bots, None, {"name": "Pat"})
    answer = asyncio.run(bridge.handle({"id": 1, **request_}))
    assert answer.get("ok"), answer
    kinds = [m["type"] for m in daemon.asked]
    assert ("ready" in kinds) is says_ready, kinds
