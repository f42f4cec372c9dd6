"""A lost call is explained (issue 22, item 13), at four real daemons (127.0.0.1) of an
American table on the practice deck, every seat driven through its local API.

The table is hosted without ``auto_pass`` so every legal call is offered. Each seat takes
its default, except on a discard that two or more seats may call: then each of them calls
(its first call offered) at once. One call takes the tile; each other caller's daemon must
then say in its view's ``news`` that its call lost, to whom and why ("Your pung call on 5p
lost: South called kong (nearer in turn after East)"), and the seats that did not call hear
nothing of it. Before, the losing call said nothing at all.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from testkit.bots import choose
from testkit.procs import DaemonProcess, request, start_all

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"
WINDS = ("East", "South", "West", "North")
LOST = re.compile(
    r"^Your (pung|kong|quint|sextet|Mahjong) call on (\S+) lost: "
    r"(East|South|West|North) called (pung|kong|quint|sextet|Mahjong) "
    r"\((nearer in turn after (East|South|West|North)|Mahjong beats an exposure)\)$"
)


@pytest.fixture
def daemons(tmp_path: Path) -> Iterator[list[DaemonProcess]]:
    procs = [DaemonProcess(tmp_path / f"d{i}", f"seat{i}", session_module=REAL) for i in range(4)]
    try:
        start_all(procs)
        yield procs
    finally:
        for d in procs:
            d.stop()


def _open(daemons: list[DaemonProcess], clients: list[Any]) -> str:
    made = request(
        clients[0],
        type="create",
        name="calls",
        rules="american",
        options={
            "hands": 1,
            "deck": "practice",
            "auto_pass": False,
            "call_window": 60,
            "turn_window": 0,
        },
    )
    table = str(made["table"])
    key = request(clients[0], type="whoami")["public_key"]
    for client in clients[1:]:
        request(
            client, type="join", table=table, host="127.0.0.1", port=daemons[0].port, public_key=key
        )
    return table


def _event(client: Any, table: str) -> dict[str, Any]:
    event = request(client, type="view", table=table).get("event") or {}
    return event if isinstance(event, dict) else {}


def _act(client: Any, table: str, action: dict[str, Any]) -> None:
    client.request({"type": "act", "table": table, **action}, timeout=5)


def _exposures(view: dict[str, Any]) -> int:
    return sum(len(p.get("exposures") or ()) for p in view.get("players") or ())


def test_each_losing_caller_is_told_who_took_the_discard_and_why(
    daemons: list[DaemonProcess],
) -> None:
    clients = [d.client(subscribe=False) for d in daemons]
    try:
        table = _open(daemons, clients)
        told: list[str] = []
        end = time.monotonic() + 240
        while not told and time.monotonic() < end:
            events = [_event(c, table) for c in clients]
            views = [e.get("view") or {} for e in events]
            if any(v.get("phase") in ("hand_over", "match_over") for v in views):
                break
            calls = {
                i: next(a for a in e.get("legal_actions") or () if a["type"] == "call")
                for i, e in enumerate(events)
                if any(a["type"] == "call" for a in e.get("legal_actions") or ())
            }
            if len(calls) >= 2 and all(views[i].get("phase") == "claim" for i in calls):
                tile = views[next(iter(calls))]["last_discard"]["tile"]
                before = _exposures(views[0])
                for i, event in enumerate(events):
                    answer = calls.get(i)
                    if answer is not None:
                        _act(clients[i], table, {"action": answer["id"], "expected": answer})
                    elif event.get("legal_actions"):
                        _act(clients[i], table, choose(event) or {})
                told = _check_losers(clients, table, set(calls), tile, before)
                continue
            for client, event in zip(clients, events, strict=True):
                action = choose(event)
                if action is not None:
                    _act(client, table, action)
            # sleep-ok: pace of the bots' loop (bounded by its deadline)
            time.sleep(0.05)
        assert told, "no discard could be called by two seats in the hand"
        print("told:", told)
    finally:
        for client in clients:
            client.close()


def _check_losers(
    clients: list[Any], table: str, callers: set[int], tile: str, before: int
) -> list[str]:
    """Once the call stood: each other caller's news explains its loss; the rest say
    nothing of it. Returns the losers' lines."""
    end = time.monotonic() + 20
    while True:
        views = [_event(c, table).get("view") or {} for c in clients]
        if _exposures(views[0]) > before or any(
            (v.get("result") or {}).get("kind") == "mahjong" for v in views
        ):
            break
        assert time.monotonic() < end, [v.get("phase_detail") for v in views]
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)
    lines: list[str] = []
    for i, view in enumerate(views):
        news = [n for n in view.get("news") or () if n.startswith("Your ")]
        if view.get("result"):
            continue  # the hand ended on a Mahjong call: the result says who won
        won = any(
            p.get("seat") == view.get("seat")
            and any(
                m.get("from") is not None and tile in m.get("tiles", ())
                for m in p.get("exposures") or ()
            )
            for p in view.get("players") or ()
        )
        if i in callers and not won:
            assert news, (i, view.get("news"))
            match = LOST.match(news[0])
            assert match is not None and match.group(2) == tile, news
            assert match.group(3) != WINDS[view["seat"]], news
            lines.append(news[0])
        else:
            assert not news, (i, news)
    return lines
