"""The largest frames and views of a real match (issue 21 item 3): what the socket bounds in
daemon/peers/wire.py and daemon/local_api/server.py must leave room for.

A match of four built-in bots is played through the real table session
(``protocol.table.machine.harness``, the code the daemon's ``real_session`` wraps), fair deck by
default. Every message a seat sends, and every message a catch-up answer can carry (the same
signed messages, one frame each: ``frames_in._catch_up``), is measured as the peer frame it
travels in (``wire.encode(TableMessage(...))``); the Open, which travels the same way, too.
Each seat's view (``real_session.seat_view``, the heart of a local API ``view`` event) is
measured at every ``view_every``-th step and at every hand's end.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgpack

from fourwinds.daemon.peers.wire import TableMessage, encode
from fourwinds.daemon.table_runtimes import real_session
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, open_harness, run
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.machine.state import Phase, Step

TABLE_ID = bytes(16)


@dataclass(frozen=True)
class Sizes:
    """What one match sent at most: bytes of the largest peer frame (and of the Open), of the
    largest view, and of seat 0's transcript at the end (the local API's ``transcript``
    reply, its biggest message)."""

    rules: str
    hands: int
    messages: int
    largest_frame: int
    open_frame: int
    largest_view: int
    transcript: int
    completed: bool


def frame_of(payload: bytes) -> int:
    """Bytes of the peer frame that carries ``payload``."""
    return len(encode(TableMessage(TABLE_ID, payload)))


class _Measuring(Harness):
    """A harness that measures each seat's view as its session moves on."""

    view_every: int = 25
    largest_view: int = 0
    _taken: int = 0

    def take(self, place: Seat, step: Step) -> None:
        super().take(place, step)
        self._taken += 1
        phase = step.session.phase
        if self._taken % self.view_every == 0 or phase in (Phase.HAND_END, Phase.OVER):
            view = real_session.seat_view(step.session)
            self.largest_view = max(self.largest_view, len(msgpack.packb(view, use_bin_type=True)))


def measure(
    rules: str, hands: int, rules_text: str = "", seed: bytes = b"frame sizes", view_every: int = 25
) -> Sizes:
    """Play a ``hands``-hand match of ``rules`` (fair deck) and measure it."""
    base = open_harness(rules, seed, rules_text=rules_text, options=TableOptions(hands=hands))
    h = _Measuring(base.seed, base.sessions, base.records, base.queue)
    h.view_every = view_every
    frames: list[int] = []

    def measured(place: Seat, payload: bytes) -> list[bytes]:
        frames.append(frame_of(payload))
        return [payload]

    h.intercept = measured
    open_payload = base.records[0][0] if base.records[0] else b""
    opened = frame_of(_open_message(h, open_payload))
    run(h)
    return Sizes(
        rules,
        hands,
        len(frames),
        max([opened, *frames]),
        opened,
        h.largest_view,
        len(real_session.transcript(h.sessions[0])),
        all(s.phase is Phase.OVER for s in h.sessions),
    )


def _open_message(h: Harness, first_record: bytes) -> bytes:
    """The table's Open as it is sent (seat 0's first message: a catch-up answer from seq
    -1 starts with it)."""
    sent = real_session.messages_since(h.sessions[0], int(SEATS[0]), -1)
    return sent[0] if sent else first_record
