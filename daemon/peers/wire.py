"""Frames between daemons: strict msgpack with hard limits, one frozen dataclass per kind.

Every frame is a msgpack array ``[version, kind, fields...]``. The version comes first so a
daemon speaking another protocol version is refused with a clear reason before anything else
is read. ``decode`` never trusts its input: sizes are capped (also by ZMQ's MAXMSGSIZE on the
socket), ext types are refused, and every field is type-checked; any problem raises
``FrameError`` with the reason, which the transport logs and counts.

Table payloads are opaque here: signatures, sequence numbers and replays are the session's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import msgpack

from fourwinds.daemon.checks import PLAYER_NAME_LIMIT, RULES_LIMIT, TABLE_NAME_LIMIT, peer_name
from fourwinds.daemon.peers.identity import BadKey, checked_public_key
from fourwinds.protocol.errors import FourwindsError

PROTOCOL_VERSION = 1
MAX_FRAME = 64 * 1024
"""Bytes of the largest frame a peer may send: the peer socket's ZMQ_MAXMSGSIZE, so libzmq
drops the connection of a peer that sends a bigger one before the frame is held. The largest
frame of a real match is 12.8 KB (a fair-deck 16-hand MCR match; an American Open with the
house card is 10 KB; testkit/frame_sizes.py, docs/SECURITY.md "Socket bounds")."""
MAX_PAYLOAD = MAX_FRAME - 64
"""One signed session message: a frame less its envelope (26 bytes for a table message)."""
MAX_STR = 256
MAX_ITEMS = 64


class FrameError(FourwindsError):
    """A frame we refuse; ``reason`` is logged and counted."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class VersionMismatch(FrameError):
    """The peer speaks another protocol version."""

    def __init__(self, theirs: int) -> None:
        self.theirs = theirs
        super().__init__(f"peer speaks protocol version {theirs}, we speak {PROTOCOL_VERSION}")


class Kind(IntEnum):
    HELLO = 1
    HEARTBEAT = 2
    TABLE = 3
    CATCHUP = 4
    PAIR_START = 5
    PAIR_REPLY = 6
    PAIR_CONFIRM = 7
    PAIR_RESULT = 8
    REFUSE = 9
    ROSTER = 10
    REACH = 11
    REBUILD = 12
    HEADS = 13
    ASK_HEADS = 14
    LEAVE = 15
    EVENT_FIND = 16
    EVENT_ASK = 17
    EVENT_RECORDS = 18
    EVENT_ENTER = 19
    EVENT_CALL = 20
    EVENT_SUBMIT = 21
    EVENT_PEERS = 22


@dataclass(frozen=True)
class Hello:
    """First frame on a connection: who we are (Ed25519 key, checked against CURVE) and
    the port of our peer socket so the receiver can connect back."""

    public_key: bytes
    name: str
    port: int


@dataclass(frozen=True)
class Heartbeat:
    counter: int


@dataclass(frozen=True)
class TableMessage:
    """One opaque signed session message for a table."""

    table_id: bytes
    payload: bytes


@dataclass(frozen=True)
class CatchUp:
    """Please send me every message of ``seat`` at ``table_id`` after sequence ``seq``."""

    table_id: bytes
    seat: int
    seq: int


@dataclass(frozen=True)
class PairStart:
    """A join request: the joiner's SPAKE2 message (empty for a public table)."""

    table_id: bytes
    spake: bytes


@dataclass(frozen=True)
class PairReply:
    table_id: bytes
    spake: bytes


@dataclass(frozen=True)
class PairConfirm:
    """Key confirmation: a MAC over the transcript with the SPAKE2 key."""

    table_id: bytes
    mac: bytes


@dataclass(frozen=True)
class PairResult:
    """The host's answer: admitted (with its own confirmation MAC) or refused with a reason."""

    table_id: bytes
    admitted: bool
    reason: str
    mac: bytes


@dataclass(frozen=True)
class Refuse:
    """We dropped something of yours; here is why (shown to the user on the other side)."""

    reason: str


@dataclass(frozen=True)
class Roster:
    """The host's list of the table's members: (Ed25519 key, host, port) each, plus meta."""

    table_id: bytes
    name: str
    rules: str
    members: tuple[tuple[bytes, str, int], ...]
    # each member's place, when a player left the lobby and a place before the last is free
    # (empty: the places follow the members' order, 0, 1, 2...); sent only when not empty,
    # so a roster without a free place reads as before
    places: tuple[int, ...] = ()


@dataclass(frozen=True)
class Reach:
    """Where the sender's peer socket can be reached: (host, port) each, sent after every
    ``Hello``. Hints only (the receiver keeps no wildcard, and a loopback address only from a
    connection on its own machine). A daemon that predates this frame refuses it as an
    unknown kind, harmlessly, so it needs no new protocol version."""

    addresses: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Rebuild:
    """The sender lost its copy of ``table_id`` (a damaged or deleted record log) and is
    rebuilding it from ours: please answer with ``Heads`` (and show our player why the
    table waits); with ``lost`` (its folder is gone: it knows not even the seats) also with
    the table's ``Roster``. It signs nothing at the table until it is rebuilt (docs/DAEMON.md,
    "Rebuilding a seat from its peers")."""

    table_id: bytes
    lost: bool = False  # we have no copy at all: please send the table's roster too


@dataclass(frozen=True)
class Heads:
    """The answer to ``Rebuild`` and ``AskHeads``: for each of the four places, the highest
    sequence number of its messages we hold (-1: none). The rebuilding or resumed seat takes
    the highest any peer holds of its own as the last number it used."""

    table_id: bytes
    seqs: tuple[int, int, int, int]


@dataclass(frozen=True)
class AskHeads:
    """The sender resumed ``table_id`` from its own records: please answer with ``Heads``,
    so that it learns the last number it used before it signs again (table_runtimes/own_seq.py). A
    daemon that predates this frame refuses it as an unknown kind; the sender then waits
    only until its deadline."""

    table_id: bytes


@dataclass(frozen=True)
class Leave:
    """The sender gives up its place at ``table_id`` for good (`fourwinds leave`): in the
    lobby the host frees the place for the next joiner and sends the others the new roster;
    from the host, the table is closed; at a started table the others are told why the
    table waits for that seat. A daemon that predates this frame refuses it as an unknown
    kind: the leaver is then shown as unreachable."""

    table_id: bytes


EVENT_ID = 32
EVENT_RECORDS_MAX = 200
"""Records in one ``EventRecords`` frame, at most; their bytes together stay under
``EVENT_RECORDS_BYTES`` (daemon/events/held.py fills a frame up to that)."""
EVENT_RECORDS_BYTES = MAX_FRAME - 1024
EVENT_RECORD_LIMIT = 8 * 1024
"""One tournament record's bytes: the largest, a round start of 256 tables, is ~3 KB."""
EVENT_CODE_LIMIT = 16
EVENT_POSITION_LIMIT = 2**24


@dataclass(frozen=True)
class EventFind:
    """A would-be entrant asks a director for the event it directs under ``name`` whose
    entries are open: answered with ``EventRecords`` from position 0 (its creation first),
    or ``Refuse``. Guests may send it (daemon/events/held.py)."""

    name: str


@dataclass(frozen=True)
class EventAsk:
    """Please send the records of ``event`` from position ``have`` on (what the sender
    lacks): answered with ``EventRecords``, nothing when there are none."""

    event: bytes
    have: int


@dataclass(frozen=True)
class EventRecords:
    """Records of ``event`` in record order, the first at position ``start``: each one an
    encoded signed record (protocol/tournament/record_wire.py), checked by the receiver's
    intake before it is held. A director sends each record it takes to every entrant."""

    event: bytes
    start: int
    records: tuple[bytes, ...]


@dataclass(frozen=True)
class EventEnter:
    """A player's signed ``Entry`` for ``event``, with the event's code when it is private
    (the link is CURVE-encrypted). The director takes it, and at a private event first signs
    the ``Admit`` the code earns."""

    event: bytes
    code: str
    entry: bytes


@dataclass(frozen=True)
class EventCall:
    """The director calls ``round`` of ``event``: each entrant's daemon takes its steps of
    the round seed (commit, echo, reveal) as the record makes them due."""

    event: bytes
    round: int


@dataclass(frozen=True)
class EventPeers:
    """The director tells an entrant where the other seats of its table in the round under
    way were last heard: (key, host, port) each, at most 8. Hints only, as ``Reach``: the
    entrant keeps them for keys seated at its table and dials them to open or join it."""

    event: bytes
    members: tuple[tuple[bytes, str, int], ...]


@dataclass(frozen=True)
class EventSubmit:
    """An entrant's own signed record for the director to take (a seed step, a withdrawal,
    its seat's signature of a result); also a substitute asked of a table's seats and their
    signed answers, and an entrant's signature of a new director (daemon/events/faults.py)."""

    event: bytes
    record: bytes


EventFrame = EventFind | EventAsk | EventRecords | EventEnter | EventCall | EventSubmit | EventPeers
"""The frames of a tournament event (daemon/events/held.py handles them)."""

Frame = (
    Hello
    | Heartbeat
    | TableMessage
    | CatchUp
    | PairStart
    | PairReply
    | PairConfirm
    | PairResult
    | Refuse
    | Roster
    | Reach
    | Rebuild
    | Heads
    | AskHeads
    | Leave
    | EventFind
    | EventAsk
    | EventRecords
    | EventEnter
    | EventCall
    | EventSubmit
    | EventPeers
)

_KIND_OF: dict[type[Any], Kind] = {
    Hello: Kind.HELLO,
    Heartbeat: Kind.HEARTBEAT,
    TableMessage: Kind.TABLE,
    CatchUp: Kind.CATCHUP,
    PairStart: Kind.PAIR_START,
    PairReply: Kind.PAIR_REPLY,
    PairConfirm: Kind.PAIR_CONFIRM,
    PairResult: Kind.PAIR_RESULT,
    Refuse: Kind.REFUSE,
    Roster: Kind.ROSTER,
    Reach: Kind.REACH,
    Rebuild: Kind.REBUILD,
    Heads: Kind.HEADS,
    AskHeads: Kind.ASK_HEADS,
    Leave: Kind.LEAVE,
    EventFind: Kind.EVENT_FIND,
    EventAsk: Kind.EVENT_ASK,
    EventRecords: Kind.EVENT_RECORDS,
    EventEnter: Kind.EVENT_ENTER,
    EventCall: Kind.EVENT_CALL,
    EventSubmit: Kind.EVENT_SUBMIT,
    EventPeers: Kind.EVENT_PEERS,
}


def _members_plain(members: tuple[tuple[bytes, str, int], ...]) -> list[list[object]]:
    return [[key, host, port] for key, host, port in members]


def encode(frame: Frame) -> bytes:
    """The wire bytes of ``frame``."""
    kind = _KIND_OF[type(frame)]
    fields: list[object] = []
    for name in frame.__dataclass_fields__:
        value = getattr(frame, name)
        if name == "members":
            value = _members_plain(value)
        elif name == "places":
            if not value:
                continue  # no free place: the roster as a daemon before Leave sends it
            value = list(value)
        elif name == "addresses":
            value = [[host, port] for host, port in value]
        elif name in ("seqs", "records"):
            value = list(value)
        fields.append(value)
    packed: bytes = msgpack.packb([PROTOCOL_VERSION, int(kind), *fields], use_bin_type=True)
    return packed


def unpack_strict(data: bytes, max_bin: int = MAX_PAYLOAD) -> Any:
    """msgpack-decode untrusted bytes with tight limits; raises FrameError."""
    if len(data) > MAX_FRAME:
        raise FrameError(f"frame of {len(data)} bytes is over the {MAX_FRAME} limit")
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_bin_len=max_bin,
            max_str_len=MAX_STR * 16,
            max_array_len=MAX_ITEMS * 4,
            max_map_len=MAX_ITEMS,
            max_ext_len=0,
        )
    except Exception as error:  # msgpack raises many unrelated types on bad input
        raise FrameError(f"not valid msgpack ({type(error).__name__})") from None


def _bytes(value: Any, what: str, size: int | None = None, limit: int = MAX_PAYLOAD) -> bytes:
    if not isinstance(value, bytes):
        raise FrameError(f"{what} must be bytes, got {type(value).__name__}")
    if size is not None and len(value) != size:
        raise FrameError(f"{what} must be {size} bytes, got {len(value)}")
    if len(value) > limit:
        raise FrameError(f"{what} is over {limit} bytes")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise FrameError(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > MAX_STR:
        raise FrameError(f"{what} is over {MAX_STR} characters")
    return value


def _key(value: Any, what: str) -> bytes:
    """An Ed25519 public key a peer sent (identity.checked_public_key: one that libsodium
    can convert, never a small-order point or a non-canonical encoding)."""
    try:
        return checked_public_key(_bytes(value, what, 32))
    except BadKey as error:
        raise FrameError(f"{what}: {error.reason}") from None


def _name(value: Any, what: str, limit: int) -> str:
    """A name or reason a peer sent: control characters removed, cut to ``limit``
    (daemon/checks.py)."""
    return peer_name(_str(value, what), limit)


REASON_LIMIT = 200


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise FrameError(f"{what} must be an integer in {low}..{high}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise FrameError(f"{what} must be true or false")
    return value


TABLE_ID = 16


def _decode_members(value: Any) -> tuple[tuple[bytes, str, int], ...]:
    if not isinstance(value, list) or len(value) > 8:
        raise FrameError("members must be a list of at most 8")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 3:
            raise FrameError("a member is [key, host, port]")
        out.append(
            (
                _key(item[0], "member key"),
                _str(item[1], "member host"),
                _int(item[2], "member port", 0, 65535),
            )
        )
    return tuple(out)


def _decode_addresses(value: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, list) or len(value) > 16:
        raise FrameError("addresses must be a list of at most 16")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise FrameError("an address is [host, port]")
        out.append((_str(item[0], "address host"), _int(item[1], "address port", 1, 65535)))
    return tuple(out)


def decode(data: bytes) -> Frame:
    """Parse and validate one frame; raises FrameError (VersionMismatch for other versions)."""
    value = unpack_strict(data)
    if not isinstance(value, list) or len(value) < 2:
        raise FrameError("a frame is an array [version, kind, ...]")
    version, kind_no, *fields = value
    if not isinstance(version, int) or isinstance(version, bool):
        raise FrameError("frame version must be an integer")
    if version != PROTOCOL_VERSION:
        raise VersionMismatch(version)
    try:
        kind = Kind(kind_no)
    except (ValueError, TypeError):
        # a peer's value, possibly huge and nested: name only a small integer kind
        shown = (
            kind_no
            if isinstance(kind_no, int) and -(2**31) < kind_no < 2**31
            else f"of type {type(kind_no).__name__}"
        )
        raise FrameError(f"unknown frame kind {shown}") from None
    arity = {
        Kind.HELLO: 3,
        Kind.HEARTBEAT: 1,
        Kind.TABLE: 2,
        Kind.CATCHUP: 3,
        Kind.PAIR_START: 2,
        Kind.PAIR_REPLY: 2,
        Kind.PAIR_CONFIRM: 2,
        Kind.PAIR_RESULT: 4,
        Kind.REFUSE: 1,
        Kind.ROSTER: 4,
        Kind.REACH: 1,
        Kind.REBUILD: 2,
        Kind.HEADS: 2,
        Kind.ASK_HEADS: 1,
        Kind.LEAVE: 1,
        Kind.EVENT_FIND: 1,
        Kind.EVENT_ASK: 2,
        Kind.EVENT_RECORDS: 3,
        Kind.EVENT_ENTER: 3,
        Kind.EVENT_CALL: 2,
        Kind.EVENT_SUBMIT: 2,
        Kind.EVENT_PEERS: 2,
    }[kind]
    if kind is Kind.ROSTER and len(fields) == 5:
        arity = 5  # with the members' places (a free place before the last)
    if len(fields) != arity:
        raise FrameError(f"{kind.name} frame has {len(fields)} fields, expected {arity}")
    f = fields
    if kind is Kind.HELLO:
        return Hello(
            _key(f[0], "public key"),
            _name(f[1], "name", PLAYER_NAME_LIMIT),
            _int(f[2], "port", 1, 65535),
        )
    if kind is Kind.HEARTBEAT:
        return Heartbeat(_int(f[0], "counter", 0, 2**63))
    if kind is Kind.TABLE:
        return TableMessage(_bytes(f[0], "table id", TABLE_ID), _bytes(f[1], "payload"))
    if kind is Kind.CATCHUP:
        return CatchUp(
            _bytes(f[0], "table id", TABLE_ID),
            _int(f[1], "seat", 0, 3),
            _int(f[2], "seq", -1, 2**63),
        )
    if kind is Kind.PAIR_START:
        return PairStart(_bytes(f[0], "table id", TABLE_ID), _bytes(f[1], "spake", limit=128))
    if kind is Kind.PAIR_REPLY:
        return PairReply(_bytes(f[0], "table id", TABLE_ID), _bytes(f[1], "spake", limit=128))
    if kind is Kind.PAIR_CONFIRM:
        return PairConfirm(_bytes(f[0], "table id", TABLE_ID), _bytes(f[1], "mac", 32))
    if kind is Kind.PAIR_RESULT:
        return PairResult(
            _bytes(f[0], "table id", TABLE_ID),
            _bool(f[1], "admitted"),
            _name(f[2], "reason", REASON_LIMIT),
            _bytes(f[3], "mac", limit=32),
        )
    if kind is Kind.REFUSE:
        return Refuse(_name(f[0], "reason", REASON_LIMIT))
    if kind is Kind.REACH:
        return Reach(_decode_addresses(f[0]))
    if kind is Kind.REBUILD:
        return Rebuild(_bytes(f[0], "table id", TABLE_ID), _bool(f[1], "lost"))
    if kind is Kind.ASK_HEADS:
        return AskHeads(_bytes(f[0], "table id", TABLE_ID))
    if kind is Kind.LEAVE:
        return Leave(_bytes(f[0], "table id", TABLE_ID))
    if kind is Kind.EVENT_FIND:
        return EventFind(_name(f[0], "event name", TABLE_NAME_LIMIT))
    if kind is Kind.EVENT_ASK:
        return EventAsk(
            _bytes(f[0], "event id", EVENT_ID), _int(f[1], "have", 0, EVENT_POSITION_LIMIT)
        )
    if kind is Kind.EVENT_RECORDS:
        return EventRecords(
            _bytes(f[0], "event id", EVENT_ID),
            _int(f[1], "start", 0, EVENT_POSITION_LIMIT),
            _event_records(f[2]),
        )
    if kind is Kind.EVENT_CALL:
        return EventCall(_bytes(f[0], "event id", EVENT_ID), _int(f[1], "round", 0, 63))
    if kind is Kind.EVENT_PEERS:
        return EventPeers(_bytes(f[0], "event id", EVENT_ID), _decode_members(f[1]))
    if kind is Kind.EVENT_SUBMIT:
        return EventSubmit(
            _bytes(f[0], "event id", EVENT_ID), _bytes(f[1], "record", limit=EVENT_RECORD_LIMIT)
        )
    if kind is Kind.EVENT_ENTER:
        return EventEnter(
            _bytes(f[0], "event id", EVENT_ID),
            _name(f[1], "code", EVENT_CODE_LIMIT),
            _bytes(f[2], "entry", limit=EVENT_RECORD_LIMIT),
        )
    if kind is Kind.HEADS:
        if not isinstance(f[1], list) or len(f[1]) != 4:
            raise FrameError("heads must be a list of 4 sequence numbers")
        a, b, c, d = (_int(seq, "head seq", -1, 2**32) for seq in f[1])
        return Heads(_bytes(f[0], "table id", TABLE_ID), (a, b, c, d))
    members = _decode_members(f[3])
    places = _decode_places(f[4], len(members)) if len(f) == 5 else ()
    return Roster(
        _bytes(f[0], "table id", TABLE_ID),
        _name(f[1], "name", TABLE_NAME_LIMIT),
        _name(f[2], "rules", RULES_LIMIT),
        members,
        places,
    )


def _event_records(value: Any) -> tuple[bytes, ...]:
    if not isinstance(value, list) or len(value) > EVENT_RECORDS_MAX:
        raise FrameError(f"records must be a list of at most {EVENT_RECORDS_MAX}")
    return tuple(_bytes(item, "record", limit=EVENT_RECORD_LIMIT) for item in value)


def _decode_places(value: Any, count: int) -> tuple[int, ...]:
    """A roster's places: one distinct place 0-3 per member, the host's 0 first."""
    if not isinstance(value, list) or len(value) != count:
        raise FrameError("places must be one place per member")
    places = tuple(_int(place, "place", 0, 3) for place in value)
    if len(set(places)) != len(places) or (places and places[0] != 0):
        raise FrameError("places must be distinct, the host's 0 first")
    return places
