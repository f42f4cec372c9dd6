"""The one rule for saying ready at a table of the player and three bots (terminal and page):
asked again while the table is still being filled, never past a real refusal. The page's
copy of the rule once lacked the session's "not waiting for this seat" and gave up at once
under load: the host's table with three bots stayed in the lobby (CI, 2026-12-04)."""

from __future__ import annotations

import pytest

from fourwinds.frontends.client.ready_with_bots import ready_not_yet
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.table.machine.session import TableReady, local_action, new_table


def test_a_ready_before_the_bots_sit_down_is_asked_again() -> None:
    alone = new_table("garden", "mcr", bytes(range(32)), b"e" * 32, 0.0).session
    with pytest.raises(LocalProtocolError) as refused:
        local_action(alone, TableReady(), 0.0)
    assert ready_not_yet({"ok": False, "error": str(refused.value)})
    assert ready_not_yet({"ok": False, "error": "table garden has not started here yet"})


def test_a_taken_ready_or_another_refusal_is_not_asked_again() -> None:
    assert not ready_not_yet({"ok": True})
    assert not ready_not_yet({"ok": False, "error": "no table 'garden' here"})
