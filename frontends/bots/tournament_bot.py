"""A bot entrant: plays its daemon's table of every round of a tournament, one after another.

The player's daemon opens or joins each round's table by itself (daemon/events/tables.py);
this loop only waits for it (``tournament_status``: the round's ``my_table_id``), plays it
to the end of its match with a fresh brain, and waits for the next round's, until the
event's last round is played (or this entrant has a bye in it). A bot entrant is how a
venue fills its tables in a test or a club's practice evening; a person runs
`fourwinds play` instead.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from fourwinds.frontends.bots.bot_seat import Brain, play_seat
from fourwinds.frontends.client.daemon_link import DaemonTable, LocalApi, checked

log = logging.getLogger(__name__)

POLL_S = 0.5


def next_table(status: Mapping[str, Any], played: set[str]) -> str | None:
    """Our table of the round under way (its hex id), unless it is played: by us here, or
    its result already counts. One rule for the bot entrant and `play --tournament`."""
    last = status.get("round")
    if not isinstance(last, Mapping):
        return None
    table = last.get("my_table_id")
    if not table or table in played or status.get("my_table_counted"):
        return None
    return str(table)


def finished(status: Mapping[str, Any], played: set[str]) -> bool:
    """Every round has started and ours of the last is played (or a bye)."""
    if int(status.get("rounds_started") or 0) < int(status.get("rounds") or 0):
        return False
    last = status.get("round")
    table = last.get("my_table_id") if isinstance(last, Mapping) else None
    return table is None or table in played or bool(status.get("my_table_counted"))


def play_event(
    api: LocalApi,
    name: str,
    brain_for: Callable[[], Brain],
    poll: float = POLL_S,
    pause: float = 0.0,
) -> int:
    """Play our table of each round of ``name`` as it comes; 0 once the event's last round
    is played, 1 if a brain's program died."""
    played: set[str] = set()
    while True:
        status = checked(api.request({"type": "tournament_status", "name": name}))
        if finished(status, played):
            return 0
        table = next_table(status, played)
        tables = checked(api.request({"type": "tables"})).get("tables") or ()
        if table is None or not any(t.get("table") == table for t in tables):
            time.sleep(poll)  # no round under way, or its table is being opened
            continue
        log.info(
            "event %s: round %s, table %s",
            name,
            status["round"]["round"],
            status["round"]["my_table"],
        )
        if play_seat(DaemonTable(api, table), brain_for(), pause=pause) != 0:
            return 1
        played.add(table)
