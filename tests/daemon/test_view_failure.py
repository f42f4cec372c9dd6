"""A view that fails to build is logged and never stops the daemon from carrying out a step
(views are built inside ``apply``, before the fsync and the sends to peers)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from tests.daemon.test_shell import make_daemon


def test_a_failing_view_is_logged_and_the_table_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
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
    published: list[dict[str, Any]] = []
    monkeypatch.setattr(d.api, "publish", published.append)

    def broken(rt: TableRuntime, events: list[str]) -> dict[str, Any]:
        raise KeyError("a bug in the seat view")

    monkeypatch.setattr(d.views, "view_event", broken)
    with caplog.at_level(logging.ERROR):
        d.views._send_view(rt, ["e"], 1.0)
    assert published == []
    assert "building the view failed" in caplog.text
    monkeypatch.setattr(
        d.views, "view_event", lambda rt, events: {"type": "view", "events": events}
    )
    d.views._send_view(rt, ["e"], 2.0)
    assert published == [{"type": "view", "events": ["e"]}]
