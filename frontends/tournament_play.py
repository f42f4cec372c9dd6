"""`fourwinds play --tournament EVENT`: a person taken to their table of every round.

The player's daemon opens or joins each round's table by itself (daemon/event_tables.py);
this loop says where the player sits ("Round 2, table 5: you are South, with Ann (East),
Bob (West) and Cy (North)"), opens the table screen on it, and when the player leaves the
finished match (Q) shows the standings and waits for the next round, whose table it opens
the same way. Q in the middle of a match leaves the screen only: the seat is kept, and
`fourwinds play --tournament EVENT` returns to it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from fourwinds.frontends.commands.tournament_cmds import standings_lines
from fourwinds.frontends.daemon_link import LocalApi, checked, current_view
from fourwinds.frontends.tournament_bot import finished, next_table
from fourwinds.protocol.text import shown_name

POLL_S = 0.5


def seat_line(status: Mapping[str, Any]) -> str:
    """Where the player sits in the round under way, in one line."""
    last = status.get("round") or {}
    others = [shown_name(str(who), 24) for who in last.get("with") or ()]
    company = (f", with {', '.join(others[:-1])} and {others[-1]}" if len(others) > 1
               else f", with {others[0]}" if others else "")
    return (f"Round {last.get('round')}, table {last.get('my_table')}: you are "
            f"{last.get('my_wind')}{company}")


def play_event(api: LocalApi, name: str, open_table: Callable[[str], int],
               say: Callable[[str], None], poll: float = POLL_S) -> int:
    """Take the player to their table of each round of ``name`` until the last is played;
    the table screen's exit status when the player leaves a match before its end."""
    played: set[str] = set()
    waiting_for = -1
    while True:
        status = checked(api.request({"type": "tournament_status", "name": name}))
        table = next_table(status, played)
        tables = checked(api.request({"type": "tables"})).get("tables") or ()
        if table is not None and any(t.get("table") == table for t in tables):
            say(seat_line(status))
            code = open_table(table)
            view = current_view(api, table).get("view") or {}
            if view.get("phase") != "match_over":
                return code         # left mid-match: the seat is kept for `play` again
            played.add(table)
            standings = checked(api.request({"type": "tournament_standings", "name": name}))
            for line in standings_lines(standings):
                say(line)
            continue
        if finished(status, played):
            say(f"{shown_name(name, 64)} is over: every round is played")
            return 0
        started = int(status.get("rounds_started") or 0)
        if started != waiting_for:
            waiting_for = started
            say(f"waiting for round {started + 1 if table is None else started} of "
                f"{status.get('rounds')}: the director starts it, your table opens by itself")
        time.sleep(poll)
