"""The two loops that keep our tables going between frames: ``ticker`` and ``syncer``.

Every ``TICK_S`` the ticker lets each table's session see the time (a timer's default, an
automatic answer, a countdown ending), once our seat may sign there again and has caught up
after a restart; the tournament's pieces tick with it. Every ``SYNC_S`` the syncer bounds
what a crash can lose of what we received (a sync of each record log), and asks every live
member for what we may have missed (anti-entropy: catch-up, a rebuild's heads, a resumed
seat's last number), refreshing the views.

Both reach the rest of the daemon only through ``TimersHost``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.transport import Transport
from fourwinds.daemon.peers.wire import CatchUp
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort

TICK_S = 0.05
SYNC_S = 1.0


class TimedSteps(Protocol):
    """The session's Steps carried out, and our seat held back (steps.py)."""

    def apply(
        self, rt: TableRuntime, step: Any, ours: bool = False, before: Any = None
    ) -> None: ...
    def settle(self, rt: TableRuntime, now: float) -> None: ...
    def signing_held(self, rt: TableRuntime, now: float) -> str: ...
    def reconnecting(self, rt: TableRuntime, now: float) -> bool: ...
    def caught_up(self, rt: TableRuntime, now: float) -> None: ...
    def ask_heads(self, rt: TableRuntime) -> None: ...


class TimedViews(Protocol):
    """Our frontends' views (local_api/views.py): refreshed, and a countdown's end shown."""

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None: ...
    def countdown_over(self, rt: TableRuntime, now: float) -> None: ...


class AsksPeers(Protocol):
    """The rebuilds (rebuilds.py): asking the members for heads and messages."""

    def ask_rebuild(self, rt: TableRuntime) -> None: ...
    def request_catchup(self, rt: TableRuntime, key: bytes) -> None: ...


class TimersHost(Protocol):
    """The daemon as the ticker and the syncer see it."""

    identity: Identity
    port: SessionPort
    transport: Transport
    tables: dict[bytes, TableRuntime]

    @property
    def steps(self) -> TimedSteps: ...
    @property
    def views(self) -> TimedViews: ...
    @property
    def rebuilds(self) -> AsksPeers: ...

    def alive(self, key: bytes) -> bool: ...


async def ticker(d: TimersHost, also: Sequence[Callable[[float], None]]) -> None:
    """Tick every table every TICK_S, then each of ``also`` (the tournament's pieces)."""
    while True:
        await asyncio.sleep(TICK_S)
        now = time.monotonic()
        _tick_tables(d, now)
        for tick in also:
            tick(now)


def _tick_tables(d: TimersHost, now: float) -> None:
    """One tick of every table. A function of its own, not the ticker's loop: a loop
    variable in that long-lived coroutine would keep the last table ticked, and its whole
    session, alive after the daemon dropped it."""
    for rt in list(d.tables.values()):
        if rt.seq_check is not None:
            if d.steps.signing_held(rt, now):
                continue
            d.steps.settle(rt, now)
        if rt.catching_up is not None:
            if d.steps.reconnecting(rt, now):
                continue  # our timers wait: the window starts again after it
            d.steps.caught_up(rt, now)
        d.views.countdown_over(rt, now)
        if rt.session is not None:
            step = d.port.tick(rt.session, now)
            if step.persist or step.outgoing or step.events:
                d.steps.apply(rt, step)


async def syncer(d: TimersHost) -> None:
    """Anti-entropy: ask every live member for what we may have missed; refresh views."""
    while True:
        await asyncio.sleep(SYNC_S)
        _sync_tables(d)


def _sync_tables(d: TimersHost) -> None:
    """One anti-entropy round over every table (a function of its own: see _tick_tables)."""
    for rt in list(d.tables.values()):
        rt.sync_soon()  # bound what a crash can lose of what we received
        if rt.rebuild is not None:
            d.rebuilds.ask_rebuild(rt)
            d.views.publish_view(rt, [])
            continue
        if rt.session is None:
            if rt.log is not None and rt.joiner is None and d.alive(rt.host_key):
                d.transport.send(rt.host_key, CatchUp(rt.table_id, 0, -1))
            continue
        d.steps.ask_heads(rt)
        for key in rt.members:
            if key != d.identity.public_key and d.alive(key):
                d.rebuilds.request_catchup(rt, key)
        d.views.publish_view(rt, [])
