"""One table as the daemon holds it: the session, its record log, who sits there and where.

``TableRuntime.apply`` is the one place a ``Step`` is carried out, in the contract's order:
append ``persist`` to the log, adopt the new session, and hand ``outgoing`` to the sender
once every record appended so far is durable: the fsync runs in a worker thread and the
sends wait for it (daemon/store/durable.py), in the order of their steps, while the event loop
goes on. A step that sends nothing is synced with the next send or within a second. Catch-up
answers are built from ``synced_session``: the session as of the last step whose records
are all durable.

A step whose records cannot be written (a full disk) is not carried out at all: the log is
left at its last whole record, the session stays as it was, nothing is sent, and the table
shows why it is paused (``paused``) until a later step's records are written. What was lost
comes back by itself: peers' messages by catch-up, our automatic messages at the next tick,
and our player's action is refused with the reason (docs/DAEMON.md).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fourwinds.daemon.checks import RULES_LIMIT, TABLE_NAME_LIMIT, peer_name
from fourwinds.daemon.peers import reach
from fourwinds.daemon.peers.identity import BadKey, checked_public_key
from fourwinds.daemon.peers.pairing import HostPairing, JoinerPairing
from fourwinds.daemon.peers.reach import Address
from fourwinds.daemon.store.disk import Store, StoreError, TableLog
from fourwinds.daemon.store.durable import Durable
from fourwinds.daemon.table_runtimes.catching_up import CatchingUp
from fourwinds.daemon.table_runtimes.own_seq import OwnSeqCheck
from fourwinds.daemon.table_runtimes.rebuild import Rebuilding
from fourwinds.daemon.table_runtimes.session_port import SessionPort, StepLike, progress_of
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

BEFORE_OPEN_KEPT = 256
"""How many table messages a joiner keeps while it waits for the host's Open: a lobby's
whole traffic before a joiner's seat exists is a few Joins, a Seating and Readys; more is a
peer flooding a seat that cannot read them yet, and the excess is refused."""

Send = Callable[[bytes, bytes], None]  # (peer public key, session payload)
STEPS_KEPT = 16
HOST_KEPT = 255


class BadMeta(FourwindsError):
    """A table's stored metadata that cannot be used; ``reason`` names the field."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def is_bot_seat(meta: Mapping[str, Any]) -> bool:
    """Whether a table's stored metadata marks it a bot seat of an event the daemon directs:
    the one rule for leaving it out of the player's own tables (the daemon's `tables` answer
    says ``bot_seat``; `fourwinds play` reads it from the folder when no daemon runs)."""
    return meta.get("bot_seat") is True


@dataclass
class TableRuntime:
    """A table this daemon sits at (or is joining)."""

    table_id: bytes
    name: str
    rules: str
    host_key: bytes
    private: bool
    code: str | None  # only the host keeps the code
    members: dict[bytes, tuple[str, int]]  # every seat's key -> (host, port); ours included
    # every other seat's key -> the addresses it was reached at, most recent first (reach.py)
    addresses: dict[bytes, tuple[Address, ...]] = field(default_factory=dict)
    log: TableLog | None = None
    session: Any = None
    host_pairing: HostPairing | None = None
    joiner: JoinerPairing | None = None
    join_error: str = ""
    # admitted, no session yet: other seats' messages that came before the host's Open
    # (they travel on other links); taken in with the Open, at most BEFORE_OPEN_KEPT
    before_open: list[bytes] = field(default_factory=list)
    place: int | None = None  # our place at the table (0 = its creator)
    # places before the last member's that nobody holds: a player left the lobby (the next
    # joiner takes the lowest); the members hold the other places in their order
    free_places: tuple[int, ...] = ()
    listed: bool = True  # announced over mDNS (False: a solo table)
    # a seat the daemon plays for an event it directs (a bot seat), not its player's table:
    # kept in the metadata so that the list of the player's tables is the same whether the
    # daemon runs (its `tables` answer) or not (`fourwinds play` reads the data folder)
    bot_seat: bool = False
    view_seq: int = 0
    applied_at: float = 0.0  # time.monotonic() when the current session was adopted
    steps_applied: list[tuple[int, float]] = field(default_factory=list)  # see note_progress
    problems: list[str] = field(default_factory=list)
    paused: str = ""  # why our records cannot be written now (a full disk), or ""
    durable: Durable | None = None  # the log's syncer, the sends held for it
    # (records written, session) of each adopted session not yet known durable, oldest first
    _undurable: deque[tuple[int, Any]] = field(default_factory=deque)
    _durable_session: Any = None
    rebuild: Rebuilding | None = None  # our seat is being rebuilt from the peers (rebuild.py)
    peers_rebuilding: dict[bytes, float] = field(default_factory=dict)  # key -> last Rebuild
    seq_check: OwnSeqCheck | None = None  # resumed: our last number asked of the peers
    catching_up: CatchingUp | None = None  # resumed: "reconnecting" until we hold what they do

    @property
    def table_hex(self) -> str:
        return self.table_id.hex()

    def meta(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "name": self.name,
            "rules": self.rules,
            "host_key": self.host_key,
            "private": self.private,
            "code": self.code,
            "members": [[k, h, p] for k, (h, p) in self.members.items()],
            "addresses": [
                [k, reach.plain(known)] for k, known in self.addresses.items() if k in self.members
            ],
            "place": self.place,
            "listed": self.listed,
            "bot_seat": self.bot_seat,
            "free_places": list(self.free_places),
        }

    @property
    def flowers(self) -> bool:
        """Whether the table's wall has its flowers (MCR's option ``flowers``; True until the
        Open is held): what the lobby and the announcement say."""
        opened = getattr(self.session, "open", None)  # a table session (or a stand-in)
        rules = getattr(self.session, "rules", None)
        if opened is None or rules is None:
            return True
        return bool(rules.flowers(opened.options))

    def places(self) -> dict[bytes, int]:
        """Each member's place: the members in their order take the places that are not
        ``free_places`` (so with none free, the join order: the host 0, then 1, 2, 3)."""
        held = (p for p in range(4) if p not in self.free_places)
        return {key: place for key, place in zip(self.members, held, strict=False)}

    def set_places(self, places: dict[bytes, int], addresses: dict[bytes, tuple[str, int]]) -> None:
        """Members and free places from ``places`` (key -> place, at most 4, distinct):
        the members in place order, the places below the highest that nobody holds free."""
        order = sorted(places, key=lambda key: places[key])
        self.members = {key: addresses[key] for key in order}
        top = max(places.values(), default=-1)
        self.free_places = tuple(p for p in range(top + 1) if p not in places.values())

    def seat_member(self, key: bytes, address: tuple[str, int], place: int | None = None) -> int:
        """Admit ``key`` (host) at ``place`` (a tournament table: its wind), else at the
        lowest free place, else the next; its place."""
        places = self.places()
        if key in places:
            return places[key]
        if place is None:
            place = min(self.free_places) if self.free_places else len(self.members)
        self.set_places({**places, key: place}, {**self.members, key: address})
        return place

    def remove_member(self, key: bytes) -> int | None:
        """``key`` left the lobby (host): its place is free again; the place it held."""
        places = self.places()
        place = places.pop(key, None)
        if place is not None:
            self.set_places(places, self.members)
        return place

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> TableRuntime:
        """The table as ``meta()`` wrote it, every field checked as if a stranger had written
        it (a damaged or tampered file): ``BadMeta`` with the reason names the first field
        that is wrong, and the daemon sets the table aside instead of resuming it
        (table_runtimes/recovery.py). Keys go through ``identity.checked_public_key``: a key that
        cannot be turned into a CURVE key would otherwise stop the daemon on every start. A
        table stored before the address lists were kept starts its lists from the roster's
        addresses, wildcards left out."""
        try:
            rt = cls._from_meta(meta)
        except BadKey as error:
            raise BadMeta(error.reason) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise BadMeta(f"a missing or malformed field ({error!r})") from None
        for key, (host, port) in rt.members.items():
            if key not in rt.addresses and reach.usable(host, port, reach.Source.HEARD):
                rt.addresses[key] = (Address(host, port),)
        return rt

    @classmethod
    def _from_meta(cls, meta: dict[str, Any]) -> TableRuntime:
        table_id = meta["table_id"]
        if not isinstance(table_id, bytes) or len(table_id) != 16:
            raise BadMeta("table_id is not 16 bytes")
        members_in = meta["members"]
        if not isinstance(members_in, list) or not 0 < len(members_in) <= 4:
            raise BadMeta("members is not a list of 1 to 4 seats")
        members: dict[bytes, tuple[str, int]] = {}
        for key, host, port in members_in:
            if (
                not isinstance(host, str)
                or isinstance(port, bool)
                or not isinstance(port, int)
                or not 0 <= port <= 65535
            ):
                raise BadMeta("a member's address is not a host and a port 0-65535")
            members[checked_public_key(key)] = (host[:HOST_KEPT], port)
        place, code = meta.get("place"), meta.get("code")
        if place is not None and (isinstance(place, bool) or place not in range(4)):
            raise BadMeta(f"place {place!r} is not 0-3")
        if code is not None and not isinstance(code, str):
            raise BadMeta("code is not text")
        for what in ("name", "rules"):
            if not isinstance(meta[what], str):
                raise BadMeta(f"{what} is not text")
        free = meta.get("free_places", [])
        if (
            not isinstance(free, list)
            or len(free) + len(members) > 4
            or any(isinstance(p, bool) or p not in range(1, 4) for p in free)
        ):
            raise BadMeta(f"free_places {free!r} is not a list of places 1-3")
        rt = cls(
            table_id=table_id,
            name=peer_name(meta["name"], TABLE_NAME_LIMIT) or "?",
            rules=peer_name(meta["rules"], RULES_LIMIT) or "?",
            host_key=checked_public_key(meta["host_key"]),
            private=bool(meta["private"]),
            code=code,
            members=members,
            place=place,
            listed=bool(meta.get("listed", True)),
            bot_seat=is_bot_seat(meta),
            free_places=tuple(sorted(set(free))),
        )
        stored = meta.get("addresses")
        if isinstance(stored, list):
            for item in stored:
                if (
                    isinstance(item, list)
                    and len(item) == 2
                    and isinstance(item[0], bytes)
                    and item[0] in members
                ):
                    rt.addresses[bytes(item[0])] = reach.from_plain(item[1])
        return rt

    def learn(self, key: bytes, address: Address) -> bool:
        """Remember ``address`` for the seat ``key`` (a member); True when the list changed.
        The roster's address of that seat becomes the list's newest."""
        if key not in self.members:
            return False
        known = self.addresses.get(key, ())
        updated = reach.remember(known, address)
        if updated == known:
            return False
        self.addresses[key] = updated
        self.members[key] = updated[0].where
        return True

    def save_meta(self, store: Store) -> None:
        store.write_meta(self.table_id, self.meta())

    def note_progress(self, port: SessionPort, session: Any) -> None:
        """Remember when each of the last STEPS_KEPT steps was first applied (the session
        module's optional ``progress`` gives the step), so a view that shows several steps
        at once still says when each of them reached this seat."""
        where = progress_of(port, session)
        if where is None:
            return
        step = where[1]
        if not self.steps_applied or self.steps_applied[-1][0] != step:
            self.steps_applied.append((step, self.applied_at))
            del self.steps_applied[:-STEPS_KEPT]

    def apply(
        self,
        port: SessionPort,
        step: StepLike,
        own_key: bytes,
        send: Send,
        adopted: Callable[[], None] | None = None,
    ) -> None:
        """Carry out ``step``: persist, adopt the session (then ``adopted()``: e.g. show it to
        our own frontend, which is not a send to the table), and send once the records are
        durable (``after_sync``: the fsync is off the event loop). Nothing leaves for a peer
        before the records it depends on are durable. Runs on the event loop."""
        assert self.log is not None, "a seated table has a log"
        try:
            self.log.append(list(step.persist), sync=False)
        except StoreError as error:
            self.pause(str(error))
            return  # not carried out: the log, the session and the peers are as they were
        if step.persist:
            self.unpause()
        if step.session is not self.session:
            self.applied_at = time.monotonic()
            self.note_progress(port, step.session)
            self._adopting(step.session)
        self.session = step.session
        if adopted is not None:
            adopted()
        sends = self._sends(port, step, own_key)
        if sends:
            self._syncer().after_sync(lambda: self._send_all(sends, send))
        for problem in step.problems:
            text = str(getattr(problem, "reason", problem))
            log.warning("table %s: problem %s", self.table_hex[:8], problem)
            self.problems.append(text)
            del self.problems[:-20]

    def _sends(
        self, port: SessionPort, step: StepLike, own_key: bytes
    ) -> list[tuple[bytes, bytes]]:
        """(peer key, payload) of each of ``step``'s sends, addressed by the session the step
        made (adopted already)."""
        sends: list[tuple[bytes, bytes]] = []
        keys = list(port.seat_keys(self.session)) if step.outgoing else []
        for out in step.outgoing:
            if out.to is None:
                targets = [k for k in self.members if k != own_key]
            else:
                index = int(out.to)
                key = keys[index] if 0 <= index < len(keys) else None
                targets = [key] if key is not None and key != own_key else []
                if not targets:
                    log.warning(
                        "table %s: no key for seat %s; message held for catch-up",
                        self.table_hex[:8],
                        out.to,
                    )
            sends.extend((key, out.payload) for key in targets)
        return sends

    @staticmethod
    def _send_all(sends: list[tuple[bytes, bytes]], send: Send) -> None:
        for key, payload in sends:
            send(key, payload)

    def _syncer(self) -> Durable:
        assert self.log is not None
        if self.durable is None or self.durable.log is not self.log:
            self.durable = Durable(self.log, self.pause)
        return self.durable

    def _adopting(self, session: Any) -> None:
        """Note a session about to be adopted, for ``synced_session``."""
        assert self.log is not None
        if self.log.written <= self.log.synced:
            self._undurable.clear()
            return
        if not self._undurable:
            self._durable_session = self.session  # the one before: durable until now
        self._undurable.append((self.log.written, session))

    def synced_session(self) -> Any:
        """The session as of the last step whose records are all durable (the current one
        when nothing waits for a sync): what catch-up answers are built from, so no message
        of ours leaves in one before it is on disk."""
        synced = self.log.synced if self.log is not None else 0
        while self._undurable and self._undurable[0][0] <= synced:
            self._durable_session = self._undurable.popleft()[1]
        return self._durable_session if self._undurable else self.session

    def sync_soon(self) -> None:
        """fsync what was appended, off the event loop (the syncer does it every second);
        the table is paused when the disk refuses (the log then refuses writes until a
        restart)."""
        if self.log is not None and self.log.synced < self.log.written:
            self._syncer().sync_soon()

    async def drained(self) -> None:
        """Wait until the sends held for a sync have gone (or were dropped by a failure)."""
        if self.durable is not None:
            await self.durable.drained()

    def close_log(self) -> None:
        """Close the record log; sends still held for a sync are dropped (``drained``
        first to send them)."""
        if self.durable is not None:
            self.durable.stop()
            self.durable = None
        if self.log is not None:
            self.log.close()

    def pause(self, reason: str) -> None:
        """Our records cannot be written: say so once (log, problems), keep the reason for
        the view (``show_pause``)."""
        room = "(ENOSPC)" in reason or "(EDQUOT)" in reason
        text = (
            f"paused: {reason}; the hand goes on once there is room"
            if room
            else f"paused: {reason}; the hand goes on once the disk takes it again"
        )
        if self.log is not None and self.log.failed:
            text = f"stopped: {reason}"
        if text != self.paused:
            log.error("table %s %s", self.table_hex[:8], text)
            self.problems.append(text)
            del self.problems[:-20]
        self.paused = text

    def unpause(self) -> None:
        if self.paused:
            log.info("table %s: records are written again; the hand goes on", self.table_hex[:8])
            self.paused = ""

    def refuse_if_paused(self) -> None:
        """``StoreError`` when our player's action just taken could not be written."""
        if self.paused:
            raise StoreError(f"your action was not saved: {self.paused}")

    def show_pause(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view with the pause's reason as its ``phase_detail`` (and ``paused``) while
        the table is paused (a full disk), else the view as it is."""
        if self.paused:
            view["phase_detail"] = self.paused[0].upper() + self.paused[1:]
            view["paused"] = self.paused
        return view
