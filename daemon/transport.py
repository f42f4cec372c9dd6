"""Peer transport on pyzmq asyncio: one CURVE ROUTER in, one CURVE DEALER out per peer.

* Encryption: every peer connection is CURVE; our CURVE key is derived from our Ed25519
  identity, so pinning an identity key pins the transport key too.
* Authentication: our own ZAP handler (``ZapHandler``) asks ``policy(curve_key)`` for every
  incoming connection. The daemon's policy admits the pinned keys of its tables' seats, and
  unknown keys only as *guests* while it hosts a table with a free seat (guests may only say
  hello and pair). Everything refused is logged with the reason and counted in ``refused``.
* Limits: ZMQ_MAXMSGSIZE drops oversized frames at the socket; ``wire.decode`` caps the rest.
* Liveness: each DEALER sends a heartbeat every ``HEARTBEAT_S``; ``last_seen`` records when we
  last heard from each peer key, which is how the daemon knows who is alive (mDNS TTLs linger).
* Reconnects: ZeroMQ reconnects on its own with exponential backoff (RECONNECT_IVL..._MAX).
* The key beacon: a plain (unencrypted) ROUTER on ``port + 1`` answering only with our public
  identity key, so ``--peer HOST:PORT`` works without mDNS. The key it gives is an untrusted
  hint, like mDNS: trust comes from pinning on first join and from the pairing code.
* ``close`` closes every socket with linger 0 and destroys the context.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgpack
import zmq
import zmq.asyncio
from zmq.utils import z85

from fourwinds.daemon.identity import Identity, curve_public_from_ed25519
from fourwinds.daemon.port_owner import port_holder
from fourwinds.daemon.tasks import cancel_and_wait
from fourwinds.daemon.wire import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Frame,
    FrameError,
    Heartbeat,
    Hello,
    decode,
    encode,
    unpack_strict,
)
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

HEARTBEAT_S = 0.5
ZAP_ENDPOINT = "inproc://zeromq.zap.01"
ZAP_DOMAIN = "fourwinds"
GUEST = "guest:"
PINNED = "pinned:"


class TransportError(FourwindsError):
    """A transport problem the user can act on (port in use, no such interface...)."""


@dataclass(frozen=True)
class Sender:
    """Who sent a frame, as the transport authenticated it."""

    curve_key: bytes        # raw 32 bytes, proven by CURVE
    guest: bool             # admitted only to pair
    address: str            # peer IP address


@dataclass(frozen=True)
class BeaconInfo:
    """What a daemon's key beacon says: its key (a hint), name, and hosted tables' free seats."""

    public_key: bytes
    name: str
    tables: dict[bytes, int]                       # table id -> free seats
    details: dict[bytes, tuple[str, str, bool]]    # table id -> (name, rules, private)


Policy = Callable[[bytes], str | None]   # curve key -> "pinned:"/"guest:" or None (refused)
OnFrame = Callable[[Sender, Frame], Awaitable[None]]


class ZapHandler:
    """A ZAP (RFC 27) handler on the context, answering with ``policy``'s decision."""

    def __init__(self, policy: Policy, refused: Counter[str]) -> None:
        self.policy = policy
        self.refused = refused
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
        if mechanism != b"CURVE" or len(credentials) != 1 or len(credentials[0]) != 32:
            self._refuse(f"{peer}: not a CURVE connection")
            return [b"1.0", request_id, b"400", b"CURVE only", b"", b""]
        key = credentials[0]
        decision = self.policy(key)
        if decision is None:
            self._refuse(f"{peer}: unknown key {z85.encode(key).decode()[:8]}... "
                         "is not pinned to any of our tables")
            return [b"1.0", request_id, b"400", b"key not pinned", b"", b""]
        return [b"1.0", request_id, b"200", b"OK", (decision + key.hex()).encode(), b""]

    def _refuse(self, reason: str) -> None:
        log.warning("ZAP refused %s", reason)
        self.refused["zap: " + reason.split(": ", 1)[-1].split(" ")[0]] += 1

    async def close(self) -> None:
        await cancel_and_wait([self._task])
        if self._socket is not None:
            self._socket.close(linger=0)


def port_in_use(host: str, port: int) -> str:
    """The one-line error for a taken peer port (or its beacon port, ``port + 1``), naming
    the process that holds it when the system says (daemon/port_owner.py)."""
    for taken in (port, port + 1):
        holder = port_holder(taken)
        if holder is not None:
            return (f"port {taken} on {host} is in use by {holder}; stop it (`fourwinds stop` "
                    f"if it is your daemon) or choose another port with --port")
    return (f"port {port} or {port + 1} on {host} is in use (another fourwinds daemon?); "
            "choose another with --port")


def _tcp(host: str, port: int) -> str:
    return f"tcp://{host}:{port}" if port else f"tcp://{host}:*"


def _bound_port(socket: zmq.asyncio.Socket) -> int:
    endpoint = socket.getsockopt_string(zmq.LAST_ENDPOINT)
    return int(endpoint.rsplit(":", 1)[1])


class Transport:
    """The daemon's peer sockets. Construct, then ``await start(host, port)``."""

    def __init__(self, identity: Identity, policy: Policy, on_frame: OnFrame,
                 name: str = "") -> None:
        self.identity = identity
        self.name = name
        self.refused: Counter[str] = Counter()
        self.last_seen: dict[bytes, float] = {}
        self._policy = policy
        self._on_frame = on_frame
        self._ctx: zmq.asyncio.Context | None = None
        self._router: zmq.asyncio.Socket | None = None
        self._beacon: zmq.asyncio.Socket | None = None
        # DEALERs are plain (sync) sockets: we only ever send on them, without blocking.
        self._dealers: dict[bytes, tuple[zmq.Socket[bytes], str, int]] = {}
        self._owned: dict[bytes, zmq.asyncio.Socket] = {}
        self._stalled: set[bytes] = set()
        # (table id, free seats, name, rules, private) of the tables we host, for the beacon
        self.open_tables: Callable[[], list[tuple[bytes, int, str, str, bool]]] = list
        self._watch: dict[bytes, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._zap: ZapHandler | None = None
        self.host = ""
        self.port = 0
        self.beacon_port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> None:
        """Bind the peer socket (and the key beacon on ``port + 1``)."""
        self._ctx = zmq.asyncio.Context()
        self._zap = ZapHandler(self._policy, self.refused)
        self._zap.start(self._ctx)
        router = self._ctx.socket(zmq.ROUTER)
        router.linger = 0
        router.curve_server = True
        router.curve_secretkey = self.identity.curve_secret_z85
        router.curve_publickey = self.identity.curve_public_z85
        router.zap_domain = ZAP_DOMAIN.encode()
        router.maxmsgsize = MAX_FRAME
        router.rcvhwm = 10000
        self._router = router
        beacon = self._ctx.socket(zmq.ROUTER)
        beacon.linger = 0
        beacon.maxmsgsize = 64
        self._beacon = beacon
        try:
            self._bind_pair(router, beacon, host, port)
        except zmq.ZMQError as error:
            await self.close()
            if error.errno == errno.EADDRINUSE:
                raise TransportError(port_in_use(host, port)) from None
            if error.errno in (errno.EADDRNOTAVAIL, errno.ENODEV):
                raise TransportError(
                    f"no network interface has the address {host}; check --interface") from None
            raise TransportError(f"cannot listen on {host}:{port}: {error}") from None
        self.host = host
        self._tasks.append(asyncio.create_task(self._receive(), name="peer-recv"))
        self._tasks.append(asyncio.create_task(self._serve_beacon(), name="beacon"))
        self._tasks.append(asyncio.create_task(self._heartbeats(), name="heartbeat"))
        self._tasks.append(asyncio.create_task(self._monitor(), name="monitor"))

    def _bind_pair(self, router: zmq.asyncio.Socket, beacon: zmq.asyncio.Socket, host: str,
                   port: int) -> None:
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
        for key in list(self._dealers):
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

    def connect(self, public_key: bytes, host: str, port: int, failures: int = 0) -> None:
        """Open (or move) the DEALER to the peer with Ed25519 key ``public_key``.

        A handshake the peer refuses (it has not pinned us yet, e.g. a roster still on its
        way) ends a ZeroMQ connection for good, so a monitor re-dials with backoff.
        """
        assert self._ctx is not None, "start() first"
        current = self._dealers.get(public_key)
        if current is not None:
            if current[1:] == (host, port) and not failures:
                return
            self._drop(public_key)
        dealer = self._ctx.socket(zmq.DEALER)
        dealer.linger = 0
        dealer.curve_serverkey = z85.encode(curve_public_from_ed25519(public_key))
        dealer.curve_publickey = self.identity.curve_public_z85
        dealer.curve_secretkey = self.identity.curve_secret_z85
        dealer.reconnect_ivl = 100
        dealer.reconnect_ivl_max = 2000
        dealer.sndhwm = 10000
        dealer.maxmsgsize = MAX_FRAME
        monitor = dealer.get_monitor_socket(
            zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL)
        dealer.connect(_tcp(host, port))
        sync: zmq.Socket[bytes] = zmq.Socket.shadow(dealer.underlying)
        self._dealers[public_key] = (sync, host, port)
        self._owned[public_key] = dealer
        self._watch[public_key] = asyncio.create_task(
            self._watch_dealer(public_key, monitor, host, port, failures), name="dealer-watch")
        self.send(public_key, Hello(self.identity.public_key, self.name, self.port))

    async def _watch_dealer(self, key: bytes, monitor: zmq.asyncio.Socket, host: str,
                            port: int, failures: int) -> None:
        from zmq.utils.monitor import parse_monitor_message

        try:
            event = parse_monitor_message(await monitor.recv_multipart())
        finally:
            monitor.close(linger=0)
        delay = min(0.1 * 2 ** failures, 5.0)
        log.info("handshake with %s:%d refused (%s); re-dialling in %.1f s", host, port,
                 zmq.Event(event["event"]).name, delay)
        await asyncio.sleep(delay)
        if self._dealers.get(key, (None, "", 0))[1:] == (host, port):
            self._watch.pop(key, None)   # this task is the one being replaced
            self.connect(key, host, port, failures + 1)

    def _drop(self, public_key: bytes) -> None:
        self._dealers.pop(public_key, None)
        task = self._watch.pop(public_key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        dealer = self._owned.pop(public_key, None)
        if dealer is not None:
            dealer.disable_monitor()
            dealer.close(linger=0)

    def disconnect(self, public_key: bytes) -> None:
        self._drop(public_key)

    def connected(self) -> dict[bytes, tuple[str, int]]:
        return {key: (host, port) for key, (_, host, port) in self._dealers.items()}

    def send(self, public_key: bytes, frame: Frame) -> bool:
        """Queue ``frame`` to a peer; False (logged) when it cannot be queued."""
        return self.send_raw(public_key, encode(frame))

    def send_raw(self, public_key: bytes, data: bytes) -> bool:
        current = self._dealers.get(public_key)
        if current is None:
            log.debug("no connection to %s; frame dropped", public_key.hex()[:8])
            return False
        try:
            current[0].send(data, flags=zmq.NOBLOCK)
        except zmq.Again:
            if public_key not in self._stalled:   # once per stall, not once per frame
                self._stalled.add(public_key)
                log.warning("cannot queue frames to %s (not connected or queue full); "
                            "dropping them until it is back, catch-up will resend",
                            public_key.hex()[:8])
            return False
        self._stalled.discard(public_key)
        return True

    def alive(self, curve_key: bytes, now: float | None = None, within: float = 4 * HEARTBEAT_S
              ) -> bool:
        seen = self.last_seen.get(curve_key)
        return seen is not None and (now or time.monotonic()) - seen <= within

    async def fetch_key(self, host: str, port: int, timeout: float = 3.0) -> BeaconInfo:
        """Ask the key beacon at ``host:port + 1`` for the daemon's key, name and tables."""
        assert self._ctx is not None, "start() first"
        sock = self._ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.maxmsgsize = 1024
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
                f"{PROTOCOL_VERSION}; both players need the same fourwinds version")
        try:
            _, key, name, tables = reply
            info = BeaconInfo(key, name, {bytes(t[0]): int(t[1]) for t in tables},
                              {bytes(t[0]): (str(t[2]), str(t[3]), bool(t[4])) for t in tables})
        except (ValueError, TypeError, IndexError):
            raise TransportError(f"{host}:{port} sent a malformed beacon answer") from None
        if not (isinstance(key, bytes) and len(key) == 32 and isinstance(name, str)):
            raise TransportError(f"{host}:{port} sent a malformed key")
        return info

    # -- loops -----------------------------------------------------------------------------

    async def _receive(self) -> None:
        assert self._router is not None
        while True:
            frames = await self._router.recv_multipart(copy=False)
            if len(frames) != 2:
                self.refuse("frame: wrong number of parts", "?")
                continue
            message = frames[1]
            user = str(message.get("User-Id"))
            address = str(message.get("Peer-Address") or "?")
            try:
                curve_key = bytes.fromhex(user.split(":", 1)[1])
            except (ValueError, IndexError, AttributeError):
                self.refuse("frame: no authenticated key", address)
                continue
            self.last_seen[curve_key] = time.monotonic()
            sender = Sender(curve_key, user.startswith(GUEST), address)
            try:
                frame = decode(bytes(message.buffer))
            except FrameError as error:
                self.refuse(f"frame: {error.reason}", address)
                continue
            if isinstance(frame, Heartbeat):
                continue
            try:
                await self._on_frame(sender, frame)
            except FourwindsError as error:
                self.refuse(f"handler: {error}", address)
            except Exception:  # a bug must not kill the daemon; it is logged loudly
                log.exception("handler failed on a frame from %s", address)
                self.refused["handler: internal error"] += 1

    def refuse(self, reason: str, address: str) -> None:
        log.warning("refused a frame from %s: %s", address, reason)
        self.refused[reason.split(" (", 1)[0]] += 1

    async def _monitor(self) -> None:
        """Log what libzmq drops before we see it: failed handshakes, oversized frames."""
        from zmq.utils.monitor import parse_monitor_message

        assert self._router is not None
        events = (zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
                  | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_DISCONNECTED)
        monitor = self._router.get_monitor_socket(events)
        try:
            while True:
                event = parse_monitor_message(await monitor.recv_multipart())
                kind = str(zmq.Event(event["event"]).name)
                reason = ("connection closed (peer gone, or a frame over the size limit)"
                          if kind == "DISCONNECTED" else f"handshake failed ({kind.lower()})")
                log.info("peer socket: %s at %s", reason, event["endpoint"])
                self.refused[f"socket: {reason}"] += 1
        finally:
            monitor.close(linger=0)

    async def _serve_beacon(self) -> None:
        assert self._beacon is not None
        while True:
            frames = await self._beacon.recv_multipart()
            if len(frames) == 2 and frames[1] == b"key?":
                tables = [list(entry) for entry in self.open_tables()[:16]]
                answer = msgpack.packb([PROTOCOL_VERSION, self.identity.public_key,
                                        self.name[:64], tables], use_bin_type=True)
                await self._beacon.send_multipart([frames[0], answer])

    async def _heartbeats(self) -> None:
        counter = 0
        while True:
            counter += 1
            beat = encode(Heartbeat(counter))
            for key in list(self._dealers):
                self.send_raw(key, beat)
            await asyncio.sleep(HEARTBEAT_S)
