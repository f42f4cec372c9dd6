"""A venue evening of pure event sessions over a simulated network and clock (no daemon).

Each ``Node`` is one daemon's event session (protocol/tournament/session): its state, the
records it stored (its disk) and what it was told. ``Venue`` carries every Step a node's
outcome asks for to the node it names, as the daemon's frames would, in order, with a clock
it advances itself; a test may drop a frame on the way (``drop``), restart a node from what
it stored, or put a forged frame on the wire. Nothing here reads a clock or does I/O, so an
evening runs in a fraction of a second and the same way every time.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.records import (
    NONCE_LEN,
    Create,
    Deck,
    Entry,
    Length,
    Record,
    SeedSteps,
)
from fourwinds.protocol.tournament.seating import FillPolicy
from fourwinds.protocol.tournament.session import (
    CallIn,
    EnterIn,
    EventState,
    Input,
    Me,
    PeerBack,
    RecordsIn,
    SubmitIn,
    Tick,
    admit_frame,
    apply,
    opened,
)
from fourwinds.protocol.tournament.session.steps import (
    Ask,
    Note,
    OpenTables,
    Refuse,
    SendCall,
    SendRecords,
    Spread,
    Step,
    Store,
    Submit,
)
from fourwinds.protocol.tournament.signing import signed
from fourwinds.protocol.tournament.standings import Scoring

FRAME_RECORDS = 64  # records a simulated EventRecords frame carries at most
TICK_S = 0.5  # the simulated daemons' ticker
HOP_S = 0.002  # what a frame costs on the simulated network


def me_of(label: str) -> Me:
    """A node's identity, the same for the same label."""
    signer = SigningKey.from_seed(hashlib.sha256(label.encode()).digest())
    return Me(signer.public, signer, hashlib.sha256(b"nonces" + label.encode()).digest())


@dataclass
class Node:
    """One daemon's session of the event."""

    name: str
    me: Me
    state: EventState | None = None
    disk: list[Record] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # Refuse steps sent to this node
    notes: list[str] = field(default_factory=list)  # Note steps of its own
    opened_tables: int = 0  # OpenTables steps

    @property
    def held(self) -> EventState:
        assert self.state is not None
        return self.state


Frame = tuple[str, str, Input | Ask]  # (from, to, what)


@dataclass
class Venue:
    """Nodes by name and the frames in flight between them."""

    nodes: dict[str, Node] = field(default_factory=dict)
    now: float = 0.0
    wire: deque[Frame] = field(default_factory=deque)
    drop: Callable[[str, str, Input | Ask], bool] = lambda sender, to, what: False
    frames: int = 0

    def node(self, name: str) -> Node:
        self.nodes[name] = Node(name, me_of(name))
        return self.nodes[name]

    def by_key(self, key: bytes) -> Node:
        return next(n for n in self.nodes.values() if n.me.key == key)

    def create(self, director: str, rounds: int, private: bool = False) -> Node:
        """``director`` creates an MCR event (seeds made ahead, bots fill a table)."""
        node = self.node(director)
        body = Create(
            node.me.key,
            "club night",
            "mcr",
            rounds,
            Length.HANDS,
            1,
            FillPolicy.BOTS,
            Scoring("mcr"),
            False,
            private,
            False,
            Deck.FAIR,
            b"\x07" * NONCE_LEN,
            SeedSteps.AHEAD,
        )
        first = signed(body, node.me.signer)
        node.disk.append(first)
        node.state = opened([first], node.me, "K7QX3M" if private else None)
        return node

    def enter(self, name: str, director: Node, code: str = "") -> Node:
        """``name`` opens the event from the director's creation and sends its entry."""
        node = self.node(name)
        node.disk.append(director.disk[0])
        node.state = opened([director.disk[0]], node.me)
        entry = signed(Entry(node.held.event, node.me.key, name), node.me.signer)
        self.send(name, director.name, EnterIn(node.me.key, code, entry))
        return node

    # -- the wire ------------------------------------------------------------------------

    def send(self, sender: str, to: str, what: Input | Ask) -> None:
        if not self.drop(sender, to, what):
            self.wire.append((sender, to, what))

    def give(self, name: str, what: Input) -> None:
        """``what`` into ``name``'s session now, and its steps performed."""
        node = self.nodes[name]
        outcome = apply(node.held, what, self.now)
        node.state = outcome.state
        for step in outcome.steps:
            self.perform(node, step)

    def perform(self, node: Node, step: Step) -> None:
        """One step, as the daemon performs it (steps no simulated peer needs are let be)."""
        perform = self._performers.get(type(step))
        if perform is not None:
            perform(node, step)

    @property
    def _performers(self) -> dict[type, Callable[[Node, Any], None]]:
        def to(key: bytes) -> str:
            return self.by_key(key).name

        return {
            Store: lambda node, step: node.disk.extend(step.records),
            SendRecords: lambda node, step: self._records(node, step.to, step.start),
            Spread: lambda node, step: self._spread(node, step.start),
            Ask: lambda node, step: self.send(node.name, to(step.to), step),
            Submit: lambda node, step: self.send(
                node.name, to(step.to), SubmitIn(node.me.key, step.record)
            ),
            SendCall: lambda node, step: self.send(
                node.name, to(step.to), CallIn(node.me.key, step.round)
            ),
            Refuse: lambda node, step: self.by_key(step.to).refusals.append(step.reason),
            Note: lambda node, step: node.notes.append(step.text),
            OpenTables: lambda node, step: setattr(node, "opened_tables", node.opened_tables + 1),
        }

    def _spread(self, node: Node, start: int) -> None:
        for key in node.held.entrants:
            if key != node.me.key:
                self._records(node, key, start)

    def _records(self, node: Node, to: bytes, start: int) -> None:
        chunk = tuple(node.held.held.records[start : start + FRAME_RECORDS])
        if chunk:
            target = self.by_key(to).name
            self.send(node.name, target, RecordsIn(node.me.key, start, chunk))

    def deliver(self) -> None:
        """Every frame in flight, and those they lead to, until the wire is quiet."""
        while self.wire:
            sender, to, what = self.wire.popleft()
            self.frames += 1
            self.now += HOP_S
            node = self.nodes[to]
            if isinstance(what, Ask):
                self._records(node, self.nodes[sender].me.key, what.have)
                continue
            state = node.held
            kind = _FRAME_KINDS[type(what)]
            key = self.nodes[sender].me.key
            guest = not state.member(key) and kind == "EventEnter"
            admit_frame(kind, key, guest, state.director, state.entrants)
            self.give(to, what)

    def tick(self, seconds: float) -> None:
        """Let ``seconds`` pass: every node ticks each TICK_S, the wire emptied between."""
        end = self.now + seconds
        while self.now < end:
            self.now += TICK_S
            for name in list(self.nodes):
                if self.nodes[name].state is not None:
                    self.give(name, Tick())
            self.deliver()

    def restart(self, name: str) -> None:
        """``name``'s daemon dies and starts again from what it stored (its code kept), and
        says hello to every peer, which say hello back."""
        node = self.nodes[name]
        code = node.held.code
        node.state = opened(node.disk, node.me, code)
        for other in self.nodes.values():
            if other is not node and other.state is not None:
                self.give(other.name, PeerBack(node.me.key))
                self.give(name, PeerBack(other.me.key))
        self.deliver()


_FRAME_KINDS: dict[type, str] = {
    RecordsIn: "EventRecords",
    SubmitIn: "EventSubmit",
    EnterIn: "EventEnter",
    CallIn: "EventCall",
}
