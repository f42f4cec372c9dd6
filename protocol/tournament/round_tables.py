"""The fourwinds table a player's daemon plays for the round under way, read from the record.

Every seat's daemon reads the same table from the same record (``table_for``): its id, which
names the event, the round and the table (``signing.table_id``, so a result names the table
it came from), the four keys in wind order, the name and options. Its first seat (East)
opens it, and only the three keys the seating put there are admitted, each at the place of
its wind (``TableOptions.fixed_winds``: place 0 East ... 3 North), so a seat's wind is the
seating's, never the dice's.

A bot seat (``None`` in the seating) is played by the director's daemon under the director's
own key, the key the record has sign a bot seat's result (check.py): the director's key sits
at that place (``seats``) and is admitted there only, and the director's daemon plays it
with the rule set's built-in bot (``bot_tables``). A table where one key would sit twice (the
director entered and is seated beside a bot seat, or two bot seats at one table: 1, 2 or 5
entrants) cannot be played by daemons, since a table seats a key
once: its result is entered by its players (``playable``).

A seat taken by a substitute (records.Substitute) makes the table go on as a new fourwinds
table (``signing.table_id`` part 1) with the substitute's key in that seat (the director's
for a bot seat) for the hands left, its first hand's scores at 0: the result of the hands
after is added to the scores carried by the checker. The leaving player has no table then."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .check import Verdict, table_hands
from .records import Deck, Length, Substitute
from .seating import RoundSeating
from .signing import table_id

EVENT_TABLE_NAME = 60
"""Longest table name (a table name is at most 60 characters at the daemon)."""


@dataclass(frozen=True)
class RoundTable:
    """Our table of the round under way: ``keys`` E, S, W, N as the record has them (None: a
    bot seat), ``place`` our place there (our wind; at a bot seat, the director's daemon
    playing it), ``options`` the table options every seat opens it with, ``director`` the
    key that plays and signs its bot seats."""

    round: int
    table: int
    table_id: bytes
    keys: tuple[bytes | None, bytes | None, bytes | None, bytes | None]
    place: int
    name: str
    rules: str
    options: dict[str, Any]
    director: bytes

    @property
    def seats(self) -> tuple[bytes, ...]:
        """The key at each place of the fourwinds table: a bot seat's is the director's."""
        return tuple(self.director if key is None else key for key in self.keys)

    @property
    def host(self) -> bytes:
        """The key that opens the table: East's (the director's when East is a bot seat)."""
        return self.seats[0]

    @property
    def bot_seat(self) -> bool:
        """Whether our place is a bot seat (we are the director's daemon playing it)."""
        return self.keys[self.place] is None

    @property
    def playable(self) -> bool:
        """Whether daemons play it: every place a key of its own (a table seats a key once)."""
        return len(set(self.seats)) == 4

    def places(self) -> dict[bytes, int]:
        """Each seated key's place (its wind), the director's at a bot seat."""
        return {key: place for place, key in enumerate(self.seats)}


def table_name(event_name: str, round_index: int, table: int) -> str:
    """The table's name as its players see it, e.g. "club night R2 T5"."""
    tail = f" R{round_index + 1} T{table + 1}"
    return event_name[: EVENT_TABLE_NAME - len(tail)] + tail


def table_options(verdict: Verdict) -> dict[str, Any]:
    """The options of every table of the event (the daemon's ``create`` map): the event's
    deck, its hands a round (a timed round: the rule set's whole match as the upper bound,
    the time call ends it, daemon/events/clock.py), winds from the seating, a turn timer of
    the event's seconds (``Create.turn_seconds``, 60 unless the director chose others: a
    player away from the keyboard does not hold the table up longer than that a discard,
    their daemon then discards by default; a friendly table has no turn timer), and
    an MCR event's ``flowers`` off when it plays without them."""
    create = verdict.create
    assert create is not None
    hands = create.amount if create.length is Length.HANDS else 0
    options: dict[str, Any] = {
        "deck": "practice" if create.deck is Deck.PRACTICE else "masked",
        "hands": hands,
        "fixed_winds": True,
        "turn_window": float(create.turn_seconds),
    }
    if not create.flowers:
        options["rules"] = {"flowers": False}
    return options


def substitute_at(verdict: Verdict, round_index: int, table: int) -> Substitute | None:
    """The substitute who took a seat at that table, if one did."""
    for sub in verdict.substitutes:
        if (sub.round, sub.table) == (round_index, table):
            return sub
    return None


def seated_keys(
    verdict: Verdict, seating: RoundSeating, table: int
) -> tuple[bytes | None, bytes | None, bytes | None, bytes | None]:
    """The keys at a table now, E S W N (None: a bot seat): the seating's, with a
    substitute in the seat it took."""
    keys = [None if n is None else verdict.entrants[n] for n in seating.tables[table]]
    sub = substitute_at(verdict, seating.round, table)
    if sub is not None:
        keys[sub.seat] = sub.substitute
    return (keys[0], keys[1], keys[2], keys[3])


def _table(
    verdict: Verdict, event: bytes, seating: RoundSeating, table: int, place: int
) -> RoundTable:
    create = verdict.create
    assert create is not None
    round_index = seating.round
    keys = seated_keys(verdict, seating, table)
    options = table_options(verdict)
    sub = substitute_at(verdict, round_index, table)
    name = table_name(create.name, round_index, table)
    if sub is not None:  # the table goes on as a new one, for the hands left
        options["hands"] = table_hands(create) - sub.hands if options["hands"] else 0
        name = name[: EVENT_TABLE_NAME - 1] + "b"
    return RoundTable(
        round_index,
        table,
        table_id(event, round_index, table, 0 if sub is None else 1),
        keys,
        place,
        name,
        create.rules,
        options,
        verdict.director or create.director,
    )


def table_for(
    verdict: Verdict, event: bytes, player: bytes, round_index: int = -1
) -> RoundTable | None:
    """``player``'s table in the last round started (or round ``round_index``), or None (no
    such round, not an entrant, a bye)."""
    create = verdict.create
    if create is None or not verdict.rounds or player not in verdict.entrants:
        return None
    if round_index >= len(verdict.rounds):
        return None
    seating = verdict.rounds[round_index]
    for sub in verdict.substitutes:
        if sub.round == seating.round and sub.substitute == player:
            return _table(verdict, event, seating, sub.table, sub.seat)
    at = seating.table_of(verdict.entrants.index(player))
    if at is None:
        return None
    table, seat = at
    if seated_keys(verdict, seating, table)[int(seat)] != player:
        return None  # our seat was taken by a substitute
    return _table(verdict, event, seating, table, int(seat))


def bot_tables(verdict: Verdict, event: bytes, round_index: int = -1) -> tuple[RoundTable, ...]:
    """The tables of the last round started (or round ``round_index``) with a bot seat, each
    at its first bot seat's place: what the director's daemon plays. Empty without a round."""
    if verdict.create is None or not verdict.rounds or round_index >= len(verdict.rounds):
        return ()
    seating = verdict.rounds[round_index]
    found = []
    for table in range(len(seating.tables)):
        keys = seated_keys(verdict, seating, table)
        if None in keys:
            found.append(_table(verdict, event, seating, table, keys.index(None)))
    return tuple(found)


def tables_played(
    verdict: Verdict, event: bytes, key: bytes, round_index: int = -1
) -> tuple[RoundTable, ...]:
    """Every table ``key``'s daemon sits at in the last round started (or ``round_index``):
    its player's, and, for the director, each table with a bot seat."""
    own = table_for(verdict, event, key, round_index)
    found: tuple[RoundTable, ...] = () if own is None else (own,)
    create = verdict.create
    if create is not None and (verdict.director or create.director) == key:
        found += tuple(
            t
            for t in bot_tables(verdict, event, round_index)
            if own is None or t.table != own.table
        )
    return found
