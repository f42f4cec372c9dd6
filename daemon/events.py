"""Tournament events at this daemon: their records held, spread and checked (issue 23).

An event is a record of signed entries (protocol/tournament/records.py) that every entrant's
daemon holds whole, as it holds its tables' messages (daemon/event_store.py). Nothing here
decides what a record means: ``HeldEvent.offer`` takes a record only when the checker
accepts it after the records held (protocol/tournament/intake.py), and every answer about an
event (entrants, rounds, standings) is read from the checker's verdict of the held record
(``HeldEvent.verdict``, the checker kept current as each record is taken).
Which peer may send which frame, how a submitted record is handled and what a taken record
leads to are the pure session's tables (protocol/tournament/session.py); this shell does
what they say.

How records travel (frames in daemon/peers/wire.py):

* A would-be entrant dials the director (by the address ``--peer`` or mDNS gives) as a
  *guest* and asks ``EventFind(name)``; the director answers ``EventRecords`` from position
  0, the creation first. The entrant opens the event from that creation (its id is the hash
  of the signed ``Create``: nobody can pass off another), signs its ``Entry`` and sends
  ``EventEnter`` (with the code at a private event: the director then signs the ``Admit``).
* Every record the director takes goes to every entrant. A daemon that hears from a peer of
  one of its events (each ``Hello``) asks it ``EventAsk(have)`` for what it lacks, so a
  restarted daemon, director or entrant, catches up from whichever peer answers; a gap (a
  record at a later position than the next) is asked for the same way.
* Guests may send only ``EventFind``, ``EventAsk`` and ``EventEnter``, and only while this
  daemon directs an event whose rounds are not all started; wrong codes are limited per key
  and per address as a private table's are (``pairing.CodeGuesses``).

Keys: the director pins every entrant; an entrant pins the director and the other entrants
(any of them may answer what it lacks). Records are checked against their signers' keys,
never against who relayed them.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from fourwinds.daemon.event_clock import RoundClock, clock_record, clock_view
from fourwinds.daemon.event_store import EventSetAside, EventStore, HeldEvent
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.peers.discovery import EventAnnouncement, SeenEvent
from fourwinds.daemon.peers.pairing import CodeGuesses, new_code
from fourwinds.daemon.peers.refusals import Refusal, Refused
from fourwinds.daemon.peers.transport import Sender
from fourwinds.daemon.peers.wire import (
    EVENT_RECORDS_BYTES,
    EVENT_RECORDS_MAX,
    EventAsk,
    EventCall,
    EventEnter,
    EventFind,
    EventPeers,
    EventRecords,
    EventSubmit,
    Refuse,
)
from fourwinds.daemon.store.disk import StoreError, write_atomic
from fourwinds.protocol.codes import normalize_code
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.rules_label import rules_label
from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.check import Verdict
from fourwinds.protocol.tournament.export import encode_export
from fourwinds.protocol.tournament.intake import Decision, Intake
from fourwinds.protocol.tournament.next_steps import round_start, seed_step, table_result
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record, signed_bytes
from fourwinds.protocol.tournament.records import (
    NONCE_LEN,
    Admit,
    Correction,
    Create,
    Deck,
    EndTable,
    Entry,
    Extension,
    Length,
    Penalty,
    Record,
    RoundCall,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    SeedSteps,
    Substitute,
    TableResult,
    TimeCall,
    Withdraw,
    WithdrawnBy,
)
from fourwinds.protocol.tournament.round_tables import table_for
from fourwinds.protocol.tournament.seating import FillPolicy, SeatingError
from fourwinds.protocol.tournament.session.admission import (
    FrameRefused,
    SubmitRefused,
    Submitted,
    admit_frame,
    after_taken,
    route_submitted,
)
from fourwinds.protocol.tournament.signing import (
    event_id,
    signature,
    signed,
    signed_by,
    table_id,
)
from fourwinds.protocol.tournament.standings import Scoring

if TYPE_CHECKING:
    from fourwinds.daemon.app import Daemon

log = logging.getLogger(__name__)

META = "meta.msgpack"
JOIN_TIMEOUT_S = 10.0
MAX_PROPOSALS = 4  # different results of one table kept while its seats sign
SUBMIT_RESEND_S = 3.0  # our seed step goes to the director again until the record holds it
# A seed made ahead (records.SeedSteps.AHEAD): when our daemon sends the steps the record
# already allows, so that they cost the least where it matters (``Events._hold_back``).
ECHO_SETTLE_S = 1.0  # before the call, an echo waits until the contributors held still
AHEAD_AFTER_S = 8.0  # the next round's steps wait this long after a round's start (its
# tables are opened and dealt first; a round lasts minutes)
SPREAD_BATCH_S = 0.02  # the director spreads the records it took within this in one frame
EventFrame = EventFind | EventAsk | EventRecords | EventEnter | EventCall | EventSubmit | EventPeers


@dataclass
class EventRuntime:
    """One event as this daemon holds it: its record, the checker's reading of it, and what
    only this daemon knows (the code, if it directs a private event; where the director
    was reached)."""

    held: HeldEvent
    code: str | None = None
    director_at: tuple[str, int] | None = None
    guesses: CodeGuesses = field(default_factory=CodeGuesses)  # wrong codes, per key
    called: int | None = None  # the round the director called (its seed is made)
    submitted: bytes = b""  # our last seed step sent to the director
    submitted_at: float = 0.0  # when it was last sent (monotonic)
    start_problem: str = ""  # why the director could not sign the round start
    # the director: each table's results being signed, (round, table) -> the proposed
    # result's signed bytes -> (its body, one signature a seat, None until given)
    signing: dict[tuple[int, int], dict[bytes, tuple[TableResult, list[bytes | None]]]] = field(
        default_factory=dict
    )
    clock: RoundClock | None = None  # the round under way's clock (event_clock.py)
    # (round, wall-clock time we first held its start, and its time call): in the
    # metadata, so a restarted daemon goes on counting the round's minutes and a table's
    # extension; meta_due: not written yet
    clock_wall: tuple[int, float, float | None] | None = None
    meta_due: bool = False
    # a seed made ahead: the contributors as last seen and since when (monotonic), when we
    # first held the last round's start, and whether a step owed is held back for later
    contributors: tuple[tuple[int, ...], float] = ((), 0.0)
    started_seen: tuple[int, float] = (0, 0.0)
    held_back: bool = False
    # the director: the first record taken and not yet spread (None: all spread), whether
    # the seats must be told where their table's others are once it is
    unspread: int | None = None
    tell_seats: bool = False

    @property
    def verdict(self) -> Verdict:
        """The checker's reading of the held record (kept current as records are taken)."""
        return self.held.verdict

    @property
    def create(self) -> Create:
        assert self.verdict.create is not None  # a held event begins with its creation
        return self.verdict.create

    @property
    def name(self) -> str:
        return self.create.name

    @property
    def director(self) -> bytes:
        """Who directs the event now: its creator, or the key a majority of the entrants
        named since (records.NewDirector)."""
        return self.verdict.director or self.create.director

    def entrants(self) -> tuple[bytes, ...]:
        return self.verdict.entrants

    def rounds_started(self) -> int:
        return len(self.verdict.rounds)

    def entries_open(self) -> bool:
        """Entries are taken until the last round has started (a late entrant plays from
        the next round)."""
        return self.rounds_started() < self.create.rounds


@dataclass
class Joining:
    """A ``tournament join`` waiting for the director's answers."""

    name: str
    director: bytes
    code: str
    done: asyncio.Future[bytes]  # the event id, once our entry is held
    event: bytes | None = None


class Events:
    """Every event this daemon holds. No I/O until ``load``."""

    def __init__(self, d: Daemon, root: Path) -> None:
        self.d = d
        self.store = EventStore(root)
        self.events: dict[bytes, EventRuntime] = {}
        self.set_aside: list[EventSetAside] = []
        self.joining: dict[bytes, Joining] = {}  # director key -> the join under way

    # -- start -------------------------------------------------------------------------------

    def load(self) -> None:
        """Open every stored event (one that fails its check is set aside with the reason)."""
        for event in list(self.store.event_ids()):
            opened = self.store.open(event)
            if isinstance(opened, EventSetAside):
                self.set_aside.append(opened)
                continue
            rt = EventRuntime(opened)
            self._read_meta(rt)
            self.events[event] = rt

    def dial_all(self) -> None:
        """After a start: reach the director of every event we entered (where it was last
        reached); the others find us as we find them (``on_hello``)."""
        for rt in self.events.values():
            if (
                rt.director_at is not None
                and rt.director != self._me()
                and rt.director == rt.create.director
            ):  # where the creator was reached
                self.d.transport.dial(rt.director, [rt.director_at])
            elif rt.director != self._me():  # a new director: heard of
                self._dial(rt.director)

    def close(self) -> None:
        for rt in self.events.values():
            rt.held.close()

    # -- announcing ----------------------------------------------------------------------------

    def announce_all(self) -> None:
        for rt in self.events.values():
            self.announce(rt)

    def announce(self, rt: EventRuntime) -> None:
        """An event we direct is announced on mDNS while it takes entries (one service an
        event), and withdrawn when its last round has started."""
        discovery = self.d.discovery
        if discovery is None or rt.director != self._me():
            return
        if not rt.entries_open():
            self.d.withdraw_soon(rt.held.event)
            return
        self.d.in_background(
            discovery.announce_event(
                EventAnnouncement(
                    rt.held.event, rt.name, rt.create.rules, rt.create.private, rt.create.flowers
                )
            ),
            "announce",
        )

    def seen(self) -> list[SeenEvent]:
        """Events other daemons announce that we do not hold."""
        if self.d.discovery is None:
            return []
        return [e for e in self.d.discovery.seen_events.values() if e.event_id not in self.events]

    # -- who may connect ---------------------------------------------------------------------

    def pinned(self) -> set[bytes]:
        keys = set(self.joining)
        for rt in self.events.values():
            if rt.director == self._me() or self._me() in rt.entrants():
                keys.add(rt.director)
                keys.update(rt.entrants())
        keys.discard(self._me())
        return keys

    def admits_guests(self) -> bool:
        """We direct an event that still takes entries: unknown keys may connect as guests
        (to find it and enter)."""
        return any(rt.director == self._me() and rt.entries_open() for rt in self.events.values())

    # -- frames ------------------------------------------------------------------------------

    def on_hello(self, key: bytes) -> None:
        """A peer said hello: ask it for what we lack of every event we share with it; a
        director whose round is being seeded calls it again (it may have missed the call)."""
        for rt in self.events.values():
            if key == rt.director or key in rt.entrants():
                self._dial(key)  # a restarted director knows an entrant only by its Hello
                self.d.transport.send(key, EventAsk(rt.held.event, len(rt.held)))
                if rt.called is not None and rt.director == self._me():
                    self.d.transport.send(key, EventCall(rt.held.event, rt.called))
                if rt.director == self._me():  # it, or its table's others, may
                    self.d.event_tables.tell_peers(rt, around=key)  # lack where they are

    def handle(self, key: bytes, frame: EventFrame, sender: Sender, guest: bool) -> None:
        """One event frame from ``key``: who may send it is the pure session's table
        (protocol/tournament/session.py FRAME_SENDERS); its handler is this daemon's table
        of the frame's type (``_handlers``)."""
        rt = self.events.get(frame.event) if not isinstance(frame, EventFind) else None
        try:
            admit_frame(
                type(frame).__name__,
                key,
                guest,
                rt.director if rt is not None else None,
                rt.entrants() if rt is not None else (),
            )
        except FrameRefused as error:
            reason = Refusal.NOT_SEATED if error.guest else Refusal.NOT_MEMBER
            raise Refused(reason, str(error)) from None
        self._handlers[type(frame)](key, frame, sender, guest)

    @property
    def _handlers(self) -> dict[type, Callable[[bytes, Any, Sender, bool], None]]:
        """Each event frame's type -> what this daemon does with it (the session admitted it)."""
        return {
            EventFind: lambda key, frame, sender, guest: self._find(key, frame),
            EventAsk: lambda key, frame, sender, guest: self._ask(key, frame, guest),
            EventEnter: lambda key, frame, sender, guest: self._enter(key, frame, sender),
            EventCall: lambda key, frame, sender, guest: self._called(key, frame),
            EventSubmit: lambda key, frame, sender, guest: self._submitted(key, frame),
            EventPeers: lambda key, frame, sender, guest: self._peers(key, frame, sender.address),
            EventRecords: lambda key, frame, sender, guest: self._records(key, frame),
        }

    def _called(self, key: bytes, frame: EventCall) -> None:
        rt = self.events.get(frame.event)
        if rt is None or key != rt.director:
            raise Refused(Refusal.NOT_MEMBER, "a round call from one not its director")
        rt.called = frame.round
        self._advance(rt)

    def _peers(self, key: bytes, frame: EventPeers, via: str) -> None:
        """The director's hints of where our table's seats are (daemon/event_tables.py)."""
        rt = self.events.get(frame.event)
        if rt is None or key != rt.director:
            raise Refused(Refusal.NOT_MEMBER, "table addresses from one not the director")
        self.d.event_tables.told(rt, frame, via)

    def _submitted(self, key: bytes, frame: EventSubmit) -> None:
        """An entrant's own seed step, for us to take as the event's director."""
        rt = self.events.get(frame.event)
        if rt is None or (key not in rt.entrants() and key != rt.director):
            raise Refused(Refusal.NOT_MEMBER, "a record for an event we do not hold")
        try:
            record = decode_record(frame.record)
        except FourwindsError as error:
            self.d.transport.send(key, Refuse(f"your record does not decode: {error}"[:200]))
            return
        if isinstance(record.body, Create) or record.body.event != rt.held.event:
            self.d.transport.send(key, Refuse("a record of another event"))
            return
        body = record.body
        try:
            route = route_submitted(body, key, rt.director == self._me())
        except FrameRefused as error:
            raise Refused(Refusal.NOT_MEMBER, str(error)) from None
        except SubmitRefused as error:
            self.d.transport.send(key, Refuse(str(error)))
            return
        if route is Submitted.FAULTS:
            self.d.event_faults.submitted(rt, key, record)  # event_faults.py
        elif route is Submitted.SIGNATURE:
            problem = self._collect(rt, key, record)
            if problem:
                self.d.transport.send(key, Refuse(problem[:200]))
        else:
            self._take(rt, record)

    def _find(self, key: bytes, frame: EventFind) -> None:
        rt = next(
            (
                rt
                for rt in self.events.values()
                if rt.name == frame.name and rt.director == self._me() and rt.entries_open()
            ),
            None,
        )
        if rt is None:
            self.d.transport.send(key, Refuse(f"no event {frame.name!r} takes entries here"))
            return
        self._send_from(key, rt, 0)

    def _ask(self, key: bytes, frame: EventAsk, guest: bool) -> None:
        rt = self.events.get(frame.event)
        if rt is None:
            raise Refused(Refusal.UNKNOWN_TABLE, f"event {frame.event.hex()[:8]}")
        if guest and not (rt.director == self._me() and rt.entries_open()):
            raise Refused(Refusal.NOT_SEATED, "EventAsk")
        self._send_from(key, rt, frame.have)

    def _send_from(self, key: bytes, rt: EventRuntime, start: int) -> None:
        """The records from ``start`` on, as many as one frame holds (the receiver asks
        again for the rest)."""
        chunk: list[bytes] = []
        size = 0
        for record in rt.held.records[start : start + EVENT_RECORDS_MAX]:
            data = encode_record(record)
            if chunk and size + len(data) > EVENT_RECORDS_BYTES:
                break
            chunk.append(data)
            size += len(data)
        if chunk:
            self.d.transport.send(key, EventRecords(rt.held.event, start, tuple(chunk)))

    def _records(self, key: bytes, frame: EventRecords) -> None:
        rt = self.events.get(frame.event)
        if rt is None:
            self._open_joined(key, frame)  # takes the rest of the frame itself
            return
        before = len(rt.held)
        for offset, data in enumerate(frame.records):
            at = frame.start + offset
            if at < len(rt.held):
                continue  # held already
            if at > len(rt.held):
                break  # a gap: asked for below
            try:
                record = decode_record(data)
            except FourwindsError as error:
                log.warning(
                    "event %s: a record from %s does not decode: %s",
                    rt.held.event.hex()[:8],
                    key.hex()[:8],
                    error,
                )
                break
            intake = self._offer(rt, record, sync=False)
            if intake is not Decision.ACCEPT:
                break
        if len(rt.held) > before:
            try:
                rt.held.sync()  # one sync a frame: before anything that follows
            except StoreError as error:
                log.error("event %s: cannot store records: %s", rt.held.event.hex()[:8], error)
                return
            self._taken(rt, before)
        if frame.records and (len(rt.held) > before or frame.start > before):
            self.d.transport.send(key, EventAsk(rt.held.event, len(rt.held)))

    def _open_joined(self, key: bytes, frame: EventRecords) -> None:
        """The first records of an event we asked a director for (``EventFind``): opened
        from its creation when the director is the one we dialled and the name the one we
        asked; then our entry is sent."""
        joining = self.joining.get(key)
        if joining is None or frame.start != 0 or not frame.records:
            raise Refused(Refusal.UNKNOWN_TABLE, f"event {frame.event.hex()[:8]}")
        try:
            first = decode_record(frame.records[0])
        except FourwindsError as error:
            self._fail(joining, f"the director's event does not decode: {error}")
            return
        body = first.body
        if (
            not isinstance(body, Create)
            or event_id(body) != frame.event
            or body.director != key
            or body.name != joining.name
        ):
            self._fail(joining, "the director sent another event than the one asked for")
            return
        try:
            held = self.store.create(first)
        except StoreError as error:
            self._fail(joining, str(error))
            return
        rt = EventRuntime(held)
        rt.director_at = self.d.frames.addresses.get(key)
        self.events[frame.event] = rt
        joining.event = frame.event
        self._write_meta(rt)
        rest = EventRecords(frame.event, 1, frame.records[1:])
        if rest.records:
            self._records(key, rest)
        entry = signed(Entry(frame.event, self._me(), self.d.name), self._signer())
        self.d.transport.send(key, EventEnter(frame.event, joining.code, encode_record(entry)))
        return

    def _enter(self, key: bytes, frame: EventEnter, sender: Sender) -> None:
        rt = self.events.get(frame.event)
        if rt is None or rt.director != self._me() or not rt.entries_open():
            self.d.transport.send(key, Refuse("that event takes no entries here"))
            return
        try:
            record = decode_record(frame.entry)
        except FourwindsError as error:
            self.d.transport.send(key, Refuse(f"your entry does not decode: {error}"[:200]))
            return
        body = record.body
        if not isinstance(body, Entry) or body.player != key:
            self.d.transport.send(key, Refuse("an entry is the sender's own"))
            return
        if key in rt.entrants():
            return
        before = len(rt.held)
        if rt.create.private:
            now = time.monotonic()
            if rt.guesses.locked(now, key, sender.address):
                self.d.transport.send(
                    key, Refuse("too many wrong codes from you; try again in a minute")
                )
                return
            if rt.code is None or not _same_code(frame.code, rt.code):
                rt.guesses.failed(now, key, sender.address)
                self.d.transport.send(key, Refuse(f"wrong code for event {rt.name}"))
                return
            if (
                self._offer(rt, signed(Admit(rt.held.event, key), self._signer()))
                is not Decision.ACCEPT
            ):
                return
        if self._offer(rt, record) is Decision.ACCEPT:
            self.d.transport.admitted(key)
        if len(rt.held) > before:
            self._taken(rt, before)

    # -- taking records ----------------------------------------------------------------------

    def _offer(self, rt: EventRuntime, record: Record, sync: bool = True) -> Decision:
        """Offer one record to the held event (a disk that refuses it: refused); with
        ``sync`` False the caller syncs (``HeldEvent.sync``) before acting on it."""
        return self._intake(rt, record, sync).decision

    def _intake(self, rt: EventRuntime, record: Record, sync: bool = True) -> Intake:
        try:
            return rt.held.offer(record, sync)
        except StoreError as error:
            log.error("event %s: cannot store a record: %s", rt.held.event.hex()[:8], error)
            return Intake(Decision.REFUSE)

    def take(self, rt: EventRuntime, record: Record) -> Intake:
        """Offer a record gathered elsewhere (event_faults.py) and do what follows."""
        return self._take(rt, record)

    def signer(self) -> SigningKey:
        """Our identity key, which signs our records."""
        return self._signer()

    def _take(self, rt: EventRuntime, record: Record) -> Intake:
        """Offer one record; when it is taken, do what follows (``_taken``)."""
        before = len(rt.held)
        intake = self._intake(rt, record)
        if intake.decision is Decision.ACCEPT:
            self._taken(rt, before)
        return intake

    def _taken(self, rt: EventRuntime, before: int) -> None:
        """Records from ``before`` on were taken: a director sends them to every entrant;
        a join waiting for our entry is answered."""
        me = self._me()
        steps = after_taken((r.body for r in rt.held.records[before:]), me, rt.director)
        if steps.spread:
            rt.tell_seats |= steps.tell_seats
            self._spread_soon(rt, before)
        if steps.open_tables:
            try:
                self.d.event_tables.round_started(rt)  # our table now, not next tick
            except Exception:
                log.exception("event %s: opening our table failed", rt.name)
        for director, joining in list(self.joining.items()):
            if joining.event == rt.held.event and me in rt.entrants():
                del self.joining[director]
                if not joining.done.done():
                    joining.done.set_result(rt.held.event)
        self._advance(rt)

    def _spread_soon(self, rt: EventRuntime, before: int) -> None:
        """Send the records taken from ``before`` on to every entrant within SPREAD_BATCH_S:
        a burst of seed steps (32 reveals within a few milliseconds) goes out as one frame
        an entrant, not one a record (each frame costs every daemon its decryption, check
        and answer; on two cores that, not the checking, was the seed's time)."""
        first = rt.unspread is None
        rt.unspread = before if rt.unspread is None else min(rt.unspread, before)
        if not first:
            return
        try:
            asyncio.get_running_loop().call_later(SPREAD_BATCH_S, self._spread, rt)
        except RuntimeError:  # no loop running (a test's direct call): at once
            self._spread(rt)

    def _spread(self, rt: EventRuntime) -> None:
        """Send what ``_spread_soon`` gathered."""
        before, rt.unspread = rt.unspread, None
        if before is None or rt.held.event not in self.events:
            return
        me = self._me()
        try:
            for key in rt.entrants():
                if key != me:
                    self._send_from(key, rt, before)
                    self._dial(key)
            if not rt.entries_open():
                self.announce(rt)  # the last round started: withdrawn
            if rt.tell_seats:
                rt.tell_seats = False
                self.d.event_tables.tell_peers(rt)  # each seat: where its table's others are
        except Exception:
            log.exception("event %s: spreading its records failed", rt.name)

    def _advance(self, rt: EventRuntime) -> None:
        """Take our own next step, as the record makes it due (protocol/tournament/
        next_steps.py): an entrant its seed step, sent to the director (taken at once when
        we direct it too); the director the round start once every reveal is in."""
        me = self._me()
        if rt.called is not None and rt.rounds_started() > rt.called:
            rt.called = None  # the called round has started
        step = seed_step(rt.verdict, rt.held.event, me, self._nonce_secret(), rt.called)
        rt.held_back = step is not None and self._hold_back(rt, step, time.monotonic())
        if step is not None and not rt.held_back:
            record = signed(step, self._signer())
            if rt.director == me:
                self._take(rt, record)
                return
            data = encode_record(record)
            if data != rt.submitted:
                rt.submitted = data
                rt.submitted_at = time.monotonic()
                self.d.transport.send(rt.director, EventSubmit(rt.held.event, data))
        if rt.director != me:
            return
        try:
            start = round_start(rt.verdict, rt.held.event)
        except SeatingError as error:
            rt.start_problem = str(error)
            log.warning(
                "event %s: round %d cannot be seated: %s",
                rt.held.event.hex()[:8],
                rt.rounds_started() + 1,
                error,
            )
            return
        if start is not None:
            self._take(rt, signed(start, self._signer()))

    def _hold_back(
        self, rt: EventRuntime, step: SeedCommit | SeedEcho | SeedReveal, now: float
    ) -> bool:
        """Whether to send a step the record already allows later (a seed made ahead):
        the next round's steps only AHEAD_AFTER_S after we held this round's start and once
        our table of it is open (the tables come first), and before the round's call an
        echo only once the contributors held still ECHO_SETTLE_S (each entry re-opens the
        commit step: echoing through a stream of entries would make every echo again)."""
        verdict = rt.verdict
        if rt.create.seed_steps is not SeedSteps.AHEAD:
            return False
        progress = verdict.seeding
        called = progress is not None and progress.called
        if called:
            return False
        started = len(verdict.rounds)
        if started and rt.started_seen[0] != started:
            rt.started_seen = (started, now)
        if started and (
            now - rt.started_seen[1] < AHEAD_AFTER_S or self.d.event_tables.opening(rt)
        ):
            return True
        roster = progress.roster if progress is not None else ()
        if rt.contributors[0] != roster:
            rt.contributors = (roster, now)
        return isinstance(step, SeedEcho) and now - rt.contributors[1] < ECHO_SETTLE_S

    def each(self, do: Callable[[EventRuntime], None], what: str) -> None:
        """``do`` for every event we hold, from the daemon's ticker: a bug in one event's
        duty is logged (``what`` names it) and never stops the ticker, which also keeps the
        tables' timers."""
        for rt in list(self.events.values()):
            try:
                do(rt)
            except Exception:
                log.exception("event %s: %s failed", rt.name, what)

    def tick(self, now: float) -> None:
        """Send our seed step to the director again while the record does not hold it
        (every SUBMIT_RESEND_S): a step is sent once as the record makes it due, and a
        frame lost on the way (a director busy with 64 entrants' steps at once, a link
        down for a moment) would otherwise stall the round's seed for everyone, since the
        record, unchanged, never makes it due again. The director keeps a step once."""
        self.each(lambda rt: self._resend(rt, now), "sending our seed step again")

    def _resend(self, rt: EventRuntime, now: float) -> None:
        if rt.held_back:
            self._advance(rt)  # a step held back (a seed made ahead) may be due
        me = self._me()
        if not rt.submitted or rt.director == me or now - rt.submitted_at < SUBMIT_RESEND_S:
            return
        rt.submitted_at = now
        step = seed_step(rt.verdict, rt.held.event, me, self._nonce_secret(), rt.called)
        if step is not None and encode_record(signed(step, self._signer())) == rt.submitted:
            self.d.transport.send(rt.director, EventSubmit(rt.held.event, rt.submitted))

    def _collect(self, rt: EventRuntime, key: bytes, record: Record) -> str:
        """A seat's signature of its table's result, for us to gather as the director
        ("" when kept; else why not). Once the four seats signed the same scores, the result
        is taken and spread. A bot seat is ours to sign: our daemon signs the scores its seat
        holds where it plays it (``bot_result``), and we sign it beside any proposal, since
        the players' seats signing the same scores is what makes a result, a table entered
        by hand too (a physical set). Only the current round's tables, at most
        MAX_PROPOSALS different results a table."""
        body = record.body
        assert isinstance(body, TableResult)
        director = key == rt.director == self._me()
        own = [
            n
            for n, player in enumerate(body.players)
            if player == key or (player is None and director)
        ]
        if not own:
            return "you do not sit at that table"
        given = [n for n in own if n < len(record.signatures) and record.signatures[n] is not None]
        if not given or not all(signed_by(body, record.signatures[n], key) for n in given):
            return "your signature of the result does not check"
        try:
            expected = table_result(rt.verdict, rt.held.event, body.table, body.scores)
        except ValueError as error:
            return str(error)
        if expected != body:
            return "that is not a table of the round being played"
        if any(t == (body.round, body.table) for t, _ in rt.verdict.scores):
            return f"round {body.round + 1}, table {body.table + 1} has its result already"
        proposals = rt.signing.setdefault((body.round, body.table), {})
        wire = signed_bytes(body)
        if wire not in proposals:
            if len(proposals) >= MAX_PROPOSALS:
                return "too many different results for that table"
            sigs: list[bytes | None] = [None] * 4
            for n, player in enumerate(body.players):
                if player is None:
                    sigs[n] = signature(body, self._signer())
            proposals[wire] = (body, sigs)
        for n in given:
            proposals[wire][1][n] = record.signatures[n]
        complete = proposals[wire][1]
        taken = (
            all(s is not None for s in complete)
            and self._take(rt, Record(body, tuple(complete))).decision is Decision.ACCEPT
        )
        if taken:
            del rt.signing[(body.round, body.table)]
        return ""

    def result(
        self, rt: EventRuntime, table: int, scores: tuple[int, int, int, int]
    ) -> TableResult:
        """Our player signs the final scores of their table of the current round; the
        director takes the result once its four seats signed the same scores."""
        try:
            body = table_result(rt.verdict, rt.held.event, table, scores)
        except ValueError as error:
            raise ApiError(str(error)) from None
        me = self._me()
        if me not in body.players:
            raise ApiError(f"you do not sit at table {table + 1} of round {body.round + 1}")
        sigs: list[bytes | None] = [None] * 4
        sigs[body.players.index(me)] = signature(body, self._signer())
        record = Record(body, tuple(sigs))
        if rt.director == me:
            problem = self._collect(rt, me, record)
            if problem:
                raise ApiError(problem)
        else:
            self.d.transport.send(rt.director, EventSubmit(rt.held.event, encode_record(record)))
        return body

    def bot_result(
        self, rt: EventRuntime, table: int, scores: tuple[int, int, int, int]
    ) -> TableResult:
        """As the director whose daemon played ``table``'s bot seat(s): sign the final
        scores our seat holds for each bot seat, to be taken once the players' seats signed
        the same (daemon/event_tables.py)."""
        try:
            body = table_result(rt.verdict, rt.held.event, table, scores)
        except ValueError as error:
            raise ApiError(str(error)) from None
        if rt.director != self._me() or None not in body.players:
            raise ApiError(f"no bot seat of ours at table {table + 1}")
        sig = signature(body, self._signer())
        record = Record(body, tuple(sig if player is None else None for player in body.players))
        problem = self._collect(rt, self._me(), record)
        if problem:
            raise ApiError(problem)
        return body

    def withdraw(self, rt: EventRuntime, player: str, reason: str) -> None:
        """Our player withdraws (``player`` empty), or the director withdraws the entrant
        named ``player`` with a reason: from the next round not yet begun."""
        me = self._me()
        if player:
            if rt.director != me:
                raise ApiError("only the director withdraws another player")
            if not reason.strip():
                raise ApiError("the director withdraws a player with a reason")
            body = Withdraw(rt.held.event, entrant_named(rt, player), WithdrawnBy.DIRECTOR, reason)
        else:
            if me not in rt.entrants():
                raise ApiError(f"you are not an entrant of {rt.name}")
            body = Withdraw(rt.held.event, me, WithdrawnBy.PLAYER, reason)
        record = signed(body, self._signer())
        if rt.director == me:
            if self._take(rt, record).decision is not Decision.ACCEPT:
                raise ApiError("the record refuses that withdrawal (already withdrawn?)")
        else:
            self.d.transport.send(rt.director, EventSubmit(rt.held.event, encode_record(record)))

    def director_record(
        self, rt: EventRuntime, body: Correction | Penalty | TimeCall | Extension | EndTable
    ) -> None:
        """A correction of a table's scores (a result entered wrong, a table ended by force),
        a penalty, or a record of the round clock (event_clock.py), signed by us as the
        director, taken and spread."""
        if rt.director != self._me():
            raise ApiError(f"only the director of {rt.name} signs that")
        intake = self._take(rt, signed(body, self._signer()))
        if intake.decision is not Decision.ACCEPT:
            why = intake.problem.line() if intake.problem is not None else "not stored"
            raise ApiError(f"the record refuses it: {why}")

    def call_round(self, rt: EventRuntime) -> int:
        """The director calls the next round: every entrant makes its seed; the round start
        follows by itself (``_advance``). The round's number (from 0)."""
        if rt.director != self._me():
            raise ApiError(f"only the director starts a round of {rt.name}")
        r = rt.rounds_started()
        if r >= rt.create.rounds:
            raise ApiError(f"all {rt.create.rounds} rounds of {rt.name} have started")
        if len(rt.entrants()) - len(rt.verdict.withdrawn) < 1:
            raise ApiError(f"{rt.name} has no entrants yet")
        rt.called = r
        rt.start_problem = ""
        if rt.create.seed_steps is SeedSteps.AHEAD:
            # the signed call closes the round's entries and results; the reveals follow
            if not any(
                isinstance(record.body, RoundCall) and record.body.round == r
                for record in rt.held.records
            ):
                intake = self._take(rt, signed(RoundCall(rt.held.event, r), self._signer()))
                if intake.decision is not Decision.ACCEPT:
                    rt.called = None
                    why = intake.problem.line() if intake.problem is not None else "not stored"
                    raise ApiError(f"round {r + 1} of {rt.name} cannot be called: {why}")
            self._advance(rt)
            return r
        for key in rt.entrants():
            if key != self._me():
                self.d.transport.send(key, EventCall(rt.held.event, r))
        self._advance(rt)
        return r

    def _dial(self, key: bytes) -> None:
        where = self.d.frames.addresses.get(key)
        if where is not None and where[1]:
            self.d.transport.dial(key, [where])

    def refused(self, key: bytes, reason: str) -> None:
        """A ``Refuse`` from a director we are joining ends that join with its reason."""
        joining = self.joining.get(key)
        if joining is not None:
            self._fail(joining, reason)

    def _fail(self, joining: Joining, reason: str) -> None:
        self.joining.pop(joining.director, None)
        if not joining.done.done():
            joining.done.set_exception(ApiError(f"cannot join {joining.name}: {reason}"))

    # -- requests ----------------------------------------------------------------------------

    def create(
        self,
        name: str,
        rules: str,
        rounds: int,
        length: Length,
        amount: int,
        fill: FillPolicy,
        private: bool,
        seeded: bool,
        deck: Deck,
        unfinished_zero: bool,
        flowers: bool = True,
    ) -> EventRuntime:
        if any(
            rt.name == name and rt.director == self._me() and rt.entries_open()
            for rt in self.events.values()
        ):
            raise ApiError(f"you already direct an event {name!r} that takes entries")
        body = Create(
            self._me(),
            name,
            rules,
            rounds,
            length,
            amount,
            fill,
            Scoring(rules),
            unfinished_zero,
            private,
            seeded,
            deck,
            secrets.token_bytes(NONCE_LEN),
            SeedSteps.AHEAD,
            flowers,
        )
        try:
            held = self.store.create(signed(body, self._signer()))
        except StoreError as error:
            raise ApiError(f"cannot create the event: {error}") from None
        rt = EventRuntime(held, code=new_code() if private else None)
        self.events[held.event] = rt
        self._write_meta(rt)
        self.announce(rt)
        return rt

    async def join(
        self, name: str, director: bytes, host: str, port: int, code: str
    ) -> EventRuntime:
        for rt in self.events.values():
            if rt.name == name and rt.director == director and self._me() in rt.entrants():
                return rt
        if director == self._me():
            raise ApiError("you direct that event; your entry is not needed")
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        joining = Joining(name, director, code, future)
        self.joining[director] = joining
        self.d.transport.dial(director, [(host, port)])
        self.d.transport.send(director, EventFind(name))
        try:
            event = await asyncio.wait_for(asyncio.shield(future), JOIN_TIMEOUT_S)
        except TimeoutError:
            self._fail(
                joining,
                f"the director at {host}:{port} did not answer within {JOIN_TIMEOUT_S:.0f} s",
            )
            raise ApiError(
                f"cannot join {name}: the director at {host}:{port} did not "
                f"answer within {JOIN_TIMEOUT_S:.0f} s"
            ) from None
        rt = self.events[event]
        rt.director_at = (host, port)
        self._write_meta(rt)
        return rt

    def find(self, ref: str) -> EventRuntime:
        """The event a request names: its name, or its id (or a prefix of it)."""
        found = [
            rt
            for rt in self.events.values()
            if ref == rt.name or (len(ref) >= 8 and rt.held.event.hex().startswith(ref))
        ]
        if not found:
            raise ApiError(f"no event {ref!r} here; `fourwinds tournament list` lists them")
        if len(found) > 1:
            raise ApiError(f"{len(found)} events are called {ref!r}: name one by its id")
        return found[0]

    def export(self, rt: EventRuntime) -> bytes:
        return encode_export(rt.held.records)

    # -- helpers -----------------------------------------------------------------------------

    def _me(self) -> bytes:
        return self.d.identity.public_key

    def _signer(self) -> SigningKey:
        return SigningKey.from_seed(self.d.identity.private_key)

    def _nonce_secret(self) -> bytes:
        """What our round-seed nonces are derived from: secret as our key is, and the same
        after a restart (a nonce drawn again would not open the commitment made before)."""
        return hashlib.sha256(
            b"fourwinds-tournament-nonces\0" + self.d.identity.private_key
        ).digest()

    def _meta_path(self, rt: EventRuntime) -> Path:
        return self.store.root / rt.held.event.hex() / META

    def save_meta(self, rt: EventRuntime) -> None:
        """Write what only this daemon knows of ``rt`` (its code, where the director was
        reached, when the round's clock started) beside its record."""
        self._write_meta(rt)

    def _write_meta(self, rt: EventRuntime) -> None:
        meta = {
            "code": rt.code,
            "director_at": list(rt.director_at or ()),
            "clock_wall": list(rt.clock_wall or ()),
        }
        try:
            write_atomic(self._meta_path(rt), msgpack.packb(meta, use_bin_type=True))
        except StoreError as error:
            log.error("event %s: cannot write its metadata: %s", rt.held.event.hex()[:8], error)

    def _read_meta(self, rt: EventRuntime) -> None:
        try:
            meta = msgpack.unpackb(self._meta_path(rt).read_bytes(), raw=False)
        except (OSError, ValueError, msgpack.ExtraData) as error:
            log.warning(
                "event %s: its metadata is unreadable (%s); the record is kept",
                rt.held.event.hex()[:8],
                error,
            )
            return
        if not isinstance(meta, dict):
            return
        code = meta.get("code")
        rt.code = code if isinstance(code, str) else None
        where = meta.get("director_at")
        if (
            isinstance(where, list)
            and len(where) == 2
            and isinstance(where[0], str)
            and isinstance(where[1], int)
        ):
            rt.director_at = (where[0], where[1])
        rt.clock_wall = _clock_wall(meta.get("clock_wall"))


def _clock_wall(clock: object) -> tuple[int, float, float | None] | None:
    """The metadata's round clock (round, start, time call: wall-clock seconds; a daemon of
    before the time call was kept wrote only the first two), or None when it is not one."""
    if (
        not isinstance(clock, list)
        or len(clock) not in (2, 3)
        or type(clock[0]) is not int
        or clock[0] < 0
        or not all(_finite(t) for t in clock[1:2])
    ):
        return None
    called = clock[2] if len(clock) == 3 else None
    if called is not None and not _finite(called):
        return None
    return (clock[0], clock[1], called)


def _finite(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value)


def _same_code(given: str, code: str) -> bool:
    return secrets.compare_digest(normalize_code(given), normalize_code(code))


def entrant_named(rt: EventRuntime, player: str) -> bytes:
    """The key of the one entrant called ``player`` (ApiError when none or several)."""
    found = [key for _, name, key in names_of(rt) if name == player]
    if len(found) != 1:
        raise ApiError(f"{len(found)} entrants are called {player!r}")
    return found[0]


def names_of(rt: EventRuntime) -> Iterable[tuple[int, str, bytes]]:
    return (
        (n, name, key)
        for n, (name, key) in enumerate(zip(rt.verdict.names, rt.verdict.entrants, strict=True))
    )


def describe(rt: EventRuntime, me: bytes) -> dict[str, Any]:
    """An event as the local API tells it."""
    create = rt.create
    entrants = rt.entrants()
    return {
        "event": rt.held.event.hex(),
        "name": create.name,
        "rules": create.rules,
        "rounds": create.rounds,
        "length": create.length.value,
        "amount": create.amount,
        "private": create.private,
        "fill": create.fill.value,
        "deck": create.deck.value,
        "flowers": create.flowers,
        "rules_label": rules_label(create.rules, create.flowers),
        "director": rt.director == me,
        "director_key": rt.director.hex(),
        "director_changes": [
            {"director": item.director.hex(), "at": item.at, "reason": item.reason}
            for item in rt.verdict.directors
        ],
        "substitutes": [_substitute(rt, item) for item in rt.verdict.substitutes],
        "entrants": [
            {"number": n, "name": name, "me": key == me, "withdrawn": n in rt.verdict.withdrawn}
            for n, name, key in names_of(rt)
        ],
        "me": entrants.index(me) if me in entrants else None,
        "rounds_started": rt.rounds_started(),
        "entries_open": rt.entries_open(),
        "records": len(rt.held),
        "results": rt.verdict.results,
        "problems": [p.line() for p in rt.verdict.problems],
        "code": rt.code,
        "adjustments": [_adjustment(rt, item) for item in rt.verdict.adjustments],
        "round": _last_round(rt, me),
        "seeding": _seeding(rt),
        "clock": clock_view(rt, me, time.monotonic()),
        "clock_history": [clock_record(item) for item in rt.verdict.clock_records],
    }


WINDS = ("East", "South", "West", "North")


def _substitute(rt: EventRuntime, item: Substitute) -> dict[str, Any]:
    """A seat taken by a substitute, as `tournament status` shows it."""

    def named(key: bytes | None) -> str:
        if key is None:
            return "a bot"
        return rt.verdict.names[rt.entrants().index(key)] if key in rt.entrants() else "?"

    return {
        "round": item.round + 1,
        "table": item.table + 1,
        "seat": WINDS[item.seat],
        "leaving": named(item.leaving),
        "substitute": named(item.substitute),
        "hands": item.hands,
        "scores": list(item.scores),
        "reason": item.reason,
    }


def _adjustment(rt: EventRuntime, item: Correction | Penalty) -> dict[str, Any]:
    """A correction or penalty as the standings' history shows it."""
    if isinstance(item, Correction):
        return {
            "kind": "correction",
            "round": item.round + 1,
            "table": item.table + 1,
            "scores": list(item.scores),
            "reason": item.reason,
        }
    entrants = rt.entrants()
    name = rt.verdict.names[entrants.index(item.player)] if item.player in entrants else "?"
    return {
        "kind": "penalty",
        "round": item.round + 1,
        "player": name,
        "points": str(item.points),
        "score": item.score,
        "reason": item.reason,
    }


def _last_round(rt: EventRuntime, me: bytes) -> dict[str, Any] | None:
    """The last round started: its tables by names (a bot seat as null), its byes, and
    where we sit."""
    if not rt.verdict.rounds:
        return None
    seating = rt.verdict.rounds[-1]
    names = rt.verdict.names
    entrants = rt.entrants()
    mine = entrants.index(me) if me in entrants else None
    out: dict[str, Any] = {
        "round": seating.round + 1,
        "tables": [[None if n is None else names[n] for n in table] for table in seating.tables],
        "byes": [names[n] for n in seating.byes],
        "my_table": None,
        "my_wind": None,
        "my_table_id": None,
        "with": [],
    }
    for t, table in enumerate(seating.tables):
        if mine is not None and mine in table:
            out["my_table"] = t + 1
            out["my_wind"] = WINDS[table.index(mine)]
            out["my_table_id"] = table_id(rt.held.event, seating.round, t).hex()
            out["with"] = [
                f"{names[n]} ({WINDS[w]})" if n is not None else f"a bot ({WINDS[w]})"
                for w, n in enumerate(table)
                if n != mine
            ]
    scores = dict(rt.verdict.scores)
    out["scores"] = [
        list(scores[(seating.round, t)]) if (seating.round, t) in scores else None
        for t in range(len(seating.tables))
    ]
    plan = table_for(rt.verdict, rt.held.event, me)
    if plan is None or plan.round != seating.round:  # our seat was taken by a substitute
        out["my_table"] = out["my_wind"] = out["my_table_id"] = None
        out["with"] = []
    else:  # the seating's, or the one we substitute at
        out["my_table"] = plan.table + 1
        out["my_wind"] = WINDS[plan.place]
        out["my_table_id"] = plan.table_id.hex()
        out["with"] = [
            f"{names[entrants.index(k)]} ({WINDS[w]})" if k in entrants else f"a bot ({WINDS[w]})"
            for w, k in enumerate(plan.keys)
            if w != plan.place
        ]
    # the director's: per table, the results being signed and which winds signed each
    out["signing"] = [
        {
            "table": t + 1,
            "scores": list(body.scores),
            "signed": [WINDS[n] for n, sig in enumerate(sigs) if sig is not None],
        }
        for (r, t), proposals in sorted(rt.signing.items())
        if r == seating.round
        for body, sigs in proposals.values()
    ]
    return out


def _seeding(rt: EventRuntime) -> dict[str, Any] | None:
    """The next round's seed under way: how far, and whom it waits for."""
    progress = rt.verdict.seeding
    if progress is None:
        return None if rt.called is None else {"round": rt.called + 1, "waiting_for": []}
    names = rt.verdict.names
    steps = [
        ("commit", dict(progress.commits)),
        ("echo", dict(progress.echoes)),
        ("reveal", dict(progress.reveals)),
    ]
    ahead = rt.create.seed_steps is SeedSteps.AHEAD and not progress.called
    extra = {"ahead": True} if ahead else {}  # made ahead, the round not called yet
    if ahead:
        steps = steps[:2]  # made ahead: the reveals wait for the director's call
    for step, done in steps:
        waiting = [names[n] for n in progress.roster if n not in done]
        if waiting:
            return {"round": progress.round + 1, "step": step, "waiting_for": waiting, **extra}
    return {
        "round": progress.round + 1,
        "step": "call" if ahead else "start",
        "waiting_for": [],
        **extra,
    }
