"""Tournament events at this daemon: the I/O around each event's pure session (issue 37).

Every tournament rule is the session's (protocol/tournament/session): who may send which
frame, what a record means and whether it is taken, when our seed step is due and when it
is sent again, how a table's result is gathered, what a taken record leads to. This part
decodes the frames where they enter, hands the session its inputs with the time, and
performs the Steps it returns, in order: every ``Store`` written and synced first (nothing
leaves before the records it rests on are durable; when the disk refuses, the state before
is kept and nothing is performed), then the frames sent, the seats told, our table opened.

How records travel between daemons, who may send which frame and how keys are pinned:
docs/TOURNAMENT.md, "Over daemons".
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

from fourwinds.daemon.events.host import EventsHost
from fourwinds.daemon.events.joins import JOIN_TIMEOUT_S, Joins
from fourwinds.daemon.events.meta import Meta, read_meta, write_meta
from fourwinds.daemon.events.performing import StepPerformer
from fourwinds.daemon.events.runtime import EventRuntime
from fourwinds.daemon.events.store import EventSetAside, EventStore
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.peers.discovery import EventAnnouncement, SeenEvent
from fourwinds.daemon.peers.pairing import new_code
from fourwinds.daemon.peers.refusals import Refusal, Refused
from fourwinds.daemon.peers.transport import Sender
from fourwinds.daemon.peers.wire import (
    EventAsk,
    EventCall,
    EventEnter,
    EventFind,
    EventFrame,
    EventPeers,
    EventRecords,
    EventSubmit,
    Refuse,
)
from fourwinds.daemon.store.disk import StoreError
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.export import encode_export
from fourwinds.protocol.tournament.intake import Decision, Intake
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import (
    NONCE_LEN,
    Correction,
    EndTable,
    Entry,
    Extension,
    Penalty,
    Record,
    TableResult,
    TimeCall,
)
from fourwinds.protocol.tournament.session import (
    CallIn,
    CallRound,
    DirectorSigns,
    EnterIn,
    EventRefused,
    FrameRefused,
    Gathered,
    Input,
    Me,
    Outcome,
    PeerBack,
    RecordsIn,
    SignBotResult,
    SignResult,
    SubmitIn,
    Tick,
    WithdrawEntrant,
    WithdrawSelf,
    admit_frame,
    apply,
    opened,
)
from fourwinds.protocol.tournament.session.creating import EventSettings, creation
from fourwinds.protocol.tournament.signing import signed

from .describe import entrant_named

log = logging.getLogger(__name__)


class Events:
    """Every event this daemon holds. No I/O until ``load``."""

    def __init__(self, d: EventsHost, root: Path) -> None:
        self.d = d
        self.store = EventStore(root)
        self.events: dict[bytes, EventRuntime] = {}
        self.set_aside: list[EventSetAside] = []
        self.joins = Joins()  # `tournament join` under way
        self._me_cached: Me | None = None
        self.performer = StepPerformer(d, self.events, self._me, self.announce, self.joins.entered)

    # -- start -------------------------------------------------------------------------------

    def load(self) -> None:
        """Open every stored event (one that fails its check is set aside with the reason)."""
        for event in list(self.store.event_ids()):
            found = self.store.open(event)
            if isinstance(found, EventSetAside):
                self.set_aside.append(found)
                continue
            meta = read_meta(self._folder(event))
            rt = EventRuntime(opened(found.records, self._me(), meta.code), found.log)
            rt.director_at, rt.clock_wall = meta.director_at, meta.clock_wall
            self.events[event] = rt

    def dial_all(self) -> None:
        """After a start: reach the director of every event we entered (where it was last
        reached); the others find us as we find them (``on_hello``)."""
        me = self._me().key
        for rt in self.events.values():
            if (
                rt.director_at is not None
                and rt.director != me
                and rt.director == rt.create.director
            ):
                self.d.transport.dial(rt.director, [rt.director_at])  # where the creator was
            elif rt.director != me:  # a new director: heard of
                self.performer.dial(rt.director)

    def close(self) -> None:
        for rt in self.events.values():
            rt.log.close()

    # -- announcing ----------------------------------------------------------------------------

    def announce_all(self) -> None:
        for rt in self.events.values():
            self.announce(rt)

    def announce(self, rt: EventRuntime) -> None:
        """An event we direct is announced on mDNS while it takes entries (one service an
        event), and withdrawn when its last round has started."""
        discovery = self.d.discovery
        if discovery is None or not rt.state.directs:
            return
        if not rt.entries_open():
            self.d.announcing.withdraw_soon(rt.event)
            return
        self.d.in_background(
            discovery.announce_event(
                EventAnnouncement(
                    rt.event, rt.name, rt.create.rules, rt.create.private, rt.create.flowers
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
        me = self._me().key
        keys = set(self.joins.pending)
        for rt in self.events.values():
            if rt.director == me or me in rt.entrants():
                keys.add(rt.director)
                keys.update(rt.entrants())
        keys.discard(me)
        return keys

    def admits_guests(self) -> bool:
        """We direct an event that still takes entries: unknown keys may connect as guests
        (to find it and enter)."""
        return any(rt.state.directs and rt.entries_open() for rt in self.events.values())

    # -- the session: inputs in, steps performed -------------------------------------------

    def _apply(self, rt: EventRuntime, given: Input, address: str = "") -> Outcome | None:
        """``given`` into ``rt``'s session and its steps performed (performing.py); None
        when the disk refused the records it took (the state before kept, nothing
        performed). A typed error (``EventRefused``, ``FrameRefused``) passes up, the state
        unchanged."""
        outcome = apply(rt.state, given, time.monotonic())
        return outcome if self.performer.perform(rt, outcome, address) else None

    # -- frames ------------------------------------------------------------------------------

    def on_hello(self, key: bytes) -> None:
        """A peer said hello: each event we share with it hears it is back."""
        for rt in list(self.events.values()):
            if rt.state.member(key):
                self._apply(rt, PeerBack(key))

    def handle(self, key: bytes, frame: EventFrame, sender: Sender, guest: bool) -> None:
        """One event frame from ``key``: who may send it is the session's table
        (protocol/tournament/session/admission.py FRAME_SENDERS); its handler is this
        daemon's table of the frame's type (``_handlers``)."""
        rt = self.events.get(frame.event) if not isinstance(frame, EventFind) else None
        try:
            admit_frame(
                type(frame).__name__,
                key,
                guest,
                rt.director if rt is not None else None,
                rt.entrants() if rt is not None else (),
            )
            self._handlers[type(frame)](key, frame, sender, guest)
        except FrameRefused as error:
            reason = Refusal.NOT_SEATED if error.guest else Refusal.NOT_MEMBER
            raise Refused(reason, str(error)) from None

    @cached_property
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

    def _held(self, event: bytes) -> EventRuntime:
        rt = self.events.get(event)
        if rt is None:
            raise Refused(Refusal.NOT_MEMBER, "a record for an event we do not hold")
        return rt

    def _called(self, key: bytes, frame: EventCall) -> None:
        self._apply(self._held(frame.event), CallIn(key, frame.round))

    def _peers(self, key: bytes, frame: EventPeers, via: str) -> None:
        """The director's hints of where our table's seats are (daemon/events/tables.py)."""
        self.d.event_tables.told(self._held(frame.event), frame, via)

    def _submitted(self, key: bytes, frame: EventSubmit) -> None:
        """A record an entrant submits to us (routed by the session)."""
        rt = self._held(frame.event)
        try:
            record = decode_record(frame.record)
        except FourwindsError as error:
            self.d.transport.send(key, Refuse(f"your record does not decode: {error}"[:200]))
            return
        self._apply(rt, SubmitIn(key, record))

    def _find(self, key: bytes, frame: EventFind) -> None:
        rt = next(
            (
                rt
                for rt in self.events.values()
                if rt.name == frame.name and rt.state.directs and rt.entries_open()
            ),
            None,
        )
        if rt is None:
            self.d.transport.send(key, Refuse(f"no event {frame.name!r} takes entries here"))
            return
        self.performer.send_from(key, rt, 0)

    def _ask(self, key: bytes, frame: EventAsk, guest: bool) -> None:
        rt = self.events.get(frame.event)
        if rt is None:
            raise Refused(Refusal.UNKNOWN_TABLE, f"event {frame.event.hex()[:8]}")
        if guest and not (rt.state.directs and rt.entries_open()):
            raise Refused(Refusal.NOT_SEATED, "EventAsk")
        self.performer.send_from(key, rt, frame.have)

    def _decoded(self, key: bytes, rt: EventRuntime, frame: EventRecords) -> tuple[Record, ...]:
        """The frame's records up to the first that does not decode (logged)."""
        records: list[Record] = []
        for data in frame.records:
            try:
                records.append(decode_record(data))
            except FourwindsError as error:
                self.performer.note(rt, f"a record from {key.hex()[:8]} does not decode: {error}")
                break
        return tuple(records)

    def _records(self, key: bytes, frame: EventRecords) -> None:
        rt = self.events.get(frame.event)
        if rt is None:
            self._open_joined(key, frame)  # takes the rest of the frame itself
            return
        self._apply(rt, RecordsIn(key, frame.start, self._decoded(key, rt, frame)))

    def _open_joined(self, key: bytes, frame: EventRecords) -> None:
        """The first records of an event we asked a director for (``EventFind``): opened
        from its creation when the director is the one we dialled and the name the one we
        asked; then our entry is sent."""
        joining = self.joins.pending.get(key)
        if joining is None or frame.start != 0 or not frame.records:
            raise Refused(Refusal.UNKNOWN_TABLE, f"event {frame.event.hex()[:8]}")
        first = self.joins.creation(joining, key, frame)
        if first is None:
            return
        try:
            log_ = self.store.create(first)
        except StoreError as error:
            self.joins.fail(joining, str(error))
            return
        rt = EventRuntime(opened((first,), self._me()), log_)
        rt.director_at = self.d.frames.addresses.get(key)
        self.events[frame.event] = rt
        joining.event = frame.event
        self.save_meta(rt)
        rest = EventRecords(frame.event, 1, frame.records[1:])
        if rest.records:
            self._records(key, rest)
        me = self._me()
        entry = signed(Entry(frame.event, me.key, self.d.name), me.signer)
        self.d.transport.send(key, EventEnter(frame.event, joining.code, encode_record(entry)))

    def _enter(self, key: bytes, frame: EventEnter, sender: Sender) -> None:
        rt = self.events.get(frame.event)
        if rt is None:
            self.d.transport.send(key, Refuse("that event takes no entries here"))
            return
        try:
            record = decode_record(frame.entry)
        except FourwindsError as error:
            self.d.transport.send(key, Refuse(f"your entry does not decode: {error}"[:200]))
            return
        if rt.create.private and rt.guesses.locked(time.monotonic(), key, sender.address):
            self.d.transport.send(
                key, Refuse("too many wrong codes from you; try again in a minute")
            )
            return
        self._apply(rt, EnterIn(key, frame.code, record), sender.address)

    # -- from the daemon's other parts ---------------------------------------------------------

    def take(self, rt: EventRuntime, record: Record) -> Intake:
        """Offer a record gathered elsewhere (events/faults.py) and do what follows."""
        outcome = self._apply(rt, Gathered(record))
        if outcome is None or outcome.intake is None:
            return Intake(Decision.REFUSE)
        return outcome.intake

    def signer(self) -> SigningKey:
        """Our identity key, which signs our records."""
        return self._me().signer

    def each(self, do_: Callable[[EventRuntime], None], what: str) -> None:
        """``do_`` for every event we hold, from the daemon's ticker: a bug in one event's
        duty is logged (``what`` names it) and never stops the ticker, which also keeps the
        tables' timers."""
        for rt in list(self.events.values()):
            try:
                do_(rt)
            except Exception:
                log.exception("event %s: %s failed", rt.name, what)

    def tick(self, now: float) -> None:
        """Each event's session hears the clock (its seed step sent again, one held back
        sent when due)."""
        self.each(self._tick, "its session's tick")

    def _tick(self, rt: EventRuntime) -> None:
        self._apply(rt, Tick(self.d.event_tables.opening(rt)))

    # -- requests ----------------------------------------------------------------------------

    def _request(self, rt: EventRuntime, given: Input) -> Outcome:
        """A request of our player or director: its outcome, or ApiError with the reason."""
        try:
            outcome = self._apply(rt, given)
        except EventRefused as error:
            raise ApiError(str(error)) from None
        if outcome is None:
            raise ApiError("the disk refused the record; nothing was stored")
        return outcome

    def result(
        self, rt: EventRuntime, table: int, scores: tuple[int, int, int, int]
    ) -> TableResult:
        """Our player signs the final scores of their table of the current round."""
        body = self._request(rt, SignResult(table, scores)).result
        assert body is not None  # a signed result, or EventRefused
        return body

    def bot_result(
        self, rt: EventRuntime, table: int, scores: tuple[int, int, int, int]
    ) -> TableResult:
        """As the director whose daemon played ``table``'s bot seat(s): sign the scores our
        seat holds for each bot seat (daemon/events/tables.py)."""
        body = self._request(rt, SignBotResult(table, scores)).result
        assert body is not None
        return body

    def withdraw(self, rt: EventRuntime, player: str, reason: str) -> None:
        """Our player withdraws (``player`` empty), or the director withdraws the entrant
        named ``player`` with a reason: from the next round not yet begun."""
        if player:
            if not rt.state.directs:
                raise ApiError("only the director withdraws another player")
            self._request(rt, WithdrawEntrant(entrant_named(rt, player), reason))
        else:
            self._request(rt, WithdrawSelf(reason))

    def director_record(
        self, rt: EventRuntime, body: Correction | Penalty | TimeCall | Extension | EndTable
    ) -> None:
        """A correction, a penalty or a record of the round clock, signed by us as the
        director, taken and spread."""
        self._request(rt, DirectorSigns(body))

    def call_round(self, rt: EventRuntime) -> int:
        """The director calls the next round; its number (from 0)."""
        r = rt.rounds_started()
        self._request(rt, CallRound())
        return r

    def refused(self, key: bytes, reason: str) -> None:
        """A ``Refuse`` from a director we are joining ends that join with its reason."""
        self.joins.refused(key, reason)

    def create(self, settings: EventSettings) -> EventRuntime:
        """A new event we direct, as the director set it."""
        me = self._me()
        if any(
            rt.name == settings.name and rt.state.directs and rt.entries_open()
            for rt in self.events.values()
        ):
            raise ApiError(f"you already direct an event {settings.name!r} that takes entries")
        first = creation(settings, me.signer, secrets.token_bytes(NONCE_LEN))
        try:
            log_ = self.store.create(first)
        except StoreError as error:
            raise ApiError(f"cannot create the event: {error}") from None
        rt = EventRuntime(opened((first,), me, new_code() if settings.private else None), log_)
        self.events[rt.event] = rt
        self.save_meta(rt)
        self.announce(rt)
        return rt

    async def join(
        self, name: str, director: bytes, host: str, port: int, code: str
    ) -> EventRuntime:
        me = self._me().key
        for rt in self.events.values():
            if rt.name == name and rt.director == director and me in rt.entrants():
                return rt
        if director == me:
            raise ApiError("you direct that event; your entry is not needed")
        joining = self.joins.start(name, director, code)
        self.d.transport.dial(director, [(host, port)])
        self.d.transport.send(director, EventFind(name))
        try:
            event = await asyncio.wait_for(asyncio.shield(joining.done), JOIN_TIMEOUT_S)
        except TimeoutError:
            why = f"the director at {host}:{port} did not answer within {JOIN_TIMEOUT_S:.0f} s"
            self.joins.fail(joining, why)
            raise ApiError(f"cannot join {name}: {why}") from None
        rt = self.events[event]
        rt.director_at = (host, port)
        self.save_meta(rt)
        return rt

    def find(self, ref: str) -> EventRuntime:
        """The event a request names: its name, or its id (or a prefix of it)."""
        found = [
            rt
            for rt in self.events.values()
            if ref == rt.name or (len(ref) >= 8 and rt.event.hex().startswith(ref))
        ]
        if not found:
            raise ApiError(f"no event {ref!r} here; `fourwinds tournament list` lists them")
        if len(found) > 1:
            raise ApiError(f"{len(found)} events are called {ref!r}: name one by its id")
        return found[0]

    def export(self, rt: EventRuntime) -> bytes:
        return encode_export(rt.held.records)

    # -- helpers -----------------------------------------------------------------------------

    def _me(self) -> Me:
        """Who we are in our events: our key, and the secret our round-seed nonces are
        derived from (secret as our key is, and the same after a restart)."""
        if self._me_cached is None:
            identity = self.d.identity
            secret = hashlib.sha256(b"fourwinds-tournament-nonces\0" + identity.private_key)
            self._me_cached = Me(
                identity.public_key,
                SigningKey.from_seed(identity.private_key),
                secret.digest(),
            )
        return self._me_cached

    def _folder(self, event: bytes) -> Path:
        return self.store.root / event.hex()

    def save_meta(self, rt: EventRuntime) -> None:
        """Write what only this daemon knows of ``rt`` (its code, where the director was
        reached, when the round's clock started) beside its record."""
        write_meta(self._folder(rt.event), Meta(rt.code, rt.director_at, rt.clock_wall))
