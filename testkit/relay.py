"""A bad Wi-Fi link of the tests' own: a TCP relay that delays, stalls and resets what it carries.

The fault tests' machines have no ``sch_netem`` and no iptables, so a seat on a bad link
reaches the others only through this relay (``testkit/netns.py``: ``Lan.isolate`` cuts
the direct routes, the relay listens in the bridge's namespace). It runs as a process of its
own (``python -m testkit.relay CONFIG.json``), so its work never competes with the
test's threads for the interpreter. Every byte in either direction of every connection is
held ``delay ± jitter`` seconds (uniform, order kept); every so often (exponential intervals
of mean ``stall_every_s``) one live connection holds everything for ``stall_s``, and (mean
``reset_every_s``) one is reset (RST, both sides). Seeded: the same config gives the same
sequence of draws. On SIGTERM it writes its counts (connections, bytes, stalls, resets) as
JSON to ``stats`` and exits.

The config, JSON::

    {"seed": 1, "delay_s": 0.05, "jitter_s": 0.02, "stall_every_s": 8, "stall_s": 1.0,
     "reset_every_s": 15, "first_stall_s": null, "first_reset_s": null,
     "stats": "/tmp/.../relay.json",
     "routes": [{"listen": ["169.254.5.201", 7420], "target": ["169.254.5.1", 7420],
                 "source": {"*": "169.254.5.204"}}, ...]}

``source`` picks the address the relay dials the target from, by the address the incoming
connection came from (``"*"`` for any): the target then sees the connection come from the
relay address that leads back to the dialler, as a daemon that stores where its peers'
connections come from must (docs/DAEMON.md, "When a peer is unreachable or restarts").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import random
import signal
import socket
import struct
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHUNK = 65536


@dataclass(frozen=True)
class Route:
    """Connections to ``listen`` are relayed to ``target``, dialled from ``source[peer]``."""

    listen: tuple[str, int]
    target: tuple[str, int]
    source: dict[str, str]

    def source_for(self, peer: str) -> str | None:
        return self.source.get(peer, self.source.get("*"))


@dataclass(frozen=True)
class LinkSpec:
    """How bad the link is (the issue's Wi-Fi: 50 ms ± 20 ms, a 1 s stall or a reset now
    and then)."""

    delay_s: float = 0.05
    jitter_s: float = 0.02
    stall_every_s: float = 8.0
    stall_s: float = 1.0
    reset_every_s: float = 15.0
    first_stall_s: float | None = None  # the first of each at a set time (tests), else
    first_reset_s: float | None = None  # drawn like the others


@dataclass
class Pair:
    """One relayed connection: its two sockets' writers and when it may next deliver."""

    writers: tuple[asyncio.StreamWriter, asyncio.StreamWriter]
    held_until: float = 0.0
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class Relay:
    def __init__(self, routes: list[Route], link: LinkSpec, seed: int) -> None:
        self.routes = routes
        self.link = link
        self.random = random.Random(seed)
        self.pairs: list[Pair] = []
        self.counts: Counter[str] = Counter()
        self.servers: list[asyncio.Server] = []

    def delay(self) -> float:
        return max(
            0.0, self.link.delay_s + self.random.uniform(-self.link.jitter_s, self.link.jitter_s)
        )

    async def start(self) -> None:
        for route in self.routes:
            server = await asyncio.start_server(
                functools.partial(self._accept, route),
                route.listen[0],
                route.listen[1],
                reuse_address=True,
            )
            self.servers.append(server)

    async def _accept(
        self, route: Route, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        peer = str(writer.get_extra_info("peername")[0])
        source = route.source_for(peer)
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(
                    route.target[0], route.target[1], local_addr=(source, 0) if source else None
                ),
                5,
            )
        except (OSError, TimeoutError):
            self.counts["dial_failed"] += 1
            writer.close()
            return
        self.counts["connections"] += 1
        pair = Pair((writer, up_writer))
        self.pairs.append(pair)
        pair.tasks = [
            asyncio.create_task(self._pipe(pair, reader, up_writer, "up")),
            asyncio.create_task(self._pipe(pair, up_reader, writer, "down")),
        ]
        await asyncio.gather(*pair.tasks, return_exceptions=True)
        if pair in self.pairs:
            self.pairs.remove(pair)
        for w in pair.writers:
            w.close()

    async def _pipe(
        self, pair: Pair, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, way: str
    ) -> None:
        """Read as it comes, deliver each chunk after its delay, in order."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                while True:
                    wait = max(due, pair.held_until) - time.monotonic()
                    if wait <= 0:
                        break
                    # sleep-ok: holding a chunk until due is the latency it simulates
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()
                self.counts[f"bytes_{way}"] += len(data)

        sender = asyncio.create_task(deliver())
        last = 0.0
        try:
            while True:
                data = await reader.read(CHUNK)
                last = max(last, time.monotonic() + self.delay())
                await queue.put((last, data))
                if not data:
                    break
            await sender
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            for task in pair.tasks:
                if task is not asyncio.current_task():
                    task.cancel()

    async def trouble(self) -> None:
        """Now and then a stall of one connection, and a reset of one."""
        start, link = time.monotonic(), self.link
        next_stall = start + (
            link.first_stall_s
            if link.first_stall_s is not None
            else self.random.expovariate(1 / link.stall_every_s)
        )
        next_reset = start + (
            link.first_reset_s
            if link.first_reset_s is not None
            else self.random.expovariate(1 / link.reset_every_s)
        )
        while True:
            # sleep-ok: the tick of the relay's stall and reset clock
            await asyncio.sleep(0.05)
            now = time.monotonic()
            if now >= next_stall:
                next_stall = now + self.random.expovariate(1 / self.link.stall_every_s)
                if self.pairs:
                    pair = self.random.choice(self.pairs)
                    pair.held_until = now + self.link.stall_s
                    self.counts["stalls"] += 1
            if now >= next_reset:
                next_reset = now + self.random.expovariate(1 / self.link.reset_every_s)
                if self.pairs:
                    self._reset(self.random.choice(self.pairs))

    def _reset(self, pair: Pair) -> None:
        """Both sides see a reset connection (RST: SO_LINGER 0, then close)."""
        self.counts["resets"] += 1
        self.pairs.remove(pair)
        for w in pair.writers:
            sock = w.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            w.transport.abort()
        for task in pair.tasks:
            task.cancel()


def load(path: Path) -> tuple[list[Route], LinkSpec, int, Path]:
    config: dict[str, Any] = json.loads(path.read_text())
    routes = [
        Route(
            (str(r["listen"][0]), int(r["listen"][1])),
            (str(r["target"][0]), int(r["target"][1])),
            {str(k): str(v) for k, v in r.get("source", {}).items()},
        )
        for r in config["routes"]
    ]
    link = LinkSpec(
        **{
            k: float(config[k])
            for k in (
                "delay_s",
                "jitter_s",
                "stall_every_s",
                "stall_s",
                "reset_every_s",
                "first_stall_s",
                "first_reset_s",
            )
            if config.get(k) is not None
        }
    )
    return routes, link, int(config.get("seed", 0)), Path(config["stats"])


async def main(path: Path) -> None:
    routes, link, seed, stats = load(path)
    relay = Relay(routes, link, seed)
    await relay.start()
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, done.set)
    loop.add_signal_handler(signal.SIGINT, done.set)
    trouble = asyncio.create_task(relay.trouble())
    stats.write_text(json.dumps({"ready": True}))
    await done.wait()
    trouble.cancel()
    stats.write_text(json.dumps(dict(relay.counts)))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
