"""`fourwinds play --tournament EVENT`: a person taken to their table of every round.

The player's daemon opens or joins each round's table by itself (daemon/events/tables.py);
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

from fourwinds.frontends.bots.tournament_bot import finished, next_table
from fourwinds.frontends.cli.commands.tournament_cmds import standings_lines
from fourwinds.frontends.client.daemon_link import LocalApi, checked, current_view
from fourwinds.protocol.text import shown_name

POLL_S = 0.5
COUNTED_WAIT_S = 20.0
"""How long after the match the standings wait for the table's result to count (the four
seats' signatures gathered by the director and spread back): seconds, as a rule."""


def seat_line(status: Mapping[str, Any]) -> str:
    """Where the player sits in the round under way, in one line."""
    last = status.get("round") or {}
    others = [shown_name(str(who), 24) for who in last.get("with") or ()]
    company = (
        f", with {', '.join(others[:-1])} and {others[-1]}"
        if len(others) > 1
        else f", with {others[0]}"
        if others
        else ""
    )
    return (
        f"Round {last.get('round')}, table {last.get('my_table')}: you are "
        f"{last.get('my_wind')}{company}"
    )


def play_event(
    api: LocalApi,
    name: str,
    open_table: Callable[[str], int],
    say: Callable[[str], None],
    poll: float = POLL_S,
) -> int:
    """Take the player to their table of each round of ``name`` until the last is played;
    the table screen's exit status when the player leaves a match before its end."""
    played: set[str] = set()
    said = ""
    while True:
        status = checked(api.request({"type": "tournament_status", "name": name}))
        table = next_table(status, played)
        tables = checked(api.request({"type": "tables"})).get("tables") or ()
        if table is not None and any(t.get("table") == table for t in tables):
            say(seat_line(status))
            code = open_table(table)
            tables = checked(api.request({"type": "tables"})).get("tables") or ()
            if not any(t.get("table") == table for t in tables):
                played.add(table)  # left by our daemon: the table goes on under another
                continue  # id (a substitute took a seat), opened next
            view = current_view(api, table)["view"]
            if view.get("phase") != "match_over":
                return code  # left mid-match: the seat is kept for `play` again
            played.add(table)
            _until_counted(api, name, say, poll)
            standings = checked(api.request({"type": "tournament_standings", "name": name}))
            for line in standings_lines(standings):
                say(line)
            continue
        if finished(status, played):
            say(f"{shown_name(name, 64)} is over: every round is played")
            return 0
        started = int(status.get("rounds_started") or 0)
        wait = (
            f"round {started}: your table is being opened..."
            if table is not None
            else f"waiting for round {started + 1} of {status.get('rounds')}: the director "
            "starts it, your table opens by itself"
        )
        if wait != said:
            said = wait
            say(wait)
        time.sleep(poll)


def _until_counted(api: LocalApi, name: str, say: Callable[[str], None], poll: float) -> None:
    """Wait (bounded) until our finished table's result counts, so the standings shown
    include it; say so when it takes a moment."""
    end = time.monotonic() + COUNTED_WAIT_S
    said = False
    while time.monotonic() < end:
        status = checked(api.request({"type": "tournament_status", "name": name}))
        if status.get("my_table_counted"):
            return
        if not said:
            say("the match is over: waiting for its result to count...")
            said = True
        time.sleep(poll)
    say(
        "the result does not count yet (the director's daemon may be away): "
        "`fourwinds tournament standings` shows it once it does"
    )
