"""A fake local daemon API for the CLI tests: tables, views and acts from a scripted table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fourwinds.frontends.client.view_shapes import ViewEvent
from tests.frontends.scripted_table import ScriptedTable


class FakeApi:
    """Answers the local-API requests the frontends send; records every one."""

    def __init__(
        self, events: Sequence[ViewEvent], tables: int = 1, sheet: dict[str, Any] | None = None
    ) -> None:
        self.table = ScriptedTable(events)
        self.sent: list[dict[str, Any]] = []
        self.tables: list[dict[str, Any]] = [
            {"table": f"ab{i}cd", "name": "kitchen" if i == 0 else f"t{i}", "members": []}
            for i in range(tables)
        ]
        self.sheet = sheet  # the `sheet` answer; None: refused as by an older daemon
        self.closed = False

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.sent.append(dict(message))
        kind = message.get("type")
        if kind == "tables":
            return {"ok": True, "tables": self.tables, "seen": [], "peers": []}
        if kind == "view":
            if message.get("table") not in ("kitchen", "ab0cd"):
                table = message.get("table")
                return {"ok": False, "error": f"you are not seated at a table {table!r}"}
            return {"ok": True, "event": self.table.current}
        if kind == "act":
            return self.table.act(message)
        if kind == "create":
            code = "7-tiger" if message.get("private") else None
            return {"ok": True, "table": "ab0cd", "code": code}
        if kind in ("join", "seat", "ready"):
            return {"ok": True, "table": "ab0cd"}
        if kind == "sheet":
            if self.sheet is None:
                return {"ok": False, "error": "unknown request type 'sheet'"}
            return {"ok": True, "sheet": self.sheet}
        return {"ok": False, "error": f"unknown request type {kind!r}"}

    def next_event(self, timeout: float) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        self.closed = True
