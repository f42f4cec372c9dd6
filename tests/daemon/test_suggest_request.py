"""The local API's ``suggest``: four in-process daemons with the real table session, every
seat acting only on what ``suggest`` returns (the way ``fourwinds bot --rules`` plays)."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.table_runtimes import real_session
from fourwinds.daemon.table_runtimes.session_port import SessionModule
from tests.daemon.helpers import identity
from tests.daemon.test_shell import call, join, run

REAL = cast(SessionModule, real_session)


def real_daemon(base: Path, i: int) -> Daemon:
    data = base / f"r{i}"
    return Daemon(
        identity(200 + i),
        Paths(data, data / "run"),
        REAL,
        name=f"r{i}",
        host="127.0.0.1",
        listen_port=0,
        mdns=False,
    )


def test_suggest_is_one_of_the_legal_actions_and_acting_on_it_plays_on(tmp_path: Path) -> None:
    seen: Counter[str] = Counter()

    async def main() -> None:
        ds = [real_daemon(tmp_path, i) for i in range(4)]
        try:
            for d in ds:
                await d.start()
            made = await call(
                ds[0],
                type="create",
                name="hint",
                rules="mcr",
                options={"hands": 1, "deck": "practice"},
            )
            table = made["table"]
            for d in ds[1:]:
                assert (await join(d, ds[0], table))["ok"]
            loop = asyncio.get_running_loop()
            end = loop.time() + 15
            while loop.time() < end and seen["discard"] < 8:
                acted = False
                for d in ds:
                    if d.tables[bytes.fromhex(table)].session is None:
                        continue
                    acted = await act_on_suggestion(d, table, seen) or acted
                if not acted:
                    # sleep-ok: pace of the bots' loop (bounded by its deadline)
                    await asyncio.sleep(0.02)
        finally:
            for d in ds:
                await d.close()

    async def act_on_suggestion(d: Daemon, table: str, seen: Counter[str]) -> bool:
        event = (await call(d, type="view", table=table))["event"]
        answer = await call(d, type="suggest", table=table)
        assert answer["ok"], answer
        found: dict[str, Any] | None = answer["suggestion"]
        if found is None:
            assert not event["legal_actions"] or event["view"]["session"]["me"] is None
            return False
        assert found["step"] == event["view"]["step"]
        assert found["action"] in event["legal_actions"]
        assert (await call(d, type="suggest", table=table))["suggestion"] == found
        done = await call(
            d,
            type="act",
            table=table,
            action=found["action"]["id"],
            expected=found["action"],
            tiles=found["tiles"],
        )
        assert done["ok"], done
        seen[found["action"]["type"]] += 1
        return True

    asyncio.run(asyncio.wait_for(main(), 30))
    assert seen["ready"] == 4
    assert seen["discard"] >= 8


def test_suggest_is_null_without_bots_and_refused_for_an_unknown_table(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        made = await call(ds[0], type="create", name="toy", rules="mcr")
        answer = await call(ds[0], type="suggest", table=made["table"])
        assert answer == {"ok": True, "suggestion": None}  # the toy session has no bots
        with pytest.raises(ApiError, match="nosuch"):
            await call(ds[0], type="suggest", table="nosuch")

    run(tmp_path, 1, body)
