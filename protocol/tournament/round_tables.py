"""The fourwinds table a player's daemon plays for the round under way, read from the record.

Every seat's daemon reads the same table from the same record (``table_for``): its id, which
names the event, the round and the table (``signing.table_id``, so a result names the table
it came from), the four keys in wind order, the name and options. Its first seat (East)
opens it, and only the three keys the seating put there are admitted, each at the place of
its wind (``TableOptions.fixed_winds``: place 0 East ... 3 North), so a seat's wind is the
seating's, never the dice's. A table with a bot seat is not played by daemons yet: its
result is entered by its players (``playable``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .check import Verdict
from .records import Deck, Length
from .signing import table_id

EVENT_TABLE_NAME = 60
"""Longest table name (a table name is at most 60 characters at the daemon)."""

TURN_WINDOW_S = 60.0
"""A seat's own turn at an event table: a player away from the keyboard does not hold the
table up for more than a minute a discard (their daemon then discards by default), since
the round is called for everyone at once. A friendly table has no turn timer."""


@dataclass(frozen=True)
class RoundTable:
    """Our table of the round under way: ``keys`` E, S, W, N (None: a bot seat), ``place``
    our place there (our wind), ``options`` the table options every seat opens it with."""

    round: int
    table: int
    table_id: bytes
    keys: tuple[bytes | None, bytes | None, bytes | None, bytes | None]
    place: int
    name: str
    rules: str
    options: dict[str, Any]

    @property
    def host(self) -> bytes | None:
        """The key that opens the table: East's."""
        return self.keys[0]

    @property
    def playable(self) -> bool:
        """Whether daemons play it (no bot seat: bot seats are entered by hand for now)."""
        return None not in self.keys

    def places(self) -> dict[bytes, int]:
        """Each seated key's place (its wind)."""
        return {key: place for place, key in enumerate(self.keys) if key is not None}


def table_name(event_name: str, round_index: int, table: int) -> str:
    """The table's name as its players see it, e.g. "club night R2 T5"."""
    tail = f" R{round_index + 1} T{table + 1}"
    return event_name[:EVENT_TABLE_NAME - len(tail)] + tail


def table_options(verdict: Verdict) -> dict[str, Any]:
    """The options of every table of the event (the daemon's ``create`` map): the event's
    deck, its hands a round (a timed round plays the rule set's match until the clock is
    built), winds from the seating, a turn timer."""
    create = verdict.create
    assert create is not None
    hands = create.amount if create.length is Length.HANDS else 0
    return {"deck": "practice" if create.deck is Deck.PRACTICE else "masked",
            "hands": hands, "fixed_winds": True, "turn_window": TURN_WINDOW_S}


def table_for(verdict: Verdict, event: bytes, player: bytes) -> RoundTable | None:
    """``player``'s table in the last round started, or None (no round yet, not an entrant,
    a bye)."""
    create = verdict.create
    if create is None or not verdict.rounds or player not in verdict.entrants:
        return None
    seating = verdict.rounds[-1]
    at = seating.table_of(verdict.entrants.index(player))
    if at is None:
        return None
    table, seat = at
    numbers = seating.tables[table]
    keys = tuple(None if n is None else verdict.entrants[n] for n in numbers)
    return RoundTable(seating.round, table, table_id(event, seating.round, table),
                      (keys[0], keys[1], keys[2], keys[3]), int(seat),
                      table_name(create.name, seating.round, table), create.rules.value,
                      table_options(verdict))
