"""Playing a table up to the end of a hand without anyone saying "next" (the clock stands
still: no timer runs), for the tests of the hand's end, its view and "more time"."""

from __future__ import annotations

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import HandNext, local_action
from fourwinds.protocol.table.machine.state import Phase

# Seeds whose first hand (bots playing) ends as named: found by playing them.
AMERICAN_DISCARD_WIN = b"end-0"
AMERICAN_SELF_DRAWN = b"end-8"
AMERICAN_WALL_GAME = b"end-12"
MCR_SELF_DRAWN = b"end-0"
MCR_DISCARD_WIN = b"end-4"
MCR_DRAW = b"end-1"


def play_until(h: Harness, done: object) -> Harness:
    """Deliver and let the bots play (never saying "next") until ``done(h)``."""
    assert callable(done)
    for _ in range(200_000):
        if done(h):
            return h
        if any(bot_moves(h, p) for p in SEATS if h.sessions[p].phase is not Phase.HAND_END):
            continue
        if h.queue:
            deliver_one(h)
            continue
        raise AssertionError("the table stopped before the condition held")
    raise AssertionError("too many rounds")


def all_at_hand_end(h: Harness) -> bool:
    return not h.queue and all(s.phase is Phase.HAND_END for s in h.sessions)


def to_hand_end(rules: str, seed: bytes, options: TableOptions | None = None) -> Harness:
    """A table whose four seats all reached the end of the first hand (everything delivered),
    none of them having said "next"."""
    h = open_harness(rules, seed, options=options or TableOptions(deck=DeckKind.PRACTICE, hands=1))
    return play_until(h, all_at_hand_end)


def say_next(h: Harness, place: Seat) -> None:
    h.take(place, local_action(h.sessions[place], HandNext(), h.now))


def deliver_all(h: Harness) -> None:
    while h.queue:
        deliver_one(h)
