"""Four table sessions in memory, no network: delivers their messages and lets bots play.

Pure (no I/O, no clock, no randomness of its own): time is a counter, and when a ``rng`` is
passed in (anything with ``randrange``) it picks which queued message is delivered next and
whether bots act first, so tests can shuffle, duplicate and delay messages at will. Each seat's
``persist`` records are kept, so a seat can be restarted from them with ``resume``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.errors import IllegalAction, LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.masked import ready_to_act
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.machine.problems import Problem
from fourwinds.protocol.table.machine.session import (
    HandNext,
    TableReady,
    handle_message,
    join_table,
    local_action,
    messages_since,
    new_table,
    tick,
)
from fourwinds.protocol.table.machine.state import Phase, Step, TableSession
from fourwinds.protocol.table.machine.transcript import resume
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.suggest import bot_entropy


class Rng(Protocol):
    def randrange(self, n: int) -> int: ...


Intercept = Callable[[Seat, bytes], Sequence[bytes]]
"""Rewrites a seat's outgoing message (tests: a lying or tampering seat)."""


def seat_key(seed: bytes, place: int) -> bytes:
    return hashlib.sha256(b"fourwinds-harness-key\0" + seed + bytes([place])).digest()


@dataclass
class Harness:
    """Four sessions and the messages in flight between them."""

    seed: bytes
    sessions: list[TableSession]
    records: list[list[bytes]]
    queue: list[tuple[Seat, bytes]] = field(default_factory=list)
    now: float = 0.0
    problems: list[list[Problem]] = field(default_factory=lambda: [[], [], [], []])
    events: list[list[object]] = field(default_factory=lambda: [[], [], [], []])
    intercept: Intercept | None = None
    delivered: int = 0

    def take(self, place: Seat, step: Step) -> None:
        """Record a step of ``place``: its session, records, problems, and outgoing mail."""
        self.sessions[place] = step.session
        self.records[place].extend(step.persist)
        self.problems[place].extend(p for p in step.problems if isinstance(p, Problem))
        self.events[place].extend(step.events)
        for out in step.outgoing:
            payloads = (
                [out.payload]
                if self.intercept is None
                else list(self.intercept(place, out.payload))
            )
            targets = [out.to] if out.to is not None else [p for p in SEATS if p != place]
            for payload in payloads:
                self.queue.extend((t, payload) for t in targets)

    def done(self) -> bool:
        return all(s.phase in (Phase.OVER, Phase.HALTED) for s in self.sessions)


def open_harness(
    rules: str, seed: bytes, *, rules_text: str = "", options: TableOptions | None = None
) -> Harness:
    """A table opened by place 0 and joined by places 1-3 (joins still to be delivered)."""
    entropy = [hashlib.sha256(b"entropy" + seed + bytes([p])).digest() for p in SEATS]
    first = new_table(
        "harness",
        rules,
        seat_key(seed, 0),
        entropy[0],
        0.0,
        rules_text=rules_text,
        options=options,
        player="seat 0",
    )
    open_payload = first.outgoing[0].payload
    h = Harness(seed, [first.session] * 4, [list(first.persist), [], [], []])
    for place in SEATS[1:]:
        step = join_table(
            open_payload,
            place,
            seat_key(seed, place),
            entropy[place],
            0.0,
            player=f"seat {int(place)}",
        )
        h.take(place, step)
    return h


def bot_moves(h: Harness, place: Seat, level: BotLevel = BotLevel.NORMAL) -> bool:
    """Let ``place``'s built-in bot (at ``level``) act if the table waits for it; True if it
    did (at a hand's end it says "next" at once)."""
    s = h.sessions[place]
    if s.me is None or s.me not in s.awaiting or s.me in s.inputs or s.inbox[s.me]:
        return False
    if s.phase is Phase.READY:
        h.take(place, local_action(s, TableReady(), h.now))
        return True
    if s.phase is Phase.HAND_END:  # bots say "next" at once, once the deck audit is over
        try:
            h.take(place, local_action(s, HandNext(), h.now))
        except LocalProtocolError:
            return False
        return True
    if s.phase is not Phase.PLAY or s.rules is None or s.hand is None or not ready_to_act(s):
        return False
    assert s.hand.seating is not None
    entropy = bot_entropy(h.seed, place, s.step)
    action = s.rules.choose(s.hand.engine, wind_of(s.hand.seating, place), entropy, level)
    try:
        h.take(place, local_action(s, action, h.now))
    except IllegalAction:
        return False
    return True


def deliver_one(h: Harness, index: int = 0, duplicate: bool = False) -> None:
    place, payload = h.queue.pop(index)
    if duplicate:
        h.queue.append((place, payload))
    h.delivered += 1
    h.take(place, handle_message(h.sessions[place], payload, h.now))


def run(
    h: Harness,
    rng: Rng | None = None,
    *,
    duplicates: int = 0,
    max_rounds: int = 200_000,
    bots: Sequence[Seat] = SEATS,
) -> Harness:
    """Deliver and play until every seat is over (or halted) or nothing can move.

    With ``rng``: random delivery order, bots acting at random moments, and a duplicate of a
    delivered message now and then (``duplicates`` in 100)."""
    for _ in range(max_rounds):
        if h.done():
            return h
        act_first = rng is None or rng.randrange(3) == 0 or not h.queue
        if act_first and any(bot_moves(h, p) for p in bots):
            continue
        if h.queue:
            index = 0 if rng is None else rng.randrange(len(h.queue))
            dup = rng is not None and duplicates > 0 and rng.randrange(100) < duplicates
            deliver_one(h, index, dup)
            continue
        h.now += 1.0
        moved = False
        for place in SEATS:
            before = len(h.queue)
            h.take(place, tick(h.sessions[place], h.now))
            moved = moved or len(h.queue) > before
        if not moved and h.now > 10_000:
            return h
    return h


def drive(h: Harness, moves: Callable[[Harness], bool], max_rounds: int = 100_000) -> Harness:
    """Play with ``moves`` deciding for the seats: each round ``moves(h)`` acts for any seat
    it wants to (True if one acted); otherwise one message is delivered, or, with nothing in
    flight, the clock moves on a second and every seat's timers run. Stops when every seat is
    over (or halted), or after ``max_rounds``."""
    for _ in range(max_rounds):
        if h.done():
            break
        one_round(h, moves)
    return h


def one_round(h: Harness, moves: Callable[[Harness], bool]) -> None:
    """One round of ``drive``: a seat acts, else a message is delivered, else the clock
    moves on a second and every seat's timers run."""
    if moves(h):
        return
    if h.queue:
        deliver_one(h)
        return
    h.now += 1.0
    for place in SEATS:
        h.take(place, tick(h.sessions[place], h.now))


def restart(h: Harness, place: Seat) -> None:
    """Crash ``place`` and restart it from its records; it catches up from its peers."""
    h.sessions[place] = resume(h.records[place], seat_key(h.seed, place))
    h.queue = [(t, p) for t, p in h.queue if t != place]  # mail in flight to it was lost
    catch_up(h, place)


def catch_up(h: Harness, place: Seat) -> None:
    """Ask every peer for what ``place`` lacks, and give peers what they lack of ``place``."""
    for peer in SEATS:
        if peer == place:
            continue
        for author in SEATS:
            have = h.sessions[place].chains[author].next_seq
            for payload in messages_since(h.sessions[peer], author, have, for_seat=place):
                h.queue.append((place, payload))
        theirs = h.sessions[peer].chains[place].next_seq
        for payload in messages_since(h.sessions[place], place, theirs, for_seat=peer):
            h.queue.append((peer, payload))
    h.take(place, tick(h.sessions[place], h.now))


def play_match(
    rules: str,
    seed: bytes,
    *,
    rules_text: str = "",
    options: TableOptions | None = None,
    rng: Rng | None = None,
) -> Harness:
    """A whole match of four built-in bots."""
    return run(open_harness(rules, seed, rules_text=rules_text, options=options), rng)
