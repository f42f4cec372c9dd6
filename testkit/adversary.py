"""A hostile peer for the tests and `scripts/bench adversary`: speaks the daemon protocol
(daemon/peers/wire.py) at real daemons on loopback, from a loopback address of its own.

* ``Stranger``: a guest with a key of its own (random unless given): CURVE handshake, Hello,
  then whatever frames it is told to send: pairing with a wrong code, floods, oversized and
  nested frames. It binds its connections to ``SOURCE`` (127.0.0.2, still loopback), so the
  daemon tells it apart from the friends on 127.0.0.1 by address, as it would on a LAN.
* ``seat_hostile_member``: a stranger that takes a free seat of a public table (pairing with
  an empty SPAKE2 message), a seated member from then on, which can send table messages.
* ``Gauge``: a daemon process's resident memory, open descriptors and log size, read from
  /proc and its data folder; ``Gauge.sampling`` follows the resident memory while an attack
  runs (its peak).

Only loopback addresses are ever targets (``target`` refuses anything else).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import resource
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgpack
import zmq
from spake2 import SPAKE2_A
from zmq.utils import z85

from fourwinds.daemon.peers.identity import Identity, curve_public_from_ed25519
from fourwinds.daemon.peers.wire import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Hello,
    PairConfirm,
    PairStart,
    TableMessage,
    encode,
)
from fourwinds.protocol.codes import normalize_code

SOURCE = "127.0.0.2"
CLOSED_PORT = 9  # the discard port: nothing listens there on a test machine


def target(host: str) -> str:
    """``host`` when it is a loopback address; refuses anything else (no test or bench
    ever attacks a machine but this one)."""
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"the adversary only targets loopback addresses, not {host}")
    return host


def raise_fd_limit(wanted: int = 8192) -> None:
    """Room for hundreds of connections in the attacking process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def new_identity() -> Identity:
    return Identity.generate(os.urandom(32))


class Stranger:
    """One hostile key with one connection to a daemon's peer socket."""

    def __init__(
        self,
        ctx: zmq.Context[zmq.Socket[bytes]],
        daemon_key: bytes,
        port: int,
        *,
        host: str = "127.0.0.1",
        identity: Identity | None = None,
        source: str = SOURCE,
    ) -> None:
        self.identity = identity or new_identity()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.sndhwm = 100_000
        sock.curve_serverkey = z85.encode(curve_public_from_ed25519(daemon_key))
        sock.curve_publickey = self.identity.curve_public_z85
        sock.curve_secretkey = self.identity.curve_secret_z85
        sock.connect(f"tcp://{target(source)}:0;{target(host)}:{port}")
        self.sock = sock

    def send(self, data: bytes) -> bool:
        """Send without ever waiting (a refused handshake leaves no connection to queue
        on); False when the frame could not be queued."""
        try:
            self.sock.send(data, flags=zmq.NOBLOCK)
        except zmq.Again:
            return False
        return True

    def hello(self, port: int = CLOSED_PORT, name: str = "mallory") -> bool:
        """Say Hello with our key and a peer port the daemon will dial back."""
        return self.send(encode(Hello(self.identity.public_key, name, port)))

    def wrong_code(self, table_id: bytes, code: str = "AAAAAA") -> None:
        """Pair with a private table using a wrong code: a real SPAKE2 start, then a
        confirmation that cannot match (the host counts one wrong code)."""
        spake = SPAKE2_A(normalize_code(code), idA=self.identity.public_key, idB=b"?")
        self.send(encode(PairStart(table_id, spake.start())))
        self.send(encode(PairConfirm(table_id, os.urandom(32))))

    def take_seat(self, table_id: bytes) -> None:
        """Ask for a free seat at a public table (empty SPAKE2 message)."""
        self.send(encode(PairStart(table_id, b"")))

    def table_message(self, table_id: bytes, payload: bytes) -> None:
        self.send(encode(TableMessage(table_id, payload)))

    def close(self) -> None:
        self.sock.close(0)


NESTED_SIZE = MAX_FRAME - 2048
"""The biggest nested frame within the peer socket's limit (``wire.MAX_FRAME``)."""
OVERSIZED = 240_000
"""The nested frames of issue 15: within the 256 KiB limit of then, over today's."""


def nested_frame(size: int = NESTED_SIZE, in_field: bool = False) -> bytes:
    """A frame whose kind is a big nested value (~``size`` bytes; by default within every
    size limit): its text once became the refusal's reason (a counter key and a log line
    each). ``in_field``: the nested value is a table message's table id instead (a known
    kind: the whole frame is decoded before it is refused)."""
    word = os.urandom(3).hex()
    inner = [word] * 200
    value = [inner] * max(1, size // (len(msgpack.packb(inner)) + 1))
    frame = [PROTOCOL_VERSION, 3, value, b""] if in_field else [PROTOCOL_VERSION, value]
    data: bytes = msgpack.packb(frame, use_bin_type=True)
    return data


def odd_kind_frame(n: int) -> bytes:
    """A small frame of an unknown kind named ``n``: each one's reason text was new."""
    data: bytes = msgpack.packb(
        [PROTOCOL_VERSION, f"kind-{n}-{os.urandom(4).hex()}"], use_bin_type=True
    )
    return data


def garbage_table_messages(table_id: bytes, count: int) -> list[bytes]:
    """Table messages whose signed payload is garbage (each a problem for the session)."""
    return [
        encode(TableMessage(table_id, b"\xc1garbage" + n.to_bytes(4, "big"))) for n in range(count)
    ]


def flood(
    strangers: list[Stranger], frames: list[bytes], pause_every: int = 200, pause_s: float = 0.005
) -> int:
    """Send each frame from the strangers in turn; the number sent."""
    sent = 0
    for n, data in enumerate(frames):
        sent += strangers[n % len(strangers)].send(data)
        if pause_every and (n + 1) % pause_every == 0:
            # sleep-ok: the flood's own pace (a pause every few hundred frames), not a wait
            time.sleep(pause_s)
    return sent


def connection_storm(
    ctx: zmq.Context[zmq.Socket[bytes]],
    daemon_key: bytes,
    port: int,
    keys: int = 400,
    batch: int = 50,
    on_batch: Callable[[], None] | None = None,
) -> int:
    """``keys`` random CURVE keys each connect and send one Hello naming a port where
    nothing listens (so the daemon's dial-back never gets anywhere), in batches; the
    number of Hellos sent. Each batch's connections are held for a moment (``on_batch``
    is called then), then closed."""
    sent = 0
    for start in range(0, keys, batch):
        group = [Stranger(ctx, daemon_key, port) for _ in range(min(batch, keys - start))]
        for stranger in group:
            sent += stranger.hello()
        # sleep-ok: the batch stays connected a while, for the daemon to see it at once
        time.sleep(0.3)
        if on_batch is not None:
            on_batch()
        for stranger in group:
            stranger.close()
    return sent


@dataclass(frozen=True)
class Reading:
    rss_mb: float
    fds: int
    log_bytes: int


class Gauge:
    """A daemon process's resources: resident memory (VmRSS), open descriptors, and the
    size of its log files (``stderr.log`` and its rotated copies in its data folder)."""

    def __init__(self, pid: int, data_dir: Path, log_name: str = "stderr.log") -> None:
        self.pid = pid
        self.data_dir = data_dir
        self.log_name = log_name

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def peak_mb(self) -> float:
        """The most resident memory the process has had since it started (VmHWM)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def log_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.data_dir.glob(self.log_name + "*"))

    def read(self) -> Reading:
        return Reading(round(self.rss_mb(), 1), self.fds(), self.log_bytes())

    def sampling(self, every_s: float = 0.05) -> RssSampler:
        """A sampler of this process's resident memory (start it, then ``stop()``)."""
        return RssSampler(self, every_s)

    def fds_back(self, start: int, timeout: float, slack: int = 4) -> float | None:
        """Seconds until the open descriptors are back within ``slack`` of ``start``, or
        None if not within ``timeout``."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            if self.fds() <= start + slack:
                return time.monotonic() - began
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.25)
        return None


class RssSampler:
    """Samples a process's resident memory (VmRSS) every ``every_s`` in a thread of its own
    while an attack runs, so its peak is seen, not only the figures before and after (the
    kernel's own VmHWM is the peak since the process started, which its start may hold)."""

    def __init__(self, gauge: Gauge, every_s: float) -> None:
        self.gauge = gauge
        self.every_s = every_s
        self.samples: list[float] = []
        self._running = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="rss-sampler", daemon=True)

    def start(self) -> RssSampler:
        self.samples.append(self.gauge.rss_mb())
        self._running.set()
        self._thread.start()
        return self

    def _sample(self) -> None:
        while self._running.is_set():
            with contextlib.suppress(OSError, ValueError):
                self.samples.append(self.gauge.rss_mb())
            # sleep-ok: the memory sampler's interval
            time.sleep(self.every_s)

    def stop(self) -> float:
        """Stop sampling; the peak resident memory seen, in MB."""
        self._running.clear()
        self._thread.join()
        with contextlib.suppress(OSError, ValueError):
            self.samples.append(self.gauge.rss_mb())
        return max(self.samples)
