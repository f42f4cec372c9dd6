"""`fourwinds play --tournament EVENT`: a person taken to their table of every round.

The player's daemon opens or joins each round's table by itself (daemon/events/tables.py);
this loop says where the player sits ("Round 2, table 5: you are South, with Ann (East),
Bob (West) and Cy (North)"), opens the table screen on it, and when the player leaves the
finished match (Q) shows the standings and waits for the next round, whose table it opens
the same way; while other tables of the round still play, the standings are labelled
provisional and shown again as each of them ends. Q on the result of the round's last hand
is leaving a finished match too (the player's next is said for them, so the table ends its
match at once). Q in the middle of a match leaves the screen only, and says so: the seat
and the event are kept, and `fourwinds play --tournament EVENT` returns to it.
"""

from __future__ import annotations

import contextlib
import shlex
import time
from collections.abc import Callable, Mapping
from typing import Any

from fourwinds.frontends.bots.tournament_bot import finished, next_table
from fourwinds.frontends.cli.commands.tournament_cmds import standings_lines
from fourwinds.frontends.client.acting import act_request
from fourwinds.frontends.client.daemon_link import LocalApi, checked, current_view
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.errors import FourwindsError
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
    shown_results: int | None = None  # the results the standings last shown held
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
            event = current_view(api, table)
            view = event["view"]
            if last_hand_over(view):  # Q on the round's last result: its standings next
                with contextlib.suppress(FourwindsError):  # the table moved on meanwhile
                    said_next(api, event)
            elif view.get("phase") != "match_over":
                say(kept_line(status, name))
                return code  # left mid-match: the seat is kept for `play` again
            played.add(table)
            _until_counted(api, name, say, poll)
            shown_results = _show_standings(api, name, say)
            continue
        if shown_results is not None and status.get("results") != shown_results:
            shown_results = _show_standings(api, name, say)  # another table ended meanwhile
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


def _show_standings(api: LocalApi, name: str, say: Callable[[str], None]) -> int:
    """Print the standings as they are now, labelled (provisional while other tables of the
    round still play); the number of results they hold, to print them again when another
    table's result comes in."""
    standings = checked(api.request({"type": "tournament_standings", "name": name}))
    for line in standings_lines(standings):
        say(line)
    return int(standings.get("results") or 0)


def last_hand_over(view: Mapping[str, Any]) -> bool:
    """Whether the view is the result of the match's last hand: what comes next is the final
    standings, not another hand (the view says so: ``next.then``, decided once by the
    table's view). Leaving that screen is leaving a finished match, not the event."""
    after = view.get("next")
    return (
        view.get("phase") == "hand_over"
        and isinstance(after, Mapping)
        and after.get("then") == "Final standings"
    )


def said_next(api: LocalApi, event: ViewEvent) -> None:
    """Say next for the player who left the last hand's result: they have read it, so the
    table need not wait out its next window for them before the match ends."""
    for action in event.get("legal_actions") or ():
        if action.get("type") == "next":
            checked(api.request(act_request(event, action)))
            return


def kept_line(status: Mapping[str, Any], name: str) -> str:
    """What a player who left their table mid-match is told: the seat and the event are
    kept, and the command that takes them back."""
    last = status.get("round") or {}
    return (
        f"you left the screen, not the event: your seat at round {last.get('round')}, "
        f"table {last.get('my_table')} is kept; `fourwinds play --tournament "
        f"{shlex.quote(name)}` takes you back to it"
    )


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
