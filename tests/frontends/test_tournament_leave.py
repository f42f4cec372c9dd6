"""Leaving a round's table is not leaving the event (frontends/cli/tournament_play.py, issue
38 defect 3): Q in the middle of a match says the seat and the event are kept and how to
return; Q on the result of the round's last hand says next for the player and goes on to
the standings, as leaving the finished match does. A scripted daemon answers here; the whole
path by keys at real daemons is tests/people/test_tournament_play.py."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from fourwinds.frontends.cli.tournament_play import last_hand_over, play_event

TABLE = "ab" * 16
STATUS = {
    "ok": True,
    "rounds": 2,
    "rounds_started": 1,
    "round": {"round": 1, "my_table": 3, "my_table_id": TABLE, "my_wind": "South", "with": []},
}


class ScriptedDaemon:
    """Answers the requests play_event makes, the table's view in ``phase``."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.sent: list[dict[str, Any]] = []

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.sent.append(dict(message))
        kind = message["type"]
        if kind == "tournament_status":
            return STATUS
        if kind == "tables":
            return {"ok": True, "tables": [{"table": TABLE}]}
        if kind == "view":
            actions = [{"id": 0, "type": "next", "label": "See the final standings", "tiles": []}]
            return {
                "ok": True,
                "event": {
                    "type": "view",
                    "table": TABLE,
                    "seq": 7,
                    "view": self.view,
                    "legal_actions": actions,
                },
            }
        if kind == "act":
            raise StopAsking  # the path past the act (standings, next round) is not this test's
        return {"ok": False, "error": f"unexpected {kind}"}


class StopAsking(Exception):
    pass


def test_q_mid_match_keeps_the_seat_and_says_how_to_come_back() -> None:
    said: list[str] = []
    daemon = ScriptedDaemon({"phase": "play"})
    code = play_event(daemon, "club night", lambda table: 0, said.append)  # type: ignore[arg-type]
    assert code == 0
    assert "you left the screen, not the event" in said[-1]
    assert "round 1, table 3 is kept" in said[-1]
    assert "fourwinds play --tournament 'club night'" in said[-1]


def test_q_on_the_last_hands_result_says_next_for_the_player() -> None:
    view = {"phase": "hand_over", "next": {"then": "Final standings", "waiting": [2]}}
    assert last_hand_over(view)
    assert not last_hand_over({**view, "next": {"then": "Next hand"}})
    daemon = ScriptedDaemon(view)
    with contextlib.suppress(StopAsking):
        play_event(daemon, "club", lambda table: 0, lambda line: None)  # type: ignore[arg-type]
    [act] = [m for m in daemon.sent if m["type"] == "act"]
    assert act["table"] == TABLE and act["action"] == 0 and act["seq"] == 7
