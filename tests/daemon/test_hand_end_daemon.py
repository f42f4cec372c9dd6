"""The hand's end over real (in-process) daemons: the table waits for every player's "next",
then deals the next hand; the match ends with the standings. And the local API's ``sheet``
and the bounds of ``create``'s timer options."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.protocol.errors import FourwindsError
from tests.daemon.test_shell import call, join
from tests.daemon.test_shell import run as run_toy
from tests.daemon.test_suggest_request import real_daemon


def _run(base: Path, n: int, body: Any, limit: float = 60) -> None:
    async def main() -> None:
        ds = [real_daemon(base, i) for i in range(n)]
        try:
            for d in ds:
                await d.start()
            await body(ds)
        finally:
            for d in ds:
                await d.close()

    asyncio.run(asyncio.wait_for(main(), limit))


def test_the_sheet_request_and_the_timer_bounds(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        d = ds[0]
        # (the API server turns these into {"ok": false, "error": ...})
        with pytest.raises(
            FourwindsError, match="next_window must be a number of seconds from 0 to 3600, not inf"
        ):
            await call(
                d, type="create", name="bad", rules="mcr", options={"next_window": float("inf")}
            )
        with pytest.raises(FourwindsError, match="call_window must be"):
            await call(
                d, type="create", name="bad", rules="mcr", options={"call_window": float("nan")}
            )
        american = await call(
            d, type="create", name="card", rules="american", options={"next_window": 0}
        )
        sheet = (await call(d, type="sheet", table=american["table"]))["sheet"]
        assert sheet["rules"] == "american" and sheet["entries"]
        assert set(sheet["entries"][0]) == {"id", "section", "pattern", "value", "concealed"}
        mcr = await call(d, type="create", name="fans", rules="mcr")
        fans = (await call(d, type="sheet", table="fans"))["sheet"]
        assert mcr["ok"] and fans["rules"] == "mcr" and fans["entries"][0]["value"] == 88
        with pytest.raises(ApiError, match="nosuch"):
            await call(d, type="sheet", table="nosuch")
        # no table, only rules (the web lobby's Card, issue 22 16d): what a table hosted
        # here with those rules and no card file plays
        lobby = (await call(d, type="sheet", rules="american"))["sheet"]
        assert lobby == sheet  # the table "card" was created without a card file
        assert (await call(d, type="sheet", rules="mcr"))["sheet"] == fans
        with pytest.raises(ApiError, match="'rules' is american or mcr"):
            await call(d, type="sheet", rules="riichi")
        view = (await call(d, type="view", table="card"))["event"]["view"]
        assert view["windows"] == {"call": 8.0, "turn": 0.0, "charleston": 60.0, "next": 0.0}

    _run(tmp_path, 1, body)


def test_a_session_module_without_sheets_says_so(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        made = await call(ds[0], type="create", name="toy", rules="mcr")
        with pytest.raises(ApiError, match="no sheet for table toy"):
            await call(ds[0], type="sheet", table=made["table"])

    run_toy(tmp_path, 1, body)


@pytest.mark.slow
def test_four_daemons_wait_for_every_next_then_play_on_to_the_standings(tmp_path: Path) -> None:
    seen: dict[str, int] = {"waited": 0, "hands": 0}

    async def body(ds: list[Daemon]) -> None:
        made = await call(
            ds[0],
            type="create",
            name="nexts",
            rules="mcr",
            options={"hands": 2, "deck": "practice"},
        )
        table = made["table"]
        for d in ds[1:]:
            assert (await join(d, ds[0], table))["ok"]
        loop = asyncio.get_running_loop()
        end = loop.time() + 50
        while loop.time() < end:
            events = [(await call(d, type="view", table=table))["event"] for d in ds]
            views = [e["view"] for e in events]
            if all(v["phase"] == "match_over" for v in views):
                standings = views[0]["standings"]
                assert standings[0]["rank"] == 1 and len(standings) == 4
                assert len(views[0]["history"]) == 2
                return
            if all(
                v["phase"] == "hand_over" and [a["type"] for a in e["legal_actions"]] == ["next"]
                for v, e in zip(views, events, strict=True)
            ):
                await _every_next(ds, table, views)
                seen["hands"] += 1
                continue
            acted = False
            for d, e in zip(ds, events, strict=True):
                actions = e["legal_actions"]
                if not actions or e["view"]["phase"] == "hand_over":
                    continue  # "next" waits until every seat has reached the hand's end
                pick = next((a for a in actions if a.get("default")), actions[0])
                answer = await call(
                    d,
                    type="act",
                    table=table,
                    action=pick["id"],
                    expected=pick,
                    tiles=pick["tiles"][: pick.get("choose", 0)],
                )
                acted = acted or bool(answer["ok"])
            if not acted:
                # sleep-ok: pace of the bots' loop (bounded by its deadline)
                await asyncio.sleep(0.02)
        raise AssertionError("the match did not end in time")

    async def _every_next(ds: list[Daemon], table: str, views: list[dict[str, Any]]) -> None:
        assert views[0]["next"]["waiting"] == [0, 1, 2, 3] and views[0]["result"] is not None
        # sleep-ok: a clock: nobody says next, time passes, the table keeps waiting
        await asyncio.sleep(1.0)
        still = (await call(ds[2], type="view", table=table))["event"]["view"]
        assert still["phase"] == "hand_over" and still["next"]["waiting"] == [0, 1, 2, 3]
        assert 55 < still["next"]["deadline"] <= 59.5
        seen["waited"] += 1
        for d in ds:
            event = (await call(d, type="view", table=table))["event"]
            action = event["legal_actions"][0]
            assert (await call(d, type="act", table=table, action=action["id"], expected=action))[
                "ok"
            ]

    _run(tmp_path, 4, body)
    assert seen == {"waited": 2, "hands": 2}
