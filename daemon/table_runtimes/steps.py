"""Carrying out the session's Steps at our tables: ``TableSteps``.

A peer's message (``receive``), our player's action (``act``) and every other Step (a tick,
an automatic answer held until now) end in ``apply``: ``TableRuntime.apply`` persists its
records, adopts its session and hands its messages to the syncer (sent once durable), and
the view our frontends need is published at the right moment (before the sends after a
peer's message, after them after our own). A resumed seat signs nothing until the others
confirmed its last message number (``signing_held``, own_seq.py), and our player's view says
so while it catches up after a restart (``reconnecting``, catching_up.py).

``TableSteps`` reaches the rest of the daemon only through ``StepsHost``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any, Protocol

from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.transport import Transport
from fourwinds.daemon.peers.wire import AskHeads, TableMessage
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort
from fourwinds.protocol.errors import LocalProtocolError

log = logging.getLogger("fourwinds.daemon.app")
"""Named as the daemon's own lines were before these moved out of daemon/app.py: the log
reads the same (its format names the logger)."""

PEERS_FIRST_S = 0.002
"""After sending our own action, our daemon waits this long before its own bookkeeping (taking
the action into its session, its view, the reply to the frontend). On a machine that hosts
several seats' daemons (a venue laptop with bot seats; the benchmarks' two cores) the peers
then get the CPU to apply the action first; on a machine of its own it costs the table
nothing, since the peers' answers take longer than this to come back (and a message that
does arrive meanwhile is handled at once, settling our step with it). Measured: action latency
p50 5.8 -> 5.4-5.5 ms over about 630 discards a run (docs/DAEMON.md)."""


def _let_others_run() -> None:
    """Yield the CPU to any other process waiting for it (``sched_yield``; nothing happens
    when none waits, or where the system lacks it). Called once a peer's message is
    applied: the rest (our automatic reply, the view for our frontend) can wait a moment,
    while on a machine that hosts several daemons (a venue laptop running bot seats, the
    benchmarks' two cores) the other seats' daemons are still waiting to apply the same
    message. Measured: action latency p50 from 6.4-7.4 ms to 5.2-5.9 ms (docs/DAEMON.md)."""
    if _SCHED_YIELD is not None:
        _SCHED_YIELD()


_SCHED_YIELD = getattr(os, "sched_yield", None)


class PublishesViews(Protocol):
    """Our frontends' views (local_api/views.py): a step shows there."""

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None: ...


class StepsHost(Protocol):
    """The daemon as ``TableSteps`` sees it."""

    identity: Identity
    port: SessionPort
    transport: Transport
    tables: dict[bytes, TableRuntime]

    @property
    def views(self) -> PublishesViews: ...

    def alive(self, key: bytes) -> bool: ...


class TableSteps:
    """Performs the session's Steps at our tables, and holds our seat back while it must."""

    def __init__(self, host: StepsHost) -> None:
        self.d = host

    def apply(self, rt: TableRuntime, step: Any, ours: bool = False, before: Any = None) -> None:
        """Carry out a session Step. After a peer's message, a view our frontend needs now
        (the table waits for us, or moved to a new step) is built and sent as soon as the new
        session is adopted, before the fsync and the sends to peers: it goes to our own
        player only. After our own action (``ours``) the peers come first: the view is
        queued for the publisher, after the sends and the reply to the request. ``before``:
        a step already carried out (see ``receive``) whose events this view also shows."""
        earlier = () if before is None else before.events
        changed = bool(
            step.events
            or step.outgoing
            or step.persist
            or earlier
            or (before is not None and (before.outgoing or before.persist))
        )
        events = [repr(e) for e in (*earlier, *step.events)]
        at_once = changed and not ours
        rt.apply(
            self.d.port,
            step,
            self.d.identity.public_key,
            lambda key, payload: self.send_payload(rt, key, payload),
            adopted=(lambda: self.d.views.publish_view(rt, events, at_once=True))
            if at_once
            else None,
        )
        if changed and ours:
            self.d.views.publish_view(rt, events)

    def receive(self, rt: TableRuntime, payload: bytes, now: float) -> None:
        """A peer's session message: applied and adopted first (``applied_at``: the table's
        latency counts to here), then our automatic reply (an auto-pass, a dice message) is
        made, sent and shown: one view, built after the reply, so its legal actions never
        offer what was already answered. In between, other processes waiting for this CPU
        go first (``_let_others_run``)."""
        first = self.d.port.apply_message(rt.session, payload, now)
        rt.apply(
            self.d.port,
            first,
            self.d.identity.public_key,
            lambda key, data: self.send_payload(rt, key, data),
        )
        if self.signing_held(rt, now):  # our automatic answers wait (own_seq.py)
            self.d.views.publish_view(rt, [repr(e) for e in first.events], at_once=True)
            return
        _let_others_run()
        self.apply(rt, self.d.port.settle(rt.session, now), before=first)

    async def act(self, rt: TableRuntime, action: object, now: float) -> None:
        """Our player's action: the signed message goes to the peers (after the fsync)
        before our own session takes it in: the peers' wait does not include our
        bookkeeping, which also gives them a head start of PEERS_FIRST_S (see there).
        ``FourwindsError`` when it is refused."""
        held = self.signing_held(rt, now)
        if held:
            raise LocalProtocolError(f"not yet: {held}")
        if self.reconnecting(rt, now):
            raise LocalProtocolError("not yet: catching up with the other seats after a restart")
        self.apply(rt, self.d.port.send_action(rt.session, action, now), ours=True)
        rt.refuse_if_paused()  # not written (a full disk), so not sent: the player is told
        await rt.drained()  # the message has left (after its fsync, off the loop)...
        await asyncio.sleep(PEERS_FIRST_S)  # ...then the peers get their head start
        self.apply(rt, self.d.port.settle(rt.session, time.monotonic()), ours=True)

    def send_payload(self, rt: TableRuntime, key: bytes, payload: bytes) -> None:
        """Send the seat ``key`` a session message of ``rt`` (once it is durable: apply)."""
        self.d.transport.send(key, TableMessage(rt.table_id, payload))

    def settle(self, rt: TableRuntime, now: float) -> None:
        """Make what is due at ``rt`` (our automatic answers held while signing was)."""
        settle = self.d.port.settle
        if settle is not None and rt.session is not None:
            self.apply(rt, settle(rt.session, now))

    def ask_heads(self, rt: TableRuntime) -> None:
        """Ask the live members our check still waits for for the last message number of
        ours they hold (own_seq.py); their ``Heads`` go to ``Resumes.own_seq_heard``."""
        if rt.seq_check is not None:
            for key in rt.seq_check.waiting:
                if self.d.alive(key):
                    self.d.transport.send(key, AskHeads(rt.table_id))

    def signing_held(self, rt: TableRuntime, now: float) -> str:
        """Why our seat may not sign at ``rt`` yet, or "" (the check is then over)."""
        check = rt.seq_check
        if check is None or rt.session is None:
            return ""
        why = check.holds(self.d.port.last_seq(rt.session, check.place), now)
        if not why:
            rt.seq_check = None
            log.info(
                "table %s: resumed; the other seats confirmed our last message number",
                rt.table_hex[:8],
            )
        return why

    def reconnecting(self, rt: TableRuntime, now: float) -> bool:
        """Is ``rt`` still catching up after our restart (daemon/table_runtimes/catching_up.py)? Our
        player's view then says so instead of the stale table, with no actions."""
        work = rt.catching_up
        if work is None or rt.session is None:
            return False
        check = rt.seq_check
        if check is not None and check.holds(self.d.port.last_seq(rt.session, check.place), now):
            return True
        highest = self.d.port.highest_seq or self.d.port.last_seq
        return work.behind([int(highest(rt.session, seat)) for seat in range(4)], now)

    def caught_up(self, rt: TableRuntime, now: float) -> None:
        """The catch-up after our restart is over: our player is back at the table now."""
        rt.catching_up = None
        log.info("table %s: caught up with the other seats after the restart", rt.table_hex[:8])
        self.seat_returned(rt, now)
        self.d.views.publish_view(rt, [], at_once=True)

    def seat_returned(self, rt: TableRuntime, now: float) -> None:
        """Our player is back at ``rt`` (a frontend subscribed, or we caught up after a
        restart): the window in front of our seat starts again, once per step
        (protocol/table/machine/returning.py). Not while we are still catching up: that ends with
        the same call, on the table as it is then."""
        returned = self.d.port.seat_returned
        if returned is None or rt.session is None or rt.catching_up is not None:
            return
        session = returned(rt.session, now)
        if session is not rt.session:
            rt.session = session
            log.info("table %s: our player is back: our window starts again", rt.table_hex[:8])

    def player_returned(self) -> None:
        """A frontend subscribed: our player is back at every table of ours."""
        now = time.monotonic()
        for rt in self.d.tables.values():
            self.seat_returned(rt, now)
