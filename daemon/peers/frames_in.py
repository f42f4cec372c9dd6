"""Routing of authenticated peer frames to the right table: pairing, roster, session messages.

Every frame arrives with the CURVE key the transport proved. A guest (unknown key admitted only
because we host a table with a free seat) may say hello and pair, nothing else. Table messages
are accepted only from the table's members and go, unread, to the session.
"""

from __future__ import annotations

import logging
import time

from fourwinds.daemon.peers.frame_host import FrameHost
from fourwinds.daemon.peers.identity import curve_public_from_ed25519
from fourwinds.daemon.peers.pairing import HostPairing, PairingError
from fourwinds.daemon.peers.reach import Source
from fourwinds.daemon.peers.refusals import Refusal, Refused
from fourwinds.daemon.peers.transport import Sender
from fourwinds.daemon.peers.wire import (
    AskHeads,
    CatchUp,
    EventAsk,
    EventCall,
    EventEnter,
    EventFind,
    EventPeers,
    EventRecords,
    EventSubmit,
    Frame,
    Heads,
    Hello,
    Leave,
    PairConfirm,
    PairReply,
    PairResult,
    PairStart,
    Reach,
    Rebuild,
    Refuse,
    Roster,
    TableMessage,
)
from fourwinds.daemon.table_runtimes.runtime import BEFORE_OPEN_KEPT, TableRuntime
from fourwinds.daemon.table_runtimes.session_port import is_seated, label_of
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)


class FrameRouter:
    """Dispatches frames for one daemon."""

    def __init__(self, daemon: FrameHost) -> None:
        self.d = daemon
        self.addresses: dict[bytes, tuple[str, int]] = {}  # peer key -> (ip, peer port)
        self.last_refusal: dict[bytes, str] = {}

    async def handle(self, sender: Sender, frame: Frame) -> None:
        if isinstance(frame, Hello):
            self._hello(sender, frame)
            return
        key = self.d.admission.key_of(sender)
        if key is None:
            raise Refused(Refusal.BEFORE_HELLO)
        # still a guest, or admitted since connecting?
        guest = sender.guest and key not in self.d.admission.pinned_keys()
        if isinstance(frame, Reach):
            if not guest:  # a guest's addresses matter once it is admitted (its Hello)
                for host, port in frame.addresses:
                    self.d.whereabouts.learn(key, host, port, Source.TOLD, via=sender.address)
            return
        if guest and not isinstance(
            frame, PairStart | PairConfirm | EventFind | EventAsk | EventEnter
        ):
            raise Refused(Refusal.NOT_SEATED, type(frame).__name__)
        if isinstance(
            frame,
            EventFind | EventAsk | EventRecords | EventEnter | EventCall | EventSubmit | EventPeers,
        ):
            self.d.events.handle(key, frame, sender, guest)  # daemon/events/held.py
            return
        now = time.monotonic()
        if (
            isinstance(frame, TableMessage | CatchUp | Heads | AskHeads | Roster)
            and frame.table_id not in self.d.tables
        ):
            # a table we do not know, from an authenticated member of another table or a
            # peer we were told: perhaps one whose folder we lost (it is offered back)
            if isinstance(frame, Roster):
                self.d.rebuilds.offered(key, frame, sender.address)
            else:
                self.d.rebuilds.lost_table(key, frame.table_id)
            raise Refused(Refusal.UNKNOWN_TABLE, frame.table_id.hex()[:8])
        if isinstance(frame, PairStart):
            await self._pair_start(key, frame, now, sender.address)
        elif isinstance(frame, PairConfirm):
            await self._pair_confirm(key, frame, now, sender.address)
        elif isinstance(frame, PairReply):
            self._pair_reply(key, frame)
        elif isinstance(frame, PairResult):
            await self._pair_result(key, frame)
        elif isinstance(frame, Roster):
            await self._roster(key, frame, sender)
        elif isinstance(frame, TableMessage):
            self._table_message(key, frame, now)
        elif isinstance(frame, CatchUp):
            self._catch_up(key, frame)
        elif isinstance(frame, Rebuild):
            self._rebuild_asked(key, frame)
        elif isinstance(frame, AskHeads):
            self._heads_asked(key, frame)
        elif isinstance(frame, Heads):
            self._heads(key, frame)
        elif isinstance(frame, Leave):
            self._leave(key, frame)
        elif isinstance(frame, Refuse):
            if self.last_refusal.get(key) != frame.reason:  # once, not each time
                log.warning("peer %s refused us: %s", key.hex()[:8], frame.reason)
            self.last_refusal[key] = frame.reason
            self.d.events.refused(key, frame.reason)

    # -- connection ------------------------------------------------------------------------

    def _hello(self, sender: Sender, hello: Hello) -> None:
        if curve_public_from_ed25519(hello.public_key) != sender.curve_key:
            raise Refused(Refusal.HELLO_MISMATCH)
        key = hello.public_key
        self.d.admission.curve_to_key[sender.curve_key] = key
        renamed = self.d.names.get(key) != hello.name
        self.d.names[key] = hello.name
        self.addresses[key] = (sender.address, hello.port)
        if renamed:  # the first Hello, or a player who renamed and restarted: our screens
            for rt in self.d.tables.values():  # show the name it goes by now (current_names)
                if key in rt.members and rt.session is not None:
                    self.d.views.publish_view(rt, [])
        if sender.guest and key not in self.d.admission.pinned_keys():
            self.d.transport.connect_guest(key, sender.address, hello.port)
            return
        # first hand: its connection came from there (a restarted or moved seat is found)
        self.d.whereabouts.learn(key, sender.address, hello.port, Source.HEARD)
        for rt in self.d.tables.values():
            if key in rt.members and rt.session is not None:
                self.d.rebuilds.request_catchup(rt, key)
        self.d.events.on_hello(key)

    def _table(self, table_id: bytes) -> TableRuntime:
        rt = self.d.tables.get(table_id)
        if rt is None:
            raise Refused(Refusal.UNKNOWN_TABLE, table_id.hex()[:8])
        return rt

    # -- host side of pairing --------------------------------------------------------------

    def _result(
        self, key: bytes, table_id: bytes, admitted: bool, reason: str, mac: bytes = b""
    ) -> None:
        self.d.transport.send(key, PairResult(table_id, admitted, reason, mac))

    async def _pair_start(self, key: bytes, frame: PairStart, now: float, address: str) -> None:
        rt = self.d.tables.get(frame.table_id)
        if rt is None or rt.host_key != self.d.identity.public_key:
            self._result(key, frame.table_id, False, "no such table at this host")
            return
        seats = self.d.event_tables.seats_at(rt.table_id)  # a tournament table: its seating's
        if seats is not None and key not in seats:
            self._result(
                key,
                frame.table_id,
                False,
                f"{rt.name} is a tournament table and you are not seated there",
            )
            return
        if key in rt.members and not rt.private:
            await self._admit(rt, key, b"")
            return
        if key not in rt.members and len(rt.members) >= 4:
            self._result(key, frame.table_id, False, f"table {rt.name} is full")
            return
        if rt.host_pairing is None:
            rt.host_pairing = HostPairing(rt.table_id, rt.host_key, rt.code)
        try:
            reply = rt.host_pairing.reply(key, frame.spake, now, address)
        except PairingError as error:
            self._refused_pairing(key, frame.table_id, error, address, now)
            return
        if rt.code is None:
            await self._admit(rt, key, b"")
        else:
            self.d.transport.send(key, PairReply(rt.table_id, reply))

    async def _pair_confirm(self, key: bytes, frame: PairConfirm, now: float, address: str) -> None:
        rt = self._table(frame.table_id)
        if rt.host_pairing is None:
            raise Refused(Refusal.OUT_OF_PLACE, "no pairing in progress")
        try:
            mac = rt.host_pairing.check(key, frame.mac, now, address)
        except PairingError as error:
            self._refused_pairing(key, frame.table_id, error, address, now)
            return
        if key not in rt.members and len(rt.members) >= 4:
            self._result(key, frame.table_id, False, f"table {rt.name} is full")
            return
        await self._admit(rt, key, mac)

    def _refused_pairing(
        self, key: bytes, table_id: bytes, error: PairingError, address: str, now: float
    ) -> None:
        """Tell the joiner why; counted and logged (at most once a minute per address) as
        ``Refusal.PAIRING``."""
        self.d.transport.refusals.note(Refusal.PAIRING, address, f"{key.hex()[:8]}: {error}", now)
        self._result(key, table_id, False, str(error))

    async def _admit(self, rt: TableRuntime, key: bytes, mac: bytes) -> None:
        """Pin ``key`` at ``rt`` (on disk before it is told: a thread writes it while the
        loop goes on), tell it so, and send every member the new roster."""
        seats = self.d.event_tables.seats_at(rt.table_id) or {}
        rt.seat_member(key, self.addresses.get(key, ("", 0)), seats.get(key))
        self.d.transport.admitted(key)  # its link is no longer a guest's
        host, port = self.addresses.get(key, ("", 0))
        self.d.whereabouts.learn(key, host, port, Source.HEARD)
        await self.d.meta_writes.save_now(rt)
        self._result(key, rt.table_id, True, "", mac)
        self.send_roster(rt)
        log.info("table %s: admitted %s (%d seated)", rt.name, key.hex()[:8], len(rt.members))
        # free seats announced as they fill, lobby shown at once
        self.d.announcing.roster_changed(rt)

    def send_roster(self, rt: TableRuntime) -> None:
        """The table's roster (members, and their places when one before the last is free)
        to every other member."""
        for member in rt.members:
            if member != self.d.identity.public_key:
                self.d.transport.send(member, roster_of(rt))

    def _leave(self, key: bytes, frame: Leave) -> None:
        """A member gives up its place (`fourwinds leave`). At a table we host whose places
        are not yet fixed, the place is free again: the member's Join is forgotten, the
        others get the new roster, the announcement and our lobby show the free seat. From
        the host: it closed the table, which we drop too (its folder kept). At a seated
        table the seat stays (the Seating fixed it): our players are told the table waits
        for it."""
        rt = self._table(frame.table_id)
        if key not in rt.members or key == self.d.identity.public_key:
            raise Refused(Refusal.NOT_MEMBER, "leave")
        name = self.d.views.player_name(rt, key)  # shown in problems: a name, never a key
        seated = is_seated(self.d.port, rt.session)
        if key == rt.host_key and not seated:
            log.warning("table %s: the host %s closed it", rt.name, name)
            self.d.drop_table(rt)
            return
        if seated or rt.host_key != self.d.identity.public_key:
            if not seated:  # a joiner's news of another joiner: the host's roster follows
                return
            log.warning("table %s: %s left the table for good", rt.name, name)
            rt.problems.append(
                f"{name} left the table for good: the table cannot go on without that seat"
            )
            del rt.problems[:-20]
            self.d.views.publish_view(rt, [], at_once=True)
            return
        place = rt.remove_member(key)
        keep = self.d.port.keep_joins
        if keep is not None and rt.session is not None:
            rt.session = keep(rt.session, set(rt.members))
        log.info("table %s: %s left place %s; %d seated", rt.name, name, place, len(rt.members))
        self.d.meta_writes.save_soon(rt)
        self.send_roster(rt)
        if key not in self.d.admission.pinned_keys():
            self.d.transport.disconnect(key)
        self.d.announcing.roster_changed(rt)

    # -- joiner side -----------------------------------------------------------------------

    def _joining(self, key: bytes, table_id: bytes) -> TableRuntime:
        rt = self._table(table_id)
        if rt.joiner is None or rt.host_key != key:
            raise Refused(
                Refusal.OUT_OF_PLACE, "pairing frame for a table we are not joining with this host"
            )
        return rt

    def _pair_reply(self, key: bytes, frame: PairReply) -> None:
        rt = self._joining(key, frame.table_id)
        assert rt.joiner is not None
        try:
            mac = rt.joiner.confirm(frame.spake)
        except PairingError as error:
            rt.join_error = str(error)
            return
        self.d.transport.send(key, PairConfirm(rt.table_id, mac))

    async def _pair_result(self, key: bytes, frame: PairResult) -> None:
        rt = self._joining(key, frame.table_id)
        assert rt.joiner is not None
        try:
            rt.joiner.check_result(frame.admitted, frame.reason, frame.mac)
        except PairingError as error:
            rt.join_error = str(error)
            return
        rt.joiner = None  # admitted: the table is ours from now on
        rt.log = self.d.store.open_log(rt.table_id)
        self.d.transport.send(key, CatchUp(rt.table_id, 0, -1))  # the Open first
        await self.d.meta_writes.save_now(rt)

    async def _roster(self, key: bytes, frame: Roster, sender: Sender) -> None:
        """The host's roster: our place and the other seats. Their addresses are the host's
        hints (a wildcard, e.g. the host's own bind address, is never kept; see reach.py);
        the addresses we already know for a seat are kept. On disk before the table goes
        on (our place is what a resume needs)."""
        rt = self._table(frame.table_id)
        if key != rt.host_key:
            raise Refused(Refusal.OUT_OF_PLACE, "roster from a seat that is not the table's host")
        members = {k: (h, p) for k, h, p in frame.members}
        me = self.d.identity.public_key
        if me not in members:
            raise Refused(Refusal.OUT_OF_PLACE, "roster without us")
        places = dict(zip(members, frame.places or range(len(members)), strict=False))
        if rt.place is not None and rt.session is not None and places[me] != rt.place:
            raise Refused(Refusal.OUT_OF_PLACE, f"roster moves us from place {rt.place}")
        rt.place = places[me]
        members[me] = (self.d.host, self.d.transport.port)
        for member in list(members):
            known = rt.addresses.get(member)
            if known:
                members[member] = known[0].where
            elif member == key and member in rt.members:
                members[member] = rt.members[member]  # where we reached the host
        rt.set_places(places, members)
        for member, host, port in frame.members:
            if member != me:
                self.d.whereabouts.learn(member, host, port, Source.TOLD, via=sender.address)
        await self.d.meta_writes.save_now(rt)
        for member in members:
            if member != me and member != key:
                self.d.whereabouts.dial_member(member)

    # -- session traffic -------------------------------------------------------------------

    def _table_message(self, key: bytes, frame: TableMessage, now: float) -> None:
        rt = self._table(frame.table_id)
        if key not in rt.members:
            raise Refused(Refusal.NOT_MEMBER, "table message")
        if rt.rebuild is not None:  # our seat is being rebuilt: into the pool, unread
            if not rt.rebuild.running:
                rt.rebuild.pool.add(frame.payload)
                self.d.rebuilds.rebuild_progress(rt)
            return
        if rt.log is None:
            raise Refused(Refusal.OUT_OF_PLACE, "table message before we were admitted")
        if rt.session is None:
            if rt.place is None:
                raise Refused(
                    Refusal.OUT_OF_PLACE, "table message before the roster gave us a place"
                )
            if not self.d.port.opens_table(frame.payload):  # another seat's, ahead of it
                if len(rt.before_open) >= BEFORE_OPEN_KEPT:
                    raise Refused(
                        Refusal.OUT_OF_PLACE,
                        f"over {BEFORE_OPEN_KEPT} table messages before the Open",
                    )
                if frame.payload not in rt.before_open:
                    rt.before_open.append(frame.payload)
                return
            early, rt.before_open = rt.before_open, []
            try:
                step = self.d.port.join_table(
                    self.d.identity.private_key,
                    [frame.payload, *early],
                    rt.place,
                    self.d.name,
                    self.d.seat_entropy(rt.table_id),
                    now,
                )
            except FourwindsError as error:  # once, not at every catch-up (requests.py)
                self.d.give_up_joining(rt, f"the table's Open: {error}")
                return
            self.d.steps.apply(rt, step)
            label = label_of(self.d.port, rt.session)
            if label is not None and label != (rt.name, rt.rules):
                # joined by address: the name and rules were unknown until the Open came
                rt.name, rt.rules = label
                self.d.meta_writes.save_soon(rt)
            return
        self.d.steps.receive(rt, frame.payload, now)

    def _rebuild_asked(self, key: bytes, frame: Rebuild) -> None:
        """A member rebuilds its lost copy of the table from ours: our heads (the highest
        seq we hold of each seat), then its ``CatchUp`` frames fetch the messages."""
        rt = self._table(frame.table_id)
        if key not in rt.members:
            raise Refused(Refusal.NOT_MEMBER, "rebuild request")
        if rt.session is None:
            return  # we have nothing to give (we are joining, or rebuilding too)
        self._send_heads(key, rt)
        if frame.lost:  # it knows not even the seats: the roster, as the host sends it
            self.d.transport.send(key, roster_of(rt))
        self.d.views.peer_rebuilding(rt, key)

    def _heads_asked(self, key: bytes, frame: AskHeads) -> None:
        """A member resumed the table and asks the last number it used (tables/own_seq.py)."""
        rt = self._table(frame.table_id)
        if key not in rt.members:
            raise Refused(Refusal.NOT_MEMBER, "heads request")
        if rt.session is not None:
            self._send_heads(key, rt)

    def _send_heads(self, key: bytes, rt: TableRuntime) -> None:
        """The highest seq we hold of each seat, to ``key``."""
        highest = self.d.port.highest_seq or self.d.port.last_seq
        a, b, c, d = (int(highest(rt.session, seat)) for seat in range(4))
        self.d.transport.send(key, Heads(rt.table_id, (a, b, c, d)))

    def _heads(self, key: bytes, frame: Heads) -> None:
        rt = self._table(frame.table_id)
        if key not in rt.members:
            raise Refused(Refusal.NOT_MEMBER, "heads")
        if rt.rebuild is not None:
            rt.rebuild.heads[key] = frame.seqs
            self.d.rebuilds.rebuild_progress(rt)
        else:
            if rt.catching_up is not None:
                rt.catching_up.heard(frame.seqs)
            if rt.seq_check is not None:
                rt.seq_check.heard(key, frame.seqs)
                self.d.resumes.own_seq_heard(rt, key)

    def _catch_up(self, key: bytes, frame: CatchUp) -> None:
        rt = self._table(frame.table_id)
        if key not in rt.members:
            raise Refused(Refusal.NOT_MEMBER, "catch-up request")
        session = rt.synced_session()  # only what is on disk (daemon/store/durable.py)
        if session is None:
            return
        keys = list(self.d.port.seat_keys(session))
        place = keys.index(key) if key in keys else None
        for payload in self.d.port.messages_since(session, frame.seat, frame.seq, place):
            self.d.steps.send_payload(rt, key, payload)


def roster_of(rt: TableRuntime) -> Roster:
    """The host's roster of ``rt``: every member in place order, with the places when one
    before the last is free (a player left the lobby)."""
    places = rt.places()
    return Roster(
        rt.table_id,
        rt.name,
        rt.rules,
        tuple((k, h, p) for k, (h, p) in rt.members.items()),
        tuple(places[k] for k in rt.members) if rt.free_places else (),
    )
