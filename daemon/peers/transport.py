"""Peer transport on pyzmq asyncio: one CURVE ROUTER in, one CURVE DEALER out per peer.

* Encryption: every peer connection is CURVE; our CURVE key is derived from our Ed25519
  identity, so pinning an identity key pins the transport key too.
* Authentication: our own ZAP handler (``ZapHandler``) asks ``policy(curve_key)`` for every
  incoming connection. The daemon's policy admits the pinned keys of its tables' seats, and
  unknown keys only as *guests* while it hosts a table with a free seat (guests may only say
  hello and pair). Everything refused is counted in ``refused`` by a fixed reason
  (``refusals.Refusal``) and logged at most once per source a minute (daemon/peers/refusals.py).
* Limits: ZMQ_MAXMSGSIZE drops oversized frames at the socket (the peer's connection is
  closed before the frame is held) and bounded queues (PEER_RCVHWM frames a connection in,
  LINK_SNDHWM out) hold the rest; ``wire.decode`` caps what is inside.
  Strangers are bounded (docs/SECURITY.md): new guest handshakes per key, per address and in
  all (``GuestLimits``), frames from keys not seated at our tables per key and per address
  (before they are decoded), and the connections we open back to guests (``connect_guest``:
  at most GUEST_LINKS, GUEST_LINKS_PER_ADDRESS from one address, one address each, closed
  GUEST_LINK_S after they were opened unless the key was admitted meanwhile; least recently
  used first when full; a seated member's connection is never closed to make room). A
  connection that has not completed its handshake within HANDSHAKE_S is closed by ZeroMQ.
* Liveness: each DEALER sends a heartbeat every ``HEARTBEAT_S``; ``last_seen`` records when we
  last heard from each peer key, which is how the daemon knows who is alive (mDNS TTLs linger).
* Addresses: the DEALER to a peer is connected to every address we know for it (a restarted
  or moved peer is found at whichever still works); frames go only to connections whose
  CURVE handshake completed (ZMQ_IMMEDIATE) and wait in a bounded queue until one has. Each
  completed handshake is answered with our ``Hello`` and ``Reach`` (where we listen) and
  reported to ``on_reached``, so the daemon stores the addresses that work.
* Reconnects: ZeroMQ reconnects on its own with exponential backoff (RECONNECT_IVL..._MAX);
  a handshake the peer refused is re-dialled with backoff; a ZMTP heartbeat closes a
  connection that went silent (a cut link, a peer that moved) so it is re-dialled too.
* Nothing here blocks the event loop: sends are NOBLOCK, monitors are read for as long as
  they are enabled (see ``_monitor_socket``).
* The key beacon: a plain (unencrypted) ROUTER on ``port + 1`` answering only with our public
  identity key, so ``--peer HOST:PORT`` works without mDNS. The key it gives is an untrusted
  hint, like mDNS: trust comes from pinning on first join and from the pairing code.
* ``close`` closes every socket with linger 0 and destroys the context.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import msgpack
import zmq
import zmq.asyncio
from zmq.utils import z85

from fourwinds.daemon.checks import RULES_LIMIT, TABLE_NAME_LIMIT, peer_name
from fourwinds.daemon.peers.identity import (
    BadKey,
    Identity,
    checked_public_key,
    curve_public_from_ed25519,
)
from fourwinds.daemon.peers.limits import RateLimit
from fourwinds.daemon.peers.port_owner import port_holder
from fourwinds.daemon.peers.reach import OwnAddresses
from fourwinds.daemon.peers.refusals import Refusal, Refusals, Refused, truncate
from fourwinds.daemon.peers.wire import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Frame,
    FrameError,
    Heartbeat,
    Hello,
    Kind,
    Reach,
    VersionMismatch,
    decode,
    encode,
    unpack_strict,
)
from fourwinds.daemon.tasks import cancel_and_wait
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

HEARTBEAT_S = 0.5
ZMTP_HEARTBEAT_MS = 1000
CONNECT_TIMEOUT_MS = 3000
REDIAL_MAX_S = 5.0
MAX_PENDING = 2000
DEALER_MAX_IN = 1024
PEER_RCVHWM = 32
"""Frames (each at most MAX_FRAME) libzmq holds for us per connection to our peer socket
before it stops reading that connection (TCP then slows the sender; nothing is dropped):
at most (PEER_RCVHWM + 1) x 64 KiB = 2.1 MiB a connection, where the default of 1,000 was
250 MB of 240 KB frames (docs/SECURITY.md "Socket bounds")."""
LINK_SNDHWM = 8192
"""Frames queued to one peer on our dial: a catch-up answer for every seat of a whole
16-hand match (6,471 messages, 3.5 MB) fits."""
BEACON_HWM = 16
GREET_RETRY_S = 0.01
GREET_ATTEMPTS = 100
LINK_EVENTS = (
    zmq.EVENT_HANDSHAKE_SUCCEEDED
    | zmq.EVENT_HANDSHAKE_FAILED_AUTH
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_DISCONNECTED
)
ZAP_ENDPOINT = "inproc://zeromq.zap.01"
ZAP_DOMAIN = "fourwinds"
GUEST = "guest:"
PINNED = "pinned:"
HANDSHAKE_S = 10.0
"""A connection to our peer socket that has not completed its CURVE handshake (and ZAP)
within this is closed."""
GUEST_LINKS = 32
GUEST_LINKS_PER_ADDRESS = 8
GUEST_LINK_S = 15.0
"""Connections we open back to guests (to answer their pairing): at most GUEST_LINKS in all
and GUEST_LINKS_PER_ADDRESS to one address, each closed GUEST_LINK_S after it was opened
unless the key was admitted meanwhile (pairing takes well under a second)."""
FAIR_SHARE_S = 0.005
SWEEP_S = 1.0
SEEN_KEPT_S = 60.0
"""``last_seen`` forgets a key not heard from for this long that we hold no link to."""
GUEST_FRAME_RATE, GUEST_FRAME_BURST = 4.0, 40.0
GUEST_ADDRESS_FRAME_RATE, GUEST_ADDRESS_FRAME_BURST = 40.0, 200.0
GUEST_FRAME_UNIT = 16 * 1024
"""Frames from keys not seated at our tables: a token bucket per key and one per address
(every frame costs 1 token, plus one per GUEST_FRAME_UNIT bytes). A joiner needs a handful
(Hello, Reach, PairStart, PairConfirm, heartbeats); what is over is dropped before it is
decoded and counted as ``Refusal.GUEST_RATE``."""


class TransportError(FourwindsError):
    """A transport problem the user can act on (port in use, no such interface...)."""


@dataclass(frozen=True)
class Sender:
    """Who sent a frame, as the transport authenticated it."""

    curve_key: bytes  # raw 32 bytes, proven by CURVE
    guest: bool  # admitted only to pair
    address: str  # peer IP address


def _flowers(entry: Sequence[object]) -> bool:
    """A beacon table entry's flowers (its sixth item, a bool; absent in an older daemon's
    answer: the table has its flowers). Anything else is a malformed answer (ValueError).
    A hint for the lobby, as mDNS's ``flowers`` (discovery.parse_flowers): the table's Open
    decides its wall."""
    if len(entry) < 6:
        return True
    if not isinstance(entry[5], bool):
        raise ValueError("flowers is not a bool")
    return entry[5]


@dataclass(frozen=True)
class BeaconInfo:
    """What a daemon's key beacon says: its key (a hint), name, and hosted tables' free seats."""

    public_key: bytes
    name: str
    tables: dict[bytes, int]  # table id -> free seats
    details: dict[bytes, tuple[str, str, bool, bool]]
    """Table id -> (name, rules, private, flowers): ``flowers`` False for an MCR table
    without flowers; a beacon of a daemon before the option says nothing, read as True."""


Policy = Callable[[bytes], str | None]  # curve key -> "pinned:"/"guest:" or None (refused)
OnFrame = Callable[[Sender, Frame], Awaitable[None]]


class GuestLimits:
    """How many new guest connections (unknown keys) the ZAP handler admits: a token bucket
    per key, per address and for all together. A seated member's key is never limited."""

    def __init__(self) -> None:
        self.per_key = RateLimit(rate=0.2, burst=4)
        self.per_address = RateLimit(rate=2.0, burst=32, sources=1024)
        self.total = RateLimit(rate=20.0, burst=200, sources=1)

    def allow(self, key: bytes, address: str, now: float) -> bool:
        return (
            self.per_address.allow(address, now)
            and self.per_key.allow(key, now)
            and self.total.allow("", now)
        )


class ZapHandler:
    """A ZAP (RFC 27) handler on the context, answering with ``policy``'s decision (a guest
    only within ``GuestLimits``)."""

    def __init__(self, policy: Policy, refusals: Refusals) -> None:
        self.policy = policy
        self.refusals = refusals
        self.limits = GuestLimits()
        self._socket: zmq.asyncio.Socket | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self, ctx: zmq.asyncio.Context) -> None:
        self._socket = ctx.socket(zmq.REP)
        self._socket.linger = 0
        self._socket.bind(ZAP_ENDPOINT)
        self._task = asyncio.create_task(self._run(), name="zap")

    async def _run(self) -> None:
        assert self._socket is not None
        while True:
            msg = await self._socket.recv_multipart()
            await self._socket.send_multipart(self._answer(msg))

    def _answer(self, msg: list[bytes]) -> list[bytes]:
        if len(msg) < 6:
            return [b"1.0", msg[1] if len(msg) > 1 else b"", b"400", b"bad ZAP request", b"", b""]
        _version, request_id, _domain, address, _identity, mechanism, *credentials = msg
        peer = address.decode("ascii", "replace")
        now = time.monotonic()
        if mechanism != b"CURVE" or len(credentials) != 1 or len(credentials[0]) != 32:
            self.refusals.note(Refusal.ZAP_NOT_CURVE, peer, "", now)
            return [b"1.0", request_id, b"400", b"CURVE only", b"", b""]
        key = credentials[0]
        decision = self.policy(key)
        if decision is None:
            self.refusals.note(
                Refusal.ZAP_UNKNOWN_KEY,
                peer,
                f"key {z85.encode(key).decode()[:8]}... is not pinned to any of our tables",
                now,
            )
            return [b"1.0", request_id, b"400", b"key not pinned", b"", b""]
        if decision == GUEST and not self.limits.allow(key, peer, now):
            self.refusals.note(
                Refusal.ZAP_GUEST_LIMIT, peer, f"key {z85.encode(key).decode()[:8]}...", now
            )
            return [b"1.0", request_id, b"400", b"too many new connections", b"", b""]
        return [b"1.0", request_id, b"200", b"OK", (decision + key.hex()).encode(), b""]

    async def close(self) -> None:
        await cancel_and_wait([self._task])
        if self._socket is not None:
            self._socket.close(linger=0)


def port_in_use(host: str, port: int) -> str:
    """The one-line error for a taken peer port (or its beacon port, ``port + 1``), naming
    the process that holds it when the system says (daemon/peers/port_owner.py)."""
    for taken in (port, port + 1):
        holder = port_holder(taken)
        if holder is not None:
            return (
                f"port {taken} on {host} is in use by {holder}; stop it (`fourwinds stop` "
                f"if it is your daemon) or choose another port with --port"
            )
    return (
        f"port {port} or {port + 1} on {host} is in use (another fourwinds daemon?); "
        "choose another with --port"
    )


def _raise_descriptor_limit(wanted: int = 8192) -> None:
    """Raise this process's soft limit on open files towards ``wanted`` (within the hard
    limit): every connection a peer opens to us takes a descriptor before any check can
    refuse it, and a soft limit of 1,024 is soon reached by a flood of them."""
    try:
        import resource
    except ImportError:  # not on this system
        return
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD = 128 * 1024


def _fixed_mmap_threshold() -> None:
    """Keep glibc's allocator giving big blocks (frames of up to MAX_FRAME, their decoded
    values) their own mappings, returned to the system when freed. By default glibc raises
    that threshold after the first such block is freed, and later ones come from the heap,
    which does not shrink: 200 refused 240 KB frames left the daemon 45 MB bigger for good
    (issue 15). Nothing happens where there is no glibc."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


_KINDS = frozenset(int(kind) for kind in Kind)


def _header_refusal(data: bytes) -> tuple[Refusal, str] | None:
    """A frame refused from its first bytes, before it is decoded: an array whose first item
    is another protocol version, or whose second (the kind) is not one of ours, each a
    small integer (a kind that was a 240 KB nested value cost milliseconds to decode and
    to describe). None: decode it (``wire.decode`` checks everything)."""
    if not data:
        return None
    head = data[0]
    start = 1 if 0x90 <= head <= 0x9F else 3 if head == 0xDC else 5 if head == 0xDD else 0
    if not start or len(data) < start + 2:
        return None
    version, kind = data[start], data[start + 1]
    if version >= 0x80:  # not a small integer: wire.decode says what it is
        return None
    if version != PROTOCOL_VERSION:
        return Refusal.FRAME_VERSION, (
            f"peer speaks protocol version {version}, we speak {PROTOCOL_VERSION}"
        )
    return None if kind in _KINDS else (Refusal.FRAME_MALFORMED, "unknown frame kind")


def _tcp(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    return f"tcp://{host}:{port}" if port else f"tcp://{host}:*"


def _parse_endpoint(endpoint: str) -> tuple[str, int] | None:
    """``tcp://HOST:PORT`` -> (HOST, PORT), or None."""
    host, sep, port = endpoint.removeprefix("tcp://").rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


@dataclass
class _Link:
    """Our DEALER to one peer, connected to each address we know for it."""

    key: bytes
    dealer: zmq.asyncio.Socket
    sync: zmq.Socket[bytes]  # the same socket, for sends that never wait on the loop
    monitor: zmq.asyncio.Socket
    endpoints: dict[str, tuple[str, int]] = field(default_factory=dict)
    up: set[str] = field(default_factory=set)  # endpoints with a completed handshake
    failures: dict[str, int] = field(default_factory=dict)
    redial: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    pending: deque[bytes] = field(default_factory=lambda: deque(maxlen=MAX_PENDING))
    greeted: bool = False  # our Hello went out on a live connection: send directly
    watch: asyncio.Task[None] | None = None
    guest: str = ""  # the guest's address while this answers a guest, else ""
    opened: float = 0.0  # when (time.monotonic) the guest link was opened
    used: float = 0.0  # when it was last dialled or sent to (least recently used)


def _bound_port(socket: zmq.asyncio.Socket) -> int:
    endpoint = socket.getsockopt_string(zmq.LAST_ENDPOINT)
    return int(endpoint.rsplit(":", 1)[1])


class Transport:
    """The daemon's peer sockets. Construct, then ``await start(host, port)``."""

    def __init__(
        self, identity: Identity, policy: Policy, on_frame: OnFrame, name: str = ""
    ) -> None:
        self.identity = identity
        self.name = name
        self.refusals = Refusals()
        self.refused: Counter[str] = self.refusals.counts  # by Refusal.value (status)
        self.last_seen: dict[bytes, float] = {}
        self.started_at: float | None = None  # time.monotonic() when start() bound the socket
        self._yielded_at = 0.0
        self._guest_frames = RateLimit(GUEST_FRAME_RATE, GUEST_FRAME_BURST)
        self._guest_address_frames = RateLimit(
            GUEST_ADDRESS_FRAME_RATE, GUEST_ADDRESS_FRAME_BURST, sources=1024
        )
        # curve key -> is it still a guest (not seated at any of our tables)? The daemon's
        # answer; frames from guests are rate-limited before they are decoded
        self.still_guest: Callable[[bytes], bool] = lambda curve_key: True
        # (peer key) a guest link was closed: the daemon forgets what it kept for that guest
        self.on_guest_closed: Callable[[bytes], None] = lambda key: None
        self._policy = policy
        self._on_frame = on_frame
        self._ctx: zmq.asyncio.Context | None = None
        self._router: zmq.asyncio.Socket | None = None
        self._beacon: zmq.asyncio.Socket | None = None
        self._links: dict[bytes, _Link] = {}  # peer key -> its DEALER and addresses
        self._stalled: set[bytes] = set()
        self._monitors = 0
        self.own = OwnAddresses()
        # (peer key, host, port) of each completed handshake: an address that works
        self.on_reached: Callable[[bytes, str, int], None] = lambda key, host, port: None
        # (table id, free seats, name, rules, private, flowers) of the tables we host, for
        # the beacon (an older daemon reads the first five and ignores the sixth)
        self.open_tables: Callable[[], list[tuple[bytes, int, str, str, bool, bool]]] = list
        self._tasks: list[asyncio.Task[None]] = []
        self._zap: ZapHandler | None = None
        self.host = ""
        self.port = 0
        self.beacon_port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> None:
        """Bind the peer socket (and the key beacon on ``port + 1``)."""
        self.started_at = time.monotonic()
        self._ctx = zmq.asyncio.Context()
        _raise_descriptor_limit()
        _fixed_mmap_threshold()
        self._zap = ZapHandler(self._policy, self.refusals)
        self._zap.start(self._ctx)
        router = self._ctx.socket(zmq.ROUTER)
        router.linger = 0
        router.curve_server = True
        router.curve_secretkey = self.identity.curve_secret_z85
        router.curve_publickey = self.identity.curve_public_z85
        router.zap_domain = ZAP_DOMAIN.encode()
        router.maxmsgsize = MAX_FRAME
        router.rcvhwm = PEER_RCVHWM
        router.sndhwm = PEER_RCVHWM  # nothing is sent on it (answers go on our dials)
        router.handshake_ivl = int(HANDSHAKE_S * 1000)
        router.heartbeat_ivl = ZMTP_HEARTBEAT_MS  # an incoming connection gone silent
        router.heartbeat_timeout = 4 * ZMTP_HEARTBEAT_MS  # (a guest that vanished) is closed
        self._router = router
        beacon = self._ctx.socket(zmq.ROUTER)
        beacon.linger = 0
        beacon.maxmsgsize = 64
        beacon.rcvhwm = beacon.sndhwm = BEACON_HWM
        self._beacon = beacon
        try:
            self._bind_pair(router, beacon, host, port)
        except zmq.ZMQError as error:
            await self.close()
            if error.errno == errno.EADDRINUSE:
                raise TransportError(port_in_use(host, port)) from None
            if error.errno in (errno.EADDRNOTAVAIL, errno.ENODEV):
                raise TransportError(
                    f"no network interface has the address {host}; check --interface"
                ) from None
            raise TransportError(f"cannot listen on {host}:{port}: {error}") from None
        self.host = host
        self._tasks.append(asyncio.create_task(self._receive(), name="peer-recv"))
        self._tasks.append(asyncio.create_task(self._serve_beacon(), name="beacon"))
        self._tasks.append(asyncio.create_task(self._heartbeats(), name="heartbeat"))
        self._tasks.append(asyncio.create_task(self._monitor(), name="monitor"))
        self._tasks.append(asyncio.create_task(self._sweep(), name="guest-sweep"))

    def _bind_pair(
        self, router: zmq.asyncio.Socket, beacon: zmq.asyncio.Socket, host: str, port: int
    ) -> None:
        """Bind the peer socket on ``port`` and the beacon on ``port + 1`` (port 0: any free
        pair, tried a bounded number of times)."""
        for attempt in range(20):
            router.bind(_tcp(host, port))
            bound = _bound_port(router)
            try:
                beacon.bind(_tcp(host, bound + 1))
            except zmq.ZMQError as error:
                if port or error.errno != errno.EADDRINUSE or attempt == 19:
                    raise
                router.unbind(router.getsockopt_string(zmq.LAST_ENDPOINT))
                continue
            self.port, self.beacon_port = bound, bound + 1
            return

    async def close(self) -> None:
        """Stop tasks, close every socket (linger 0) and destroy the context."""
        await cancel_and_wait(self._tasks)
        self._tasks.clear()
        for key in list(self._links):
            self._drop(key)
        for sock in (self._router, self._beacon):
            if sock is not None:
                sock.close(linger=0)
        self._router = self._beacon = None
        if self._zap is not None:
            await self._zap.close()
            self._zap = None
        if self._ctx is not None:
            self._ctx.destroy(linger=0)
            self._ctx = None

    # -- peers -----------------------------------------------------------------------------

    def connect(self, public_key: bytes, host: str, port: int) -> None:
        """Dial the peer with Ed25519 key ``public_key`` at ``host:port`` too (its other
        known addresses stay dialled: see ``dial``)."""
        link = self._links.get(public_key)
        known = [] if link is None else list(link.endpoints.values())
        if (host, port) not in known:
            self.dial(public_key, [(host, port), *known])
        elif link is None:
            self.dial(public_key, [(host, port)])

    def dial(self, public_key: bytes, addresses: Sequence[tuple[str, int]]) -> None:
        """Keep one DEALER to the peer connected to every address in ``addresses`` (and no
        other, but for one whose connection is up): ZeroMQ re-dials each on its own with
        backoff, a handshake the peer refused is re-dialled by ``_watch_link`` (0.1 s to
        5 s), and frames go only to connections whose handshake completed (ZMQ_IMMEDIATE),
        queued meanwhile (``_Link.pending``)."""
        assert self._ctx is not None, "start() first"
        link = self._links.get(public_key)
        if link is None:
            link = self._open_link(public_key)
        link.guest = ""  # a member's link (a guest that was admitted stays)
        wanted = {
            _tcp(host, port): (host, port)
            for host, port in addresses
            if port and not self._is_us(host, port)
        }
        for endpoint in [e for e in link.endpoints if e not in wanted and e not in link.up]:
            link.endpoints.pop(endpoint)
            link.up.discard(endpoint)
            with contextlib.suppress(zmq.ZMQError):
                link.dealer.disconnect(endpoint)
        for endpoint, where in wanted.items():
            if endpoint not in link.endpoints:
                link.endpoints[endpoint] = where
                try:
                    link.dealer.connect(endpoint)
                except zmq.ZMQError as error:
                    log.warning("cannot dial %s: %s", endpoint, error)
                    link.endpoints.pop(endpoint)

    def connect_guest(self, public_key: bytes, host: str, port: int) -> None:
        """Dial a guest (an unknown key pairing with us) at ``host:port``, so its pairing
        can be answered: one address a guest (its latest), bounded in number (GUEST_LINKS,
        GUEST_LINKS_PER_ADDRESS; the least recently used guest link is closed to make room,
        never a member's) and closed GUEST_LINK_S after it was opened unless ``dial`` made
        it a member's meanwhile (see ``_sweep``)."""
        now = time.monotonic()
        link = self._links.get(public_key)
        if link is not None and not link.guest:
            self.connect(public_key, host, port)  # already a member's: dialled as one
            return
        if link is None:
            guests = [g for g in self._links.values() if g.guest]
            same = [g for g in guests if g.guest == host]
            for full, pool in (
                (len(same) >= GUEST_LINKS_PER_ADDRESS, same),
                (len(guests) >= GUEST_LINKS, guests),
            ):
                if full:
                    oldest = min(pool, key=lambda g: g.used)
                    self._drop_guest(oldest.key, "least recently used, to make room")
                    guests = [g for g in self._links.values() if g.guest]
                    same = [g for g in guests if g.guest == host]
            if self._ctx is None:
                return
            link = self._open_link(public_key)
            link.opened = now
        link.guest = host
        link.used = now
        wanted = _tcp(host, port)
        if port and not self._is_us(host, port) and wanted not in link.endpoints:
            for endpoint in list(link.endpoints):  # one address a guest
                link.endpoints.pop(endpoint)
                link.up.discard(endpoint)
                with contextlib.suppress(zmq.ZMQError):
                    link.dealer.disconnect(endpoint)
            link.endpoints[wanted] = (host, port)
            try:
                link.dealer.connect(wanted)
            except zmq.ZMQError as error:
                log.warning("cannot dial %s: %s", wanted, truncate(str(error)))
                link.endpoints.pop(wanted)

    def admitted(self, public_key: bytes) -> None:
        """The guest ``public_key`` was seated: its link is a member's from now on."""
        link = self._links.get(public_key)
        if link is not None:
            link.guest = ""

    def _drop_guest(self, public_key: bytes, why: str) -> None:
        log.debug("closing the connection to guest %s: %s", public_key.hex()[:8], why)
        self._drop(public_key)
        self.on_guest_closed(public_key)

    async def _sweep(self) -> None:
        """Every SWEEP_S: close guest links older than GUEST_LINK_S (a guest that has not
        been admitted by then is not pairing), and forget ``last_seen`` of keys we hold no
        link to and have not heard from for SEEN_KEPT_S."""
        while True:
            await asyncio.sleep(SWEEP_S)
            self.sweep(time.monotonic())

    def sweep(self, now: float) -> None:
        for link in [g for g in self._links.values() if g.guest]:
            if now - link.opened >= GUEST_LINK_S:
                self._drop_guest(link.key, "its pairing time is over")
        linked = {curve_public_from_ed25519(key) for key in self._links}
        for curve_key, seen in list(self.last_seen.items()):
            if now - seen > SEEN_KEPT_S and curve_key not in linked:
                del self.last_seen[curve_key]

    def _is_us(self, host: str, port: int) -> bool:
        """Our own peer socket (a stale or wildcard address would dial ourselves)."""
        return port == self.port and (
            host in ("0.0.0.0", "::", self.host)
            or (host, port) in self.own.get(self.host, self.port)
        )

    def _open_link(self, public_key: bytes) -> _Link:
        assert self._ctx is not None
        dealer = self._ctx.socket(zmq.DEALER)
        dealer.linger = 0
        dealer.curve_serverkey = z85.encode(curve_public_from_ed25519(public_key))
        dealer.curve_publickey = self.identity.curve_public_z85
        dealer.curve_secretkey = self.identity.curve_secret_z85
        dealer.reconnect_ivl = 100
        dealer.reconnect_ivl_max = 2000
        dealer.connect_timeout = CONNECT_TIMEOUT_MS
        dealer.heartbeat_ivl = ZMTP_HEARTBEAT_MS  # a silently dead connection
        dealer.heartbeat_timeout = 4 * ZMTP_HEARTBEAT_MS  # (link cut, address moved)
        dealer.immediate = True  # is closed and re-dialled
        dealer.sndhwm = LINK_SNDHWM
        dealer.rcvhwm = 1  # peers never send on our dial: nothing may pile up
        dealer.maxmsgsize = DEALER_MAX_IN  # (a frame over this closes that connection)
        monitor = self._monitor_socket(dealer, LINK_EVENTS)
        sync: zmq.Socket[bytes] = zmq.Socket.shadow(dealer.underlying)
        link = _Link(public_key, dealer, sync, monitor)
        self._links[public_key] = link
        link.watch = asyncio.create_task(self._watch_link(link), name="link-watch")
        return link

    def _monitor_socket(self, sock: zmq.asyncio.Socket, events: int) -> zmq.asyncio.Socket:
        """A monitor of ``sock`` that is read for as long as it is enabled: libzmq's I/O
        thread sends each event while holding the socket's monitor lock, so an unread,
        full (or closed) monitor once blocked it for good, and with it every later call on
        that socket (the local API stopped answering and SIGTERM was ignored). The reading
        end takes any number of events (no high-water mark) and is closed only after
        ``disable_monitor``."""
        assert self._ctx is not None
        self._monitors += 1
        address = f"inproc://fw-monitor-{id(self)}-{self._monitors}"
        sock.monitor(address, events)
        reader = self._ctx.socket(zmq.PAIR)
        reader.linger = 0
        reader.rcvhwm = 0
        reader.connect(address)
        return reader

    async def _watch_link(self, link: _Link) -> None:
        """Follow one link's connections: on each completed handshake say ``Hello`` and
        ``Reach``, send what was queued and report the address (``on_reached``); re-dial an
        address whose handshake failed, with backoff."""
        from zmq.utils.monitor import parse_monitor_message

        while True:
            event = parse_monitor_message(await link.monitor.recv_multipart())
            kind = zmq.Event(event["event"])
            endpoint = bytes(event["endpoint"]).decode("utf-8", "replace")
            if kind == zmq.Event.HANDSHAKE_SUCCEEDED:
                link.up.add(endpoint)
                link.failures.pop(endpoint, None)
                self._greet(link, 0)
                where = _parse_endpoint(endpoint)
                if where is not None:
                    self.on_reached(link.key, *where)
            else:
                link.up.discard(endpoint)
                if not link.up:
                    link.greeted = False  # queue again until the next handshake
                if kind != zmq.Event.DISCONNECTED:
                    self._refused_handshake(link, endpoint, kind)

    def _greet(self, link: _Link, attempt: int) -> None:
        """Say ``Hello`` and ``Reach`` on a new connection, then send what was queued. The
        connection may take a moment to be usable after its handshake event: retried every
        GREET_RETRY_S while it is up."""
        if self._links.get(link.key) is not link or not link.up:
            return
        hello = encode(Hello(self.identity.public_key, self.name, self.port))
        if not self._send_now(link, hello, quiet=True):
            if attempt < GREET_ATTEMPTS:
                asyncio.get_running_loop().call_later(GREET_RETRY_S, self._greet, link, attempt + 1)
            return
        link.greeted = True
        self._send_now(link, encode(Reach(self.own.get(self.host, self.port))), quiet=True)
        self._flush(link)

    def _flush(self, link: _Link) -> None:
        while link.pending and self._send_now(link, link.pending[0]):
            link.pending.popleft()

    def _refused_handshake(self, link: _Link, endpoint: str, kind: zmq.Event) -> None:
        """A handshake the peer refused (it had not pinned us yet, e.g. a roster still on
        its way; or another daemon answers there now) may end that connection for good:
        re-dial it after 0.1 s, doubling up to 5 s."""
        failures = link.failures.get(endpoint, 0) + 1
        link.failures[endpoint] = failures
        delay = min(0.1 * 2 ** (failures - 1), REDIAL_MAX_S)
        if failures & (failures - 1) == 0:  # the 1st, 2nd, 4th, 8th... time
            log.info(
                "handshake with %s refused (%s, %d times); re-dialling in %.1f s",
                endpoint.removeprefix("tcp://"),
                kind.name,
                failures,
                delay,
            )
        if endpoint in link.redial or endpoint not in link.endpoints:
            return
        loop = asyncio.get_running_loop()
        link.redial[endpoint] = loop.call_later(delay, self._redial, link, endpoint)

    def _redial(self, link: _Link, endpoint: str) -> None:
        link.redial.pop(endpoint, None)
        if self._links.get(link.key) is not link or endpoint not in link.endpoints:
            return
        with contextlib.suppress(zmq.ZMQError):
            link.dealer.disconnect(endpoint)
        with contextlib.suppress(zmq.ZMQError):
            link.dealer.connect(endpoint)

    def _drop(self, public_key: bytes) -> None:
        link = self._links.pop(public_key, None)
        if link is None:
            return
        for handle in link.redial.values():
            handle.cancel()
        if link.watch is not None and link.watch is not asyncio.current_task():
            link.watch.cancel()
        with contextlib.suppress(zmq.ZMQError):
            link.dealer.disable_monitor()  # first: the monitor is still read until now
        link.monitor.close(linger=0)
        link.dealer.close(linger=0)

    def disconnect(self, public_key: bytes) -> None:
        self._drop(public_key)

    def connected(self) -> dict[bytes, tuple[str, int]]:
        """Each peer we dial, with the address of a live connection (else the first)."""
        out = {}
        for key, link in self._links.items():
            live = [link.endpoints[e] for e in link.up if e in link.endpoints]
            first = next(iter(link.endpoints.values()), ("", 0))
            out[key] = live[0] if live else first
        return out

    def send(self, public_key: bytes, frame: Frame) -> bool:
        """Queue ``frame`` to a peer; False (logged) when it cannot be queued."""
        return self.send_raw(public_key, encode(frame))

    def send_raw(self, public_key: bytes, data: bytes, queue: bool = True) -> bool:
        """Send to a peer without blocking. While no connection to it has completed its
        handshake the frame waits in the link's queue (``queue``; bounded: catch-up fills
        what falls out), sent after our next ``Hello`` there."""
        if len(data) > MAX_FRAME:  # the peer would drop our connection for it
            log.error(
                "a frame of %d bytes to %s is over the %d limit; not sent",
                len(data),
                public_key.hex()[:8],
                MAX_FRAME,
            )
            return False
        link = self._links.get(public_key)
        if link is None:
            log.debug("no connection to %s; frame dropped", public_key.hex()[:8])
            return False
        if link.guest:
            link.used = time.monotonic()
        if link.greeted:
            self._flush(link)
            if not link.pending and self._send_now(link, data):
                return True
        if queue and not link.greeted:
            link.pending.append(data)
        return False

    def _send_now(self, link: _Link, data: bytes, quiet: bool = False) -> bool:
        try:
            link.sync.send(data, flags=zmq.NOBLOCK)
        except zmq.Again:
            if not quiet and link.greeted and link.key not in self._stalled:  # once per stall
                self._stalled.add(link.key)
                log.warning(
                    "cannot queue frames to %s (queue full); dropping them until "
                    "it drains, catch-up will resend",
                    link.key.hex()[:8],
                )
            return False
        except zmq.ZMQError as error:
            log.warning("cannot send to %s: %s", link.key.hex()[:8], error)
            return False
        self._stalled.discard(link.key)
        return True

    def heard_since_start(self, curve_key: bytes) -> bool:
        """Whether ``curve_key`` was heard at all since this daemon started."""
        return curve_key in self.last_seen

    def alive(
        self, curve_key: bytes, now: float | None = None, within: float = 4 * HEARTBEAT_S
    ) -> bool:
        seen = self.last_seen.get(curve_key)
        return seen is not None and (now or time.monotonic()) - seen <= within

    async def fetch_key(self, host: str, port: int, timeout: float = 3.0) -> BeaconInfo:
        """Ask the key beacon at ``host:port + 1`` for the daemon's key, name and tables."""
        assert self._ctx is not None, "start() first"
        sock = self._ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.maxmsgsize = 1024
        sock.rcvhwm = sock.sndhwm = 1
        try:
            sock.connect(_tcp(host, port + 1))
            await sock.send(b"key?")
            if not await sock.poll(int(timeout * 1000)):
                raise TransportError(f"no fourwinds daemon answered at {host}:{port}")
            reply = unpack_strict(await sock.recv())
        except FrameError as error:
            raise TransportError(f"{host}:{port} answered nonsense ({error})") from None
        finally:
            sock.close(linger=0)
        if not (isinstance(reply, list) and reply and isinstance(reply[0], int)):
            raise TransportError(f"{host}:{port} is not a fourwinds daemon")
        if reply[0] != PROTOCOL_VERSION:
            raise TransportError(
                f"the daemon at {host}:{port} speaks protocol version {reply[0]}, we speak "
                f"{PROTOCOL_VERSION}; both players need the same fourwinds version"
            )
        try:
            _, key, name, tables = reply
            info = BeaconInfo(
                key,
                name,
                {bytes(t[0]): int(t[1]) for t in tables},
                {bytes(t[0]): (str(t[2]), str(t[3]), bool(t[4]), _flowers(t)) for t in tables},
            )
        except (ValueError, TypeError, IndexError):
            raise TransportError(f"{host}:{port} sent a malformed beacon answer") from None
        if not (isinstance(key, bytes) and len(key) == 32 and isinstance(name, str)):
            raise TransportError(f"{host}:{port} sent a malformed key")
        try:  # checked where it enters (docs/DAEMON.md, "Validation at the edges")
            checked_public_key(key)
        except BadKey as error:
            raise TransportError(f"{host}:{port} sent an {error.reason}") from None
        return BeaconInfo(
            key,
            peer_name(name),
            info.tables,
            {
                t: (peer_name(n, TABLE_NAME_LIMIT), peer_name(r, RULES_LIMIT), p, f)
                for t, (n, r, p, f) in info.details.items()
            },
        )

    # -- loops -----------------------------------------------------------------------------

    async def _receive(self) -> None:
        assert self._router is not None
        while True:
            await self._fair_share()
            frames = await self._router.recv_multipart(copy=False)
            if len(frames) != 2:
                self.refuse(Refusal.FRAME_PARTS, "?")
                continue
            message = frames[1]
            user = str(message.get("User-Id"))
            address = str(message.get("Peer-Address") or "?")
            try:
                curve_key = bytes.fromhex(user.split(":", 1)[1])
            except (ValueError, IndexError, AttributeError):
                self.refuse(Refusal.FRAME_NO_KEY, address)
                continue
            now = time.monotonic()
            self.last_seen[curve_key] = now
            guest = user.startswith(GUEST)
            if (
                guest
                and self.still_guest(curve_key)
                and not self._guest_may_send(curve_key, address, message.buffer.nbytes, now)
            ):
                self.refuse(Refusal.GUEST_RATE, address)
                continue
            sender = Sender(curve_key, guest, address)
            data = bytes(message.buffer)
            early = _header_refusal(data)
            if early is not None:  # refused from its first bytes: nothing decoded
                self.refuse(early[0], address, early[1])
                continue
            try:
                frame = decode(data)
            except VersionMismatch as error:
                self.refuse(Refusal.FRAME_VERSION, address, error.reason)
                continue
            except FrameError as error:
                self.refuse(Refusal.FRAME_MALFORMED, address, error.reason)
                continue
            if isinstance(frame, Heartbeat):
                continue
            try:
                await self._on_frame(sender, frame)
            except Refused as error:
                self.refuse(error.reason, address, error.detail)
            except FourwindsError as error:
                self.refuse(Refusal.HANDLER, address, str(error))
            except Exception:  # a bug must not kill the daemon; it is logged loudly
                log.exception("handler failed on a frame from %s", address)
                self.refused[Refusal.INTERNAL.value] += 1

    async def _fair_share(self) -> None:
        """Let the rest of the daemon (the local API, timers, the table) run when this loop
        has had the event loop for FAIR_SHARE_S: while frames are queued, each receive is
        ready at once and awaiting it never yields, so a flood of frames that are costly
        to refuse kept the local API from answering at all."""
        now = time.monotonic()
        if now - self._yielded_at >= FAIR_SHARE_S:
            await asyncio.sleep(0)
            self._yielded_at = time.monotonic()

    def _guest_may_send(self, curve_key: bytes, address: str, size: int, now: float) -> bool:
        """Within the rate limits on frames from keys not seated at our tables (per key and
        per address; a big frame costs more)?"""
        cost = 1.0 + size / GUEST_FRAME_UNIT
        return self._guest_address_frames.allow(address, now, cost) and self._guest_frames.allow(
            curve_key, now, cost
        )

    def refuse(self, reason: Refusal, address: str, detail: str = "") -> None:
        """Count a refused frame by its fixed ``reason``; log ``detail`` (truncated) at most
        once per address a minute (daemon/peers/refusals.py)."""
        self.refusals.note(reason, address, detail, time.monotonic())

    async def _monitor(self) -> None:
        """Log what libzmq drops before we see it: failed handshakes, oversized frames."""
        from zmq.utils.monitor import parse_monitor_message

        assert self._router is not None
        events = (
            zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | zmq.EVENT_DISCONNECTED
        )
        monitor = self._monitor_socket(self._router, events)
        try:
            while True:
                event = parse_monitor_message(await monitor.recv_multipart())
                kind = str(zmq.Event(event["event"]).name)
                reason = (
                    Refusal.SOCKET_CLOSED if kind == "DISCONNECTED" else Refusal.SOCKET_HANDSHAKE
                )
                self.refusals.note(reason, "peer socket", kind.lower(), time.monotonic())
        finally:
            with contextlib.suppress(zmq.ZMQError):
                self._router.disable_monitor()  # before its reader closes (see there)
            monitor.close(linger=0)

    async def _serve_beacon(self) -> None:
        assert self._beacon is not None
        while True:
            frames = await self._beacon.recv_multipart()
            if len(frames) == 2 and frames[1] == b"key?":
                tables = [list(entry) for entry in self.open_tables()[:16]]
                answer = msgpack.packb(
                    [PROTOCOL_VERSION, self.identity.public_key, self.name[:64], tables],
                    use_bin_type=True,
                )
                await self._beacon.send_multipart([frames[0], answer])

    async def _heartbeats(self) -> None:
        counter = 0
        while True:
            counter += 1
            beat = encode(Heartbeat(counter))
            for key in list(self._links):
                self.send_raw(key, beat, queue=False)
            await asyncio.sleep(HEARTBEAT_S)
