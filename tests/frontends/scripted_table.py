"""A scripted stand-in for the daemon: a fixed series of view events, advanced by act requests.

Used by the curses table tests (in-process and under tmux) and the exec-bot tests. Each act
request is checked the way the daemon checks it (current seq, a listed action id, chosen tiles
present): a valid one moves to the next event, anything else is refused with a reason.
Run as a program (``python -m tests.frontends.scripted_table [--ascii] [--end] LOG``) it opens
the curses table on the sample events (``--end``: the end of a hand, then of the match) and
appends every request it receives to LOG as JSON lines.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from fourwinds.frontends.client.view_shapes import ViewEvent
from tests.frontends import sample_views


class ScriptedTable:
    """A ``TableClient`` replaying ``events``; ``requests`` records what the client sent."""

    def __init__(self, events: Sequence[ViewEvent], log_path: str | None = None) -> None:
        self.events = list(events)
        self.index = 0
        self.requests: list[dict[str, Any]] = []
        self.log_path = log_path
        self._delivered = -1

    @property
    def current(self) -> ViewEvent:
        return self.events[self.index]

    def latest_event(self, timeout: float) -> ViewEvent | None:
        if self._delivered == self.index:
            return None
        self._delivered = self.index
        return self.current

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self.requests.append(dict(request))
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(dict(request)) + "\n")
        event = self.current
        if request.get("seq") != event["seq"]:
            seq = request.get("seq")
            return {"ok": False, "error": f"stale view: seq {seq} is not {event['seq']}"}
        ids = [a["id"] for a in event["legal_actions"]]
        if request.get("action") not in ids:
            return {"ok": False, "error": f"no legal action {request.get('action')}"}
        if self.index + 1 < len(self.events):
            self.index += 1
        return {"ok": True}

    def sheet(self) -> dict[str, Any]:
        """The card of the sample table (the daemon's ``sheet`` request)."""
        return sample_views.sample_sheet(str(self.current["view"].get("rules") or "american"))

    def close(self) -> None:
        pass


def sample_script() -> list[ViewEvent]:
    """Charleston pass, a discard, a call, then the end of the hand (seqs increasing)."""
    return [
        sample_views.charleston_event(seq=1),
        sample_views.play_event(seq=2),
        sample_views.call_event(seq=3),
        sample_views.result_event(seq=4, match_over=True),
    ]


def end_script() -> list[ViewEvent]:
    """The end of hand 2 (we have not said next), the table waiting for the others after we
    did, then the end of the match."""
    return [
        sample_views.hand_over_event(seq=1),
        sample_views.hand_over_event(seq=2, waiting=(2, 3)),
        sample_views.match_over_event(seq=3),
    ]


def main(argv: Sequence[str]) -> int:
    from fourwinds.frontends.terminal.curses_table import run

    ascii_only = "--ascii" in argv
    paths = [a for a in argv if not a.startswith("--")]
    script = end_script() if "--end" in argv else sample_script()
    client = ScriptedTable(script, paths[0] if paths else None)
    return run(client, ascii_only=ascii_only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
