"""On a machine that hosts several seats' daemons, the peers of a discard go first: a daemon
gives up the CPU once a peer's message is applied, before its automatic reply, and the acting
daemon sends its action before its own bookkeeping, which waits PEERS_FIRST_S (docs/DAEMON.md,
Figures)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any, cast

import pytest

from fourwinds.daemon.store.disk import TableLog
from fourwinds.daemon.table_runtimes import steps
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from tests.daemon import toy_session
from tests.daemon.test_shell import make_daemon


def test_the_cpu_is_offered_after_the_message_is_adopted_and_before_the_reply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = make_daemon(tmp_path, 0)
    rt = TableRuntime(
        table_id=b"\x01" * 16,
        name="t",
        rules="toy",
        host_key=b"\x02" * 32,
        private=False,
        code=None,
        members={},
    )
    rt.log = log = TableLog.open(tmp_path / "records.log")
    rt.session = "before"
    order: list[str] = []

    def apply_message(session: Any, payload: bytes, now: float) -> toy_session.Step:
        order.append(f"apply {session} {payload!r}")
        return toy_session.Step(cast(Any, "applied"), persist=(b"the message",))

    def settle(session: Any, now: float) -> toy_session.Step:
        order.append(f"settle {session}")
        return toy_session.Step(session)

    d.port = dataclasses.replace(
        d.port, apply_message=apply_message, settle=settle, seat_keys=lambda s: ()
    )
    monkeypatch.setattr(
        steps, "_SCHED_YIELD", lambda: order.append(f"yield {rt.session} {len(log.records)}")
    )
    d.steps.receive(rt, b"discard", 1.0)
    assert order == ["apply before b'discard'", "yield applied 1", "settle applied"]
    assert rt.applied_at > 0.0


def test_the_acting_daemon_sends_then_gives_the_peers_a_head_start_then_settles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = make_daemon(tmp_path, 0)
    rt = TableRuntime(
        table_id=b"\x01" * 16,
        name="t",
        rules="toy",
        host_key=b"\x02" * 32,
        private=False,
        code=None,
        members={b"peer": ("127.0.0.1", 1)},
    )
    rt.log = log = TableLog.open(tmp_path / "records.log")
    rt.session = "before"
    order: list[str] = []

    def send_action(session: Any, action: object, now: float) -> toy_session.Step:
        order.append(f"send_action {session} {action}")
        return toy_session.Step(
            cast(Any, "sent"),
            persist=(b"our action",),
            outgoing=(toy_session.Outgoing(None, b"our action"),),
        )

    def settle(session: Any, now: float) -> toy_session.Step:
        order.append(f"settle {session}")
        return toy_session.Step(cast(Any, "settled"))

    async def sleep(seconds: float) -> None:
        order.append(f"sleep {seconds} after {len(log.records)} record(s) written")

    d.port = dataclasses.replace(
        d.port, send_action=send_action, settle=settle, seat_keys=lambda s: ()
    )
    monkeypatch.setattr(
        d.steps,
        "send_payload",
        lambda rt, key, payload: order.append(f"send {payload!r} to {key!r}"),
    )
    monkeypatch.setattr(asyncio, "sleep", sleep)
    asyncio.run(d.steps.act(rt, "discard", 1.0))
    assert order == [
        "send_action before discard",
        "send b'our action' to b'peer'",
        f"sleep {steps.PEERS_FIRST_S} after 1 record(s) written",
        "settle sent",
    ]
    assert rt.session == "settled"
