"""A daemon gives the CPU to the other processes waiting for it once a peer's message is
applied, and only then makes its automatic reply: on a machine that hosts several seats'
daemons, the others are still waiting to apply the same message (docs/DAEMON.md, Figures)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from fourwinds.daemon import app
from fourwinds.daemon.store import TableLog
from fourwinds.daemon.tables import TableRuntime
from tests.daemon import toy_session
from tests.daemon.test_shell import make_daemon


def test_the_cpu_is_offered_after_the_message_is_adopted_and_before_the_reply(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = make_daemon(tmp_path, 0)
    rt = TableRuntime(table_id=b"\x01" * 16, name="t", rules="toy", host_key=b"\x02" * 32,
                      private=False, code=None, members={})
    rt.log = TableLog.open(tmp_path / "records.log")
    rt.session = "before"
    order: list[str] = []

    def apply_message(session: Any, payload: bytes, now: float) -> toy_session.Step:
        order.append(f"apply {session} {payload!r}")
        return toy_session.Step(cast(Any, "applied"), persist=(b"the message",))

    def settle(session: Any, now: float) -> toy_session.Step:
        order.append(f"settle {session}")
        return toy_session.Step(session)

    d.port = SimpleNamespace(apply_message=apply_message, settle=settle, seat_keys=lambda s: ())
    monkeypatch.setattr(app, "_SCHED_YIELD",
                        lambda: order.append(f"yield {rt.session} {len(rt.log.records)}"))
    d.receive(rt, b"discard", 1.0)
    assert order == ["apply before b'discard'", "yield applied 1", "settle applied"]
    assert rt.applied_at > 0.0
