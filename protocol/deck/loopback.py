"""Four seats' decks wired together in memory: for tests, tutorials, replays and benchmarks.

``Loopback`` delivers every ``Send`` to its recipients (in order, breadth first) until no
message is left, and keeps each seat's state, events and inbox (everything it received). It
does no I/O: it only calls the decks' pure methods.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from fourwinds.protocol.seats import SEATS, Seat

from .deck import Deck
from .events import Event, Message, Output, Send

S = TypeVar("S")
Command = Callable[[Deck[S], S], tuple[S, tuple[Output, ...]]]


class Loopback(Generic[S]):
    """Four decks and their states; ``command`` runs a local command and delivers the rest."""

    def __init__(self, decks: Sequence[Deck[S]]) -> None:
        if [d.seat for d in decks] != list(SEATS):
            raise ValueError("one deck per seat, in seat order")
        self.decks = tuple(decks)
        self.events: list[list[Event]] = [[], [], [], []]
        self.inbox: list[list[Message]] = [[], [], [], []]
        self.states: list[S] = []
        pending: list[tuple[Seat, tuple[Output, ...]]] = []
        for deck in self.decks:
            state, out = deck.start()
            self.states.append(state)
            pending.append((deck.seat, out))
        for seat, out in pending:
            self._deliver(seat, out)

    def command(self, seat: Seat, action: Command[S]) -> None:
        """Run one seat's local command (``lambda deck, state: deck.draw(state, ...)``)."""
        state, out = action(self.decks[seat], self.states[seat])
        self.states[seat] = state
        self._deliver(seat, out)

    def everyone(self, action: Command[S]) -> None:
        """The same public step on every seat (a deal, a draw, the audit): every seat applies
        it before any message it causes is delivered, as the table orders steps."""
        pending = []
        for seat in SEATS:
            state, out = action(self.decks[seat], self.states[seat])
            self.states[seat] = state
            pending.append((seat, out))
        for seat, out in pending:
            self._deliver(seat, out)

    def _deliver(self, seat: Seat, outputs: tuple[Output, ...]) -> None:
        queue: deque[tuple[Seat, Output]] = deque((seat, o) for o in outputs)
        while queue:
            origin, output = queue.popleft()
            if not isinstance(output, Send):
                self.events[origin].append(output)
                continue
            for target in output.to:
                self.inbox[target].append(output.message)
                state, more = self.decks[target].receive(self.states[target], output.message)
                self.states[target] = state
                queue.extend((target, o) for o in more)
