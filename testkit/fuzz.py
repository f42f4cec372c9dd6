"""Fuzzed frames at a daemon's two doors, for the tests and `scripts/bench daemon_fuzz`.

* ``peer_socket``: two transports on loopback (B pins A's key); A sends ``n`` malformed frames
  (random bytes, msgpack of wrong shapes, a valid frame with a bit flipped, truncated frames,
  huge declared lengths, reserved bytes) to B's peer socket, then one frame over the maximum
  size, then a valid message.
* ``local_api``: one in-process daemon; ``n`` junk requests (random bytes and msgpack of wrong
  shapes, types, names and tables) on its local API, each answered before the next, then one
  request over the maximum size.

Each returns what happened (frames sent, refused, delivered, what changed) and decides
nothing: the tests assert on it, the bench reports it and judges its target from it. Both are
bounded in time (every wait has a deadline).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import zmq
import zmq.asyncio

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api import requests
from fourwinds.daemon.local_api.server import API_VERSION, MAX_REQUEST
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.transport import PINNED, Sender, Transport
from fourwinds.daemon.peers.wire import MAX_FRAME, Frame, TableMessage, decode, encode
from fourwinds.daemon.table_runtimes.session_port import SessionModule
from testkit.waiting import async_within

LOOPBACK = "127.0.0.1"
PEER_SEED = 7
API_SEED = 11


def seeded_identity(seed: int) -> Identity:
    """A daemon identity that is the same on every run."""
    return Identity.generate(random.Random(seed).randbytes(32))


async def _wait(predicate: Any, timeout: float, step: float = 0.02) -> bool:
    return await async_within(predicate, timeout, step)


def settle_s(n: int) -> float:
    """How long the receiver is given to count ``n`` frames: 15 s, and 2 ms more for each
    frame past 2,000 (the long run's 100,000 on a busy machine)."""
    return 15.0 + max(0, n - 2000) * 0.002


def peer_frames(rng: random.Random, n: int) -> list[bytes]:
    """``n`` malformed peer frames, six kinds in turn."""
    valid = encode(TableMessage(b"t" * 16, b"payload"))
    frames: list[bytes] = []
    for i in range(n):
        choice = i % 6
        if choice == 0:
            frames.append(rng.randbytes(rng.randrange(0, 300)))
        elif choice == 1:  # valid msgpack, wrong shapes and types
            frames.append(
                msgpack.packb(
                    rng.choice(
                        [
                            [1, 3, "str", 5],
                            [1, 99],
                            {"a": 1},
                            [1, 1, b"short", "n", 7],
                            [True, 1],
                            [1, 3, b"t" * 16],
                            [1, 2, -5],
                            [1, 4, b"t" * 16, 9, 0],
                            None,
                            3.5,
                        ]
                    ),
                    use_bin_type=True,
                )
            )
        elif choice == 2:  # a valid frame with bytes flipped
            data = bytearray(valid)
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            frames.append(bytes(data))
        elif choice == 3:  # truncated
            frames.append(valid[: rng.randrange(len(valid))])
        elif choice == 4:  # nested / huge declared lengths
            frames.append(b"\xdd\xff\xff\xff\xff" + rng.randbytes(8))
        else:
            frames.append(b"\xc1" + rng.randbytes(10))
    return frames


def api_requests(rng: random.Random, n: int, table: str) -> list[bytes]:
    """``n`` junk local API requests: a third random bytes, the rest msgpack of wrong shapes
    (``table`` is a real table's id, so some requests name it)."""
    shapes: list[Any] = [
        [1, 2, 3],
        "text",
        5,
        None,
        {"v": 99, "type": "status"},
        {"v": 1},
        {"v": 1, "type": 7},
        {"v": 1, "type": "nonsense"},
        {"v": 1, "type": "act"},
        {"v": 1, "type": "act", "table": table, "action": "fly"},
        {"v": 1, "type": "act", "table": table, "action": ["x"] * 50},
        {"v": 1, "type": "join", "table": "ff" * 16},
        {"v": 1, "type": "leave", "table": 3},
        {"v": 1, "type": "create", "name": "x" * 500},
        {"v": 1, "type": "create", "name": ""},
        {"v": 1, "type": "create", "name": "y", "rules": "poker"},
        {"v": 1, "type": "view", "table": "nope"},
    ]
    out = []
    for i in range(n):
        if i % 3 == 0:
            out.append(rng.randbytes(rng.randrange(1, 200)))
        else:
            out.append(msgpack.packb(rng.choice(shapes), use_bin_type=True))
    return out


@dataclass(frozen=True)
class PeerFuzz:
    """What ``peer_socket`` saw at B."""

    sent: int  # malformed frames A sent
    decodable: int  # of them, how many decode as a frame (may reach the handler)
    refused: int  # refused by B with a reason (its ``frame:`` counts)
    delivered: int  # reached B's handler
    only_table_messages: bool  # everything delivered was a table message
    oversized_refused: bool  # the frame over MAX_FRAME was refused at the socket
    link_after: bool  # a valid message still arrived afterwards
    seconds: float  # sending the frames until B had counted them all

    @property
    def all_accounted(self) -> bool:
        """Every frame was refused with a reason or (decodable) delivered."""
        return self.refused + self.delivered >= self.sent


async def peer_socket(n: int, seed: int = PEER_SEED) -> PeerFuzz:
    """Send ``n`` malformed frames, one oversized frame and one valid message from A to B."""
    a_id, b_id = seeded_identity(1), seeded_identity(2)
    got: list[tuple[Sender, Frame]] = []

    async def on_a(sender: Sender, frame: Frame) -> None:
        return None

    async def on_b(sender: Sender, frame: Frame) -> None:
        got.append((sender, frame))

    a = Transport(a_id, lambda key: PINNED, on_a, "A")
    b = Transport(b_id, lambda key: PINNED, on_b, "B")
    await a.start(LOOPBACK, 0)
    await b.start(LOOPBACK, 0)
    try:
        a.connect(b_id.public_key, LOOPBACK, b.port)
        if not await _wait(lambda: len(got) >= 2, 5.0):  # Hello and Reach
            raise RuntimeError("the two transports never greeted each other")
        got.clear()
        frames = peer_frames(random.Random(seed), n)
        decodable = 0
        for data in frames:
            try:
                decode(data)
                decodable += 1
            except Exception:
                pass

        def refused() -> int:
            return sum(v for k, v in b.refused.items() if k.startswith("frame:"))

        started = time.perf_counter()
        for sent, data in enumerate(frames, 1):
            for _ in range(500):  # bounded: the queue drains within seconds
                if a.send_raw(b_id.public_key, data):
                    break
                # sleep-ok: retry interval while the socket's queue drains (bounded: 500 tries)
                await asyncio.sleep(0.01)
            else:
                raise RuntimeError("the peer socket stopped taking frames")
            if sent % 500 == 0:
                # sleep-ok: sleep(0) yields, so the receiver reads during the flood
                await asyncio.sleep(0)
        await _wait(lambda: refused() + len(got) >= n, settle_s(n))
        seconds = time.perf_counter() - started
        counted, delivered = refused(), len(got)
        only_table = all(isinstance(frame, TableMessage) for _, frame in got)
        # past send_raw, which refuses to send it: straight onto the link's socket
        a._links[b_id.public_key].sync.send(b"\x00" * (MAX_FRAME + 1))
        oversized = await _wait(lambda: any(k.startswith("socket:") for k in b.refused), 5.0)
        before = len(got)
        a.send(b_id.public_key, TableMessage(b"t" * 16, b"after"))  # ZeroMQ reconnects
        link_after = await _wait(lambda: len(got) > before, 8.0)
        return PeerFuzz(
            n, decodable, counted, delivered, only_table, oversized, link_after, seconds
        )
    finally:
        await a.close()
        await b.close()


@dataclass(frozen=True)
class ApiFuzz:
    """What ``local_api`` saw at the daemon."""

    sent: int  # junk requests sent
    refused_replies: int  # answered ok: false with an error
    counted: int  # the API server's refusal counts
    view_unchanged: bool  # the table's view is the same afterwards
    tables_unchanged: bool  # no table was opened or closed
    seconds: float  # sending the requests until the last reply


async def local_api(base: Path, port: SessionModule, n: int, seed: int = API_SEED) -> ApiFuzz:
    """Open one table on a fresh daemon in ``base``, then send ``n`` junk requests and one
    oversized request to its local API."""
    data = base / "fuzz-api"
    daemon = Daemon(
        seeded_identity(100),
        Paths(data, data / "run"),
        port,
        name="fuzz",
        host=LOOPBACK,
        listen_port=0,
        mdns=False,
    )
    await daemon.start()
    try:
        made = await requests.handle(
            daemon, {"v": API_VERSION, "type": "create", "name": "quiet", "rules": "mcr"}
        )
        table = bytes.fromhex(made["table"])
        before = daemon.views.view_event(daemon.tables[table], [])["view"]
        ctx = zmq.asyncio.Context()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(daemon.api.endpoint)
        refused = 0
        started = time.perf_counter()
        try:
            for request in api_requests(random.Random(seed), n, made["table"]):
                await sock.send(request)
                reply = msgpack.unpackb(await asyncio.wait_for(sock.recv(), 10.0), raw=False)
                refused += reply.get("ok") is False and bool(reply.get("error"))
            seconds = time.perf_counter() - started
            await sock.send(b"\x00" * (MAX_REQUEST + 1))  # oversized: dropped by the socket
            await sock.send(msgpack.packb({"v": 1, "type": "status", "id": 1}))
        finally:
            sock.close(0)
            ctx.destroy(0)
        after = daemon.views.view_event(daemon.tables[table], [])["view"]
        names = [rt.name for rt in daemon.tables.values()]
        return ApiFuzz(
            n,
            refused,
            sum(daemon.api.refused.values()),
            after == before,
            names == ["quiet"],
            seconds,
        )
    finally:
        await daemon.close()
